/**
 * An annotator's progress over their queue: sentences and summaries done of their sample.
 *
 * Kept incrementally (a label's cost must not grow with the project): the queue's counts
 * are read once (annotation.queue, or the first label after something else changed the queue) and
 * each label then moves them by its own delta. What else can change a queue or its labels (a
 * sample batch, an import, a merge, another connection's commit) changes the repository's
 * fingerprint, and the next label recounts instead of trusting the cache.
 */
import type { Progress } from '../../../shared/api';
import type { QueueCounts, Repository } from '../../../db/repository';

export function progressOf(rows: readonly QueueCounts[]): Progress {
  let unitsDone = 0;
  let unitsTotal = 0;
  let summariesDone = 0;
  for (const r of rows) {
    unitsDone += r.labeled;
    unitsTotal += r.units;
    if (r.labeled === r.units) summariesDone += 1;
  }
  return { unitsDone, unitsTotal, summariesDone, summariesTotal: rows.length };
}

interface CachedQueue {
  fingerprint: string;
  /** Summary key → its counts, for the summaries of this annotator's queue. */
  bySummary: Map<number, { units: number; labeled: number }>;
  progress: Progress;
}

export interface ProgressTracker {
  /** Seeds the cache from a queue just read (the rows must be the annotator's whole queue). */
  remember(repo: Repository, annotatorId: number, rows: readonly QueueCounts[]): void;
  /**
   * The progress after one label of `summaryKey` went from labeled `before` to labeled `after`
   * (call after the write committed, with the fingerprint read before it).
   */
  afterLabel(
    repo: Repository,
    annotatorId: number,
    fingerprintBefore: string,
    summaryKey: number,
    before: boolean,
    after: boolean,
  ): Progress;
}

/** One tracker per open repository (a project switch starts afresh). */
export function createProgressTracker(): ProgressTracker {
  const caches = new WeakMap<Repository, Map<number, CachedQueue>>();
  const cachesOf = (repo: Repository) => {
    let map = caches.get(repo);
    if (!map) caches.set(repo, (map = new Map()));
    return map;
  };

  function build(
    repo: Repository,
    annotatorId: number,
    fingerprint: string,
    rows: readonly QueueCounts[],
  ): CachedQueue {
    const cached: CachedQueue = {
      fingerprint,
      bySummary: new Map(rows.map((r) => [r.key, { units: r.units, labeled: r.labeled }])),
      progress: progressOf(rows),
    };
    cachesOf(repo).set(annotatorId, cached);
    return cached;
  }

  return {
    remember(repo, annotatorId, rows) {
      build(repo, annotatorId, repo.queueFingerprint(), rows);
    },
    afterLabel(repo, annotatorId, fingerprintBefore, summaryKey, before, after) {
      const cached = cachesOf(repo).get(annotatorId);
      if (!cached || cached.fingerprint !== fingerprintBefore) {
        // Something besides this annotator's labels changed the queue: recount once (the write is in it).
        return build(repo, annotatorId, repo.queueFingerprint(), repo.annotationQueue(annotatorId, null)).progress;
      }
      const entry = cached.bySummary.get(summaryKey);
      const delta = (after ? 1 : 0) - (before ? 1 : 0);
      if (entry && delta !== 0) {
        const wasDone = entry.labeled === entry.units;
        entry.labeled += delta;
        const isDone = entry.labeled === entry.units;
        const p = cached.progress;
        cached.progress = {
          ...p,
          unitsDone: p.unitsDone + delta,
          summariesDone: p.summariesDone + (isDone ? 1 : 0) - (wasDone ? 1 : 0),
        };
      }
      // This connection's own commit changes no part of the fingerprint: the cache stays valid.
      return cached.progress;
    },
  };
}
