/**
 * An annotator's progress over their queue: sentences and summaries done of their sample.
 *
 * The totals come from the queue's batch counts (schema 16); the done side from the annotator's
 * own labels (db/queueRepository.ts), read once and then kept incrementally: each label moves
 * the counts by its own delta, so a label's cost does not grow with the project. What else can
 * change a queue or its labels (a sample batch, an import, a merge, another connection's commit)
 * changes the repository's fingerprint, and the next read recounts instead of trusting the cache.
 */
import type { Progress } from '../../../shared/api';
import type { AnnotatorQueue, QueueCounts, Repository } from '../../../db/repository';

/** The progress over these rows (the whole queue): what the kept counts must always equal. */
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

interface CachedProgress {
  fingerprint: string;
  progress: Progress;
}

export interface ProgressTracker {
  /** The annotator's progress over `queue` (their whole queue when `dataset` is null, then kept). */
  of(repo: Repository, annotatorId: number, queue: AnnotatorQueue, dataset: string | null): Progress;
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

function countProgress(queue: AnnotatorQueue): Progress {
  return { ...queue.done(), unitsTotal: queue.units, summariesTotal: queue.total };
}

/** One tracker per open repository (a project switch starts afresh). */
export function createProgressTracker(): ProgressTracker {
  const caches = new WeakMap<Repository, Map<number, CachedProgress>>();
  const cachesOf = (repo: Repository) => {
    let map = caches.get(repo);
    if (!map) caches.set(repo, (map = new Map()));
    return map;
  };

  function recount(repo: Repository, annotatorId: number, queue: AnnotatorQueue): Progress {
    const cached = { fingerprint: repo.queueFingerprint(), progress: countProgress(queue) };
    cachesOf(repo).set(annotatorId, cached);
    return cached.progress;
  }

  return {
    of(repo, annotatorId, queue, dataset) {
      if (dataset !== null) return countProgress(queue);
      const cached = cachesOf(repo).get(annotatorId);
      if (cached && cached.fingerprint === repo.queueFingerprint()) return cached.progress;
      return recount(repo, annotatorId, queue);
    },
    afterLabel(repo, annotatorId, fingerprintBefore, summaryKey, before, after) {
      const cached = cachesOf(repo).get(annotatorId);
      const queue = repo.queue.of(annotatorId, null);
      // Something besides this annotator's labels changed the queue: recount once (the write is in it).
      if (!cached || cached.fingerprint !== fingerprintBefore) return recount(repo, annotatorId, queue);
      const delta = (after ? 1 : 0) - (before ? 1 : 0);
      if (delta !== 0 && queue.has(summaryKey)) {
        const { units, labeled } = queue.countsOf(summaryKey);
        const wasDone = labeled - delta === units;
        const isDone = labeled === units;
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
