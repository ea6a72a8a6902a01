/**
 * CSV formula injection. A project whose dataset, ids, sentences, judge,
 * annotator and reviewer names and notes start with = + - @ TAB or CR is exported through every
 * CSV path (labels, labels with history, predictions, review): no cell may start with one of those
 * characters (each gets a leading '), `rawCsv` writes them as stored, and Loupe's own reader
 * takes the apostrophe off again so an export imports back unchanged.
 */
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { neutraliseCsvCell, restoreCsvCell } from '../../../shared/formats/csv-write';
import { createCore, type Core } from '../../../electron/core/index';
import { dispatch } from '../../../electron/core/dispatch';
import { runImport } from '../../../electron/core/imports/run';
import { buildExport } from '../../../electron/core/export/build';
import type { ExportFile } from '../../../electron/core/export/files';
import { tempDir } from '../../helpers/tmp';

const dir = tempDir('loupe-csv-injection-');
const TRIGGERS = ['=', '+', '-', '@', '\t', '\r'] as const;
const FORMULA_START = /^[=+\-@\t\r]/;

const DATASET = '=ds';
const DOCUMENT = 'The council approved the budget on Tuesday. The plan adds money for schools. Taxes rise next year.';
const SENTENCES = [
  '=HYPERLINK("http://evil.example","click") approved the budget.',
  '+cmd|/C calc adds money.',
  '-2+3 taxes rise next year.',
];
const JUDGES = ['@SUM(A1)', '-judge'] as const;
const ANNOTATOR = '-ann';
const REVIEWER = '+rev';
const NOTES = ['\tnote after a tab', '\rnote after a carriage return', "'=already guarded"] as const;

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

function newCore(name: string): Core {
  const core = createCore({
    Database,
    stateDir: join(dir, name),
    demoDir: dir,
    host: 'web',
    fileDialogs: false,
    diskPaths: false,
    canSwitchProjects: false,
  });
  core.createProject(join(dir, `${name}.loupe`));
  return core;
}

async function importSummaries(core: Core): Promise<void> {
  const summaries = [
    {
      dataset: DATASET,
      doc_id: '+doc',
      document: DOCUMENT,
      summary_id: '-sum',
      summary: SENTENCES.join(' '),
      label: 1,
      sentences: SENTENCES,
    },
    {
      dataset: DATASET,
      doc_id: '@doc',
      document: DOCUMENT,
      summary_id: '=sum',
      summary: SENTENCES.join(' '),
      label: 0,
      sentences: SENTENCES,
    },
  ];
  await runImport(core.repository(), {
    source: { type: 'upload', name: 'summaries.jsonl', text: jsonl(summaries) },
    as: 'summaries',
  });
}

let core: Core;

beforeAll(async () => {
  core = newCore('source');
  await importSummaries(core);
  const repo = core.repository();
  const predictions = JUDGES.flatMap((judge, j) =>
    ['-sum', '=sum'].flatMap((summary_id) =>
      SENTENCES.map((_, i) => ({ dataset: DATASET, summary_id, sentence_index: i, judge, hard: (i + j) % 2 })),
    ),
  );
  await runImport(repo, {
    source: { type: 'upload', name: 'predictions.jsonl', text: jsonl(predictions) },
    as: 'predictions',
  });
  // Every sentence labeled, so every labels-export row is also a valid labels-import row.
  const labels = ['-sum', '=sum'].flatMap((summary_id) =>
    SENTENCES.map((_, i) => ({
      dataset: DATASET,
      summary_id,
      sentence_index: i,
      label: i === 0 ? 'unfaithful' : 'faithful',
      annotator: ANNOTATOR,
      note: NOTES[i],
    })),
  );
  await runImport(repo, { source: { type: 'upload', name: 'labels.jsonl', text: jsonl(labels) }, as: 'labels' });
  // A review decision with a hostile reviewer name and note.
  const queue = await dispatch(core.handlers, 'review.queue', { queue: 'human-judge', dataset: DATASET });
  expect(queue.ok, JSON.stringify(queue)).toBe(true);
  const unitId = (
    await core.handlers['annotation.load']({
      key: (queue as { ok: true; value: { items: Array<{ key: number }> } }).value.items[0]!.key,
      annotator: REVIEWER,
    })
  ).units[0]!.id;
  const decided = await dispatch(core.handlers, 'review.record', {
    unitId,
    queue: 'human-judge',
    reviewer: REVIEWER,
    state: { label: 'unfaithful', errorType: null, note: '=review note' },
    timeSpentMs: 5000,
    cause: 'label',
  });
  expect(decided.ok, JSON.stringify(decided)).toBe(true);
});

const PATHS = {
  labels: { format: 'csv', history: false },
  'labels with history': { format: 'csv', history: true },
  predictions: { format: 'csv', history: false, predictions: true },
  review: { format: 'csv', history: false, review: true },
} as const;

function exportCsv(path: keyof typeof PATHS, rawCsv?: boolean): ExportFile {
  return buildExport(core.repository(), { ...PATHS[path], ...(rawCsv === undefined ? {} : { rawCsv }) }, 'p');
}

/** Every data cell, parsed as any spreadsheet or CSV library would (not through Loupe's reader). */
const cellsOf = (file: ExportFile): string[] =>
  (parse(file.content, { columns: true }) as Array<Record<string, string>>).flatMap((row) => Object.values(row));
const triggersIn = (cells: string[], prefix: string) =>
  TRIGGERS.filter((t) => cells.some((c) => c.startsWith(prefix + t)));

describe('CSV export neutralises formula cells', () => {
  it.each(Object.keys(PATHS) as Array<keyof typeof PATHS>)('%s: no cell starts with = + - @ TAB or CR', (path) => {
    const cells = cellsOf(exportCsv(path));
    expect(cells.length).toBeGreaterThan(0);
    expect(cells.filter((c) => FORMULA_START.test(c))).toEqual([]);
    // The hostile values are there, guarded.
    expect(triggersIn(cells, "'").length).toBeGreaterThan(0);
  });

  it('guards every trigger character across the exports, in ids, names, sentences and notes', () => {
    const cells = (Object.keys(PATHS) as Array<keyof typeof PATHS>).flatMap((path) => cellsOf(exportCsv(path)));
    expect(triggersIn(cells, "'")).toEqual([...TRIGGERS]);
    for (const guarded of [
      `'${DATASET}`,
      "'+doc",
      "'-sum",
      "'@doc",
      `'${SENTENCES[0]}`,
      `'${JUDGES[0]}`,
      `'${ANNOTATOR}`,
      `'${REVIEWER}`,
      `'${NOTES[0]}`,
      `'${NOTES[1]}`,
      "''=already guarded",
      "'=review note",
    ]) {
      expect(cells, guarded).toContain(guarded);
    }
    // Numbers stay numbers; JSON cells start with [ or {.
    const history = parse(exportCsv('labels with history').content, { columns: true }) as Array<Record<string, string>>;
    expect(history[0]!.sentence_index).toBe('0');
    expect(history[0]!.history!.startsWith('[')).toBe(true);
  });

  it('rawCsv writes every cell exactly as stored', () => {
    const cells = (Object.keys(PATHS) as Array<keyof typeof PATHS>).flatMap((path) => cellsOf(exportCsv(path, true)));
    expect(triggersIn(cells, '')).toEqual([...TRIGGERS]);
    for (const raw of [
      DATASET,
      '+doc',
      '-sum',
      SENTENCES[0],
      JUDGES[0],
      ANNOTATOR,
      REVIEWER,
      NOTES[0],
      NOTES[1],
      NOTES[2],
      '=review note',
    ])
      expect(cells, raw).toContain(raw);
    // Only the note that was stored with its own apostrophe starts with one.
    expect([...new Set(cells.filter((c) => /^'[=+\-@\t\r]/.test(c)))]).toEqual(["'=already guarded"]);
  });

  it('rawCsv reaches the export through the API contract (export.build)', async () => {
    const guarded = await dispatch(core.handlers, 'export.build', { format: 'csv', predictions: true });
    const raw = await dispatch(core.handlers, 'export.build', { format: 'csv', predictions: true, rawCsv: true });
    if (!guarded.ok || !raw.ok) throw new Error(JSON.stringify([guarded, raw]));
    const content = (envelope: typeof guarded) => (envelope as { value: ExportFile }).value.content;
    expect(content(guarded)).toContain(`'${JUDGES[0]}`);
    expect(content(raw)).not.toContain(`'${JUDGES[0]}`);
    expect(content(raw)).toContain(JUDGES[0]);
  });

  it('JSON Lines exports are unchanged: the rule is for CSV cells only', () => {
    const jsonlFile = buildExport(core.repository(), { format: 'jsonl', history: false, predictions: true }, 'p');
    expect(JSON.parse(jsonlFile.content.split('\n')[0]!).judge).toMatch(/^[@-]/);
  });
});

describe("Loupe's CSV reader takes the guard off again", () => {
  it('neutralise then restore is the identity, also for text that already starts with apostrophes', () => {
    for (const text of [
      '',
      'plain',
      "'quoted'",
      "'",
      "''",
      '=1+1',
      "'=1+1",
      "''=1+1",
      '\t',
      '\r\n',
      '\n',
      "'\nx",
      '-',
      '@x',
      "it's",
      "'x=1",
    ]) {
      expect(restoreCsvCell(neutraliseCsvCell(text)), JSON.stringify(text)).toBe(text);
      expect(FORMULA_START.test(neutraliseCsvCell(text)), JSON.stringify(text)).toBe(false);
    }
    expect(neutraliseCsvCell('=1+1')).toBe("'=1+1");
    expect(neutraliseCsvCell("'quoted'")).toBe("'quoted'");
  });

  it('imports a guarded labels and predictions export into another project with the original values', async () => {
    const target = newCore('target');
    try {
      await importSummaries(target);
      const predictions = exportCsv('predictions');
      const labels = exportCsv('labels');
      await runImport(target.repository(), {
        source: { type: 'upload', name: predictions.fileName, text: predictions.content },
        as: 'predictions',
      });
      await runImport(target.repository(), {
        source: { type: 'upload', name: labels.fileName, text: labels.content },
        as: 'labels',
      });
      const reexport = (input: Parameters<typeof buildExport>[1]) =>
        buildExport(target.repository(), input, 'p').content;
      const sourceOf = (input: Parameters<typeof buildExport>[1]) => buildExport(core.repository(), input, 'p').content;
      expect(reexport({ format: 'jsonl', history: false, predictions: true })).toBe(
        sourceOf({ format: 'jsonl', history: false, predictions: true }),
      );
      const labelRows = (text: string) =>
        text
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .map(({ annotator, note, label, dataset, summary_id }) => ({ annotator, note, label, dataset, summary_id }));
      // The reader turns CR into LF in every CSV it reads (before this change too): compare so.
      const asRead = (rows: ReturnType<typeof labelRows>) =>
        rows.map((r) => ({ ...r, note: typeof r.note === 'string' ? r.note.replace(/\r\n?/g, '\n') : r.note }));
      expect(labelRows(reexport({ format: 'jsonl', history: false }))).toEqual(
        asRead(labelRows(sourceOf({ format: 'jsonl', history: false }))),
      );
      expect(labelRows(reexport({ format: 'jsonl', history: false })).map((r) => r.note)).toEqual(
        expect.arrayContaining([NOTES[0], '\nnote after a carriage return', NOTES[2]]),
      );
    } finally {
      target.close();
    }
  });
});
