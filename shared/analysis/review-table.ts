/**
 * Table 4 (the review of the suspicious examples) in one shape with one builder.
 *
 * The shape is `ReviewTable` (the analysis JSON's `suspicious.review`, which the Markdown prints).
 * Every other place is a projection of it, never a recount:
 * - the analysis JSON's `review` key, the shape: `reviewSummary` here;
 * - the review.table API row (camelCase, plus error types and fast decisions): shared/review/table4.ts.
 */
import type { HumanLabel } from '../domain';
import type { ReviewSummary, ReviewTable, SuspiciousEntry } from './types';

/** Table 4 over the listed (capped) suspicious summaries; `pool`: suspicious summaries before the fragment filter. */
export function buildReviewTable(pool: number, listed: readonly Pick<SuspiciousEntry, 'review_labels'>[]): ReviewTable {
  const labels: (HumanLabel | null)[] = listed.flatMap((entry) => entry.review_labels);
  const count = (label: HumanLabel | null) => labels.filter((l) => l === label).length;
  const unfaithful = count('unfaithful');
  const faithful = count('faithful');
  return {
    pool,
    reviewed_summaries: listed.filter((entry) => entry.review_labels.some((label) => label !== null)).length,
    flagged_sentences: labels.length,
    unfaithful,
    faithful,
    unclear: count('unclear'),
    not_reviewed: count(null),
    pct_unfaithful: {
      value: unfaithful + faithful > 0 ? unfaithful / (unfaithful + faithful) : null,
      n: unfaithful + faithful,
    },
  };
}

/** Table 4 in the shape (`review: {pool, reviewed, U, F, unclear, pct_U}`), pct_U in percent. */
export function reviewSummary(table: ReviewTable): ReviewSummary {
  return {
    pool: table.pool,
    reviewed: table.reviewed_summaries,
    U: table.unfaithful,
    F: table.faithful,
    unclear: table.unclear,
    pct_U: table.pct_unfaithful.value === null ? null : 100 * table.pct_unfaithful.value,
  };
}
