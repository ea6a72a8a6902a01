/**
 * Implausibly fast decisions (INCEpTION/Potato-style curation flags): one threshold rule for the
 * review queues, Table 4, the review export and the annotators' activity.
 */

/** A decision time strictly under fastMs is fast; no recorded time is never fast. */
export function isFastTime(timeMs: number | null, fastMs: number): boolean {
  return timeMs !== null && timeMs < fastMs;
}

/** A review decision is fast when its blind time (the first event that gave a label) is. */
export function isFast(decision: { blindTimeMs: number | null }, fastMs: number): boolean {
  return isFastTime(decision.blindTimeMs, fastMs);
}
