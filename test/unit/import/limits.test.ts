/**
 * Hostile input: JSON nested far too deep is refused with its place (no stack overflow), and a
 * first record of several MB does not blind format detection. All inputs are generated here.
 */
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openProjectDatabase } from '../../../db/open';
import { Repository } from '../../../db/repository';
import { readHead } from '../../../electron/core/imports/files';
import { runImport } from '../../../electron/core/imports/run';
import { faithbenchParser } from '../../../shared/formats/faithbench';
import { detectionHead, HEAD_CHARS, HeadBuilder, LONG_STRING } from '../../../shared/formats/head';
import { firstLineKeys } from '../../../shared/formats/jsonl';
import { findExcessNesting, MAX_JSON_DEPTH } from '../../../shared/formats/nesting';
import { detectKind } from '../../../shared/formats/registry';
import { summariesParser } from '../../../shared/formats/summaries';
import { summeditsParser } from '../../../shared/formats/summedits';
import { ImportValidationError, type ImportProblem } from '../../../shared/formats/types';
import { tempDir } from '../../helpers/tmp';
import { problemsOf, text } from './helpers';

const dir = tempDir();

/** `levels` objects inside one another: {"a":{"a":…1…}}. */
const nested = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
const summaryLine = (id: string, extra = '') =>
  `{"dataset":"d","doc_id":"doc-${id}","document":"The cat sat on the mat.","summary_id":"${id}","summary":"A cat sat."${extra}}`;

/** What the repository does with meta: it must survive this without a RangeError. */
function storable(value: unknown): boolean {
  JSON.stringify(value);
  return true;
}

describe('JSON nested too deep', () => {
  const tooDeep = (p: ImportProblem) => p.expected.includes(`at most ${MAX_JSON_DEPTH} levels`);

  it('refuses a meta nested 100,000 levels with file, line, field and the limit', () => {
    const file = text('deep.jsonl', [summaryLine('s1'), summaryLine('s2', `,"meta":${nested(100_000)}`)].join('\n'));
    const problems = problemsOf(() => summariesParser.parse([file], {}));
    expect(problems).toEqual([
      {
        file: 'deep.jsonl',
        line: 2,
        field: 'meta.a.a…',
        expected: `JSON nested at most ${MAX_JSON_DEPTH} levels deep`,
        found: expect.stringContaining(`more than ${MAX_JSON_DEPTH}`),
      },
    ]);
  });

  it('accepts exactly the limit and refuses one level more (the record counts as one)', () => {
    const atLimit = summariesParser.parse(
      [text('ok.jsonl', summaryLine('s1', `,"meta":${nested(MAX_JSON_DEPTH - 1)}`))],
      {},
    );
    expect(atLimit.summaries).toHaveLength(1);
    expect(storable(atLimit.summaries[0]!.meta)).toBe(true);
    const problems = problemsOf(() =>
      summariesParser.parse([text('over.jsonl', summaryLine('s1', `,"meta":${nested(MAX_JSON_DEPTH)}`))], {}),
    );
    expect(problems.map((p) => [p.line, p.field, tooDeep(p)])).toEqual([[1, 'meta.a.a…', true]]);
  });

  it('does not count brackets inside strings', () => {
    const brackets = '{['.repeat(50_000);
    const batch = summariesParser.parse(
      [text('b.jsonl', summaryLine('s1', `,"meta":{"note":"${brackets}\\"${brackets}"}`))],
      {},
    );
    expect(batch.summaries[0]!.meta).toEqual({ note: `${brackets}"${brackets}` });
  });

  it('refuses a deep JSON meta in a CSV cell at its line', () => {
    const cell = nested(100_000).replace(/"/g, '""');
    const csv = [
      'dataset,doc_id,document,summary_id,summary,meta',
      'd,1,The cat sat.,s1,A cat sat.,{}',
      `d,2,The dog ran.,s2,A dog ran.,"${cell}"`,
    ].join('\n');
    const problems = problemsOf(() => summariesParser.parse([text('deep.csv', csv)], {}));
    expect(problems.map((p) => [p.file, p.line, p.field, tooDeep(p)])).toEqual([['deep.csv', 3, 'meta.a.a…', true]]);
    // The same limit as JSON Lines: a cell one level below it is fine.
    const fine = `d,1,The cat sat.,s1,A cat sat.,"${nested(MAX_JSON_DEPTH - 1).replace(/"/g, '""')}"`;
    expect(
      summariesParser.parse([text('ok.csv', `dataset,doc_id,document,summary_id,summary,meta\n${fine}`)], {}).summaries,
    ).toHaveLength(1);
  });

  it('refuses a deep record in a JSON document with its record number and line', () => {
    const record = (i: number, extra = '') =>
      `{"id":"${i}","doc":"A dialogue.","summary":"A summary.","label":1${extra}}`;
    const list = `[\n${record(1)},\n${record(2, `,"edit_types":[${'['.repeat(100_000)}${']'.repeat(100_000)}]`)}\n]`;
    const problems = problemsOf(() => summeditsParser.parse([text('summedits_x.json', list)], {}));
    expect(problems.map((p) => [p.line, p.record, p.field, tooDeep(p)])).toEqual([[3, 2, 'edit_types[0][0]…', true]]);
  });

  it('refuses a FaithBench file with deep metadata', () => {
    const sample = `{"sample_id":0,"source":"S.","summary":"A.","annotations":[],"metadata":{"summarizer":"x","extra":${nested(100_000)}}}`;
    const problems = problemsOf(() => faithbenchParser.parse([text('batch_9.json', `{"samples":[${sample}]}`)], {}));
    expect(problems.map((p) => [p.record, p.field, tooDeep(p)])).toEqual([[undefined, 'samples[0].metadata…', true]]);
  });

  it('scans a million levels without recursion', () => {
    const deep = '['.repeat(1_000_000) + ']'.repeat(1_000_000);
    expect(findExcessNesting(deep)).toEqual({ path: Array.from({ length: MAX_JSON_DEPTH }, () => 0), line: 1 });
    expect(findExcessNesting(nested(MAX_JSON_DEPTH))).toBeNull();
  });

  it('the importer reports it as an import problem, not a stack overflow, and imports nothing', async () => {
    const path = join(dir, 'deep-import.jsonl');
    writeFileSync(path, [summaryLine('s1'), summaryLine('s2', `,"meta":${nested(100_000)}`)].join('\n'));
    const repo = new Repository(openProjectDatabase(Database, join(dir, 'deep.loupe'), { create: true }));
    const error = await runImport(repo, { source: { type: 'path', path } }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ImportValidationError);
    expect((error as ImportValidationError).problems.map((p) => [p.line, p.field])).toEqual([[2, 'meta.a.a…']]);
    expect(repo.datasetStats()).toEqual([]);
  });
});

describe('detection with a first record of several MB', () => {
  const BIG = 5 * 1024 * 1024;
  const bigText = 'The council met on Tuesday. '.repeat(Math.ceil(BIG / 28)).slice(0, BIG);
  const bigSummariesJsonl = () =>
    [
      `{"dataset":"d","doc_id":"1","document":"${bigText}","summary_id":"s1","summary":"The council met."}`,
      summaryLine('s2'),
    ].join('\n');

  it('finds Loupe summaries whose first document is 5 MB, from the text and from the file', async () => {
    const body = bigSummariesJsonl();
    expect(detectKind([{ path: 'big.jsonl', head: detectionHead(body) }])).toEqual({ kind: 'summaries' });
    const path = join(dir, 'big.jsonl');
    writeFileSync(path, body);
    const head = await readHead(path, 'big.jsonl');
    expect(head.head.length).toBeLessThanOrEqual(HEAD_CHARS);
    expect(firstLineKeys(head.head)).toEqual(['dataset', 'doc_id', 'document', 'summary_id', 'summary']);
    expect(detectKind([head])).toEqual({ kind: 'summaries' });
  });

  it('imports such a file without being told its kind', async () => {
    const path = join(dir, 'big-import.jsonl');
    writeFileSync(path, bigSummariesJsonl());
    const repo = new Repository(openProjectDatabase(Database, join(dir, 'big.loupe'), { create: true }));
    const result = await runImport(repo, { source: { type: 'path', path } });
    expect(result.kind).toBe('summaries');
    expect(repo.datasetStats().map((d) => d.summaries)).toEqual([2]);
  });

  it('finds HaluEval whose first document is 5 MB, whatever the file is called', () => {
    const line = `{"document":"${bigText}","right_summary":"The council met.","hallucinated_summary":"The council fled."}`;
    expect(detectKind([{ path: 'data.jsonl', head: detectionHead(`${line}\n${line}`) }])).toEqual({ kind: 'halueval' });
  });

  it('finds FaithBench (a JSON object holding a list) whose first source is 5 MB, from the file', async () => {
    const sample = (i: number) =>
      `{"sample_id":${i},"source":"${bigText}","summary":"The council met.","annotations":[],"metadata":{"summarizer":"m"}}`;
    const path = join(dir, 'batch_big.json');
    writeFileSync(path, `{"samples":[${sample(0)},${sample(1)}]}`);
    expect(detectKind([await readHead(path, 'batch_big.json')])).toEqual({ kind: 'faithbench' });
  });

  it('finds SummEdits (a JSON list) whose first doc is 5 MB for certain, not only by its name', () => {
    const list = `[{"id":"1","doc":"${bigText}","summary":"S.","label":1,"original_summary":"S.","edit_types":[],"split":"test"}]`;
    expect(summeditsParser.sniff([{ path: 'other.json', head: detectionHead(list) }])).toBe(2);
  });
});

describe('the detection head', () => {
  it('cuts long strings but keeps them closed, escapes whole, so the first line still parses', () => {
    const document = `${'x'.repeat(LONG_STRING - 1)}\\u00e9\\"${'y'.repeat(1000)}\\\\`;
    const line = `{"document":"${document}","summary_id":"s","note":"caf\\u00e9 \\"quoted\\""}`;
    const head = detectionHead(`${line}\n`);
    const parsed = JSON.parse(head.split('\n')[0]!) as Record<string, string>;
    expect(Object.keys(parsed)).toEqual(['document', 'summary_id', 'note']);
    expect(parsed.document).toBe(`${'x'.repeat(LONG_STRING - 1)}é…`);
    expect(parsed.note).toBe('café "quoted"');
  });

  it('is the same fed in chunks of any size as in one piece (the importer reads in chunks)', () => {
    const escapes = `\\u00e9\\"\\\\\\n`.repeat(200);
    const body = [
      `{"a":"${escapes}${'z'.repeat(3000)}","b":[1,2,{"c":"${escapes}"}]}`,
      ...Array.from({ length: 300 }, (_, i) => summaryLine(`s${i}`)),
    ].join('\n');
    const whole = detectionHead(body);
    expect(whole.length).toBe(HEAD_CHARS);
    for (const size of [1, 2, 3, 5, 7, 64, 1000, 4096]) {
      const builder = new HeadBuilder();
      for (let at = 0; at < body.length && !builder.push(body.slice(at, at + size)); at += size);
      expect(builder.result(), `chunks of ${size}`).toBe(whole);
    }
  });

  it('reads UTF-8 split across chunks from a file the same as from the text', async () => {
    const body = `{"document":"${'ü€😀'.repeat(30_000)}","summary_id":"s","summary":"ä"}\n`;
    const path = join(dir, 'utf8.jsonl');
    writeFileSync(path, body);
    expect((await readHead(path, 'utf8.jsonl')).head).toBe(detectionHead(body));
  });

  it('keeps CSV as text: the first 8 KiB and the rest of that line', () => {
    const header = 'dataset,doc_id,document,summary_id,summary';
    const rows = Array.from({ length: 400 }, (_, i) => `d,${i},"A ""quoted"" document ${'w'.repeat(50)}",s${i},Sum.`);
    const csv = [header, ...rows].join('\n');
    const head = detectionHead(csv);
    const cut = csv.indexOf('\n', HEAD_CHARS);
    expect(head).toBe(csv.slice(0, cut));
  });
});
