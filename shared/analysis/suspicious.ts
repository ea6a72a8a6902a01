/**
 * Suspicious examples (§6, App. C.2): global label faithful, yet every judge flags (hard 0) at
 * least one sentence. Flagged sentences are those every judge flags, minus fragments of fewer
 * than five word tokens; summaries left with none are dropped; the rest are sorted by doc_id,
 * then summary_id (code-unit order) and capped. The pool counts every suspicious summary before
 * the fragment filter. Review-phase labels of the listed flagged sentences give Table 4
 * (buildReviewTable, shared/analysis/review-table.ts).
 */
import { countWordTokens } from '../domain';
import { compareByDocThenSummary, predictionOf } from './prepare';
import { buildReviewTable } from './review-table';
import type { AnalysisSummary, AnalysisUnit, SuspiciousEntry, SuspiciousReport } from './types';

/** Fewer word tokens than this make a fragment (C.2: "shorter than five word tokens"). */
export const MIN_FLAGGED_WORDS = 5;

function flaggedByAll(unit: AnalysisUnit, judges: string[]): boolean {
  // A missing prediction is not a flag.
  return judges.every((judge) => predictionOf(unit, judge)?.hard === 0);
}

function isSuspicious(summary: AnalysisSummary, judges: string[]): boolean {
  if (summary.globalLabel !== 1 || judges.length === 0) return false;
  return judges.every((judge) => summary.units.some((unit) => predictionOf(unit, judge)?.hard === 0));
}

/** `analysed`: summaries with ≥ 2 sentences. */
export function computeSuspicious(analysed: AnalysisSummary[], judges: string[], cap: number): SuspiciousReport {
  const faithfulSummaries = analysed.filter((summary) => summary.globalLabel === 1).length;
  const pool = analysed.filter((summary) => isSuspicious(summary, judges));
  const candidates = pool
    .map((summary) => ({
      summary,
      flagged: summary.units.filter(
        (unit) => flaggedByAll(unit, judges) && countWordTokens(unit.text) >= MIN_FLAGGED_WORDS,
      ),
    }))
    .filter(({ flagged }) => flagged.length > 0)
    .sort((a, b) => compareByDocThenSummary(a.summary, b.summary));
  const listed: SuspiciousEntry[] = candidates.slice(0, cap).map(({ summary, flagged }) => ({
    summary_id: summary.summaryId,
    doc_id: summary.docId,
    flagged_sentences: flagged.map((unit) => unit.index),
    review_labels: flagged.map((unit) => unit.review ?? null),
  }));

  return {
    pool: pool.length,
    share_of_faithful: { value: faithfulSummaries > 0 ? pool.length / faithfulSummaries : null, n: faithfulSummaries },
    after_fragment_filter: candidates.length,
    cap,
    listed,
    review: buildReviewTable(pool.length, listed),
  };
}
