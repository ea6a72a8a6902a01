/**
 * The judge runner against the mock OpenAI-compatible server, through the real `openai` client:
 * soft labels, the content cache, versions, every fault (429 + Retry-After, 5xx, timeouts, resets,
 * malformed bodies, prose, think blocks, no log-probabilities), the circuit, pause / resume /
 * cancel, bounded concurrency, and key hygiene.
 */
import { readFileSync, existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { JudgeRunStatus } from '../../../shared/api';
import { BaselineConfigSchema, EndpointConfigSchema, type JudgeConfigInput } from '../../../shared/judges/config';
import { backoffMs } from '../../../electron/core/tasks/engine';
import { retryAfterMs } from '../../../electron/core/tasks/transport';
import { MemorySecretStore } from '../../../electron/core/judges/secrets';
import type { Tokenisation } from '../../mock-openai/server';
import { judgeProject, until, type JudgeProject } from '../../mock-openai/project';
import { mockOpenAIForFile } from '../../helpers/mock-openai';
import { tempDir } from '../../helpers/tmp';

const dir = tempDir('loupe-judges-');
const mock = await mockOpenAIForFile();

const endpoint = (patch: Partial<Extract<JudgeConfigInput, { kind: 'endpoint' }>> = {}) =>
  EndpointConfigSchema.parse({
    kind: 'endpoint',
    baseUrl: mock.url,
    model: 'mock-judge',
    concurrency: 4,
    retries: 3,
    timeoutS: 5,
    ...patch,
  });

/** (k, i) of a sentence "… (k.i)." */
function ids(sentence: string | null): { k: number; i: number } {
  const m = /\((\d+)\.(\d+)\)/.exec(sentence ?? '');
  if (!m) throw new Error(`no id in ${sentence}`);
  return { k: Number(m[1]), i: Number(m[2]) };
}

interface StoredRow {
  k: number;
  i: number;
  hard: number | null;
  soft: number | null;
  raw: string | null;
  parseError: string | null;
  errorKind: string | null;
  errorMessage: string | null;
  source: string;
  judge: string;
  configHash: string;
}

function stored(p: JudgeProject, judge?: string): StoredRow[] {
  const rows = p.db
    .prepare(
      `SELECT u.text, p.hard, p.soft, p.raw, p.parse_error AS parseError, p.error_kind AS errorKind, p.error_message AS errorMessage,
              p.source, j.name AS judge, v.config_hash AS configHash
       FROM judge_predictions p JOIN units u ON u.id = p.unit_id JOIN judge_versions v ON v.id = p.judge_version_id JOIN judges j ON j.id = v.judge_id
       WHERE (? IS NULL OR j.name = ?) ORDER BY p.id`,
    )
    .all(judge ?? null, judge ?? null) as Array<Omit<StoredRow, 'k' | 'i'> & { text: string }>;
  return rows.map(({ text, ...r }) => ({ ...ids(text), ...r }));
}

async function runToEnd(
  p: JudgeProject,
  name: string,
  selection: { dataset?: string; onlySampled?: boolean } = {},
): Promise<JudgeRunStatus> {
  const run = p.service.startRun(name, selection);
  await Promise.race([
    run.finished,
    until(() => run.status().state === 'paused', 20_000, 'a pause').then(() => undefined),
  ]);
  return run.status();
}

let n = 0;
const fresh = (summaries: number, options: Parameters<typeof judgeProject>[3] = {}) =>
  judgeProject(dir, `p${n++}`, summaries, options);

describe('judge runs against an OpenAI-compatible endpoint', () => {
  it('stores hard and soft labels read at the value position, whatever the tokenisation', async () => {
    const p = await fresh(8);
    const tokenisations: Tokenisation[] = ['fine', 'coarse', 'single', 'spaced'];
    mock.setResponder((req) => {
      const { k, i } = ids(req.sentence);
      return {
        type: 'answer',
        hard: i === 1 ? 0 : 1,
        soft: 0.05 + 0.1 * k + 0.01 * i,
        tokenisation: tokenisations[k % 4]!,
      };
    });
    await p.service.handlers['judges.add']({ name: 'qwen', config: endpoint({ soft: true }) });
    const status = await runToEnd(p, 'qwen');
    expect(status).toMatchObject({
      state: 'done',
      total: 24,
      done: 24,
      ok: 24,
      requests: 24,
      cached: 0,
      failed: 0,
      parseErrors: 0,
      errors: [],
    });
    expect(status.tokens.prompt).toBeGreaterThan(0);
    expect(status.tokens.completion).toBeGreaterThan(0);
    const rows = stored(p, 'qwen');
    expect(rows).toHaveLength(24);
    for (const r of rows) {
      expect(r.hard).toBe(r.i === 1 ? 0 : 1);
      expect(r.soft).toBeCloseTo(0.05 + 0.1 * r.k + 0.01 * r.i, 6);
      expect(r.source).toBe('run');
    }
    // The request: one user message with the document and the sentence, decoding from the config.
    const body = mock.requests[0]!.body!;
    expect(body).toMatchObject({
      model: 'mock-judge',
      temperature: 0,
      top_p: 1,
      max_tokens: 8192,
      logprobs: true,
      top_logprobs: 20,
    });
    expect(mock.requests[0]!.document).toContain('Springfield');
    expect(mock.requests.every((r) => r.headers.authorization === 'Bearer not-needed')).toBe(true);
    p.close();
  });

  it('caches by content: a rerun, a same-config judge and a concurrency change send nothing', async () => {
    const p = await fresh(4);
    await p.service.handlers['judges.add']({ name: 'a', config: endpoint() });
    expect((await runToEnd(p, 'a')).requests).toBe(12);
    mock.reset();
    const again = await runToEnd(p, 'a');
    expect(again).toMatchObject({ state: 'done', requests: 0, cached: 12, done: 12 });
    // Another judge with the same answer-affecting configuration: the content cache answers.
    await p.service.handlers['judges.add']({
      name: 'b',
      config: endpoint({ concurrency: 1, retries: 0, timeoutS: 9 }),
    });
    const b = await runToEnd(p, 'b');
    expect(b).toMatchObject({ state: 'done', requests: 0, cached: 12 });
    expect(stored(p, 'b').every((r) => r.source === 'cache')).toBe(true);
    const update = await p.service.handlers['judges.update']({
      name: 'a',
      config: endpoint({ concurrency: 16, timeoutS: 30, retries: 9 }),
    });
    expect(update.newVersion).toBe(false);
    expect((await runToEnd(p, 'a')).requests).toBe(0);
    expect(mock.count()).toBe(0);
    p.close();
  });

  it('a changed template is a new version: its predictions are never mixed with the old ones', async () => {
    const p = await fresh(3);
    await p.service.handlers['judges.add']({ name: 'j', config: endpoint() });
    await runToEnd(p, 'j');
    const oldHash = (await p.service.handlers['judges.list']({}))[0]!.configHash;
    mock.setResponder(() => ({ type: 'answer', hard: 0 }));
    const edited = endpoint({ template: 'Document:\n{document}\nSentence:\n{sentence}\nAnswer {"faithful": 0 or 1}.' });
    const update = await p.service.handlers['judges.update']({ name: 'j', config: edited });
    expect(update.newVersion).toBe(true);
    expect(update.judge.configHash).not.toBe(oldHash);
    expect(update.judge.predictions.ok).toBe(0); // the new version has none yet
    mock.reset();
    expect((await runToEnd(p, 'j')).requests).toBe(9);
    const rows = p.repo.judges.predictionsForDataset('news').filter((r) => r.judge === 'j');
    expect(rows).toHaveLength(9);
    expect(rows.every((r) => r.hard === 0)).toBe(true);
    expect(new Set(stored(p, 'j').map((r) => r.configHash)).size).toBe(2);
    // Back to the first configuration: its version (and answers) come back without a request.
    await p.service.handlers['judges.update']({ name: 'j', config: endpoint() });
    mock.reset();
    expect((await runToEnd(p, 'j')).requests).toBe(0);
    expect(
      p.repo.judges
        .predictionsForDataset('news')
        .filter((r) => r.judge === 'j')
        .every((r) => r.hard === 1),
    ).toBe(true);
    expect((await p.service.handlers['judges.list']({}))[0]!.versions).toBe(2);
    p.close();
  });

  it('retries 429 (honouring retry-after-ms), 500, resets, timeouts and malformed bodies', async () => {
    const p = await fresh(2);
    await p.service.handlers['judges.add']({
      name: 'f',
      config: endpoint({ concurrency: 1, timeoutS: 0.3, retries: 6 }),
    });
    mock.queue(
      { type: 'status', status: 429, headers: { 'retry-after-ms': '150' } },
      { type: 'status', status: 500 },
      { type: 'reset' },
      { type: 'hang' },
      { type: 'malformed' },
      { type: 'status', status: 503 },
    );
    const status = await runToEnd(p, 'f');
    expect(status).toMatchObject({ state: 'done', ok: 6, failed: 0, requests: 12 });
    const kinds = Object.fromEntries(status.errors.map((e) => [e.kind, e.count]));
    expect(kinds).toEqual({ rate_limited: 1, server_error: 2, connection: 1, timeout: 1, malformed_response: 1 });
    expect(stored(p, 'f').every((r) => r.hard === 1 && r.errorKind === null)).toBe(true);
    p.close();
  });

  it('waits what Retry-After says (seconds) before sending again, and holds the other workers', async () => {
    const p = await fresh(2);
    await p.service.handlers['judges.add']({ name: 'r', config: endpoint({ concurrency: 3 }) });
    const times: number[] = [];
    let first = true;
    mock.setResponder(() => {
      times.push(Date.now());
      if (first) {
        first = false;
        return { type: 'status', status: 429, headers: { 'retry-after': '1' } };
      }
      return { type: 'answer', latencyMs: 30 };
    });
    const status = await runToEnd(p, 'r');
    expect(status).toMatchObject({ state: 'done', ok: 6 });
    // Three requests went out at once; after the 429 the retry comes ≥ 1 s later.
    const retryGap = times[3]! - times[0]!;
    expect(retryGap).toBeGreaterThanOrEqual(950);
    p.close();
  });

  it('stores a call that keeps failing with its kind and message; the next run retries only it', async () => {
    const p = await fresh(2);
    await p.service.handlers['judges.add']({ name: 'e', config: endpoint({ concurrency: 1, retries: 2 }) });
    mock.setResponder((req) =>
      ids(req.sentence).k === 1 && ids(req.sentence).i === 2 ? { type: 'status', status: 500 } : { type: 'answer' },
    );
    const status = await runToEnd(p, 'e');
    expect(status).toMatchObject({ state: 'done', ok: 5, failed: 1, requests: 8 });
    expect(status.message).toMatch(/1 failed calls \(run again to retry them\)/);
    const failed = stored(p, 'e').filter((r) => r.errorKind !== null);
    expect(failed).toEqual([expect.objectContaining({ k: 1, i: 2, errorKind: 'server_error', hard: null })]);
    expect(failed[0]!.errorMessage).toMatch(/HTTP 500/);
    mock.reset();
    mock.setResponder(undefined);
    const again = await runToEnd(p, 'e');
    expect(again).toMatchObject({ state: 'done', requests: 1, ok: 1, cached: 5, failed: 0 });
    expect(stored(p, 'e').filter((r) => r.errorKind !== null)).toEqual([]);
    p.close();
  });

  it('reads answers in prose, fences and think blocks; anything else is a parse error with its raw text', async () => {
    const p = await fresh(2);
    await p.service.handlers['judges.add']({ name: 'p', config: endpoint() });
    mock.setResponder((req) => {
      const { k, i } = ids(req.sentence);
      if (k === 0 && i === 0) return { type: 'answer', prose: true, hard: 0 };
      if (k === 0 && i === 1) return { type: 'answer', fence: true, hard: 1 };
      if (k === 0 && i === 2)
        return { type: 'answer', think: 'The sentence says {"faithful": 0}? No: it is supported.', hard: 1 };
      if (k === 1 && i === 0) return { type: 'answer', content: 'I believe the sentence is faithful.' };
      if (k === 1 && i === 1) return { type: 'answer', content: '{"faithful": "yes"}' };
      return { type: 'answer', content: '<think>hmm, {"faithful": 1} maybe' };
    });
    const status = await runToEnd(p, 'p');
    expect(status).toMatchObject({ state: 'done', ok: 3, parseErrors: 3, failed: 0 });
    // Stored in the order answers arrive: compare by sentence.
    const rows = stored(p, 'p').sort((a, b) => a.k - b.k || a.i - b.i);
    expect(rows.filter((r) => r.k === 0).map((r) => r.hard)).toEqual([0, 1, 1]);
    const errors = rows.filter((r) => r.k === 1);
    expect(errors.map((r) => [r.hard, r.raw])).toEqual([
      [null, 'I believe the sentence is faithful.'],
      [null, '{"faithful": "yes"}'],
      [null, '<think>hmm, {"faithful": 1} maybe'],
    ]);
    expect(errors.every((r) => r.parseError !== null)).toBe(true);
    // A parse error is an answer: a rerun does not ask again.
    mock.reset();
    expect((await runToEnd(p, 'p')).requests).toBe(0);
    p.close();
  });

  it('says once when the endpoint gives no log-probabilities, and stores hard labels only', async () => {
    const p = await fresh(3);
    await p.service.handlers['judges.add']({ name: 'nl', config: endpoint({ soft: true }) });
    mock.setResponder(() => ({ type: 'answer', soft: null }));
    const status = await runToEnd(p, 'nl');
    expect(status).toMatchObject({ state: 'done', ok: 9 });
    expect(status.notes.filter((n) => /no log-probabilities/.test(n))).toHaveLength(1);
    expect(stored(p, 'nl').every((r) => r.hard === 1 && r.soft === null)).toBe(true);
    p.close();
  });

  it('pauses as "endpoint unreachable" when the endpoint is down instead of burning the queue; resume goes on', async () => {
    const p = await fresh(10);
    await p.service.handlers['judges.add']({ name: 'down', config: endpoint({ concurrency: 2 }) });
    mock.setResponder(() => ({ type: 'reset' }));
    const run = p.service.startRun('down', {});
    await until(() => run.status().state === 'paused', 10_000, 'the circuit');
    const s = run.status();
    expect(s).toMatchObject({ state: 'paused', pauseReason: 'endpoint_unreachable', failed: 0, ok: 0 });
    expect(s.message).toMatch(/^paused: endpoint unreachable/);
    expect(stored(p, 'down')).toEqual([]); // nothing stored as failed
    await new Promise((r) => setTimeout(r, 100)); // aborted requests may still arrive a moment later
    const sent = mock.count();
    await new Promise((r) => setTimeout(r, 150));
    expect(mock.count()).toBe(sent);
    mock.setResponder(undefined);
    await p.service.handlers['judges.resume']({ runId: run.id });
    await run.finished;
    expect(run.status()).toMatchObject({ state: 'done', ok: 30, failed: 0 });
    p.close();
  });

  it('a closed port opens the circuit too', async () => {
    const p = await fresh(3);
    await p.service.handlers['judges.add']({ name: 'nowhere', config: endpoint({ baseUrl: 'http://127.0.0.1:9/v1' }) });
    const run = p.service.startRun('nowhere', {});
    await until(() => run.status().state === 'paused', 10_000, 'the circuit');
    expect(run.status()).toMatchObject({ pauseReason: 'endpoint_unreachable', failed: 0 });
    await p.service.handlers['judges.cancel']({ runId: run.id });
    expect(run.status().state).toBe('cancelled');
    p.close();
  });

  it('pauses as "endpoint rejects" on authentication failures in a row', async () => {
    const p = await fresh(4);
    await p.service.handlers['judges.add']({ name: 'auth', config: endpoint({ concurrency: 1 }) });
    mock.setResponder(() => ({
      type: 'status',
      status: 401,
      body: JSON.stringify({ error: { message: 'Invalid API key' } }),
    }));
    const run = p.service.startRun('auth', {});
    await until(() => run.status().state === 'paused', 10_000, 'the circuit');
    expect(run.status()).toMatchObject({ pauseReason: 'endpoint_rejects' });
    expect(run.status().message).toMatch(/^paused: endpoint rejects requests/);
    await run.cancel();
    p.close();
  });

  it('keeps at most `concurrency` requests in flight', async () => {
    const p = await fresh(6);
    mock.setLatency(40);
    await p.service.handlers['judges.add']({ name: 'c', config: endpoint({ concurrency: 3 }) });
    await runToEnd(p, 'c');
    expect(mock.maxInFlight()).toBe(3);
    p.close();
  });

  it('start returns at once; pause, resume and cancel through the API; a new run sends only what is left', async () => {
    const p = await fresh(10);
    mock.setLatency(30);
    await p.service.handlers['judges.add']({ name: 'ui', config: endpoint({ concurrency: 2 }) });
    const started = await p.service.handlers['judges.start']({ name: 'ui', onlySampled: false });
    expect(started).toMatchObject({ state: 'running', total: 30 });
    expect(started.done).toBeLessThan(30);
    await until(() => stored(p, 'ui').length >= 6, 10_000, 'six answers');
    const paused = await p.service.handlers['judges.pause']({ runId: started.runId });
    expect(paused).toMatchObject({
      state: 'paused',
      pauseReason: 'user',
      message: expect.stringMatching(/^paused at \d+\/30/),
    });
    // Requests aborted by the pause may still reach the server a moment later; then nothing more.
    await new Promise((r) => setTimeout(r, 150));
    const sent = mock.count();
    const answered = stored(p, 'ui').length;
    await new Promise((r) => setTimeout(r, 150));
    expect(mock.count()).toBe(sent);
    expect(stored(p, 'ui').length).toBe(answered);
    expect((await p.service.handlers['judges.list']({}))[0]!.activeRunId).toBe(started.runId);
    await expect(p.service.handlers['judges.start']({ name: 'ui', onlySampled: false })).rejects.toThrow(
      /resume or cancel it first/,
    );

    await p.service.handlers['judges.resume']({ runId: started.runId });
    await until(() => stored(p, 'ui').length >= answered + 6, 10_000, 'more answers');
    const cancelled = await p.service.handlers['judges.cancel']({ runId: started.runId });
    expect(cancelled.state).toBe('cancelled');
    const kept = stored(p, 'ui').length;
    expect(kept).toBe(cancelled.ok);
    mock.reset();
    const second = await runToEnd(p, 'ui');
    expect(second).toMatchObject({ state: 'done', cached: kept, requests: 30 - kept, ok: 30 - kept });
    const runs = await p.service.handlers['judges.runs']({});
    expect(runs.map((r) => r.state)).toEqual(['done', 'cancelled']);
    p.close();
  });

  it('a judge can switch between an endpoint and the baseline rule; each keeps its own version', async () => {
    const p = await fresh(1);
    await p.service.handlers['judges.add']({ name: 'switch', config: endpoint() });
    await runToEnd(p, 'switch');
    const { judge, newVersion } = await p.service.handlers['judges.update']({
      name: 'switch',
      config: BaselineConfigSchema.parse({ kind: 'baseline' }),
    });
    expect(newVersion).toBe(true);
    expect(judge).toMatchObject({ kind: 'baseline', apiKeyEnv: null, versions: 2, predictions: { ok: 0 } });
    mock.reset();
    expect(await runToEnd(p, 'switch')).toMatchObject({ state: 'done', ok: 3, requests: 0 });
    expect(mock.count()).toBe(0);
    p.close();
  });

  it('selects a dataset or the sampled summaries only', async () => {
    const p = await fresh(4);
    const datasetId = p.repo.datasetId('news')!;
    const keys = p.repo
      .unsampledSummaries(datasetId)
      .slice(0, 1)
      .map((s) => s.key);
    p.repo.insertSampleBatch({ datasetId, seed: 0, requested: 1, annotatorId: null, algorithm: 'test', keys });
    await p.service.handlers['judges.add']({ name: 's', config: endpoint() });
    expect(await runToEnd(p, 's', { onlySampled: true })).toMatchObject({ total: 3, requests: 3 });
    expect(await runToEnd(p, 's', { dataset: 'news' })).toMatchObject({ total: 12, requests: 9, cached: 3 });
    await expect(
      p.service.handlers['judges.start']({ name: 's', dataset: 'nope', onlySampled: false }),
    ).rejects.toThrow(/No dataset "nope"/);
    p.close();
  });
});

describe('API keys', () => {
  const KEY = 'sk-loupe-test-0123456789abcdefSECRET';

  it('a stored key is sent as a bearer token and never lands in the project, a status or a stored error', async () => {
    const secrets = new MemorySecretStore();
    const p = await fresh(2, { secrets });
    await p.service.handlers['judges.add']({
      name: 'k',
      config: endpoint({ concurrency: 1, retries: 0 }),
      apiKey: KEY,
    });
    const info = (await p.service.handlers['judges.list']({}))[0]!;
    expect(info.keySource).toBe('stored');
    expect(JSON.stringify(info)).not.toContain(KEY);
    // The endpoint echoes the header in its error, as some servers and proxies do.
    mock.setResponder((req) =>
      ids(req.sentence).i === 0
        ? {
            type: 'status',
            status: 400,
            body: JSON.stringify({
              error: { message: `bad request from ${String(req.headers.authorization)} key=${KEY}` },
            }),
          }
        : { type: 'answer' },
    );
    const status = await runToEnd(p, 'k');
    expect(mock.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(status).toMatchObject({ state: 'done', failed: 2, ok: 4 });
    expect(JSON.stringify(status)).not.toContain(KEY);
    const errors = stored(p, 'k').filter((r) => r.errorKind !== null);
    expect(errors).toHaveLength(2);
    for (const e of errors) {
      expect(e.errorMessage).toMatch(/\[redacted\]/);
      expect(e.errorMessage).not.toContain(KEY);
    }
    const preview = await p.service.handlers['judges.preview']({ name: 'k' });
    expect(preview.request?.headers.Authorization).toBe('Bearer <key stored in the OS keychain>');
    p.db.pragma('wal_checkpoint(TRUNCATE)');
    for (const file of [p.path, `${p.path}-wal`])
      if (existsSync(file)) expect(readFileSync(file).includes(Buffer.from(KEY))).toBe(false);
    // Forgetting the key.
    await p.service.handlers['judges.update']({ name: 'k', config: endpoint(), apiKey: null });
    expect((await p.service.handlers['judges.list']({}))[0]!.keySource).toBe('none');
    expect(secrets.values.size).toBe(0);
    p.close();
  });

  it('without a key store, keys come only from the named environment variable', async () => {
    const p = await fresh(1, { secrets: null, env: { LOUPE_JUDGE_KEY: KEY } });
    await expect(p.service.handlers['judges.add']({ name: 'x', config: endpoint(), apiKey: KEY })).rejects.toThrow(
      /does not store API keys/,
    );
    await p.service.handlers['judges.add']({ name: 'env', config: endpoint({ apiKeyEnv: 'LOUPE_JUDGE_KEY' }) });
    await p.service.handlers['judges.add']({ name: 'unset', config: endpoint({ apiKeyEnv: 'LOUPE_UNSET_KEY' }) });
    expect((await p.service.handlers['judges.list']({})).map((j) => [j.name, j.keySource, j.apiKeyEnv])).toEqual([
      ['env', 'env', 'LOUPE_JUDGE_KEY'],
      ['unset', 'env', 'LOUPE_UNSET_KEY'],
    ]);
    await runToEnd(p, 'env');
    expect(mock.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    await expect(p.service.handlers['judges.start']({ name: 'unset', onlySampled: false })).rejects.toThrow(
      /LOUPE_UNSET_KEY, which is not set/,
    );
    const config = p.db.prepare('SELECT config, api_key_env AS env FROM judges').all();
    expect(JSON.stringify(config)).not.toContain(KEY);
    p.close();
  });
});

describe('backoff and Retry-After', () => {
  it('grows exponentially with full jitter in the upper half, capped', () => {
    const t = { backoffBaseMs: 100, backoffMaxMs: 1000 };
    expect([0, 1, 2, 3, 4, 10].map((a) => backoffMs(a, { ...t, random: () => 0 }))).toEqual([
      50, 100, 200, 400, 500, 500,
    ]);
    expect([0, 1, 2, 3, 4, 10].map((a) => backoffMs(a, { ...t, random: () => 1 }))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
  });

  it('reads retry-after-ms, retry-after seconds and HTTP dates', () => {
    const h = (values: Record<string, string>) => ({ get: (k: string) => values[k] ?? null });
    expect(retryAfterMs(h({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    expect(retryAfterMs(h({ 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMs(h({ 'retry-after': new Date(10_000).toUTCString() }), 4_000)).toBe(6_000);
    expect(retryAfterMs(h({ 'retry-after': 'soon' }))).toBeNull();
    expect(retryAfterMs(h({}))).toBeNull();
  });
});
