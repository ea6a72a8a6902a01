/**
 * A streamed import (a file over the byte budget, read a chunk at a time in two passes) keeps
 * every promise of a whole read: the same project, the same problems, nothing written when it
 * fails, is cancelled or the file changes between the passes. The budget and the chunk size are
 * set small through the request, so the files stay small.
 */
import Database from 'better-sqlite3';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openProjectDatabase, type Database as ProjectDatabase } from '../../../db/open';
import { Repository } from '../../../db/repository';
import {
  ImportCancelled,
  runImport,
  type ImportProgress,
  type ImportRequest,
} from '../../../electron/core/imports/run';
import { LineSplitter } from '../../../shared/formats/lines';
import { ImportValidationError } from '../../../shared/formats/types';
import { newsRows } from '../../helpers/project';
import { tempDir } from '../../helpers/tmp';
import { fixture } from './helpers';

const dir = tempDir();
let counter = 0;

function project(): { db: ProjectDatabase; repo: Repository } {
  counter += 1;
  const db = openProjectDatabase(Database, join(dir, `p${counter}.loupe`), { create: true });
  return { db, repo: new Repository(db) };
}

/** Streamed whatever the file's size, `chunkBytes` at a time. */
const streamed = (chunkBytes: number): Partial<ImportRequest> => ({ streamAboveBytes: 0, chunkBytes });

function importFile(
  repo: Repository,
  path: string,
  extra: Partial<ImportRequest> = {},
  onProgress?: (p: ImportProgress) => void,
  signal?: AbortSignal,
) {
  return runImport(repo, { source: { type: 'path', path }, ...extra }, onProgress, signal);
}

/** Everything an import of summaries writes, without row ids' creation times. */
function dump(db: ProjectDatabase) {
  const all = (sql: string) => db.prepare(sql).all();
  return {
    datasets: all('SELECT id, name FROM datasets ORDER BY id'),
    documents: all('SELECT id, dataset_id, doc_id, text FROM documents ORDER BY id'),
    summaries: all(
      'SELECT id, dataset_id, document_id, summary_id, text, global_label, meta, import_id FROM summaries ORDER BY id',
    ),
    units: all('SELECT * FROM units ORDER BY id'),
    imports: all('SELECT kind, files, content_hash, summaries, labels FROM imports ORDER BY id'),
  };
}

async function failure(promise: Promise<unknown>): Promise<ImportValidationError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ImportValidationError) return err;
    throw err;
  }
  throw new Error('expected the import to fail');
}

/** Rows with what a stream can cut badly: multibyte characters (2, 3 and 4 bytes), a given split, meta. */
function varied(count: number) {
  return newsRows(count).map((row, i) => ({
    ...row,
    document: `${row.document} Café Zürich — 東京 😀 ${i}.`,
    summary: `${row.summary} Ünïcode ✓ 😀 here ${i}.`,
    ...(i % 3 === 0 ? { sentences: [`${row.summary.split('. ')[0]}.`] } : {}),
    meta: { i, tag: '€' },
  }));
}

function jsonlText(rows: unknown[], eol: string): string {
  return rows.map((r) => JSON.stringify(r)).join(eol) + eol;
}

describe('streamed import', () => {
  it('gives the same project and result as a whole read, for JSON Lines with a BOM, CRLF and lone CR, cut anywhere', async () => {
    const rows = varied(40);
    // Lines end in CR LF, lone CR and LF in turn; multibyte characters fall on chunk edges for some chunk size.
    const text = '\uFEFF' + rows.map((r, i) => JSON.stringify(r) + ['\r\n', '\r', '\n'][i % 3]).join('');
    const path = join(dir, 'varied.jsonl');
    writeFileSync(path, text);
    const whole = project();
    const expected = await importFile(whole.repo, path);
    expect(expected.summariesAdded).toBe(40);
    for (const chunkBytes of [1, 2, 3, 5, 7, 64, 4096]) {
      const target = project();
      let chunksRead = 0;
      const result = await importFile(target.repo, path, streamed(chunkBytes), (p) => {
        if (p.phase === 'parsing') chunksRead += 1;
      });
      // Read a chunk at a time (each reported), plus the end of the file.
      expect(chunksRead).toBe(Math.ceil(Buffer.byteLength(text) / chunkBytes) + 1);
      expect(result).toEqual(expected);
      expect(dump(target.db)).toEqual(dump(whole.db));
    }
  });

  it('gives the same project for CSV with quoted multi-line cells and CRLF, cut anywhere', async () => {
    const quote = (cell: string) => `"${cell.replace(/"/g, '""')}"`;
    const header = 'dataset,doc_id,document,summary_id,summary,label,meta';
    const lines = varied(12).map((r) =>
      [
        r.dataset,
        r.doc_id,
        quote(`${r.document}\r\nSecond "paragraph" line.`),
        r.summary_id,
        quote(r.summary),
        r.label,
        quote(JSON.stringify(r.meta)),
      ].join(','),
    );
    const path = join(dir, 'varied.csv');
    writeFileSync(path, '\uFEFF' + [header, ...lines].join('\r\n') + '\r\n');
    const whole = project();
    const expected = await importFile(whole.repo, path);
    expect(expected.summariesAdded).toBe(12);
    for (const chunkBytes of [1, 3, 17, 256]) {
      const target = project();
      expect(await importFile(target.repo, path, streamed(chunkBytes))).toEqual(expected);
      expect(dump(target.db)).toEqual(dump(whole.db));
    }
  });

  it('a folder of summaries files streams to the same project and content hash as a whole read', async () => {
    const folder = join(dir, 'folder');
    mkdirSync(folder);
    writeFileSync(join(folder, 'a.jsonl'), jsonlText(varied(10), '\n'));
    writeFileSync(join(folder, 'b.jsonl'), jsonlText(newsRows(5, 'other'), '\r\n'));
    const whole = project();
    const expected = await importFile(whole.repo, folder);
    expect(expected).toMatchObject({ summariesAdded: 15, datasets: ['news', 'other'] });
    const target = project();
    expect(await importFile(target.repo, folder, streamed(50))).toEqual(expected);
    expect(dump(target.db)).toEqual(dump(whole.db));
  });

  it('HaluEval (benchmark JSON Lines, ids from line numbers) streams to the same project as a whole read', async () => {
    const path = fixture('halueval-sample.jsonl');
    const whole = project();
    const expected = await importFile(whole.repo, path);
    expect(expected.kind).toBe('halueval');
    expect(expected.summariesAdded).toBeGreaterThan(0);
    const target = project();
    expect(await importFile(target.repo, path, streamed(333))).toEqual(expected);
    expect(dump(target.db)).toEqual(dump(whole.db));
  });

  it('a second streamed import of the same file changes nothing', async () => {
    const path = join(dir, 'twice.jsonl');
    writeFileSync(path, jsonlText(varied(30), '\n'));
    const { db, repo } = project();
    await importFile(repo, path, streamed(100));
    const before = dump(db);
    const again = await importFile(repo, path, streamed(100));
    expect(again).toMatchObject({ summariesAdded: 0, summariesUnchanged: 30, unitsAdded: 0 });
    expect(dump(db).summaries).toEqual(before.summaries);
    expect(dump(db).units).toEqual(before.units);
  });

  it('a problem on a late line is reported with file, line and field, the same as a whole read, and nothing is written', async () => {
    const rows: unknown[] = varied(50);
    rows[47] = { ...newsRows(48)[47], label: 7 };
    const path = join(dir, 'late.jsonl');
    writeFileSync(path, jsonlText(rows, '\r\n'));
    const whole = project();
    const wholeError = await failure(importFile(whole.repo, path));
    const target = project();
    const error = await failure(importFile(target.repo, path, streamed(64)));
    expect(error.problems).toEqual(wholeError.problems);
    expect(error.problems[0]).toMatchObject({ file: 'late.jsonl', line: 48, field: 'label' });
    expect(dump(target.db).summaries).toEqual([]);
  });

  it('a summary conflicting with the project on a late line is refused, and nothing of the file is written', async () => {
    const { db, repo } = project();
    const earlier = join(dir, 'earlier.jsonl');
    writeFileSync(earlier, jsonlText([newsRows(60)[55]], '\n'));
    await importFile(repo, earlier);
    const rows = newsRows(60);
    rows[55] = { ...rows[55]!, summary: 'Another text entirely.' };
    const path = join(dir, 'conflict.jsonl');
    writeFileSync(path, jsonlText(rows, '\n'));
    const error = await failure(importFile(repo, path, streamed(256)));
    expect(error.problems[0]).toMatchObject({ file: 'conflict.jsonl', line: 56, field: 'summary_id' });
    expect(dump(db).summaries).toHaveLength(1);
  });

  it('cancelled during the first pass, leaves the project unchanged', async () => {
    const path = join(dir, 'cancel.jsonl');
    writeFileSync(path, jsonlText(newsRows(200), '\n'));
    const { db, repo } = project();
    const controller = new AbortController();
    const phases: string[] = [];
    const run = importFile(
      repo,
      path,
      streamed(1024),
      (p) => {
        phases.push(p.phase);
        if (p.phase === 'parsing' && p.done >= 10_000) controller.abort();
      },
      controller.signal,
    );
    await expect(run).rejects.toBeInstanceOf(ImportCancelled);
    expect(phases).not.toContain('writing');
    expect(dump(db).summaries).toEqual([]);
    expect(dump(db).imports).toEqual([]);
  });

  it('a file changed between the passes leaves the project unchanged, with a clear error', async () => {
    const path = join(dir, 'changing.jsonl');
    const rows = newsRows(30);
    writeFileSync(path, jsonlText(rows, '\n'));
    const { db, repo } = project();
    let changed = false;
    const error = await failure(
      importFile(repo, path, streamed(512), (p) => {
        // The second pass starts once writing is announced: the file changes just before it.
        if (p.phase === 'writing' && !changed) {
          changed = true;
          writeFileSync(path, jsonlText([...rows, ...newsRows(31).slice(30)], '\n'));
        }
      }),
    );
    expect(changed).toBe(true);
    expect(error.message).toMatch(/changing\.jsonl changed while it was being imported/);
    expect(error.problems[0]).toMatchObject({ expected: expect.stringMatching(/same file/) });
    expect(dump(db).summaries).toEqual([]);
    expect(dump(db).imports).toEqual([]);
  });

  it('invalid UTF-8 in a streamed file is named by its line, as in a whole read', async () => {
    const path = join(dir, 'latin1.jsonl');
    const good = jsonlText(newsRows(20), '\n');
    writeFileSync(path, Buffer.concat([Buffer.from(good), Buffer.from([0x7b, 0xe9, 0x7d, 0x0a])]));
    const whole = await failure(importFile(project().repo, path));
    const target = project();
    const error = await failure(importFile(target.repo, path, streamed(300)));
    expect(error.problems).toEqual(whole.problems);
    expect(error.problems[0]).toMatchObject({ line: 21, expected: 'UTF-8 text' });
    expect(dump(target.db).summaries).toEqual([]);
  });
});

describe('LineSplitter', () => {
  it('refuses a line over its limit once, at its line, and reads on after it', () => {
    const splitter = new LineSplitter(10);
    const seen: Array<[string, number]> = [];
    const overlong: number[] = [];
    const sink = {
      line: (text: string, line: number) => seen.push([text, line]),
      overlong: (line: number) => overlong.push(line),
    };
    for (const piece of ['short\r', '\n01234', '56789abcdef', 'ghij\nlast']) splitter.push(piece, sink);
    splitter.end(sink);
    expect(overlong).toEqual([2]);
    expect(seen).toEqual([
      ['short', 1],
      ['last', 3],
    ]);
  });
});

describe('LineSplitter on any cut', () => {
  /** The lines of a whole text: LF, CR LF and a lone CR each end one; a last line without a break counts when not empty. */
  function referenceLines(text: string): Array<[string, number]> {
    const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
    if (lines.at(-1) === '') lines.pop();
    return lines.map((line, i) => [line, i + 1]);
  }

  it('hands out the same lines, numbered alike, wherever the pieces are cut', () => {
    let seed = 12345;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const alphabet = ['a', 'b', '\r', '\n', '\r\n', 'é', '{}', ' '];
    for (let round = 0; round < 400; round += 1) {
      const length = Math.floor(random() * 30);
      let text = random() < 0.2 ? '\uFEFF' : '';
      for (let i = 0; i < length; i += 1) text += alphabet[Math.floor(random() * alphabet.length)];
      const pieces: string[] = [];
      for (let at = 0; at < text.length;) {
        const size = 1 + Math.floor(random() * 6);
        pieces.push(text.slice(at, at + size));
        at += size;
      }
      const seen: Array<[string, number]> = [];
      const splitter = new LineSplitter();
      const sink = {
        line: (line: string, n: number) => seen.push([line, n]),
        overlong: () => seen.push(['overlong', -1]),
      };
      for (const piece of pieces) splitter.push(piece, sink);
      splitter.end(sink);
      expect({ text, pieces, seen }).toEqual({ text, pieces, seen: referenceLines(text) });
      expect(splitter.linesSeen).toBe(seen.length);
    }
  });
});
