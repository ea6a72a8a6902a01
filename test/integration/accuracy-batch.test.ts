/**
 * Batch files for the accuracy tasks, through the contract (accuracy.batchExport /
 * batchImport via dispatch): export a task's requests, run them through the stand-in batch engine
 * (test/mock-openai/batch-executor.ts) against the mock server, import the output, and find what a
 * live run of the same configuration stores (claim sets, then claim verdicts); a second export is
 * empty. The browser's text fallback round-trips the same way; a file of another task is refused
 * line by line; a core without disk paths (`loupe serve`) refuses paths.
 */
import Database from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, dispatch, type Core } from '../../electron/core/index';
import { runImport } from '../../electron/core/imports/run';
import type { AccuracyRunStatus } from '../../shared/contract/accuracy';
import type { ApiInput, ApiMethod, ApiOutput } from '../../shared/api';
import { writeJsonl } from '../helpers/project';
import { tempDir } from '../helpers/tmp';
import { accuracyResponder } from '../mock-openai/accuracy';
import { runBatchFile } from '../mock-openai/batch-executor';
import { startMockOpenAI, type MockServer } from '../mock-openai/server';

const dir = tempDir('loupe-accuracy-batch-');
const DOC1 =
  'The city will spend 2 million euros to renovate the central library. Work starts on 1 March 2025 and will last 18 months.';
const DOC2 = 'The council approved a new park on Monday. The park will open in June.';
const ROWS = [
  {
    dataset: 'acc',
    doc_id: 'd1',
    document: DOC1,
    summary_id: 's1',
    summary: 'The city will renovate the central library, and work starts on 1 March 2025.',
  },
  {
    dataset: 'acc',
    doc_id: 'd2',
    document: DOC2,
    summary_id: 's2',
    summary: 'The council approved a new park, and it will open in 2026.',
  },
];

let mock: MockServer;

interface Project {
  core: Core;
  path: string;
  call<M extends ApiMethod>(method: M, input: ApiInput<M>): Promise<ApiOutput<M>>;
  fail<M extends ApiMethod>(method: M, input: ApiInput<M>): Promise<{ code: string; message: string }>;
}

let made = 0;
async function project(diskPaths = true): Promise<Project> {
  const name = `p${made++}`;
  const core = createCore({
    Database,
    stateDir: join(dir, `${name}-state`),
    demoDir: dir,
    host: 'electron',
    fileDialogs: false,
    diskPaths,
    canSwitchProjects: false,
    allowedKeyEnv: 'any',
    env: {},
  });
  const path = join(dir, `${name}.loupe`);
  core.createProject(path);
  await runImport(core.repository(), { source: { type: 'path', path: writeJsonl(join(dir, `${name}.jsonl`), ROWS) } });
  const call = async <M extends ApiMethod>(method: M, input: ApiInput<M>): Promise<ApiOutput<M>> => {
    const envelope = await dispatch(core.handlers, method, input);
    if (!envelope.ok) throw new Error(`${method}: ${envelope.error.message}`);
    return envelope.value as ApiOutput<M>;
  };
  const fail = async <M extends ApiMethod>(method: M, input: ApiInput<M>) => {
    const envelope = await dispatch(core.handlers, method, input);
    if (envelope.ok) throw new Error(`${method} was expected to fail`);
    return envelope.error;
  };
  await call('judges.add', {
    name: 'checker',
    config: { kind: 'endpoint', baseUrl: mock.url, model: 'mock-judge', concurrency: 2, retries: 1 },
  });
  return { core, path, call, fail };
}

async function finish(p: Project, input: ApiInput<'accuracy.start'>): Promise<AccuracyRunStatus> {
  let status = await p.call('accuracy.start', input);
  const started = Date.now();
  while (status.state === 'running') {
    if (Date.now() - started > 20_000) throw new Error(`${input.task} did not finish`);
    await new Promise((r) => setTimeout(r, 10));
    status = await p.call('accuracy.status', { runId: status.runId });
  }
  return status;
}

function rows<T>(p: Project, sql: string): T[] {
  const db = new Database(p.path, { readonly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

const claimsOf = (p: Project) =>
  rows<{ summary: string; sentence: number; idx: number; text: string; source: string; decomposer: string }>(
    p,
    `SELECT s.summary_id AS summary, u.idx AS sentence, c.idx, c.text, cs.source, cs.decomposer FROM claims c JOIN claim_sets cs ON cs.id = c.set_id
     JOIN summaries s ON s.id = cs.summary_id JOIN units u ON u.id = c.sentence_unit_id ORDER BY s.summary_id, u.idx, c.idx`,
  );
const verdictsOf = (p: Project) =>
  rows<{ text: string; supported: number; error_type: string | null; config_hash: string }>(
    p,
    'SELECT c.text, p.supported, p.error_type, p.config_hash FROM claim_predictions p JOIN claims c ON c.id = p.claim_id ORDER BY c.text',
  );
const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');

beforeAll(async () => {
  mock = await startMockOpenAI({ respond: accuracyResponder });
});
afterAll(async () => {
  await mock.close();
});

describe('batch files for the accuracy tasks', () => {
  it('round trip by path: decomposition and verdicts through a batch engine store what a live run stores; a second export is empty', async () => {
    const live = await project();
    expect(await finish(live, { task: 'claim_decomposition', judge: 'checker' })).toMatchObject({
      state: 'done',
      ok: 2,
    });
    expect(await finish(live, { task: 'claim_verdict', judge: 'checker' })).toMatchObject({ state: 'done' });
    const liveClaims = claimsOf(live);
    const liveVerdicts = verdictsOf(live);
    expect(liveClaims.length).toBeGreaterThan(2);
    expect(liveVerdicts).toHaveLength(liveClaims.length);
    live.core.close();

    const batch = await project();
    mock.reset();
    const decompose = { task: 'claim_decomposition' as const, judge: 'checker' };
    const requestsPath = join(dir, 'decompose-requests.jsonl');
    const exported = await batch.call('accuracy.batchExport', { run: decompose, path: requestsPath });
    expect(exported).toMatchObject({
      task: 'claim_decomposition',
      model: 'checker',
      selection: 2,
      requests: 2,
      path: requestsPath,
      content: null,
    });
    expect(mock.requests).toHaveLength(0); // an export sends nothing
    const written = lines(requestsPath).map(
      (l) => JSON.parse(l) as { custom_id: string; method: string; url: string; body: { messages: unknown[] } },
    );
    expect(written.map((l) => [l.method, l.url])).toEqual([
      ['POST', '/v1/chat/completions'],
      ['POST', '/v1/chat/completions'],
    ]);
    expect(written.every((l) => l.custom_id.startsWith(`loupe:claim_decomposition:${exported.configHash}:`))).toBe(
      true,
    );

    const outputPath = join(dir, 'decompose-output.jsonl');
    expect(await runBatchFile(requestsPath, outputPath, mock.url)).toMatchObject({ lines: 2, ok: 2 });
    const imported = await batch.call('accuracy.batchImport', {
      run: decompose,
      source: { type: 'path', path: outputPath },
    });
    expect(imported).toMatchObject({
      task: 'claim_decomposition',
      lines: 2,
      answered: 2,
      failed: 0,
      unknown: 0,
      stillToDo: 0,
    });
    // Same claims, same provenance (the configuration hash is the live run's).
    expect(claimsOf(batch)).toEqual(liveClaims);

    // The claims exist now: the verdicts go through a batch file too.
    const verdict = { task: 'claim_verdict' as const, judge: 'checker' };
    const verdictRequests = join(dir, 'verdict-requests.jsonl');
    const verdictOutput = join(dir, 'verdict-output.jsonl');
    expect(await batch.call('accuracy.batchExport', { run: verdict, path: verdictRequests })).toMatchObject({
      requests: liveClaims.length,
    });
    await runBatchFile(verdictRequests, verdictOutput, mock.url);
    expect(
      await batch.call('accuracy.batchImport', { run: verdict, source: { type: 'path', path: verdictOutput } }),
    ).toMatchObject({ answered: liveClaims.length, stillToDo: 0 });
    expect(verdictsOf(batch)).toEqual(liveVerdicts);

    // Nothing is left to do: a second export writes an empty file, and a run sends nothing.
    const again = join(dir, 'again.jsonl');
    expect(await batch.call('accuracy.batchExport', { run: verdict, path: again })).toMatchObject({
      requests: 0,
      done: liveClaims.length,
    });
    expect(lines(again)).toEqual([]);
    mock.reset();
    expect(await finish(batch, verdict)).toMatchObject({ requests: 0 });
    expect(mock.requests).toHaveLength(0);
    batch.core.close();
  });

  it('the browser fallback (text out, upload in) round-trips; another task’s answers and broken lines are counted, not stored', async () => {
    const p = await project(false);
    const extract = { task: 'keyfact_extraction' as const, judge: 'checker', dataset: 'acc' };
    // No disk paths here (loupe serve): a path is refused, the text comes back instead.
    expect(await p.fail('accuracy.batchExport', { run: extract, path: join(dir, 'nope.jsonl') })).toMatchObject({
      code: 'unsupported',
    });
    expect(
      await p.fail('accuracy.batchImport', { run: extract, source: { type: 'path', path: join(dir, 'nope.jsonl') } }),
    ).toMatchObject({ code: 'unsupported' });
    const exported = await p.call('accuracy.batchExport', { run: extract });
    expect(exported).toMatchObject({ requests: 2, path: null, fileName: 'keyfact_extraction-checker-requests.jsonl' });
    const requestsPath = join(dir, 'extract-requests.jsonl');
    writeFileSync(requestsPath, exported.content!);
    const outputPath = join(dir, 'extract-output.jsonl');
    await runBatchFile(requestsPath, outputPath, mock.url);
    const [first, second] = lines(outputPath);

    // Answers of another task kind are not key facts: refused line by line, nothing stored.
    const asVerdicts = await p.call('accuracy.batchImport', {
      run: { task: 'claim_verdict', judge: 'checker' },
      source: { type: 'upload', name: 'out.jsonl', text: `${first}\n` },
    });
    expect(asVerdicts).toMatchObject({ lines: 1, answered: 0, unknown: 1 });
    expect(asVerdicts.problems.unknown[0]!.message).toContain('another task kind (keyfact_extraction)');

    const upload = `${first}\nnot json\n${second}\n${second}\n`;
    const imported = await p.call('accuracy.batchImport', {
      run: extract,
      source: { type: 'upload', name: 'out.jsonl', text: upload },
    });
    expect(imported).toMatchObject({ lines: 4, answered: 2, invalid: 1, duplicates: 1, stillToDo: 0 });
    expect(imported.problems.invalid).toEqual([{ line: 2, customId: null, message: 'not JSON' }]);
    const sets = rows<{ doc: string; source: string; n: number }>(
      p,
      'SELECT d.doc_id AS doc, s.source, COUNT(k.id) AS n FROM key_fact_sets s JOIN documents d ON d.id = s.document_id JOIN key_facts k ON k.set_id = s.id GROUP BY s.id ORDER BY d.doc_id',
    );
    expect(sets).toEqual([
      { doc: 'd1', source: 'model', n: 2 },
      { doc: 'd2', source: 'model', n: 2 },
    ]);
    p.core.close();
  });
});
