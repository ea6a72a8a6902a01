/**
 * The task engine is not the judges': a second, test-only JSON kind ("the content words of a
 * sentence") declared with defineJsonKind runs through the same engine and the generic store
 * (task_results) against the mock OpenAI-compatible server, through the real `openai` client.
 * Proved here: the request as declared (one user message, no system message, the config's
 * decoding), cache by content (a rerun sends nothing; another item with the same text is a cache
 * hit), resume after a pause or a closed project sends only what is left, answers that fail the
 * schema are stored as failures with their raw text and sent again by the next run, 429 +
 * Retry-After holds the workers, and the key appears in no stored raw answer, message or file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runImport } from '../../../electron/core/imports/run';
import { createJsonTaskRun, fillTemplate } from '../../../electron/core/tasks/json-kind';
import { parseJsonAnswer } from '../../../electron/core/tasks/json-answer';
import { ModelConfigSchema, type ModelConfigInput } from '../../../electron/core/tasks/model-config';
import type { TaskProgress } from '../../../electron/core/tasks/engine';
import { WordsSchema, sentenceOf, wordsAnswer as answer, wordsKind, wordsOf } from '../../mock-openai/words-kind';
import { FAST_TUNING, judgeProject, summaryRows, until, type JudgeProject } from '../../mock-openai/project';
import { mockOpenAIForFile } from '../../helpers/mock-openai';
import { tempDir } from '../../helpers/tmp';

const dir = tempDir('loupe-task-engine-');
const mock = await mockOpenAIForFile();

const modelConfig = (patch: Partial<ModelConfigInput> = {}) =>
  ModelConfigSchema.parse({
    baseUrl: mock.url,
    model: 'mock-words',
    concurrency: 4,
    retries: 3,
    timeoutS: 5,
    ...patch,
  });

interface Unit {
  unitId: number;
  sentence: string;
}

function units(p: JudgeProject, dataset: string | null = null): Unit[] {
  return p.repo.judges.selectUnits(dataset, false).map((u) => ({ unitId: u.unitId, sentence: u.sentence }));
}

function wordsRun(
  p: JudgeProject,
  options: { config?: ReturnType<typeof modelConfig>; items?: Unit[]; apiKey?: string | null } = {},
) {
  return createJsonTaskRun({
    kind: wordsKind,
    config: options.config ?? modelConfig(),
    tasks: p.repo.tasks,
    apiKey: options.apiKey ?? null,
    tuning: FAST_TUNING,
    items: options.items ?? units(p),
    itemKey: (u) => `unit:${u.unitId}`,
    resolve: (u) => ({ sentence: u.sentence }),
  });
}

async function runToEnd(run: ReturnType<typeof wordsRun>): Promise<TaskProgress> {
  run.start();
  await Promise.race([
    run.finished,
    until(() => run.progress().state === 'paused', 20_000, 'a pause').then(() => undefined),
  ]);
  return run.progress();
}

interface Row {
  item: string;
  output: string | null;
  raw: string | null;
  errorKind: string | null;
  errorMessage: string | null;
  source: string;
}

const rows = (p: JudgeProject): Row[] =>
  p.db
    .prepare(
      `SELECT item, output, raw, error_kind AS errorKind, error_message AS errorMessage, source FROM task_results WHERE kind = 'test-words' ORDER BY id`,
    )
    .all() as Row[];

let n = 0;
const fresh = (summaries: number) => judgeProject(dir, `t${n++}`, summaries);

describe('a second task kind through the engine', () => {
  it('sends the request the kind declares and stores outputs validated by its schema', async () => {
    const p = await fresh(2);
    mock.setResponder(answer);
    const status = await runToEnd(wordsRun(p, { config: modelConfig({ temperature: 0.1, maxTokens: 256 }) }));
    expect(status).toMatchObject({
      kind: 'test-words',
      state: 'done',
      total: 6,
      ok: 6,
      requests: 6,
      cached: 0,
      failed: 0,
      parseErrors: 0,
    });
    const body = mock.requests[0]!.body!;
    expect(body).toMatchObject({ model: 'mock-words', temperature: 0.1, top_p: 1, max_tokens: 256 });
    expect(body.messages).toEqual([
      { role: 'user', content: fillTemplate(wordsKind.spec.template, { sentence: sentenceOf(mock.requests[0]!) }) },
    ]);
    expect(body).not.toHaveProperty('logprobs');
    const stored = rows(p);
    expect(stored).toHaveLength(6);
    const results = p.repo.tasks.forKind(wordsKind.ref).results(status.configHash);
    for (const r of results) {
      const sentence = units(p).find((u) => `unit:${u.unitId}` === r.item)!.sentence;
      expect(r.output).toEqual({ words: wordsOf(sentence) });
      expect(r.source).toBe('run');
    }
    p.close();
  });

  it('caches by content: a rerun sends nothing, another item with the same text is a cache hit, a changed config is new', async () => {
    const p = await fresh(2);
    mock.setResponder(answer);
    expect((await runToEnd(wordsRun(p))).requests).toBe(6);
    mock.reset();
    expect(await runToEnd(wordsRun(p))).toMatchObject({ state: 'done', requests: 0, cached: 6, done: 6 });
    // A second dataset with the same sentences: other items, same content keys.
    await runImport(p.repo, {
      source: {
        type: 'upload',
        name: 'copy.jsonl',
        text: summaryRows(2, 'copy')
          .map((r) => JSON.stringify(r))
          .join('\n'),
      },
    });
    const both = await runToEnd(wordsRun(p));
    expect(both).toMatchObject({ state: 'done', total: 12, requests: 0, cached: 12 });
    expect(rows(p).filter((r) => r.source === 'cache')).toHaveLength(6);
    // Concurrency, retries and timeout do not change answers; the model does.
    expect(
      (await runToEnd(wordsRun(p, { config: modelConfig({ concurrency: 1, retries: 0, timeoutS: 9 }) }))).requests,
    ).toBe(0);
    expect(mock.count()).toBe(0);
    expect((await runToEnd(wordsRun(p, { config: modelConfig({ model: 'other' }) }))).requests).toBe(6);
    p.close();
  });

  it('pause and resume; after the project closes mid-run, a new run sends only what was not stored', async () => {
    const p = await fresh(8);
    mock.setLatency(25);
    mock.setResponder(answer);
    const run = wordsRun(p, { config: modelConfig({ concurrency: 2 }) });
    run.start();
    await until(() => rows(p).length >= 4, 10_000, 'four answers');
    await run.pause('user');
    expect(run.progress()).toMatchObject({ state: 'paused', pauseReason: 'user' });
    await new Promise((r) => setTimeout(r, 100)); // aborted requests may still arrive a moment later
    const sent = mock.count();
    await new Promise((r) => setTimeout(r, 100));
    expect(mock.count()).toBe(sent);
    run.resume();
    await until(() => rows(p).length >= 10, 10_000, 'more answers');
    run.stop(); // the project closes: what arrived is kept, nothing is written afterwards
    const kept = rows(p).length;
    await new Promise((r) => setTimeout(r, 100));
    expect(rows(p).length).toBe(kept);
    const answeredBefore = new Set(rows(p).map((r) => r.item));
    mock.reset();
    const second = await runToEnd(wordsRun(p));
    expect(second).toMatchObject({ state: 'done', total: 24, cached: kept, requests: 24 - kept, ok: 24 - kept });
    // No sentence answered before was asked again.
    const askedAgain = mock.requests
      .map(sentenceOf)
      .filter((s) => answeredBefore.has(`unit:${units(p).find((u) => u.sentence === s)!.unitId}`));
    expect(askedAgain).toEqual([]);
    p.close();
  });

  it('an answer that fails the schema is stored as a failed call with its raw text, and the next run sends it again', async () => {
    const p = await fresh(2);
    mock.setResponder((req) => {
      const sentence = sentenceOf(req);
      if (sentence.includes('(0.1)')) return { type: 'answer', content: 'The words are council and budget.' };
      if (sentence.includes('(1.2)')) return { type: 'answer', content: '```json\n{"words": []}\n```' };
      return {
        type: 'answer',
        content: `<think>{"words": 1}</think>\n${JSON.stringify({ words: wordsOf(sentence) })}`,
      };
    });
    const status = await runToEnd(wordsRun(p));
    expect(status).toMatchObject({ state: 'done', ok: 4, parseErrors: 2, failed: 0, requests: 6 });
    expect(status.message).toMatch(/2 unparseable answers \(stored with their text; run again to retry them\)/);
    const failed = rows(p).filter((r) => r.errorKind !== null);
    expect(failed.map((r) => [r.errorKind, r.output, r.raw])).toEqual([
      ['parse_error', null, 'The words are council and budget.'],
      ['parse_error', null, '```json\n{"words": []}\n```'],
    ]);
    expect(failed[0]!.errorMessage).toBe('no JSON object or list in the answer');
    expect(failed[1]!.errorMessage).toMatch(/does not match the expected shape/);
    mock.reset();
    mock.setResponder(answer);
    const again = await runToEnd(wordsRun(p));
    expect(again).toMatchObject({ state: 'done', requests: 2, ok: 2, cached: 4, parseErrors: 0 });
    expect(rows(p).filter((r) => r.errorKind !== null)).toEqual([]);
    p.close();
  });

  it('retries 429 with Retry-After, holding every worker; a call that keeps failing is stored and retried next run', async () => {
    const p = await fresh(2);
    const times: number[] = [];
    let first = true;
    mock.setResponder((req) => {
      times.push(Date.now());
      if (first) {
        first = false;
        return { type: 'status', status: 429, headers: { 'retry-after-ms': '400' } };
      }
      if (sentenceOf(req).includes('(1.0)')) return { type: 'status', status: 500 };
      return { ...answer(req), latencyMs: 20 };
    });
    const status = await runToEnd(wordsRun(p, { config: modelConfig({ concurrency: 3, retries: 2 }) }));
    expect(status).toMatchObject({ state: 'done', ok: 5, failed: 1 });
    expect(Object.fromEntries(status.errors.map((e) => [e.kind, e.count]))).toEqual({
      rate_limited: 1,
      server_error: 3,
    });
    // Three requests went out at once; after the 429 the next comes ≥ 400 ms later.
    expect(times[3]! - times[0]!).toBeGreaterThanOrEqual(390);
    expect(
      rows(p)
        .filter((r) => r.errorKind !== null)
        .map((r) => [r.errorKind, r.output]),
    ).toEqual([['server_error', null]]);
    mock.reset();
    mock.setResponder(answer);
    expect(await runToEnd(wordsRun(p))).toMatchObject({ state: 'done', requests: 1, ok: 1, cached: 5 });
    p.close();
  });

  it('pauses as "endpoint unreachable" instead of burning the queue', async () => {
    const p = await fresh(6);
    mock.setResponder(() => ({ type: 'reset' }));
    const run = wordsRun(p, { config: modelConfig({ concurrency: 2 }) });
    const status = await runToEnd(run);
    expect(status).toMatchObject({ state: 'paused', pauseReason: 'endpoint_unreachable', failed: 0, ok: 0 });
    expect(status.message).toMatch(/^paused: endpoint unreachable/);
    expect(rows(p)).toEqual([]);
    await run.cancel();
    p.close();
  });

  it('the key is sent as a bearer token and appears in no stored raw answer, output, message, status or file', async () => {
    const KEY = 'sk-loupe-task-key-0123456789SECRET';
    const p = await fresh(2);
    mock.setResponder((req) => {
      const sentence = sentenceOf(req);
      if (sentence.includes('(0.0)'))
        return {
          type: 'status',
          status: 400,
          body: JSON.stringify({ error: { message: `bad request from ${String(req.headers.authorization)}` } }),
        };
      if (sentence.includes('(0.1)'))
        return { type: 'answer', content: `Using key ${KEY}: ${JSON.stringify({ words: wordsOf(sentence) })}` };
      if (sentence.includes('(0.2)')) return { type: 'answer', content: JSON.stringify({ words: [KEY] }) };
      return answer(req);
    });
    const status = await runToEnd(wordsRun(p, { apiKey: KEY, config: modelConfig({ model: 'mock-words-key' }) }));
    // Only this run's requests (its own model name): a request an earlier test's run had already
    // written can reach the in-process mock late, after the reset between tests.
    const sent = mock.requests.filter((r) => r.body?.model === 'mock-words-key');
    expect(sent.length).toBeGreaterThanOrEqual(5);
    expect(sent.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(status).toMatchObject({ state: 'done', ok: 4, failed: 1, parseErrors: 1 });
    expect(JSON.stringify(status)).not.toContain(KEY);
    const stored = rows(p);
    expect(JSON.stringify(stored)).not.toContain(KEY);
    expect(stored.find((r) => r.errorKind === 'client_error')!.errorMessage).toMatch(/\[redacted\]/);
    expect(stored.find((r) => r.raw?.startsWith('Using key'))).toMatchObject({
      raw: expect.stringContaining('[redacted]'),
      errorKind: null,
    });
    expect(stored.find((r) => r.errorKind === 'parse_error')!.errorMessage).toMatch(/contains the API key/);
    p.db.pragma('wal_checkpoint(TRUNCATE)');
    for (const file of [p.path, `${p.path}-wal`])
      if (existsSync(file)) expect(readFileSync(file).includes(Buffer.from(KEY))).toBe(false);
    p.close();
  });
});

describe('reading JSON answers (tasks/json-answer.ts)', () => {
  it('takes the first JSON value that matches the schema, after think blocks, in fences or prose', () => {
    expect(parseJsonAnswer('{"words": ["a"]}', WordsSchema)).toEqual({ ok: true, value: { words: ['a'] } });
    expect(parseJsonAnswer('Sure! ```json\n{"words": ["a", "b"]}\n``` Done.', WordsSchema)).toEqual({
      ok: true,
      value: { words: ['a', 'b'] },
    });
    expect(parseJsonAnswer('<think>maybe {"words": ["x"]}</think>{"words": ["y"]}', WordsSchema)).toEqual({
      ok: true,
      value: { words: ['y'] },
    });
    expect(parseJsonAnswer('Template {sentence} then {"words": ["z"]}', WordsSchema)).toEqual({
      ok: true,
      value: { words: ['z'] },
    });
    expect(parseJsonAnswer('{"words": []} {"words": ["late"]}', WordsSchema)).toEqual({
      ok: true,
      value: { words: ['late'] },
    });
    expect(parseJsonAnswer('', WordsSchema)).toEqual({ ok: false, error: 'empty answer' });
    expect(parseJsonAnswer('<think>{"words": ["a"]}', WordsSchema)).toEqual({
      ok: false,
      error: 'unfinished <think> block (no answer after it)',
    });
    expect(parseJsonAnswer('{"words": ["a"], "extra": 1}', WordsSchema)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/does not match the expected shape/),
    });
    expect(parseJsonAnswer('{"words": ["a"', WordsSchema)).toEqual({
      ok: false,
      error: 'no JSON object or list in the answer',
    });
  });

  it('fills placeholders in one pass and leaves other braces alone', () => {
    expect(fillTemplate('A {x} and {y} and {"k": 1} and {z}', { x: 'has {y}', y: 'Y' })).toBe(
      'A has {y} and Y and {"k": 1} and {z}',
    );
  });
});
