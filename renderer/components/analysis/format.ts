/**
 * The Analysis view's own words: settings, statistics, why a value is undefined, what an interval
 * rests on, ε₀. Figures themselves (counts, estimates, intervals, n) come from renderer/format.ts.
 */
import type {
  CorrelationCell,
  DatasetAnalysis,
  Estimate,
  HumanLabelRule,
  Rate,
  ReferenceSet,
} from '../../../shared/analysis/types';
import { agree, intervalText, nEquals, num, percent, plural } from '../../format';
import { tooFewText } from '../../../shared/stats/estimate';

/** The settings of whose labels count, in words (form and report). */
export const REFERENCE_TEXT: Record<ReferenceSet, string> = {
  both: 'people and imported label sets',
  people: "the project's people",
  imported: 'imported label sets',
};
export const HUMAN_LABEL_RULE_TEXT: Record<HumanLabelRule, string> = {
  unanimous: 'unanimous (else unresolved)',
  majority: 'majority (a tie is unresolved)',
};

export const STATISTICS = ['pearson', 'spearman', 'kendall', 'roc_auc'] as const;
export type Statistic = (typeof STATISTICS)[number];

export const STATISTIC_LABEL: Record<Statistic, string> = {
  pearson: 'Pearson r',
  spearman: 'Spearman ρ',
  kendall: 'Kendall τ-b',
  roc_auc: 'ROC-AUC',
};

export function rateText(rate: Rate, asPercent = false): string {
  return `${asPercent ? percent(rate.value) : num(rate.value)} (${nEquals(rate.n)})`;
}

/**
 * Which of min and mean is higher *as displayed* (Table 2 puts that one in bold); equal displays
 * and undefined values give null.
 */
export function displayedHigher(min: Estimate, mean: Estimate, digits = 2): 'min' | 'mean' | null {
  if (min.value === null || mean.value === null) return null;
  const shownMin = Number(min.value.toFixed(digits));
  const shownMean = Number(mean.value.toFixed(digits));
  if (shownMin === shownMean) return null;
  return shownMin > shownMean ? 'min' : 'mean';
}

/** Why a correlation cell has no value (the tooltip of "undefined"). */
export function undefinedReason(cell: CorrelationCell, statistic: Statistic): string {
  if (cell.n === 0) {
    return cell.n_left_out > 0
      ? `No summary to compare: the judge lacks a prediction on a sentence of every summary with a global label (${plural(cell.n_left_out, 'summary')}).`
      : 'No summary with ≥ 2 sentences, a global label and the judge’s predictions.';
  }
  const over = `over ${cell.n === 1 ? 'this summary' : `these ${plural(cell.n, 'summary')}`}`;
  if (cell.n_faithful === 0 || cell.n_unfaithful === 0) {
    return `The global label is constant ${over} (all ${cell.n_faithful === 0 ? 'unfaithful' : 'faithful'}): every statistic against it is undefined.`;
  }
  if (statistic === 'roc_auc') return `Undefined ${over}.`;
  return `The aggregate is constant ${over}: a correlation with a constant vector is undefined (not 0).`;
}

/** What an interval rests on, for tooltips: replicates and the ones left out. */
export function intervalNote(estimate: Estimate, bootstrap: number, units: string): string {
  if (estimate.value === null) return '';
  if (estimate.too_few) return `No interval: ${tooFewText(estimate.n)}.`;
  if (bootstrap === 0) return 'No interval: the analysis ran with 0 bootstrap replicates.';
  if (estimate.ci === null)
    return `No interval: the statistic was undefined in ${bootstrap === 1 ? 'the one replicate' : `all ${plural(bootstrap, 'replicate')}`}.`;
  const dropped =
    estimate.replicates_dropped > 0
      ? `; ${plural(estimate.replicates_dropped, 'replicate')} where it was undefined left out`
      : '';
  return `95% percentile interval ${intervalText(estimate.ci)} from ${plural(bootstrap, 'bootstrap replicate')} resampling ${units}${dropped}.`;
}

/** ε₀ in words, naming itself in every status ("ε₀ = 0.089", "ε₀ undefined: why"). */
export function epsilon0Words(
  dataset: Pick<DatasetAnalysis, 'epsilon0' | 'epsilon0_status' | 'epsilon0_reason'>,
): string {
  switch (dataset.epsilon0_status) {
    case 'root':
      return `ε₀ = ${num(dataset.epsilon0)}`;
    case 'unconditional':
      return 'ε₀ unconditional: every ε̂ < ½ qualifies';
    default:
      return `ε₀ undefined: ${dataset.epsilon0_reason ?? 'p̂ is missing, 0 or 1'}`;
  }
}

/** What the sentence-level audit of a dataset lacks, and what to do about it. */
export interface MissingSentenceInput {
  /** The dataset's sampled summaries (Project), or null when the project's counts are not known here. */
  sampled: number | null;
  /** Summaries whose claims or key facts people labeled (the accuracy block's people source). */
  peopleAccuracySummaries: number;
  /** Judges of its claims or key facts (the accuracy block). */
  accuracyJudges: number;
}

type SentenceHuman = Pick<DatasetAnalysis['human'], 'n_unclear' | 'n_unresolved'>;

/**
 * Why p̂, ε̂, ε₀ and the verdict are missing: no usable sentence label from people. A dataset
 * whose people labeled claims or key facts (RealSumm) is not told to draw a sample or to label
 * "some sentences" as if nothing had been done; a sampled one is not told to sample first.
 */
export function noHumanSentenceLabelsWords(human: SentenceHuman, input: MissingSentenceInput): string {
  const need = 'p̂, ε̂, ε₀ and the verdict rest on people’s Faithful / Unfaithful labels of sentences';
  const run = 'then run the analysis again.';
  const leftOut = human.n_unclear + human.n_unresolved;
  if (leftOut > 0) {
    return `No usable sentence label yet: ${need}, and ${plural(leftOut, 'labeled sentence')} here ${agree(leftOut, 'is', 'are')} unclear or unresolved. Label or review them in Annotate, ${run}`;
  }
  if (input.peopleAccuracySummaries > 0) {
    return `No sentence labels from people: ${need}. People labeled claims or key facts of ${plural(input.peopleAccuracySummaries, 'summary')} here (the accuracy tables above use them); to audit judges sentence by sentence, label the sentences of the sample in Annotate (T to Sentences), ${run}`;
  }
  if (input.sampled !== null && input.sampled > 0) {
    return `No sentence labels from people yet: ${need}. Label the sentences of the ${plural(input.sampled, 'sampled summary')} in Annotate, ${run}`;
  }
  const sample = input.sampled === 0 ? ' (draw a sample in Project first)' : '';
  return `No usable human labels yet: ${need}. Label some sentences in Annotate${sample}, ${run}`;
}

/** Why the judge tables are missing: no judge labeled a sentence of the dataset. */
export function noSentenceJudgesWords(input: MissingSentenceInput): string {
  const add =
    'Add a judge in Judges (G) and run it — the offline baseline needs no model — then run the analysis again.';
  if (input.accuracyJudges > 0) {
    return `No judge labeled this dataset’s sentences: its ${plural(input.accuracyJudges, 'judge')} of claims or key facts ${agree(input.accuracyJudges, 'is', 'are')} in the accuracy tables above. For the sentence-level audit, ${add.charAt(0).toLowerCase()}${add.slice(1)}`;
  }
  return `No judge predictions for this dataset. ${add}`;
}
