/**
 * Adaptive concurrency for one replica: an AIMD controller (additive increase, multiplicative
 * decrease), pure and clock-free (every method takes `now`), so tests drive it with a fake clock.
 *
 * - The configured concurrency is a ceiling; the limit starts there.
 * - A 429, or answers much slower than the recent baseline (their moving average, so one slow
 *   answer — a GC pause, a long prompt — is not congestion), halves the limit, at most once per
 *   round trip: a signal from a request sent before the last decrease is old news (the decrease
 *   already answered it), as in TCP congestion control.
 * - Each window of fast successes (as many as the limit) raises it by one. Below the level where
 *   the last 429 happened it climbs a step per window; at that level it stays a while
 *   (`probeWindows` windows) before it probes one higher, so a server with a fixed number of slots
 *   is not hit at every window. A 429 for that probe steps back to the level that worked instead
 *   of halving (the probe, not congestion, caused it); a second one halves as usual. The level is
 *   forgotten after `forgetMs` without a 429.
 * - Retry-After / retry-after-ms hold this replica until then; `x-ratelimit-remaining-*` = 0 holds
 *   it until the matching `x-ratelimit-reset-*`, and a small remaining budget allows only that
 *   many more starts before the reset.
 */

export interface AimdOptions {
  /** The configured concurrency: the limit never exceeds it. */
  ceiling: number;
  /** The limit at the start (default: the ceiling). */
  initial?: number;
  /** A success this many times slower than the baseline counts as congestion (default 3). */
  latencyFactor?: number;
  /** …and at least this many milliseconds slower (default 100; small latencies are noisy). */
  latencyMarginMs?: number;
  /** Windows spent at the last 429's level before probing one higher (default 32). */
  probeWindows?: number;
  /** Without a 429 for this long, the last 429's level is forgotten (default 30 s). */
  forgetMs?: number;
  /** The longest hold a server may ask for (default 120 s). */
  maxHoldMs?: number;
}

/** What a response's rate-limit headers say (null: absent). */
export interface RateLimitHeaders {
  retryAfterMs: number | null;
  remainingRequests: number | null;
  resetRequestsMs: number | null;
  remainingTokens: number | null;
  resetTokensMs: number | null;
}

export const NO_RATE_LIMIT_HEADERS: RateLimitHeaders = {
  retryAfterMs: null,
  remainingRequests: null,
  resetRequestsMs: null,
  remainingTokens: null,
  resetTokensMs: null,
};

export interface AimdSnapshot {
  limit: number;
  ceiling: number;
  /** The recent latency baseline in ms (null before the first success). */
  baselineMs: number | null;
  recentMs: number | null;
  heldUntil: number;
  decreases: number;
}

export class AimdController {
  private limitValue: number;
  private readonly ceiling: number;
  private readonly latencyFactor: number;
  private readonly latencyMarginMs: number;
  private readonly probeWindows: number;
  private readonly forgetMs: number;
  private readonly maxHoldMs: number;
  private baseline: number | null = null;
  /** Moving average of recent latencies (weight 0.2 for the newest). */
  private recent: number | null = null;
  private lastDecreaseAt = Number.NEGATIVE_INFINITY;
  private fastInWindow = 0;
  private windowsAtLevel = 0;
  /** The limit at which the last 429 came (null: none recently). */
  private saturatedAt: number | null = null;
  /** The limit was raised past the last 429's level by a slow probe. */
  private probing = false;
  private lastRateLimitAt = Number.NEGATIVE_INFINITY;
  private holdUntil = 0;
  /** Starts still allowed before `budgetResetAt` (null: no budget known). */
  private budget: number | null = null;
  private budgetResetAt = 0;
  private decreaseCount = 0;

  constructor(options: AimdOptions) {
    this.ceiling = Math.max(1, Math.floor(options.ceiling));
    this.limitValue = Math.min(this.ceiling, Math.max(1, Math.floor(options.initial ?? this.ceiling)));
    this.latencyFactor = options.latencyFactor ?? 3;
    this.latencyMarginMs = options.latencyMarginMs ?? 100;
    this.probeWindows = options.probeWindows ?? 32;
    this.forgetMs = options.forgetMs ?? 30_000;
    this.maxHoldMs = options.maxHoldMs ?? 120_000;
  }

  get limit(): number {
    return this.limitValue;
  }

  /** When a request may start at the earliest (0: now), whatever is in flight. */
  heldUntil(now: number): number {
    let until = this.holdUntil > now ? this.holdUntil : 0;
    if (this.budget !== null && this.budget <= 0 && this.budgetResetAt > now)
      until = Math.max(until, this.budgetResetAt);
    return until;
  }

  /** May a request start now with `inFlight` already running? */
  canStart(inFlight: number, now: number): boolean {
    return inFlight < this.limitValue && this.heldUntil(now) === 0;
  }

  /** A request starts (spends the known request budget, if any). */
  started(now: number): void {
    if (this.budget !== null) {
      if (this.budgetResetAt <= now) this.budget = null;
      else this.budget -= 1;
    }
  }

  /** A request sent at `sentAt` answered in `latencyMs`. */
  onSuccess(sentAt: number, latencyMs: number, now: number, headers: RateLimitHeaders = NO_RATE_LIMIT_HEADERS): void {
    this.readHeaders(headers, now);
    if (this.saturatedAt !== null && now - this.lastRateLimitAt > this.forgetMs) this.saturatedAt = null;
    this.recent = this.recent === null ? latencyMs : this.recent + (latencyMs - this.recent) * 0.2;
    const slow =
      this.baseline !== null &&
      this.recent > this.baseline * this.latencyFactor &&
      this.recent - this.baseline > this.latencyMarginMs;
    // The baseline follows the fastest recent answers: down at once, up slowly.
    this.baseline =
      this.baseline === null || latencyMs < this.baseline
        ? latencyMs
        : this.baseline + (latencyMs - this.baseline) * 0.02;
    if (slow) {
      this.decrease(sentAt, now);
      return;
    }
    this.fastInWindow += 1;
    if (this.fastInWindow < this.limitValue) return;
    this.fastInWindow = 0;
    this.windowsAtLevel += 1;
    if (this.limitValue >= this.ceiling) return;
    const atSaturation = this.saturatedAt !== null && this.limitValue >= this.saturatedAt - 1;
    if (atSaturation && this.windowsAtLevel < this.probeWindows) return;
    this.probing = atSaturation;
    this.limitValue += 1;
    this.windowsAtLevel = 0;
  }

  /** A 429 for a request sent at `sentAt`. */
  onRateLimited(sentAt: number, now: number, headers: RateLimitHeaders = NO_RATE_LIMIT_HEADERS): void {
    this.readHeaders(headers, now);
    if (headers.retryAfterMs !== null)
      this.holdUntil = Math.max(this.holdUntil, now + Math.min(headers.retryAfterMs, this.maxHoldMs));
    if (sentAt < this.lastDecreaseAt) return;
    this.lastRateLimitAt = now;
    if (this.probing && this.saturatedAt !== null && this.limitValue >= this.saturatedAt) {
      // The probe found the same wall: back to the level below it, keep the level.
      this.probing = false;
      this.limitValue = Math.max(1, this.saturatedAt - 1);
      this.lastDecreaseAt = now;
      this.fastInWindow = 0;
      this.windowsAtLevel = 0;
      this.decreaseCount += 1;
      return;
    }
    this.saturatedAt = this.limitValue;
    this.decrease(sentAt, now);
  }

  snapshot(now: number): AimdSnapshot {
    return {
      limit: this.limitValue,
      ceiling: this.ceiling,
      baselineMs: this.baseline,
      recentMs: this.recent,
      heldUntil: this.heldUntil(now),
      decreases: this.decreaseCount,
    };
  }

  private decrease(sentAt: number, now: number): void {
    if (sentAt < this.lastDecreaseAt) return;
    this.probing = false;
    this.limitValue = Math.max(1, Math.floor(this.limitValue / 2));
    this.lastDecreaseAt = now;
    this.fastInWindow = 0;
    this.windowsAtLevel = 0;
    this.decreaseCount += 1;
  }

  private readHeaders(h: RateLimitHeaders, now: number): void {
    const limits: Array<[number | null, number | null]> = [
      [h.remainingRequests, h.resetRequestsMs],
      [h.remainingTokens, h.resetTokensMs],
    ];
    for (const [remaining, resetMs] of limits) {
      if (remaining === null || resetMs === null) continue;
      const resetAt = now + Math.min(resetMs, this.maxHoldMs);
      if (remaining <= 0) {
        this.holdUntil = Math.max(this.holdUntil, resetAt);
      } else if (remaining < this.limitValue) {
        // Only this many more before the reset: spend them, then wait.
        this.budget = this.budget === null ? remaining : Math.min(this.budget, remaining);
        this.budgetResetAt = Math.max(this.budgetResetAt, resetAt);
      }
    }
  }
}

/**
 * A duration as OpenAI's x-ratelimit-reset-* headers write it ("1s", "6m0s", "20ms", "1h2m3.5s"),
 * or plain seconds ("2", "0.5"); null when unreadable.
 */
export function parseResetDuration(text: string | null): number | null {
  if (text === null) return null;
  const value = text.trim();
  if (value === '') return null;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const parts = /^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+(?:\.\d+)?)ms)?$/.exec(
    value,
  );
  if (!parts || parts.slice(1).every((p) => p === undefined)) return null;
  const [, h, m, s, ms] = parts;
  return Number(h ?? 0) * 3_600_000 + Number(m ?? 0) * 60_000 + Number(s ?? 0) * 1000 + Number(ms ?? 0);
}

/** Reads the rate-limit headers of a response (any object with `get`). */
export function readRateLimitHeaders(
  headers: { get(name: string): string | null } | undefined,
  retryAfterMs: number | null,
): RateLimitHeaders {
  if (!headers) return { ...NO_RATE_LIMIT_HEADERS, retryAfterMs };
  const int = (name: string) => {
    const v = headers.get(name);
    if (v === null || v.trim() === '' || !Number.isFinite(Number(v))) return null;
    return Math.max(0, Math.floor(Number(v)));
  };
  return {
    retryAfterMs,
    remainingRequests: int('x-ratelimit-remaining-requests'),
    resetRequestsMs: parseResetDuration(headers.get('x-ratelimit-reset-requests')),
    remainingTokens: int('x-ratelimit-remaining-tokens'),
    resetTokensMs: parseResetDuration(headers.get('x-ratelimit-reset-tokens')),
  };
}
