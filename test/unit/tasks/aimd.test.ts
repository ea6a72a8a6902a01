/**
 * The adaptive-concurrency controller alone, on a fake clock: halving on 429 once per round trip,
 * +1 per window of fast successes up to the ceiling, a long stay at the level where the last 429
 * came, the latency signal, Retry-After and x-ratelimit-* holds, and the reset-duration format.
 */
import { describe, expect, it } from 'vitest';
import {
  AimdController,
  NO_RATE_LIMIT_HEADERS,
  parseResetDuration,
  readRateLimitHeaders,
} from '../../../electron/core/tasks/aimd';

/** Successes answered `latency` after they were sent, `n` of them, all sent at `t`. */
function succeed(c: AimdController, n: number, t: number, latency = 100): number {
  for (let i = 0; i < n; i += 1) c.onSuccess(t, latency, t + latency);
  return t + latency;
}

describe('AIMD controller', () => {
  it('starts at the ceiling and halves once for a burst of 429s sent before the decrease', () => {
    const c = new AimdController({ ceiling: 16 });
    expect(c.limit).toBe(16);
    for (let i = 0; i < 12; i += 1) c.onRateLimited(0, 1);
    expect(c.limit).toBe(8);
    // A 429 for a request sent after the decrease is news: halve again.
    c.onRateLimited(2, 3);
    expect(c.limit).toBe(4);
    c.onRateLimited(2.5, 4); // sent before that decrease (at 3): already answered by it
    expect(c.limit).toBe(4);
  });

  it('climbs one per window of fast successes up to the ceiling, never above', () => {
    const c = new AimdController({ ceiling: 6, initial: 2 });
    let t = 0;
    t = succeed(c, 2, t);
    expect(c.limit).toBe(3);
    t = succeed(c, 3, t);
    expect(c.limit).toBe(4);
    t = succeed(c, 4, t);
    t = succeed(c, 5, t);
    t = succeed(c, 6, t);
    succeed(c, 6, t);
    expect(c.limit).toBe(6);
  });

  it('stays at the level below the last 429 for probeWindows windows before probing higher, then forgets it', () => {
    const c = new AimdController({ ceiling: 16, initial: 5, probeWindows: 4, forgetMs: 10_000 });
    c.onRateLimited(0, 10); // saturated at 5 → 2
    expect(c.limit).toBe(2);
    let t = 20;
    t = succeed(c, 2, t);
    t = succeed(c, 3, t);
    expect(c.limit).toBe(4); // back to the level that worked, quickly
    for (let w = 0; w < 3; w += 1) t = succeed(c, 4, t);
    expect(c.limit).toBe(4); // three windows: still holding
    t = succeed(c, 4, t);
    expect(c.limit).toBe(5); // the fourth window probes one higher
    // Long after the last 429 the level is forgotten: one window per step again.
    t += 20_000;
    t = succeed(c, 5, t);
    expect(c.limit).toBe(6);
    succeed(c, 6, t);
    expect(c.limit).toBe(7);
  });

  it('halves when answers keep coming back far slower than the recent baseline, not on one slow answer or small noise', () => {
    const c = new AimdController({ ceiling: 8 });
    let t = succeed(c, 8, 0, 100);
    expect(c.limit).toBe(8);
    c.onSuccess(t, 180, t + 180); // slower, but under 3× baseline
    expect(c.limit).toBe(8);
    t += 1000;
    c.onSuccess(t, 900, t + 900); // one slow answer (a GC pause): not congestion
    expect(c.limit).toBe(8);
    t += 1000;
    c.onSuccess(t, 900, t + 900); // slow answers in a row: the average rises past 3× the baseline
    expect(c.limit).toBe(4);
    c.onSuccess(t, 900, t + 900); // sent before that decrease: already answered by it
    expect(c.limit).toBe(4);
    // Tiny latencies: a 3× jump of a few ms is noise (the absolute margin).
    const fast = new AimdController({ ceiling: 8 });
    succeed(fast, 8, 0, 2);
    fast.onSuccess(100, 20, 120);
    expect(fast.limit).toBe(8);
  });

  it('holds only for Retry-After, and for x-ratelimit-remaining 0 until the reset', () => {
    const c = new AimdController({ ceiling: 4 });
    expect(c.canStart(0, 0)).toBe(true);
    c.onRateLimited(0, 100, { ...NO_RATE_LIMIT_HEADERS, retryAfterMs: 500 });
    expect(c.canStart(0, 200)).toBe(false);
    expect(c.heldUntil(200)).toBe(600);
    expect(c.canStart(0, 600)).toBe(true);
    const d = new AimdController({ ceiling: 4 });
    d.onSuccess(0, 50, 50, { ...NO_RATE_LIMIT_HEADERS, remainingRequests: 0, resetRequestsMs: 1000 });
    expect(d.canStart(0, 500)).toBe(false);
    expect(d.canStart(0, 1050)).toBe(true);
    expect(d.limit).toBe(4); // a published limit is no congestion signal
  });

  it('spends a small published budget, then waits for its reset', () => {
    const c = new AimdController({ ceiling: 8 });
    c.onSuccess(0, 50, 50, { ...NO_RATE_LIMIT_HEADERS, remainingTokens: 2, resetTokensMs: 1000 });
    expect(c.canStart(0, 60)).toBe(true);
    c.started(60);
    c.started(61);
    expect(c.canStart(0, 62)).toBe(false);
    expect(c.canStart(0, 1051)).toBe(true);
  });

  it('reads OpenAI reset durations and the headers of a response', () => {
    expect(parseResetDuration('1s')).toBe(1000);
    expect(parseResetDuration('6m0s')).toBe(360_000);
    expect(parseResetDuration('20ms')).toBe(20);
    expect(parseResetDuration('1h2m3.5s')).toBe(3_723_500);
    expect(parseResetDuration('0.5')).toBe(500);
    expect(parseResetDuration('soon')).toBeNull();
    expect(parseResetDuration('')).toBeNull();
    const h = new Headers({
      'x-ratelimit-remaining-requests': '7',
      'x-ratelimit-reset-requests': '2s',
      'x-ratelimit-remaining-tokens': 'many',
    });
    expect(readRateLimitHeaders(h, 30)).toEqual({
      retryAfterMs: 30,
      remainingRequests: 7,
      resetRequestsMs: 2000,
      remainingTokens: null,
      resetTokensMs: null,
    });
  });
});

describe('AIMD controller probing a fixed number of slots', () => {
  it('a 429 for the slow probe steps back to the level that worked; another 429 there halves', () => {
    const c = new AimdController({ ceiling: 16, initial: 5, probeWindows: 2 });
    c.onRateLimited(0, 10); // 5 → 2, the wall is at 5
    let t = 20;
    t = succeed(c, 2, t);
    t = succeed(c, 3, t);
    t = succeed(c, 4, t);
    t = succeed(c, 4, t);
    expect(c.limit).toBe(5); // probed after two windows at 4
    c.onRateLimited(t, t + 1);
    expect(c.limit).toBe(4); // back below the wall, not halved
    // The server lost capacity: a 429 at the level that used to work halves.
    c.onRateLimited(t + 2, t + 3);
    expect(c.limit).toBe(2);
  });
});
