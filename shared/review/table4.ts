/**
 * review.table's row of Table 4: a projection of the one Table 4 (`suspicious.review`, built by
 * shared/analysis/review-table.ts over the capped suspicious list), plus what only the review store
 * knows: the error types of the unfaithful review labels and the fast decisions.
 */
import { computeSuspicious } from '../analysis/suspicious';
import type { ReviewTable as Table4Counts } from '../analysis/types';
import type { ReviewTable as Table4Row } from '../contract/review';
import { emptyErrorTypeCounts, type ErrorType, type ErrorTypeCounts } from '../domain';
import { isReviewLabelDecision } from '../analysis/human-label';
import { compareCurrentFirst } from '../latest-event';
import type { LoadedDataset, LoadedUnit } from './dataset';
import { isFast } from './fast';
import { analysedSummaries, unitAt } from './queues';
import type { ReviewLabelRow } from './rows';

export type { Table4Row };
export { emptyErrorTypeCounts, type ErrorTypeCounts } from '../domain';

/** A unit's current decisions that are review labels (Table 4): labelled, and not from the human-human queue. */
export function reviewLabelDecisions(unit: LoadedUnit): ReviewLabelRow[] {
  return unit.decisions.filter(isReviewLabelDecision);
}

/**
 * Error type of an unfaithful review label: that of the latest current review decision saying
 * unfaithful (untyped when it has none).
 */
export function reviewErrorType(unit: LoadedUnit): ErrorType | null {
  const unfaithful = reviewLabelDecisions(unit)
    .filter((d) => d.label === 'unfaithful')
    .sort((a, b) =>
      compareCurrentFirst({ createdAt: a.lastAt, id: a.eventId }, { createdAt: b.lastAt, id: b.eventId }),
    );
  return unfaithful[0]?.errorType ?? null;
}

/** The review.table row from the one Table 4 (`counts`) and the extras. */
export function table4Row(
  head: { dataset: string; judgeCount: number; afterFragmentFilter: number; cap: number; listed: number },
  counts: Table4Counts,
  extras: { errorTypes: ErrorTypeCounts; fast: number },
): Table4Row {
  return {
    dataset: head.dataset,
    judgeCount: head.judgeCount,
    pool: counts.pool,
    afterFragmentFilter: head.afterFragmentFilter,
    cap: head.cap,
    listed: head.listed,
    reviewed: counts.reviewed_summaries,
    flaggedSentences: counts.flagged_sentences,
    unfaithful: counts.unfaithful,
    faithful: counts.faithful,
    unclear: counts.unclear,
    notReviewed: counts.not_reviewed,
    pctUnfaithful: counts.pct_unfaithful.value,
    pctUnfaithfulN: counts.pct_unfaithful.n,
    errorTypes: extras.errorTypes,
    fast: extras.fast,
  };
}

/** Table 4 of one dataset: computeSuspicious's review table over the capped list, plus error types and fast decisions. */
export function computeTable4(dataset: LoadedDataset, panel: string[], cap: number, fastMs: number): Table4Row {
  const candidates = analysedSummaries(dataset.summaries);
  const report = computeSuspicious(
    candidates.map((s) => s.analysis),
    panel,
    cap,
  );
  const byId = new Map(candidates.map((s) => [s.row.summaryId, s]));
  const errorTypes = emptyErrorTypeCounts();
  let fast = 0;
  for (const entry of report.listed) {
    const summary = byId.get(entry.summary_id)!;
    entry.flagged_sentences.forEach((index, i) => {
      const unit = unitAt(summary, index)!;
      if (entry.review_labels[i] === 'unfaithful') errorTypes[reviewErrorType(unit) ?? 'untyped'] += 1;
      fast += reviewLabelDecisions(unit).filter((d) => isFast(d, fastMs)).length;
    });
  }
  return table4Row(
    {
      dataset: dataset.name,
      judgeCount: panel.length,
      afterFragmentFilter: report.after_fragment_filter,
      cap,
      listed: report.listed.length,
    },
    report.review,
    { errorTypes, fast },
  );
}
