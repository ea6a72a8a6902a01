/**
 * export.write streams the file the core builds to a path, a batch of summaries at a time: the
 * file is byte for byte what export.build answers, rows stay in export order across batches (the
 * dataset, then the summary id as text: sum-1000 sorts between sum-100 and sum-101), the label
 * rows are the ones the unbatched query gives, a path with the wrong extension is refused naming
 * `path` and writes nothing, and a file that already exists is replaced whole or not at all.
 * The scaffold files too: scaffold lines a page of documents at a time in doc id order, alignment
 * lines a batch of summaries at a time in summary order, a note-only line in its summary's place.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ExportInput } from '../../../shared/api';
import { dispatch, type Core } from '../../../electron/core/index';
import { desktopCore } from '../../helpers/desktop-core';
import { runImport } from '../../../electron/core/imports/run';
import { EXPORT_BATCH_SUMMARIES, summaryBatches } from '../../../electron/core/export/files';
import type { Repository } from '../../../db/repository';
import { summaryRows } from '../../mock-openai/project';
import { writeJsonl } from '../../helpers/project';
import { tempDir } from '../../helpers/tmp';

const dir = tempDir('loupe-export-stream-');
const SUMMARIES = 2 * EXPORT_BATCH_SUMMARIES + 100;
/** summaryRows puts two summaries on each document. */
const DOCUMENTS = SUMMARIES / 2;
/** Summaries with claims, spread over the export's batches (summary id order: sum-100, sum-1000, sum-1001, …). */
const CLAIMED = [1099, 0, 499, 500, 1000];
let core: Core;

beforeAll(async () => {
  core = desktopCore(dir, undefined);
  core.createProject(join(dir, 'big.loupe'));
  await runImport(core.repository(), {
    source: { type: 'path', path: writeJsonl(join(dir, 'summaries.jsonl'), summaryRows(SUMMARIES)) },
  });
  // Labels in every batch, two annotators disagreeing on one sentence, so adjudication columns vary.
  const labels = [0, 1, 499, 500, 999, 1000, 1099].flatMap((k) => [
    {
      dataset: 'news',
      summary_id: `sum-${String(k).padStart(3, '0')}`,
      sentence_index: 1,
      label: 'faithful',
      annotator: 'rater-a',
    },
    {
      dataset: 'news',
      summary_id: `sum-${String(k).padStart(3, '0')}`,
      sentence_index: 1,
      label: k === 1000 ? 'unfaithful' : 'faithful',
      annotator: 'rater-b',
    },
  ]);
  await runImport(core.repository(), { source: { type: 'path', path: writeJsonl(join(dir, 'labels.jsonl'), labels) } });
  // A scaffold on every document (more than a page of them) and alignments in every batch, from two sources.
  const scaffolds = Array.from({ length: DOCUMENTS }, (_, d) => ({
    dataset: 'news',
    doc_id: `doc-${d}`,
    extractor: 'gpt-4.1',
    extractor_version: 'app-g-v1',
    facts: [
      { id: 'M1', text: `The council approved budget ${d}.`, tier: 'main' },
      { id: 'S1', text: 'The mayor was pleased.', tier: 'supporting' },
    ],
    questions: [{ id: 'Q1', text: 'What was approved?', answer: 'A budget.', tier: 'main' }],
    entities: [{ name: 'council', attributes: [{ id: 'c1', text: 'approved a budget' }] }],
  }));
  await runImport(core.repository(), {
    source: { type: 'path', path: writeJsonl(join(dir, 'scaffolds.jsonl'), scaffolds) },
    as: 'scaffold',
  });
  const aligned = [1099, 0, 1000, 499, 500, 999, 100];
  const alignments = aligned.flatMap((k) =>
    ['judge:gpt', 'human:rater-a'].map((source) => ({
      dataset: 'news',
      summary_id: `sum-${String(k).padStart(3, '0')}`,
      source,
      facts: { M1: 'preserved', S1: k % 2 === 0 ? 'missing' : 'preserved' },
      questions: { Q1: 'answered' },
      attributes: { c1: 'preserved' },
      fact_sentences: { M1: [0] },
    })),
  );
  await runImport(core.repository(), {
    source: { type: 'path', path: writeJsonl(join(dir, 'alignments.jsonl'), alignments) },
    as: 'scaffold-alignments',
  });
  // Claims with labels and judge outputs in three batches, key facts on their documents.
  const accuracy = CLAIMED.flatMap((k) => {
    const id = `sum-${String(k).padStart(3, '0')}`;
    return [
      { type: 'claims', dataset: 'news', summary_id: id, claims: [{ sentence_index: 0, text: `Budget ${k}.` }] },
      { type: 'key_facts', dataset: 'news', doc_id: `doc-${k % DOCUMENTS}`, facts: [`Fact of ${k}.`] },
      {
        type: 'claim_label',
        dataset: 'news',
        summary_id: id,
        claim_index: 0,
        annotator: 'rater-a',
        label: 'supported',
      },
      { type: 'claim_prediction', dataset: 'news', summary_id: id, claim_index: 0, judge: 'gpt', supported: 0 },
      {
        type: 'key_fact_label',
        dataset: 'news',
        summary_id: id,
        key_fact_index: 0,
        annotator: 'rater-a',
        label: 'covered',
      },
    ];
  });
  await runImport(core.repository(), {
    source: { type: 'path', path: writeJsonl(join(dir, 'accuracy.jsonl'), accuracy) },
    as: 'accuracy',
  });
});

async function ok<T>(method: string, input: unknown): Promise<T> {
  const envelope = await dispatch(core.handlers, method, input);
  if (!envelope.ok) throw new Error(`${method}: ${envelope.error.code}: ${envelope.error.message}`);
  return envelope.value as T;
}

const KINDS: Array<[string, Partial<ExportInput>, 'jsonl' | 'csv' | 'json']> = [
  ['labels', {}, 'jsonl'],
  ['labels', {}, 'csv'],
  ['labels with history', { history: true }, 'jsonl'],
  ['labels with history', { history: true }, 'csv'],
  ['predictions', { predictions: true }, 'csv'],
  ['review results', { review: true }, 'csv'],
  ['claims and key facts', { accuracy: true }, 'jsonl'],
  ['the dataset card', { card: true }, 'json'],
  ['scaffolds', { scaffold: true }, 'jsonl'],
  ['scaffold alignments', { scaffoldAlignments: true }, 'jsonl'],
];

describe('export.write', () => {
  it.each(KINDS)('writes %s (%s) exactly as export.build answers it', async (_what, kind, ext) => {
    const input = { format: ext === 'csv' ? 'csv' : 'jsonl', ...kind };
    const built = await ok<{ content: string; rows: number; fileName: string }>('export.build', input);
    const target = join(dir, `out-${Object.keys(kind).join('-') || 'labels'}.${ext}`);
    const written = await ok<{ path: string; rows: number; bytes: number; fileName: string }>('export.write', {
      ...input,
      path: target,
    });
    // The card says when it was made: the one line two builds differ in.
    const undated = (text: string) => text.replace(/"generated_at": "[^"]+"/, '"generated_at": "…"');
    expect(undated(readFileSync(target, 'utf8'))).toBe(undated(built.content));
    expect(written).toEqual({
      path: target,
      fileName: built.fileName,
      rows: built.rows,
      bytes: Buffer.byteLength(readFileSync(target, 'utf8')),
    });
    if (ext !== 'json') expect(Buffer.byteLength(built.content)).toBe(written.bytes);
  });

  it('keeps the export order across batches and writes the rows of the unbatched query', async () => {
    const target = join(dir, 'order.jsonl');
    const written = await ok<{ rows: number }>('export.write', { format: 'jsonl', path: target });
    const rows = readFileSync(target, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const whole = core.repository().exportRows(null);
    expect(written.rows).toBe(whole.length);
    expect(whole.length).toBe(SUMMARIES * 3 + 7); // three sentences each, plus the second annotator's rows
    expect(rows.map((r) => [r.summary_id, r.sentence_index, r.annotator])).toEqual(
      whole.map((r) => [r.summaryId, r.sentenceIndex, r.annotator]),
    );
    const ids = [...new Set(rows.map((r) => String(r.summary_id)))];
    expect(ids).toEqual([...ids].sort());
    expect(ids.indexOf('sum-1000')).toBe(ids.indexOf('sum-100') + 1);
    // The disagreement on sum-1000 is unresolved; the agreement on sum-999 resolves by agreement.
    const at = (id: string) => rows.find((r) => r.summary_id === id && r.sentence_index === 1)!;
    expect(at('sum-999').adjudicated_source).toBe('agreement');
    expect(at('sum-1000').adjudicated_label).toBeNull();
  });

  it('writes scaffold lines in doc id order across pages, alignment lines in summary order across batches', async () => {
    const lines = async (kind: Partial<ExportInput>) => {
      const target = join(dir, `scaffold-${Object.keys(kind)[0]}.jsonl`);
      const written = await ok<{ rows: number }>('export.write', { format: 'jsonl', ...kind, path: target });
      const parsed = readFileSync(target, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(written.rows).toBe(parsed.length);
      return parsed;
    };
    const scaffoldDocs = (await lines({ scaffold: true })).map((l) => String(l.doc_id));
    expect(scaffoldDocs).toHaveLength(DOCUMENTS);
    expect(scaffoldDocs).toEqual([...scaffoldDocs].sort());
    expect(new Set(scaffoldDocs).size).toBe(DOCUMENTS);

    // A person's note on an item of a summary nobody aligned: a line of its own, in its summary's place.
    const key = core.repository().corpus.summaryKey('news', 'sum-1001')!;
    const scaffold = await ok<{ items: Array<{ id: number; itemKey: string }> }>('scaffold.load', {
      key,
      annotator: 'carol',
    });
    const item = scaffold.items.find((i) => i.itemKey === 'S1')!;
    await ok('scaffold.record', {
      key,
      itemId: item.id,
      annotator: 'carol',
      value: null,
      sentences: [],
      note: 'the mayor is not named',
      timeSpentMs: null,
      cause: 'note',
    });
    const aligned = (await lines({ scaffoldAlignments: true })).map((l) => [l.summary_id, l.source]);
    const expected = ['sum-000', 'sum-100', 'sum-1000', 'sum-1001', 'sum-1099', 'sum-499', 'sum-500', 'sum-999'];
    expect(aligned).toEqual(
      expected.flatMap((id) =>
        id === 'sum-1001'
          ? [[id, 'human:carol']]
          : [
              [id, 'human:rater-a'],
              [id, 'judge:gpt'],
            ],
      ),
    );
  });

  it('writes claims and key facts a batch at a time: every item of every batch, each after its summary', async () => {
    const target = join(dir, 'accuracy-order.jsonl');
    await ok('export.write', { format: 'jsonl', accuracy: true, path: target });
    const records = readFileSync(target, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const summaries = records.filter((r) => r.type === 'summary').map((r) => String(r.summary_id));
    expect(summaries).toHaveLength(SUMMARIES);
    expect(summaries).toEqual([...summaries].sort());
    const at = (type: string, id: string) => records.findIndex((r) => r.type === type && r.summary_id === id);
    const ids = CLAIMED.map((k) => `sum-${String(k).padStart(3, '0')}`);
    for (const id of ids) {
      for (const type of ['claims', 'claim_label', 'claim_prediction', 'key_fact_label'])
        expect(at(type, id), `${type} of ${id}`).toBeGreaterThan(at('summary', id));
    }
    // A later batch starts after every item of an earlier one.
    const batchOf = (id: string) => Math.floor(summaries.indexOf(id) / EXPORT_BATCH_SUMMARIES);
    expect(new Set(ids.map(batchOf)).size).toBeGreaterThanOrEqual(2);
    for (const a of ids)
      for (const b of ids)
        if (batchOf(a) < batchOf(b)) expect(at('summary', b)).toBeGreaterThan(at('key_fact_label', a));
    const types = (type: string) => records.filter((r) => r.type === type).map((r) => String(r.summary_id));
    expect(types('claim_label')).toEqual([...ids].sort());
    expect(types('claim_prediction')).toEqual([...ids].sort());
    expect(records.filter((r) => r.type === 'key_facts')).toHaveLength(CLAIMED.length);
    // The same items the one-pass read of the dataset (the analysis's) finds.
    const whole = core.repository().accuracySnapshot.datasetRows('news');
    expect(whole.claimLabels).toHaveLength(CLAIMED.length);
    expect(whole.claimPredictions).toHaveLength(CLAIMED.length);
    expect(whole.keyFactLabels).toHaveLength(CLAIMED.length);
  });

  it('writes review results of the reviewed summaries only, in doc id then summary id order', async () => {
    const reviewed = [1099, 0, 1000, 500, 1];
    const decisions = reviewed.map((k) => ({
      dataset: 'news',
      summary_id: `sum-${String(k).padStart(3, '0')}`,
      sentence_index: 2,
      label: 'unfaithful',
      annotator: 'adjudicator',
      phase: 'review',
    }));
    await runImport(core.repository(), {
      source: { type: 'path', path: writeJsonl(join(dir, 'review.jsonl'), decisions) },
    });
    const target = join(dir, 'review-order.jsonl');
    const written = await ok<{ rows: number }>('export.write', { format: 'jsonl', review: true, path: target });
    const rows = readFileSync(target, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(written.rows).toBe(reviewed.length);
    // summaryRows: sum-k is on doc-(k mod 550).
    expect(rows.map((r) => [r.doc_id, r.summary_id, r.sentence_index, r.reviewer])).toEqual(
      [
        ['doc-0', 'sum-000'],
        ['doc-1', 'sum-001'],
        ['doc-450', 'sum-1000'],
        ['doc-500', 'sum-500'],
        ['doc-549', 'sum-1099'],
      ].map(([doc, id]) => [doc, id, 2, 'adjudicator']),
    );
  });

  it('refuses a path whose extension is not the file type, naming path, and leaves what was there', async () => {
    const target = join(dir, 'keep.csv');
    writeFileSync(target, 'old');
    const before = readdirSync(dir).length;
    const envelope = await dispatch(core.handlers, 'export.write', { format: 'jsonl', path: target });
    expect(envelope.ok).toBe(false);
    if (!envelope.ok) {
      expect(envelope.error.code).toBe('invalid_input');
      expect(envelope.error.message).toMatch(/^path: this export is a \.jsonl file/);
    }
    expect(readFileSync(target, 'utf8')).toBe('old');
    expect(readdirSync(dir).length).toBe(before);
  });

  it('batches summaries in export order, never across two datasets', () => {
    const keys = [
      ...Array.from({ length: EXPORT_BATCH_SUMMARIES + 2 }, (_, i) => ({ dataset: 'alpha', key: i + 1 })),
      { dataset: 'news', key: 9_001 },
    ];
    const repo = { exportSummaryKeys: () => keys } as unknown as Repository;
    expect([...summaryBatches(repo, null)].map((b) => [b.dataset, b.keys.length, b.keys[0]])).toEqual([
      ['alpha', EXPORT_BATCH_SUMMARIES, 1],
      ['alpha', 2, EXPORT_BATCH_SUMMARIES + 1],
      ['news', 1, 9_001],
    ]);
  });

  it('is refused where the host names no disk paths (loupe serve), writing nothing', async () => {
    const web = desktopCore(join(dir, 'web'), undefined, {
      host: 'web',
      fileDialogs: false,
      diskPaths: false,
      canSwitchProjects: false,
    });
    web.openProject(join(dir, 'big.loupe'));
    const target = join(dir, 'from-the-browser.jsonl');
    const envelope = await dispatch(web.handlers, 'export.write', { format: 'jsonl', path: target });
    web.close();
    expect(envelope.ok ? null : envelope.error.code).toBe('unsupported');
    expect(existsSync(target)).toBe(false);
  });

  it('replaces an existing file whole, leaving no temporary file beside it', async () => {
    const target = join(dir, 'replace.jsonl');
    writeFileSync(target, 'old');
    await ok('export.write', { format: 'jsonl', predictions: true, path: target });
    expect(readFileSync(target, 'utf8')).toBe('');
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(existsSync(join(dir, 'missing-folder'))).toBe(false);
    const refused = await dispatch(core.handlers, 'export.write', {
      format: 'jsonl',
      path: join(dir, 'missing-folder', 'x.jsonl'),
    });
    expect(refused.ok).toBe(false);
  });
});
