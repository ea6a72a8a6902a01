/**
 * A run's counters at a failing endpoint, through the real openai client and the mock server:
 * requests, failed attempts by kind, failures in a row and dropped requests agree with each
 * other and with the requests the mock received, before and after a resume; and items that reuse
 * an unparseable answer of the same content are counted as such, not as answered.
 */
import { describe, expect, it } from 'vitest';
import type { JudgeRunStatus } from '../../../shared/api';
import { EndpointConfigSchema } from '../../../shared/judges/config';
import { outcomesText } from '../../../shared/run-counts';
import { FAST_TUNING, judgeProject, until, type JudgeProject } from '../../mock-openai/project';
import { mockOpenAIForFile } from '../../helpers/mock-openai';
import { tempDir } from '../../helpers/tmp';

const dir = tempDir('loupe-run-counters-');
const mock = await mockOpenAIForFile();
let n = 0;

async function endpointJudge(p: JudgeProject, concurrency: number): Promise<void> {
  await p.service.handlers['judges.add']({
    name: 'down',
    config: EndpointConfigSchema.parse({
      kind: 'endpoint',
      baseUrl: mock.url,
      model: 'mock-judge',
      concurrency,
      retries: 3,
      timeoutS: 5,
    }),
  });
}

/** Failed attempts that were requests (a parse error is an answer that came back). */
const transportFailures = (s: JudgeRunStatus) =>
  s.errors.filter((e) => e.kind !== 'parse_error').reduce((sum, e) => sum + e.count, 0);
/** Every request sent ends as exactly one of these. */
const accounted = (s: JudgeRunStatus) => s.ok + s.parseErrors + transportFailures(s) + s.dropped;

/** Paused by the circuit, with every request it sent settled in the counters. */
async function circuitOpen(read: () => JudgeRunStatus): Promise<JudgeRunStatus> {
  await until(
    () => read().state === 'paused' && read().requests === accounted(read()),
    10_000,
    'the circuit, with every request settled',
  );
  return read();
}

describe('one counter object per run, at a failing endpoint', () => {
  it('one request at a time: requests, failures by kind and in a row equal what the mock saw, and a resume goes on counting', async () => {
    const p = await judgeProject(dir, `p${n++}`, 4);
    await endpointJudge(p, 1);
    mock.setResponder(() => ({ type: 'reset' }));
    const run = p.service.startRun('down', {});
    const first = await circuitOpen(() => run.status());
    const threshold = FAST_TUNING.circuitThreshold;
    expect(first).toMatchObject({
      pauseReason: 'endpoint_unreachable',
      requests: threshold,
      failuresInARow: threshold,
      dropped: 0,
      ok: 0,
      parseErrors: 0,
    });
    expect(first.errors.map((e) => [e.kind, e.count])).toEqual([['connection', threshold]]);
    expect(mock.count()).toBe(threshold);
    expect(first.message).toContain(`${threshold} failures in a row`);
    // The first sentence used its four attempts (three retries), the fifth failure was the next one's first.
    expect(first).toMatchObject({ failed: 1, done: 1, total: 12 });

    await p.service.handlers['judges.resume']({ runId: run.id });
    const second = await circuitOpen(() => run.status());
    expect(second).toMatchObject({ requests: 2 * threshold, failuresInARow: 2 * threshold, dropped: 0 });
    expect(second.errors.map((e) => [e.kind, e.count])).toEqual([['connection', 2 * threshold]]);
    expect(mock.count()).toBe(2 * threshold);
    expect(second.message).toContain(`${2 * threshold} failures in a row`);
    const viaApi = await p.service.handlers['judges.status']({ runId: run.id });
    expect(viaApi).toMatchObject({
      requests: second.requests,
      failuresInARow: second.failuresInARow,
      errors: second.errors,
      done: second.done,
    });

    mock.setResponder(undefined);
    await p.service.handlers['judges.resume']({ runId: run.id });
    await run.finished;
    const end = run.status();
    expect(end.state).toBe('done');
    expect(end.requests).toBe(mock.count());
    expect(end.requests).toBe(accounted(end));
    expect(end.failuresInARow).toBe(0);
    expect(end.done).toBe(end.cached + end.reusedParseErrors + end.ok + end.parseErrors + end.failed);
    expect(end.ok + end.failed).toBe(12);
    p.close();
  });

  it('eight in flight: every failure that came back is counted, however the pause raced it', async () => {
    const p = await judgeProject(dir, `p${n++}`, 10);
    await endpointJudge(p, 8);
    mock.setResponder(() => ({ type: 'reset' }));
    const run = p.service.startRun('down', {});
    const first = await circuitOpen(() => run.status());
    expect(first.pauseReason).toBe('endpoint_unreachable');
    expect(first.requests).toBeGreaterThanOrEqual(FAST_TUNING.circuitThreshold);
    // No answer came back: every failed attempt is one in a row, and the message says how many.
    expect(first.failuresInARow).toBe(transportFailures(first));
    expect(first.message).toContain(`${first.failuresInARow} failures in a row`);
    // A dropped request may or may not have reached the server; every other one did.
    expect(mock.count()).toBeGreaterThanOrEqual(first.requests - first.dropped);
    expect(mock.count()).toBeLessThanOrEqual(first.requests);

    await p.service.handlers['judges.resume']({ runId: run.id });
    const second = await circuitOpen(() => run.status());
    expect(second.requests).toBeGreaterThan(first.requests);
    expect(second.failuresInARow).toBe(transportFailures(second));
    expect(mock.count()).toBeGreaterThanOrEqual(second.requests - second.dropped);
    expect(mock.count()).toBeLessThanOrEqual(second.requests);
    await run.cancel();
    p.close();
  });

  it('items that take an unparseable answer of the same content are reused parse errors, not answered', async () => {
    // Four summaries over two documents, every sentence the same text: two contents, twelve sentences.
    const p = await judgeProject(dir, `p${n++}`, 4);
    p.db.prepare(`UPDATE units SET text = 'The council approved a budget.'`).run();
    await endpointJudge(p, 4);
    mock.setResponder(() => ({ type: 'answer', content: 'I would rather not say.' }));
    const run = p.service.startRun('down', {});
    await run.finished;
    const s = run.status();
    expect(s).toMatchObject({
      state: 'done',
      total: 12,
      done: 12,
      ok: 0,
      cached: 0,
      failed: 0,
      parseErrors: 2,
      reusedParseErrors: 10,
      requests: 2,
    });
    // (A request the previous test dropped may still arrive: count this test's sentence only.)
    expect(mock.requests.filter((r) => r.sentence === 'The council approved a budget.')).toHaveLength(2);
    expect(s.errors).toEqual([expect.objectContaining({ kind: 'parse_error', count: 2 })]);
    expect(s.message).toBe(
      'done: 0 answered, 12 unparseable answers (10 reused from an item with the same content; kept with their text)',
    );
    expect(outcomesText(s)).toBe(
      '0 answered · 12 unparseable answers (10 reused from an item with the same content) · 0 failed',
    );
    p.close();
  });
});
