/**
 * Import kinds `scaffold` and `scaffold-alignments`: detected by content, stored as a
 * versioned scaffold and alignment events (people through imported annotators, judges as imported
 * judges), refused with file/line/field on bad input, exported and imported back unchanged; a
 * person's scaffold edit makes a new version and the old alignments stay on the old one.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../../electron/core/index';
import { runImport } from '../../../electron/core/imports/run';
import { exportScaffolds } from '../../../electron/core/export/scaffold';
import { ImportValidationError, type ImportProblem } from '../../../shared/formats/types';
import { writeJsonl } from '../../helpers/project';
import { tempDir } from '../../helpers/tmp';
import { B4_DATASET, b4Alignments, b4Project, b4Scaffold, b4Summaries } from '../../helpers/scaffold-b4';

async function refusal(promise: Promise<unknown>): Promise<ImportProblem[]> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ImportValidationError) return err.problems;
    throw err;
  }
  throw new Error('the import was not refused');
}

describe('scaffold and scaffold-alignments imports', () => {
  it('detects both kinds and stores one scaffold version with its items and every alignment', async () => {
    const { core, repo, path, scaffold, alignments } = await b4Project();
    expect(scaffold.kind).toBe('scaffold');
    expect(alignments.kind).toBe('scaffold-alignments');
    const documentKey = repo.corpus.documentKey(B4_DATASET, 'camera')!;
    const current = repo.scaffold.currentScaffold(documentKey)!;
    expect(current).toMatchObject({ version: 1, source: 'imported', maker: 'gpt-4.1', makerVersion: 'app-g-v1' });
    expect(repo.scaffold.content(current.id)).toEqual({
      facts: b4Scaffold().facts,
      questions: b4Scaffold().questions,
      entities: b4Scaffold().entities,
    });
    const db = new Database(path, { readonly: true });
    const counts = db
      .prepare(
        'SELECT (judge_id IS NULL) AS human, count(*) AS n FROM scaffold_alignment_events GROUP BY human ORDER BY human',
      )
      .all();
    const annotator = db.prepare("SELECT kind FROM annotators WHERE name = 'rater'").pluck().get();
    const judge = db.prepare("SELECT kind FROM judges WHERE name = 'gpt-4.1'").pluck().get();
    db.close();
    // Per source: 7 + 4 + 9 items for each of the two summaries.
    expect(counts).toEqual([
      { human: 0, n: 40 },
      { human: 1, n: 40 },
    ]);
    expect(annotator).toBe('imported');
    expect(judge).toBe('imported');
    core.close();
  });

  it('importing the same files again adds nothing', async () => {
    const { core, run } = await b4Project();
    const again = await run('scaffold.jsonl', [b4Scaffold()]);
    const alignments = await run('alignments.jsonl', [
      ...b4Alignments('judge:gpt-4.1'),
      ...b4Alignments('human:rater'),
    ]);
    expect(again.scaffold).toEqual({ scaffolds: 0, alignments: 0 });
    expect(alignments.scaffold).toEqual({ scaffolds: 0, alignments: 0 });
    core.close();
  });

  it('an imported label set is read-only: a person cannot write as it outside an import', async () => {
    const { core, repo } = await b4Project();
    const summaryKey = repo.corpus.summaryKey(B4_DATASET, 'camera-gpt-4o')!;
    const scaffold = repo.scaffold.currentScaffold(repo.corpus.documentKey(B4_DATASET, 'camera')!)!;
    const item = repo.scaffold.items(scaffold.id)[0]!;
    const rater = repo.annotator('rater')!;
    expect(() =>
      repo.scaffold.recordAlignment({
        itemId: item.id,
        summaryKey,
        annotatorId: rater.id,
        judgeId: null,
        configHash: null,
        value: 'missing',
        sentences: [],
        timeSpentMs: null,
        cause: 'annotate',
        importKey: null,
        importId: null,
      }),
    ).toThrow(/read-only/);
    // A value of another item kind is refused by the schema too.
    const person = repo.ensureAnnotator('ana', 'person');
    expect(() =>
      repo.scaffold.recordAlignment({
        itemId: item.id,
        summaryKey,
        annotatorId: person.id,
        judgeId: null,
        configHash: null,
        value: 'answered',
        sentences: [],
        timeSpentMs: null,
        cause: 'annotate',
        importKey: null,
        importId: null,
      }),
    ).toThrow(/does not fit/);
    core.close();
  });

  it('an edit makes version 2; the alignments given on version 1 stay on version 1', async () => {
    const { core, repo, path } = await b4Project();
    const documentKey = repo.corpus.documentKey(B4_DATASET, 'camera')!;
    const v1 = repo.scaffold.currentScaffold(documentKey)!;
    const old = repo.scaffold.content(v1.id);
    const editor = repo.ensureAnnotator('ana', 'person');
    // Drop S3, retier M4 to supporting, add a question.
    const v2Id = repo.scaffold.editScaffold(v1.id, {
      content: {
        facts: old.facts
          .filter((f) => f.id !== 'S3')
          .map((f) => (f.id === 'M4' ? { ...f, tier: 'supporting' as const } : f)),
        questions: [
          ...old.questions,
          { id: 'Q5', text: 'Can access be changed later?', answer: 'Yes, at any time.', tier: 'supporting' },
        ],
        entities: old.entities,
      },
      editorId: editor.id,
      note: 'M4 is a detail',
    });
    const v2 = repo.scaffold.currentScaffold(documentKey)!;
    expect(v2).toMatchObject({ id: v2Id, version: 2, source: 'person', basedOnId: v1.id, createdBy: 'ana' });
    expect(repo.scaffold.versions(documentKey).map((v) => v.version)).toEqual([1, 2]);
    const v2Items = repo.scaffold.items(v2Id);
    const v1Items = new Map(repo.scaffold.items(v1.id).map((i) => [i.key, i]));
    expect(v2Items.find((i) => i.key === 'M4')).toMatchObject({
      tier: 'supporting',
      fromItemId: v1Items.get('M4')!.id,
    });
    expect(v2Items.find((i) => i.key === 'Q5')!.fromItemId).toBeNull();
    expect(v2Items.some((i) => i.key === 'S3')).toBe(false);
    // Every stored alignment is still on a version-1 item.
    const db = new Database(path, { readonly: true });
    const versions = db
      .prepare(
        'SELECT DISTINCT sc.version FROM scaffold_alignment_events e JOIN scaffold_items i ON i.id = e.item_id JOIN scaffolds sc ON sc.id = i.scaffold_id',
      )
      .pluck()
      .all();
    db.close();
    expect(versions).toEqual([1]);
    // An edit must keep a main fact.
    expect(() =>
      repo.scaffold.editScaffold(v2Id, {
        content: { ...old, facts: old.facts.map((f) => ({ ...f, tier: 'supporting' as const })) },
        editorId: editor.id,
        note: null,
      }),
    ).toThrow(/main fact/);
    core.close();
  });

  it('exports both kinds as JSON Lines that import back into a new project unchanged', async () => {
    const { core, repo } = await b4Project();
    const exported = exportScaffolds(repo);
    expect(exported.scaffolds.trim().split('\n')).toHaveLength(1);
    expect(exported.alignments.trim().split('\n')).toHaveLength(4);
    expect(exported.alignmentsOnOlderVersions).toBe(0);
    const dir = tempDir('loupe-scaffold-roundtrip-');
    const other = createCore({
      Database,
      stateDir: dir,
      demoDir: dir,
      host: 'electron',
      fileDialogs: false,
      diskPaths: true,
      canSwitchProjects: false,
    });
    other.createProject(join(dir, 'copy.loupe'));
    const copy = other.repository();
    await runImport(copy, { source: { type: 'path', path: writeJsonl(join(dir, 's.jsonl'), b4Summaries()) } });
    await runImport(copy, {
      source: { type: 'upload', name: 'scaffold.jsonl', text: exported.scaffolds },
      as: 'scaffold',
    });
    await runImport(copy, {
      source: { type: 'upload', name: 'alignments.jsonl', text: exported.alignments },
      as: 'scaffold-alignments',
    });
    expect(exportScaffolds(copy)).toEqual(exported);
    core.close();
    other.close();
  });

  it('after an edit, alignments on the old version are counted, not exported', async () => {
    const { core, repo } = await b4Project();
    const v1 = repo.scaffold.currentScaffold(repo.corpus.documentKey(B4_DATASET, 'camera')!)!;
    repo.scaffold.editScaffold(v1.id, {
      content: repo.scaffold.content(v1.id),
      editorId: null,
      note: 'same content, new version',
    });
    const exported = exportScaffolds(repo);
    expect(exported.alignments).toBe('');
    expect(exported.alignmentsOnOlderVersions).toBe(4);
    core.close();
  });
});

describe('bad input is refused with file, line and field', () => {
  it('a scaffold without main facts, duplicate ids and unknown values', async () => {
    const { core, run } = await b4Project();
    const base = b4Scaffold();
    const noMain = { ...base, doc_id: 'camera', facts: [{ id: 'S1', text: 'A detail.', tier: 'supporting' }] };
    const dupFact = { ...base, facts: [...(base.facts as object[]), { id: 'M1', text: 'Again.', tier: 'main' }] };
    const badTier = { ...base, facts: [{ id: 'M1', text: 'x', tier: 'central' }] };
    const dupAttribute = {
      ...base,
      entities: [
        { name: 'a', attributes: [{ id: 'x', text: 'one' }] },
        { name: 'b', attributes: [{ id: 'x', text: 'two' }] },
      ],
    };
    const problems = await refusal(run('bad-scaffold.jsonl', [noMain, dupFact, badTier, dupAttribute], 'scaffold'));
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          file: expect.stringContaining('bad-scaffold.jsonl'),
          line: 1,
          field: 'facts',
          expected: expect.stringContaining('main'),
        }),
        expect.objectContaining({ line: 2, field: 'facts.7.id', expected: expect.stringContaining('unique') }),
        expect.objectContaining({ line: 3, field: 'facts.0.tier' }),
        expect.objectContaining({ line: 4, field: 'entities.1.attributes.0.id' }),
      ]),
    );
    core.close();
  });

  it('an alignment naming an item the scaffold does not have, an unknown value, a duplicate line, a bad source', async () => {
    const { core, run } = await b4Project();
    const [first] = b4Alignments('judge:other');
    const unknownItem = { ...first, facts: { ...(first!.facts as object), M9: 'preserved' } };
    const problems = await refusal(run('bad-align.jsonl', [unknownItem], 'scaffold-alignments'));
    expect(problems).toEqual([
      expect.objectContaining({
        file: expect.stringContaining('bad-align.jsonl'),
        line: 1,
        field: 'facts.M9',
        found: '"M9"',
      }),
    ]);
    const unknownAttribute = { ...first, attributes: { nope: 'preserved' } };
    expect(await refusal(run('bad-attr.jsonl', [unknownAttribute], 'scaffold-alignments'))).toEqual([
      expect.objectContaining({ line: 1, field: 'attributes.nope' }),
    ]);
    const badValue = { ...first, questions: { Q1: 'partial' } };
    const badSource = { ...first, source: 'robot:x' };
    const shapeProblems = await refusal(
      run('bad-values.jsonl', [badValue, first, first, badSource], 'scaffold-alignments'),
    );
    expect(shapeProblems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ line: 1, field: 'questions.Q1' }),
        expect.objectContaining({
          line: 3,
          field: 'source',
          expected: expect.stringContaining('one line per summary and source'),
        }),
        expect.objectContaining({ line: 4, field: 'source' }),
      ]),
    );
    const pastEnd = { ...first, fact_sentences: { M2: [5] } };
    expect(await refusal(run('bad-sentence.jsonl', [pastEnd], 'scaffold-alignments'))).toEqual([
      expect.objectContaining({ line: 1, field: 'fact_sentences.M2' }),
    ]);
    core.close();
  });

  it('an alignment for a document without a scaffold, and a scaffold for a document not in the project', async () => {
    const dir = tempDir('loupe-scaffold-missing-');
    const core = createCore({
      Database,
      stateDir: dir,
      demoDir: dir,
      host: 'electron',
      fileDialogs: false,
      diskPaths: true,
      canSwitchProjects: false,
    });
    core.createProject(join(dir, 'p.loupe'));
    const repo = core.repository();
    await runImport(repo, { source: { type: 'path', path: writeJsonl(join(dir, 's.jsonl'), b4Summaries()) } });
    const noScaffold = await refusal(
      runImport(repo, {
        source: { type: 'path', path: writeJsonl(join(dir, 'a.jsonl'), b4Alignments('human:rater')) },
      }),
    );
    expect(noScaffold[0]).toMatchObject({
      line: 1,
      field: 'summary_id',
      expected: expect.stringContaining('--as scaffold'),
    });
    const unknownDoc = await refusal(
      runImport(repo, {
        source: { type: 'path', path: writeJsonl(join(dir, 'sc.jsonl'), [{ ...b4Scaffold(), doc_id: 'elsewhere' }]) },
      }),
    );
    expect(unknownDoc).toEqual([expect.objectContaining({ line: 1, field: 'doc_id', found: '"elsewhere"' })]);
    core.close();
  });
});
