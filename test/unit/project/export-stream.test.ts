/**
 * export.write streams the file the core builds to a path, a batch of summaries at a time: the
 * file is byte for byte what export.build answers, rows stay in export order across batches (the
 * dataset, then the summary id as text: sum-1000 sorts between sum-100 and sum-101), the label
 * rows are the ones the unbatched query gives, a path with the wrong extension is refused naming
 * `path` and writes nothing, and a file that already exists is replaced whole or not at all.
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
