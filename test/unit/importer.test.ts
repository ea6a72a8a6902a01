import Database from 'better-sqlite3';
import { closeSync, openSync, ftruncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { openProjectDatabase } from '../../db/open';
import { Repository } from '../../db/repository';
import { ImportValidationError } from '../../shared/formats/types';
import { ImportCancelled, runImport } from '../../electron/core/imports/run';
import { newsRows, writeJsonl } from '../helpers/project';
import { tempDir } from '../helpers/tmp';

const dir = tempDir();
let repo: Repository;
let counter = 0;

beforeEach(() => {
  counter += 1;
  repo = new Repository(openProjectDatabase(Database, join(dir, `p${counter}.loupe`), { create: true }));
});

const fromPath = (path: string, extra: Record<string, unknown> = {}) => runImport(repo, { source: { type: 'path', path }, ...extra });

async function problemsOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ImportValidationError) return err.problems;
    throw err;
  }
  throw new Error('expected the import to fail');
}

function counts() {
  return repo.datasetStats().map((d) => ({ name: d.name, summaries: d.summaries, units: d.units }));
}

describe('import service', () => {
  it('imports Loupe JSONL, splits it, and a second import of the same file changes nothing', async () => {
    const file = writeJsonl(join(dir, 'news.jsonl'), newsRows(5));
    const first = await fromPath(file);
    expect(first).toMatchObject({ kind: 'summaries', summariesAdded: 5, summariesUnchanged: 0, unitsAdded: 15, datasets: ['news'] });
    const again = await fromPath(file);
    expect(again).toMatchObject({ summariesAdded: 0, summariesUnchanged: 5, unitsAdded: 0 });
    expect(counts()).toEqual([{ name: 'news', summaries: 5, units: 15 }]);
  });

  it('imports labels for imported summaries once, however often the file is imported', async () => {
    await fromPath(writeJsonl(join(dir, 'n2.jsonl'), newsRows(2)));
    const labels = writeJsonl(join(dir, 'labels.jsonl'), [
      { summary_id: 'sum-000', sentence_index: 0, label: 'faithful', annotator: 'ann' },
      { summary_id: 'sum-000', sentence_index: 2, label: 'unfaithful', annotator: 'ann', error_type: 'entity', note: 'wrong title' },
      { summary_id: 'sum-001', sentence_index: 1, label: 'unclear', annotator: 'bob', phase: 'review' },
    ]);
    expect(await fromPath(labels)).toMatchObject({ kind: 'labels', labelsAdded: 3 });
    expect(await fromPath(labels)).toMatchObject({ labelsAdded: 0, labelsUnchanged: 3 });
    const history = repo.labelHistory('news');
    expect(history.map((h) => [h.annotator, h.phase, h.label, h.errorType])).toEqual([
      ['ann', 'annotation', 'faithful', null],
      ['ann', 'annotation', 'unfaithful', 'entity'],
      ['bob', 'review', 'unclear', null],
    ]);
  });

  it('imports nothing when one record is bad, and names file, line and field', async () => {
    const rows: unknown[] = newsRows(4);
    (rows[2] as { summary: string }).summary = '';
    const problems = await problemsOf(fromPath(writeJsonl(join(dir, 'bad.jsonl'), rows)));
    expect(problems[0]).toMatchObject({ file: 'bad.jsonl', line: 3, field: 'summary' });
    expect(counts()).toEqual([]);
  });

  it('refuses labels that point at unknown summaries or sentences, importing none of them', async () => {
    await fromPath(writeJsonl(join(dir, 'n3.jsonl'), newsRows(1)));
    const problems = await problemsOf(
      fromPath(
        writeJsonl(join(dir, 'labels-bad.jsonl'), [
          { summary_id: 'sum-000', sentence_index: 0, label: 'faithful', annotator: 'ann' },
          { summary_id: 'sum-000', sentence_index: 7, label: 'faithful', annotator: 'ann' },
          { summary_id: 'nope', sentence_index: 0, label: 'faithful', annotator: 'ann' },
        ]),
      ),
    );
    expect(problems.map((p) => [p.line, p.field])).toEqual([
      [2, 'sentence_index'],
      [3, 'summary_id'],
    ]);
    expect(problems[0]!.expected).toMatch(/0 to 2/);
    expect(repo.labelHistory(null)).toEqual([]);
  });

  it('refuses a summary id that exists with different content', async () => {
    await fromPath(writeJsonl(join(dir, 'a.jsonl'), newsRows(2)));
    const changed = newsRows(2);
    changed[1]!.summary = 'A different summary text.';
    const problems = await problemsOf(fromPath(writeJsonl(join(dir, 'b.jsonl'), changed)));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ file: 'b.jsonl', line: 2, field: 'summary_id' });
  });

  it('refuses a file that is not UTF-8, naming the line', async () => {
    const path = join(dir, 'latin1.jsonl');
    const good = Buffer.from(JSON.stringify(newsRows(1)[0]) + '\n');
    const bad = Buffer.from('{"dataset":"news","doc_id":"d","document":"Caf\xe9","summary_id":"x","summary":"Caf\xe9 opens."}\n', 'latin1');
    writeFileSync(path, Buffer.concat([good, bad]));
    const problems = await problemsOf(fromPath(path));
    expect(problems[0]).toMatchObject({ file: 'latin1.jsonl', line: 2, expected: 'UTF-8 text' });
  });

  it('refuses UTF-16 with a hint to re-save as UTF-8', async () => {
    const path = join(dir, 'utf16.jsonl');
    writeFileSync(path, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(JSON.stringify(newsRows(1)[0]), 'utf16le')]));
    const problems = await problemsOf(fromPath(path));
    expect(problems[0]!.found).toMatch(/UTF-16/);
  });

  it('refuses a 2 GB file before reading it', async () => {
    const path = join(dir, 'huge.jsonl');
    const fd = openSync(path, 'w');
    ftruncateSync(fd, 2 * 1024 ** 3); // sparse: takes no disk space
    closeSync(fd);
    const problems = await problemsOf(fromPath(path));
    expect(problems[0]).toMatchObject({ file: 'huge.jsonl' });
    expect(problems[0]!.found).toMatch(/2\.1 GB/);
    expect(problems[0]!.expected).toMatch(/at most 536\.9 MB/);
  });

  it('names broken JSON by line', async () => {
    const path = join(dir, 'broken.jsonl');
    writeFileSync(path, JSON.stringify(newsRows(1)[0]) + '\n{"dataset": "news", "doc_id": \n');
    const problems = await problemsOf(fromPath(path, { as: 'summaries' }));
    expect(problems[0]).toMatchObject({ file: 'broken.jsonl', line: 2 });
  });

  it('asks for --as when the format cannot be told', async () => {
    const path = writeJsonl(join(dir, 'odd.jsonl'), [{ hello: 'world' }]);
    await expect(fromPath(path)).rejects.toThrow(/--as/);
  });

  it('leaves the project as it was when cancelled', async () => {
    const file = writeJsonl(join(dir, 'many.jsonl'), newsRows(2000));
    const controller = new AbortController();
    const run = runImport(repo, { source: { type: 'path', path: file } }, (p) => {
      if (p.phase === 'splitting' && p.done >= 500) controller.abort();
    }, controller.signal);
    await expect(run).rejects.toBeInstanceOf(ImportCancelled);
    expect(counts()).toEqual([]);
  });

  it('imports an upload from the browser the same way', async () => {
    const text = newsRows(3).map((r) => JSON.stringify(r)).join('\n');
    const result = await runImport(repo, { source: { type: 'upload', name: 'dropped.jsonl', text } });
    expect(result).toMatchObject({ summariesAdded: 3, filesUsed: ['dropped.jsonl'] });
  });

  it('imports the FRANK folder with its gold split, global labels and three annotators', async () => {
    const result = await fromPath(join(import.meta.dirname, '..', '..', 'demo', 'frank'));
    expect(result.kind).toBe('frank');
    expect(result.summariesAdded).toBeGreaterThan(200);
    expect(result.filesUsed.some((f) => f.includes('human_annotations'))).toBe(true);
    const annotators = repo.listAnnotators().map((a) => a.name);
    expect(annotators).toEqual(expect.arrayContaining(['frank-0', 'frank-1', 'frank-2']));
  });
});

describe('format detection on real-sized records', () => {
  it('recognises Loupe JSONL whose first document is longer than the sniffing head', async () => {
    const rows = newsRows(2);
    rows[0]!.document = 'A long story. '.repeat(5000); // ~70 kB before summary_id appears
    const result = await fromPath(writeJsonl(join(dir, 'long-first.jsonl'), rows));
    expect(result).toMatchObject({ kind: 'summaries', summariesAdded: 2 });
  });
});
