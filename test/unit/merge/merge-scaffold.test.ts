/**
 * Merging annotators' copies with the Semantic Scaffold: people's alignment events and
 * the scaffold versions people made come back from file copies of a project (App. B.4's project:
 * an imported scaffold, a judge's and an imported label set's alignments); judges' alignments do
 * not. Merging twice adds nothing, chains add nothing twice, blind and created_at are kept, the
 * analysis scaffold block sees the merged people, and a copy whose scaffold diverges merges nothing.
 * Scaffold item notes (on an item aligned or not) come along with their origin, each to its person.
 */
import Database from 'better-sqlite3';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../electron/core/index';
import { AnalysisRepository } from '../../../db/analysisRepository';
import { ScaffoldRepository } from '../../../db/scaffoldRepository';
import { loadAnalysisDatasets } from '../../../electron/core/analysis/load';
import { computeReport } from '../../../electron/core/analysis/compute';
import { AnalysisReportSchema } from '../../../shared/analysis/schema';
import type { AlignmentValue } from '../../../shared/scaffold/domain';
import { B4_DATASET, b4Project } from '../../helpers/scaffold-b4';
import { tempDir } from '../../helpers/tmp';

const dir = tempDir('loupe-merge-scaffold-');

function makeCore(): Core {
  return createCore({
    Database,
    stateDir: join(dir, 'state'),
    demoDir: dir,
    host: 'electron',
    fileDialogs: false,
    diskPaths: true,
    canSwitchProjects: false,
  });
}

async function withProject<T>(path: string, fn: (core: Core) => Promise<T> | T): Promise<T> {
  const core = makeCore();
  try {
    core.openProject(path);
    return await fn(core);
  } finally {
    core.close();
  }
}

/** The B.4 project as P, closed, and file copies of it (same project id: the harder case). */
async function projectWithCopies(name: string, copies: string[]): Promise<{ P: string; copies: string[] }> {
  const p = await b4Project(`loupe-merge-scaffold-${name}-`);
  p.core.close();
  const P = join(dir, `${name}.loupe`);
  copyFileSync(p.path, P);
  return {
    P,
    copies: copies.map((c) => {
      const path = join(dir, `${name}-${c}.loupe`);
      copyFileSync(P, path);
      return path;
    }),
  };
}

const summaryKey = (core: Core, summaryId: string): number =>
  core.repository().corpus.summaryKey(B4_DATASET, summaryId)!;

/** Aligns the given items of the summary's current scaffold as this person, through scaffold.record. */
async function align(
  core: Core,
  annotator: string,
  summaryId: string,
  values: Record<string, AlignmentValue>,
): Promise<void> {
  const key = summaryKey(core, summaryId);
  const items = (await core.handlers['scaffold.load']({ key, annotator })).items;
  for (const [itemKey, value] of Object.entries(values)) {
    const item = items.find((i) => i.itemKey === itemKey)!;
    await core.handlers['scaffold.record']({
      key,
      annotator,
      itemId: item.id,
      value,
      sentences: [],
      timeSpentMs: 100,
      cause: 'label',
    });
  }
}

/** A person's edit of the document's current scaffold: M4 becomes supporting. */
async function retierM4(core: Core, annotator: string): Promise<void> {
  const key = summaryKey(core, 'camera-internal-s');
  const loaded = await core.handlers['scaffold.load']({ key, annotator });
  const documentKey = core.repository().corpus.documentKey(B4_DATASET, 'camera')!;
  await core.handlers['scaffold.edit']({
    documentKey,
    annotator,
    basedOnVersion: loaded.version,
    facts: loaded.items
      .filter((i) => i.kind === 'fact')
      .map((i) => ({ id: i.itemKey, text: i.text, tier: i.itemKey === 'M4' ? ('supporting' as const) : i.tier! })),
    questions: loaded.items
      .filter((i) => i.kind === 'question')
      .map((i) => ({ id: i.itemKey, text: i.text, answer: i.answer ?? '', tier: i.tier! })),
    entities: [...new Set(loaded.items.filter((i) => i.kind === 'attribute').map((i) => i.entity!))].map((name) => ({
      name,
      attributes: loaded.items
        .filter((i) => i.kind === 'attribute' && i.entity === name)
        .map((i) => ({ id: i.itemKey, text: i.text })),
    })),
    note: 'M4 is a detail',
  });
}

async function merge(path: string, others: string[]) {
  return withProject(path, (core) => core.handlers['merge.projects']({ paths: others }));
}

function read<T>(path: string, sql: string): T[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

/** People's alignment events as "summary item@version annotator value blind created_at", and the scaffold versions. */
const PEOPLE_ALIGNMENTS = `SELECT s.summary_id || ' ' || i.item_key || '@' || sc.version || ' ' || a.name || ' ' || e.value || ' ' || e.blind || ' ' || e.created_at AS row
  FROM scaffold_alignment_events e JOIN annotators a ON a.id = e.annotator_id JOIN scaffold_items i ON i.id = e.item_id
  JOIN scaffolds sc ON sc.id = i.scaffold_id JOIN summaries s ON s.id = e.summary_id WHERE a.kind = 'person' ORDER BY row`;
const peopleAlignments = (path: string): string[] => read<{ row: string }>(path, PEOPLE_ALIGNMENTS).map((r) => r.row);
const versions = (path: string) =>
  read<{
    version: number;
    source: string;
    createdBy: string | null;
    note: string | null;
    createdAt: string;
    basedOn: number | null;
  }>(
    path,
    `SELECT sc.version, sc.source, a.name AS createdBy, sc.note, sc.created_at AS createdAt, b.version AS basedOn
     FROM scaffolds sc LEFT JOIN annotators a ON a.id = sc.created_by LEFT JOIN scaffolds b ON b.id = sc.based_on_id ORDER BY sc.version`,
  );
const judgeAlignmentCount = (path: string): number =>
  read<{ n: number }>(path, 'SELECT count(*) AS n FROM scaffold_alignment_events WHERE judge_id IS NOT NULL')[0]!.n;
const dump = (path: string): string =>
  JSON.stringify(
    ['scaffolds', 'scaffold_items', 'scaffold_alignment_events', 'annotators', 'merges', 'label_events'].map((t) =>
      read(path, `SELECT * FROM ${t} ORDER BY 1`),
    ),
  );

function scaffoldBlock(path: string) {
  const db = new Database(path, { readonly: true });
  try {
    const datasets = loadAnalysisDatasets(new AnalysisRepository(db), B4_DATASET, {
      set: 'both',
      rule: 'majority',
      includeRevealed: false,
    });
    const { report } = computeReport(datasets, {
      bootstrap: 50,
      seed: 0,
      cap: 20,
      humanLabel: 'majority',
      reference: 'both',
      includeRevealed: false,
    });
    return AnalysisReportSchema.parse(JSON.parse(JSON.stringify(report))).datasets[0]!.scaffold!;
  } finally {
    db.close();
  }
}

describe('merging people’s scaffold work from copies', () => {
  it('adds people’s alignments and the person’s version they rest on once, keeps blind and created_at, leaves judges’ out; a second merge adds nothing', async () => {
    const { P, copies } = await projectWithCopies('basic', ['alice', 'bob']);
    const [A, B] = copies as [string, string];
    const judgeBefore = judgeAlignmentCount(P);
    await withProject(A, async (core) => {
      await align(core, 'alice', 'camera-internal-s', {
        M1: 'preserved',
        M2: 'preserved',
        M3: 'missing',
        M4: 'missing',
        S1: 'preserved',
        S2: 'missing',
        S3: 'missing',
      });
      await retierM4(core, 'alice');
      await align(core, 'alice', 'camera-gpt-4o', { M1: 'preserved', M4: 'missing', Q1: 'answered' });
      // A judge's alignment made in the copy is not merged (as judge predictions are not).
      const db = (core.repository() as unknown as { db: Database.Database }).db;
      const judgeId = db.prepare('SELECT id FROM judges LIMIT 1').pluck().get() as number;
      const scaffolds = new ScaffoldRepository(db);
      const v2 = scaffolds.currentScaffold(core.repository().corpus.documentKey(B4_DATASET, 'camera')!)!;
      scaffolds.recordAlignment({
        itemId: scaffolds.items(v2.id)[0]!.id,
        summaryKey: summaryKey(core, 'camera-gpt-4o'),
        annotatorId: null,
        judgeId,
        configHash: 'copy-run',
        value: 'missing',
        sentences: [],
        timeSpentMs: null,
        cause: 'run',
        importKey: null,
        importId: null,
      });
    });
    await withProject(B, async (core) => {
      const key = summaryKey(core, 'camera-gpt-4o');
      core.repository().recordReveals(core.repository().ensureAnnotator('bob').id, [key], 'review');
      await align(core, 'bob', 'camera-gpt-4o', { M1: 'partial', Q4: 'unanswered' }); // after a reveal: not blind
    });
    expect(judgeAlignmentCount(A)).toBe(judgeBefore + 1);

    const [fromA, fromB] = await merge(P, [A, B]);
    expect(fromA).toMatchObject({
      merged: true,
      problems: [],
      alignmentsAdded: 10,
      alignmentsPresent: 0,
      scaffoldsAdded: 1,
      eventsAdded: 10,
      annotatorsAdded: ['alice'],
    });
    expect(fromB).toMatchObject({
      merged: true,
      problems: [],
      alignmentsAdded: 2,
      scaffoldsAdded: 0,
      annotatorsAdded: ['bob'],
    });
    expect(judgeAlignmentCount(P)).toBe(judgeBefore);
    // The same rows as in the copies: version numbers, blind flags and created_at.
    expect(peopleAlignments(P)).toEqual([...peopleAlignments(A), ...peopleAlignments(B)].sort());
    expect(
      peopleAlignments(P)
        .filter((r) => / bob /.test(r))
        .every((r) => / 0 \S+$/.test(r)),
    ).toBe(true);
    expect(
      peopleAlignments(P)
        .filter((r) => / alice /.test(r))
        .every((r) => / 1 \S+$/.test(r)),
    ).toBe(true);
    expect(versions(P)).toEqual(versions(A));
    expect(versions(P)[1]).toMatchObject({
      version: 2,
      source: 'person',
      createdBy: 'alice',
      note: 'M4 is a detail',
      basedOn: 1,
    });
    // The merged version's items name the items of version 1 they came from.
    const unlinked = read<{ n: number }>(
      P,
      'SELECT count(*) AS n FROM scaffold_items i JOIN scaffolds sc ON sc.id = i.scaffold_id WHERE sc.version = 2 AND i.from_item_id IS NULL',
    )[0]!.n;
    expect(unlinked).toBe(0);

    const before = dump(P);
    const again = await merge(P, [A, B]);
    expect(
      again.map((r) => [r.merged, r.eventsAdded, r.alignmentsAdded, r.scaffoldsAdded, r.alignmentsPresent]),
    ).toEqual([
      [true, 0, 0, 0, 10],
      [true, 0, 0, 0, 2],
    ]);
    expect(dump(P)).toBe(before);
  });

  it('the analysis scaffold block counts the merged people among the aligners', async () => {
    const { P, copies } = await projectWithCopies('analysis', ['alice']);
    const [A] = copies as [string];
    const all: Record<string, AlignmentValue> = {
      M1: 'preserved',
      M2: 'preserved',
      M3: 'preserved',
      M4: 'preserved',
      S1: 'preserved',
      S2: 'preserved',
      S3: 'preserved',
    };
    await withProject(A, (core) => align(core, 'alice', 'camera-internal-s', all));
    const rowOf = (path: string) =>
      scaffoldBlock(path).sources['human']!.per_summary.find((r) => r.summary_id === 'camera-internal-s')!;
    const before = rowOf(P);
    expect(before.n_aligners).toBe(1);
    await merge(P, [A]);
    const after = rowOf(P);
    expect(after.n_aligners).toBe(2);
    expect(after).toEqual(rowOf(A));
    expect(after.fc).not.toBe(before.fc);
  });

  it('chains A→B, B→P, then A→P add nothing twice, and the person’s version is one version in P', async () => {
    const { P, copies } = await projectWithCopies('chain', ['alice', 'bob']);
    const [A, B] = copies as [string, string];
    await withProject(A, async (core) => {
      await retierM4(core, 'alice');
      await align(core, 'alice', 'camera-internal-s', { M1: 'partial', M4: 'missing' });
    });
    await withProject(B, (core) => align(core, 'bob', 'camera-gpt-4o', { M2: 'preserved' }));
    expect((await merge(B, [A]))[0]).toMatchObject({ alignmentsAdded: 2, scaffoldsAdded: 1 });
    expect((await merge(P, [B]))[0]).toMatchObject({ alignmentsAdded: 3, scaffoldsAdded: 1 });
    const before = dump(P);
    expect((await merge(P, [A]))[0]).toMatchObject({
      merged: true,
      alignmentsAdded: 0,
      alignmentsPresent: 2,
      scaffoldsAdded: 0,
    });
    expect(dump(P)).toBe(before);
    expect(versions(P).map((v) => v.version)).toEqual([1, 2]);
    // Each merged alignment records where it was made (alice's in A, through B), as label events do.
    const made = (path: string, who: string) =>
      read(
        path,
        `SELECT (SELECT value FROM project_meta WHERE key = 'project_id') AS project, e.id AS event FROM scaffold_alignment_events e JOIN annotators a ON a.id = e.annotator_id WHERE a.name = '${who}' AND e.merge_id IS NULL ORDER BY e.created_at, e.id`,
      );
    const origins = (who: string) =>
      read(
        P,
        `SELECT e.origin_project AS project, e.origin_event AS event FROM scaffold_alignment_events e JOIN annotators a ON a.id = e.annotator_id WHERE a.name = '${who}' AND e.merge_id IS NOT NULL ORDER BY e.created_at, e.id`,
      );
    expect(origins('alice')).toEqual(made(A, 'alice'));
    expect(origins('bob')).toEqual(made(B, 'bob'));
    expect(origins('alice')).toHaveLength(2);
  });

  it('merges scaffold item notes, on aligned and unaligned items, with their origin; each person loads their own', async () => {
    const { P, copies } = await projectWithCopies('notes', ['alice', 'bob']);
    const [A, B] = copies as [string, string];
    /** Writes a note on one item of the summary's current scaffold (keeping its value), through scaffold.record. */
    const note = async (core: Core, annotator: string, itemKey: string, text: string) => {
      const key = summaryKey(core, 'camera-internal-s');
      const item = (await core.handlers['scaffold.load']({ key, annotator })).items.find((i) => i.itemKey === itemKey)!;
      await core.handlers['scaffold.record']({
        key,
        annotator,
        itemId: item.id,
        value: item.state.value,
        sentences: item.state.sentences,
        note: text,
        timeSpentMs: null,
        cause: 'note',
      });
    };
    await withProject(A, async (core) => {
      await note(core, 'alice', 'M4', 'not aligned yet: the summary may imply it');
      await align(core, 'alice', 'camera-internal-s', { M2: 'preserved' });
      await note(core, 'alice', 'M2', 'stated in the first sentence');
    });
    await withProject(B, (core) => note(core, 'bob', 'Q1', 'answered only in part'));

    const [fromA, fromB] = await merge(P, [A, B]);
    expect(fromA).toMatchObject({ merged: true, problems: [], alignmentsAdded: 3 });
    expect(fromB).toMatchObject({ merged: true, problems: [], alignmentsAdded: 1 });
    const notes = (path: string) =>
      withProject(path, async (core) => {
        const key = summaryKey(core, 'camera-internal-s');
        const of = async (annotator: string) =>
          (await core.handlers['scaffold.load']({ key, annotator })).items
            .filter((i) => i.state.note)
            .map((i) => [i.itemKey, i.state.value, i.state.note]);
        return { alice: await of('alice'), bob: await of('bob') };
      });
    expect(await notes(P)).toEqual({
      alice: [
        ['M2', 'preserved', 'stated in the first sentence'],
        ['M4', null, 'not aligned yet: the summary may imply it'],
      ],
      bob: [['Q1', null, 'answered only in part']],
    });
    // Each note's event records where it was made, as label events do.
    const made = (path: string) =>
      read(
        path,
        `SELECT (SELECT value FROM project_meta WHERE key = 'project_id') AS project, e.id AS event, e.note FROM scaffold_alignment_events e WHERE e.note IS NOT NULL AND e.merge_id IS NULL ORDER BY e.created_at, e.id`,
      );
    const merged = read<{ mergeId: number | null }>(
      P,
      'SELECT e.origin_project AS project, e.origin_event AS event, e.note, e.merge_id AS mergeId FROM scaffold_alignment_events e WHERE e.note IS NOT NULL ORDER BY e.merge_id, e.created_at, e.id',
    );
    expect(merged.map(({ mergeId: _, ...origin }) => origin)).toEqual([...made(A), ...made(B)]);
    expect(merged.every((r) => r.mergeId !== null)).toBe(true);
    const before = dump(P);
    expect((await merge(P, [A, B])).map((r) => [r.alignmentsAdded, r.alignmentsPresent])).toEqual([
      [0, 3],
      [0, 1],
    ]);
    expect(dump(P)).toBe(before);
  });

  it('refuses a copy whose scaffold for the document diverges where people aligned, and writes nothing', async () => {
    const { P, copies } = await projectWithCopies('diverged', ['dora']);
    const [D] = copies as [string];
    // The copy's imported (not person-made) version 1 differs: nothing here it could be matched to.
    const db = new Database(D);
    db.prepare("UPDATE scaffold_items SET text = 'The page is about microphone settings.' WHERE item_key = 'M1'").run();
    db.close();
    await withProject(D, (core) => align(core, 'dora', 'camera-internal-s', { M1: 'missing' }));
    const before = dump(P);
    const [result] = await merge(P, [D]);
    expect(result).toMatchObject({ merged: false, eventsAdded: 0, alignmentsAdded: 0 });
    expect(result!.problems).toEqual([
      expect.stringMatching(/^screenshots\/camera: scaffold version 1 \(imported\) differs from every version/),
    ]);
    expect(dump(P)).toBe(before);
  });
});
