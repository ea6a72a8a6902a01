import Database from 'better-sqlite3';
import { closeSync, openSync, ftruncateSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { openProjectDatabase } from '../../../db/open';
import { Repository } from '../../../db/repository';
import { ImportValidationError } from '../../../shared/formats/types';
import { ImportCancelled, runImport } from '../../../electron/core/imports/run';
import { createCore, dispatch } from '../../../electron/core/index';
import type { Job } from '../../../shared/api';
import { newsRows, writeJsonl } from '../../helpers/project';
import { tempDir } from '../../helpers/tmp';

const dir = tempDir();
let repo: Repository;
let counter = 0;

beforeEach(() => {
  counter += 1;
  repo = new Repository(openProjectDatabase(Database, join(dir, `p${counter}.loupe`), { create: true }));
});

const fromPath = (path: string, extra: Record<string, unknown> = {}) =>
  runImport(repo, { source: { type: 'path', path }, ...extra });

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
    expect(first).toMatchObject({
      kind: 'summaries',
      summariesAdded: 5,
      summariesUnchanged: 0,
      unitsAdded: 15,
      datasets: ['news'],
    });
    const again = await fromPath(file);
    expect(again).toMatchObject({ summariesAdded: 0, summariesUnchanged: 5, unitsAdded: 0 });
    expect(counts()).toEqual([{ name: 'news', summaries: 5, units: 15 }]);
  });

  it('imports labels for imported summaries once, however often the file is imported', async () => {
    await fromPath(writeJsonl(join(dir, 'n2.jsonl'), newsRows(2)));
    const labels = writeJsonl(join(dir, 'labels.jsonl'), [
      { summary_id: 'sum-000', sentence_index: 0, label: 'faithful', annotator: 'ann' },
      {
        summary_id: 'sum-000',
        sentence_index: 2,
        label: 'unfaithful',
        annotator: 'ann',
        error_type: 'entity',
        note: 'wrong title',
      },
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
    const bad = Buffer.from(
      '{"dataset":"news","doc_id":"d","document":"Caf\xe9","summary_id":"x","summary":"Caf\xe9 opens."}\n',
      'latin1',
    );
    writeFileSync(path, Buffer.concat([good, bad]));
    const problems = await problemsOf(fromPath(path));
    expect(problems[0]).toMatchObject({ file: 'latin1.jsonl', line: 2, expected: 'UTF-8 text' });
  });

  it('refuses UTF-16 with a hint to re-save as UTF-8', async () => {
    const path = join(dir, 'utf16.jsonl');
    writeFileSync(
      path,
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(JSON.stringify(newsRows(1)[0]), 'utf16le')]),
    );
    const problems = await problemsOf(fromPath(path));
    expect(problems[0]!.found).toMatch(/UTF-16/);
  });

  it('refuses a 2 GB file of a whole-JSON format before reading it (line-oriented formats are streamed instead)', async () => {
    const path = join(dir, 'huge.json');
    const fd = openSync(path, 'w');
    ftruncateSync(fd, 2 * 1024 ** 3); // sparse: takes no disk space
    closeSync(fd);
    const problems = await problemsOf(fromPath(path, { as: 'summedits' }));
    expect(problems[0]).toMatchObject({ file: 'huge.json' });
    expect(problems[0]!.found).toMatch(/2\.1 GB/);
    expect(problems[0]!.expected).toMatch(/at most 536\.9 MB/);
  });

  it('names broken JSON by line', async () => {
    const path = join(dir, 'broken.jsonl');
    writeFileSync(path, JSON.stringify(newsRows(1)[0]) + '\n{"dataset": "news", "doc_id": \n');
    const problems = await problemsOf(fromPath(path, { as: 'summaries' }));
    expect(problems[0]).toMatchObject({ file: 'broken.jsonl', line: 2 });
  });

  it('asks for the format when it cannot be told, in the words of the host (the app by default, --as on the CLI)', async () => {
    const path = writeJsonl(join(dir, 'odd.jsonl'), [{ hello: 'world' }]);
    await expect(fromPath(path)).rejects.toThrow(
      /Cannot tell which format odd\.jsonl is\. Choose it in the Format menu\./,
    );
    await expect(fromPath(path, { formatChoice: 'pass --as KIND' })).rejects.toThrow(/Pass --as KIND\./);
  });

  it('leaves the project as it was when cancelled', async () => {
    const file = writeJsonl(join(dir, 'many.jsonl'), newsRows(2000));
    const controller = new AbortController();
    const run = runImport(
      repo,
      { source: { type: 'path', path: file } },
      (p) => {
        if (p.phase === 'splitting' && p.done >= 500) controller.abort();
      },
      controller.signal,
    );
    await expect(run).rejects.toBeInstanceOf(ImportCancelled);
    expect(counts()).toEqual([]);
  });

  it('imports an upload from the browser the same way', async () => {
    const text = newsRows(3)
      .map((r) => JSON.stringify(r))
      .join('\n');
    const result = await runImport(repo, { source: { type: 'upload', name: 'dropped.jsonl', text } });
    expect(result).toMatchObject({ summariesAdded: 3, filesUsed: ['dropped.jsonl'] });
  });

  it('imports the FRANK folder with its gold split, global labels and three annotators', async () => {
    const result = await fromPath(join(import.meta.dirname, '..', '..', '..', 'demo', 'frank'));
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

describe('bundled judge predictions that do not fit', () => {
  const RAW = join(
    import.meta.dirname,
    '..',
    '..',
    'fixtures',
    'benchmarks',
    'frank',
    'finesure-format',
    'fact-checking-raw-data.finesure.json',
  );

  /** The real FineSurE result file, with the judge reply of one record one prediction short. */
  function mergedReplyFile(
    name: string,
    edit: (lines: string[]) => void = () => {},
  ): { path: string; summaryId: string } {
    const lines = readFileSync(RAW, 'utf8').split('\n');
    const record = JSON.parse(lines[2]!) as { doc_id: string; model: string; pred_faithfulness_labels: number[] };
    record.pred_faithfulness_labels = record.pred_faithfulness_labels.slice(1);
    lines[2] = JSON.stringify(record);
    edit(lines);
    const path = join(dir, name);
    writeFileSync(path, lines.join('\n'));
    return { path, summaryId: `${record.doc_id}:${record.model}` };
  }

  it('imports the benchmark, keeps every other prediction, and reports the record it left them out of', async () => {
    const { path, summaryId } = mergedReplyFile('fact-checking-raw-data.json');
    const result = await fromPath(path, { as: 'frank' });
    expect(result).toMatchObject({ kind: 'frank', summariesAdded: 10, unitsAdded: 30, predictionsKept: 27 });
    expect(result.predictionsSkipped).toEqual([
      {
        file: 'fact-checking-raw-data.json',
        line: 3,
        summaryId,
        field: 'pred_faithfulness_labels',
        expected: 3,
        found: 2,
      },
    ]);
    expect(result.notes.some((n) => n.includes(`fact-checking-raw-data.json line 3 (${summaryId})`))).toBe(true);
    expect(counts()).toEqual([{ name: 'frank', summaries: 10, units: 30 }]);
  });

  it('a structural problem elsewhere in the file still imports nothing', async () => {
    const { path } = mergedReplyFile('raw-with-bad-type.json', (lines) => {
      lines[6] = lines[6]!.replace('"model": "', '"model": 7, "x": "');
    });
    const problems = await problemsOf(fromPath(path, { as: 'frank' }));
    expect(problems).toEqual([expect.objectContaining({ file: 'raw-with-bad-type.json', line: 7, field: 'model' })]);
    expect(counts()).toEqual([]);
  });
});

describe('uploads are bytes, decoded like files on disk', () => {
  const latin1 = Buffer.concat([
    Buffer.from(JSON.stringify(newsRows(1)[0]) + '\n'),
    Buffer.from(
      '{"dataset":"news","doc_id":"d","document":"Caf\xe9","summary_id":"x","summary":"Caf\xe9 opens."}\n',
      'latin1',
    ),
  ]);

  /** A `loupe serve` core (no disk paths) on a fresh project: what the browser talks to. */
  function webCore() {
    const state = tempDir();
    const core = createCore({
      Database,
      stateDir: state,
      demoDir: join(import.meta.dirname, '..', '..', '..', 'demo'),
      host: 'web',
      fileDialogs: false,
      diskPaths: false,
      canSwitchProjects: false,
    });
    core.createProject(join(state, 'web.loupe'));
    return core;
  }
  async function uploadThroughContract(core: ReturnType<typeof webCore>, source: unknown): Promise<Job> {
    const started = await dispatch(core.handlers, 'imports.start', { source });
    if (!started.ok) throw new Error(`imports.start refused: ${started.error.message}`);
    for (;;) {
      const job = await dispatch(core.handlers, 'jobs.get', { jobId: (started.value as { jobId: string }).jobId });
      if (!job.ok) throw new Error(job.error.message);
      if ((job.value as Job).state !== 'running') return job.value as Job;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  it('a Latin-1 upload through imports.start is refused with the same problems as the path import of the same bytes', async () => {
    const path = join(dir, 'cafe.jsonl');
    writeFileSync(path, latin1);
    const fromDisk = await problemsOf(fromPath(path));
    expect(fromDisk).toEqual([
      { file: 'cafe.jsonl', line: 2, expected: 'UTF-8 text', found: expect.stringMatching(/not valid UTF-8/) },
    ]);

    const core = webCore();
    try {
      const job = await uploadThroughContract(core, {
        type: 'upload',
        name: 'cafe.jsonl',
        base64: latin1.toString('base64'),
      });
      expect(job.state).toBe('failed');
      expect(job.error?.problems).toEqual(fromDisk);
      expect(await dispatch(core.handlers, 'datasets.list', {})).toEqual({ ok: true, value: [] });
    } finally {
      core.close();
    }
  });

  it('a UTF-8 upload (with a byte-order mark) imports like the file', async () => {
    const core = webCore();
    try {
      const bytes = Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from(
          newsRows(3)
            .map((r) => JSON.stringify(r))
            .join('\n'),
        ),
      ]);
      const job = await uploadThroughContract(core, {
        type: 'upload',
        name: 'news.jsonl',
        base64: bytes.toString('base64'),
      });
      expect(job.result).toMatchObject({ summariesAdded: 3, filesUsed: ['news.jsonl'], predictionsSkipped: [] });
    } finally {
      core.close();
    }
  });

  it('the contract takes bytes only: text (what the browser used to send, already U+FFFD) and non-base64 are refused', async () => {
    const core = webCore();
    try {
      const text = await dispatch(core.handlers, 'imports.start', {
        source: { type: 'upload', name: 'a.jsonl', text: 'Caf\uFFFD' },
      });
      expect(text).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
      const notBase64 = await dispatch(core.handlers, 'imports.start', {
        source: { type: 'upload', name: 'a.jsonl', base64: 'Café!' },
      });
      expect(notBase64).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    } finally {
      core.close();
    }
  });

  it('a surrogate written as UTF-8 bytes (ED A0 80) is not UTF-8: refused by the decoder on disk and in an upload', async () => {
    const csv = Buffer.concat([
      Buffer.from('dataset,doc_id,document,summary_id,summary\nnews,d1,The council met.,s1,The council '),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from(' met.\n'),
    ]);
    const path = join(dir, 'cesu.csv');
    writeFileSync(path, csv);
    const fromDisk = await problemsOf(fromPath(path, { as: 'summaries' }));
    expect(fromDisk).toEqual([expect.objectContaining({ file: 'cesu.csv', line: 2, expected: 'UTF-8 text' })]);
    const core = webCore();
    try {
      const job = await uploadThroughContract(core, {
        type: 'upload',
        name: 'cesu.csv',
        base64: csv.toString('base64'),
      });
      expect(job.error?.problems).toEqual(fromDisk);
    } finally {
      core.close();
    }
  });

  it('a lone surrogate escape is refused on the path import and in an upload, with line and field, and nothing is stored', async () => {
    const rows = newsRows(2).map((r) => JSON.stringify(r));
    rows[1] = rows[1]!.replace('Mayor Jane Smith called', 'Mayor \\uD800Jane Smith called');
    const body = Buffer.from(rows.join('\n') + '\n');
    const path = join(dir, 'lone.jsonl');
    writeFileSync(path, body);
    const fromDisk = await problemsOf(fromPath(path));
    expect(fromDisk).toEqual([
      {
        file: 'lone.jsonl',
        line: 2,
        field: 'summary',
        expected: expect.stringContaining('lone UTF-16 surrogates'),
        found: expect.stringContaining('\\uD800'),
      },
    ]);
    expect(counts()).toEqual([]);
    const core = webCore();
    try {
      const job = await uploadThroughContract(core, {
        type: 'upload',
        name: 'lone.jsonl',
        base64: body.toString('base64'),
      });
      expect(job.error?.problems).toEqual(fromDisk);
    } finally {
      core.close();
    }
  });

  it('text handed in-process with a raw lone surrogate is refused with its line (encoding it would store U+FFFD)', async () => {
    // CSV: raw text, no JSON escapes (JSON.stringify would write a lone surrogate as an escape).
    const text =
      'dataset,doc_id,document,summary_id,summary\nnews,d1,The council met.,s1,The council met.\nnews,d1,The council met.,s2,Mayor \uD800 spoke.\n';
    const problems = await problemsOf(
      runImport(repo, { source: { type: 'upload', name: 'inline.csv', text }, as: 'summaries' }),
    );
    expect(problems).toEqual([
      {
        file: 'inline.csv',
        line: 3,
        expected: expect.stringContaining('lone UTF-16 surrogates'),
        found: expect.stringContaining('\\uD800'),
      },
    ]);
    expect(counts()).toEqual([]);
  });
});

describe('predictions imported again', () => {
  const prediction = (summary: number, sentence: number, judge: string, hard: 0 | 1) => ({
    dataset: 'news',
    summary_id: `sum-${String(summary).padStart(3, '0')}`,
    sentence_index: sentence,
    judge,
    hard,
  });

  it('refuses one that differs from the stored prediction of that judge, and keeps one that matches', async () => {
    await fromPath(writeJsonl(join(dir, `conflict-news-${counter}.jsonl`), newsRows(3)));
    const first = [prediction(0, 0, 'j1', 1), prediction(1, 2, 'j1', 0)];
    const stored = await fromPath(writeJsonl(join(dir, `conflict-a-${counter}.jsonl`), first), { as: 'predictions' });
    expect(stored.predictionsKept).toBe(2);

    // The same predictions again, and a first one for another judge: nothing conflicts.
    const again = [...first, prediction(1, 2, 'j2', 1)];
    const kept = await fromPath(writeJsonl(join(dir, `conflict-b-${counter}.jsonl`), again), { as: 'predictions' });
    expect(kept.predictionsKept).toBe(1);

    // j1 said 0 on sum-001 sentence 2: a file saying 1 there is refused at its line, and nothing lands.
    const differing = [prediction(2, 0, 'j1', 1), prediction(1, 2, 'j1', 1)];
    const problems = await problemsOf(
      fromPath(writeJsonl(join(dir, `conflict-c-${counter}.jsonl`), differing), { as: 'predictions' }),
    );
    expect(problems).toEqual([
      expect.objectContaining({
        line: 2,
        field: 'hard',
        expected: expect.stringContaining(
          'the prediction already stored for "j1" on summary "sum-001" sentence 2 (hard 0',
        ),
      }),
    ]);
    expect(repo.judges.listJudges().map((j) => [j.name, j.ok])).toEqual([
      ['j1', 2],
      ['j2', 1],
    ]);
  });
});
