/**
 * Replicas and adaptive concurrency against mock servers through the real openai client: one
 * replica down (every item answered by the other; it is probed back in), every replica down (the
 * circuit opens), and a slot-limited server (the AIMD limit settles near its slots, few 429s after
 * the first window). Counts, never times.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EndpointConfigSchema } from '../../../shared/judges/config';
import { configHash } from '../../../electron/core/judges/hashing';
import { judgeProject, until } from '../../mock-openai/project';
import { startMockOpenAI, type MockServer } from '../../mock-openai/server';
import { tempDir } from '../../helpers/tmp';

const dir = tempDir('loupe-replicas-');
let a: MockServer;
let b: MockServer;
beforeAll(async () => {
  a = await startMockOpenAI();
  b = await startMockOpenAI();
});
afterAll(async () => {
  await a.close();
  await b.close();
});
beforeEach(() => {
  for (const m of [a, b]) {
    m.reset();
    m.setFailure(null);
    m.setSlots(null, null);
    m.setLatency(0);
  }
});

let n = 0;
const fresh = (summaries: number) =>
  judgeProject(dir, `r${n++}`, summaries, { replicas: { probeBaseMs: 30, probeMaxMs: 60 } });
const endpoint = (baseUrls: string[], concurrency = 4) =>
  EndpointConfigSchema.parse({ kind: 'endpoint', baseUrls, model: 'replicated', concurrency, retries: 3, timeoutS: 5 });

describe('replicas of one endpoint', () => {
  it('old configs (baseUrl) and new ones (baseUrls) parse to both; the version hash ignores the replicas after the first', () => {
    const old = EndpointConfigSchema.parse({ kind: 'endpoint', baseUrl: a.url, model: 'm' });
    expect(old.baseUrls).toEqual([a.url]);
    const two = EndpointConfigSchema.parse({ kind: 'endpoint', baseUrls: [a.url, b.url, a.url], model: 'm' });
    expect(two).toMatchObject({ baseUrl: a.url, baseUrls: [a.url, b.url] });
    expect(EndpointConfigSchema.parse(two)).toEqual(two);
    expect(
      EndpointConfigSchema.parse({ kind: 'endpoint', baseUrl: b.url, baseUrls: [a.url], model: 'm' }).baseUrls,
    ).toEqual([b.url, a.url]);
    expect(configHash(two)).toBe(configHash(old));
    expect(EndpointConfigSchema.safeParse({ kind: 'endpoint', model: 'm' }).success).toBe(false);
  });

  it('spreads requests over healthy replicas and answers everything from the other while one is down; the down one is probed back in', async () => {
    const p = await fresh(20);
    await p.service.handlers['judges.add']({ name: 'r', config: endpoint([a.url, b.url]) });
    let run = p.service.startRun('r', {});
    await run.finished;
    expect(run.status()).toMatchObject({ state: 'done', ok: 60 });
    expect(a.answered()).toBeGreaterThan(10);
    expect(b.answered()).toBeGreaterThan(10);
    expect(a.answered() + b.answered()).toBe(60);

    const p2 = await fresh(20);
    await p2.service.handlers['judges.add']({ name: 'r', config: endpoint([a.url, b.url]) });
    a.reset();
    b.reset();
    b.setFailure({ type: 'reset' });
    run = p2.service.startRun('r', {});
    await until(() => run.status().done >= 20, 10_000, 'answers while b is down');
    expect(run.status().replicas?.[1]).toMatchObject({ healthy: false });
    expect(run.status().state).toBe('running');
    // b comes back: a probe finds it and it takes requests again.
    b.setFailure(null);
    await run.finished;
    const status = run.status();
    expect(status).toMatchObject({ state: 'done', ok: 60, failed: 0 });
    expect(status.replicas?.[1]).toMatchObject({ healthy: true });
    expect(b.answered()).toBeGreaterThan(0);
    expect(a.answered() + b.answered()).toBe(60);
    p.close();
    p2.close();
  });

  it('opens the circuit only when every replica is out', async () => {
    const p = await fresh(10);
    await p.service.handlers['judges.add']({ name: 'r', config: endpoint([a.url, b.url]) });
    a.setFailure({ type: 'status', status: 503 });
    b.setFailure({ type: 'reset' });
    const run = p.service.startRun('r', {});
    await until(() => run.status().state === 'paused', 10_000, 'the circuit');
    const status = run.status();
    expect(status.pauseReason).toBe('endpoint_unreachable');
    expect(status.message).toMatch(/every replica is out/);
    expect(status.replicas?.every((r) => !r.healthy)).toBe(true);
    // Nothing of the queue was burnt: resume with the replicas back answers everything.
    a.setFailure(null);
    b.setFailure(null);
    run.resume();
    await run.finished;
    expect(run.status()).toMatchObject({ state: 'done', ok: 30, failed: 0 });
    p.close();
  });

  it('on a server with 4 slots (429 at once beyond them) the limit settles near 4 with few 429s after the first window', async () => {
    const p = await fresh(80);
    a.setSlots(4, null);
    a.setLatency(15);
    await p.service.handlers['judges.add']({ name: 's', config: endpoint([a.url], 16) });
    const run = p.service.startRun('s', {});
    await until(() => a.answered() >= 40, 20_000, 'the first answers');
    const rejectedEarly = a.rejected();
    await run.finished;
    const status = run.status();
    expect(status).toMatchObject({ state: 'done', ok: 240, failed: 0 });
    expect(a.maxInFlight()).toBeGreaterThan(4); // the first burst tried more than the slots
    const limit = status.replicas![0]!.limit;
    expect(limit).toBeGreaterThanOrEqual(2);
    expect(limit).toBeLessThanOrEqual(5);
    // After the first window, 429s are rare: one probe above the slots now and then.
    const later = a.rejected() - rejectedEarly;
    expect(later).toBeLessThan(200 / 8);
    p.close();
  });

  it('a 429 with Retry-After holds only the replica that sent it', async () => {
    const p = await fresh(10);
    await p.service.handlers['judges.add']({ name: 'h', config: endpoint([a.url, b.url], 1) });
    a.queue({ type: 'status', status: 429, headers: { 'retry-after': '30' } });
    const run = p.service.startRun('h', {});
    await run.finished;
    // a is held for 30 s after its first answer; b answered everything else meanwhile.
    expect(run.status()).toMatchObject({ state: 'done', ok: 30 });
    expect(a.count()).toBe(1);
    expect(a.answered()).toBe(0);
    expect(b.answered()).toBe(30);
    p.close();
  });
});
