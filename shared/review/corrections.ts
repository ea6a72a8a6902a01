/**
 * Resolved sentence labels and corrected global labels: what review.corrections, the
 * label export and the dataset card report. Pure, over a loaded dataset.
 */
import { compareByDocThenSummary } from '../analysis/prepare';
import type { Correction } from '../contract/review';
import type { GlobalLabel, HumanLabel } from '../domain';
import type { LoadedDataset, LoadedSummary, LoadedUnit } from './dataset';

export type LabelSource = 'adjudicator' | 'reviewer' | 'agreement' | 'annotator';

/**
 * The best human label of a unit and where it comes from, in this order:
 * - `adjudicator`: the audit-adjudicated label (human-human queue; also used by p̂ and ε̂);
 * - `reviewer`: the review label (other queues or imported review labels; Table 4 and the
 *   corrected global label only, never p̂/ε̂);
 * - `agreement` / `annotator`: the annotation label (several annotators agreeing / one annotator).
 * null: nobody labeled it, or people disagree and no decision settles it.
 */
export function resolvedLabel(unit: LoadedUnit): { label: HumanLabel; source: LabelSource } | null {
  if (unit.auditAdjudicated !== null) return { label: unit.auditAdjudicated, source: 'adjudicator' };
  const review = unit.analysis.review ?? null;
  if (review !== null) return { label: review, source: 'reviewer' };
  const { human, humanStatus } = unit.analysis;
  if (human === null) return null;
  return { label: human, source: humanStatus === 'agreed' ? 'agreement' : 'annotator' };
}

export const CORRECTION_RULE =
  "Conjunctive rule over each sentence's adjudicated-or-resolved label (the human-vs-human adjudication, else the review " +
  'decision the adjudicators of the other queues agree on, else the annotation label: one annotator, or all agreeing): ' +
  'unfaithful (0) as soon as one sentence is unfaithful; faithful (1) when ' +
  'every sentence has a label and those that are not unclear are all faithful (at least one); otherwise not determined (null). ' +
  "Unclear sentences are excluded. A flip is a determined corrected label that differs from the benchmark's.";

export type CorrectionRow = Correction;

export function correctionOf(summary: LoadedSummary): CorrectionRow {
  let faithful = 0;
  let unfaithful = 0;
  let unclear = 0;
  let unknown = 0;
  let adjudicated = 0;
  for (const unit of summary.units) {
    const resolved = resolvedLabel(unit);
    if (resolved === null) unknown += 1;
    else {
      if (resolved.source === 'adjudicator' || resolved.source === 'reviewer') adjudicated += 1;
      if (resolved.label === 'faithful') faithful += 1;
      else if (resolved.label === 'unfaithful') unfaithful += 1;
      else unclear += 1;
    }
  }
  const basis =
    unfaithful > 0 ? 'unfaithful_sentence' : unknown === 0 && faithful > 0 ? 'all_sentences' : 'undetermined';
  const correctedLabel: GlobalLabel | null = basis === 'unfaithful_sentence' ? 0 : basis === 'all_sentences' ? 1 : null;
  const benchmarkLabel = summary.row.globalLabel;
  return {
    key: summary.row.key,
    summaryId: summary.row.summaryId,
    docId: summary.row.docId,
    benchmarkLabel,
    correctedLabel,
    basis,
    sentences: summary.units.length,
    faithful,
    unfaithful,
    unclear,
    unknown,
    adjudicated,
    flipped: correctedLabel !== null && benchmarkLabel !== null && correctedLabel !== benchmarkLabel,
  };
}

/** Summaries with ≥ 1 human label (annotation or review), by doc id then summary id. */
export function computeCorrections(dataset: LoadedDataset): CorrectionRow[] {
  return dataset.summaries
    .filter((s) => s.units.some((u) => u.annotations.length > 0 || u.decisions.some((d) => d.label !== null)))
    .sort((a, b) => compareByDocThenSummary(a.analysis, b.analysis))
    .map(correctionOf);
}
