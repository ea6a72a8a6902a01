/**
 * Words and figures of the Analysis view. An undefined value is written "undefined" (never 0 or
 * a dash that could pass for one), every figure carries its n, intervals are 95% percentile
 * intervals, and Table 2 cells are "value ± half-width" with the half-width (upper − lower) / 2.
 */
import type { CorrelationCell, DatasetAnalysis, Estimate, HumanLabelRule, Interval, Rate, ReferenceSet } from '../../../shared/analysis/types';

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

/**
 * At or below this n an interval says little (a bootstrap over ≤ 5 units often collapses to a
 * point): its n is always written beside it, so "± 0.000" is never read as precision.
 */
export const SMALL_N = 5;

function smallN(estimate: Estimate): string {
  return estimate.n <= SMALL_N ? ` (n = ${count(estimate.n)})` : '';
}

export const UNDEFINED_TEXT = 'undefined';

export const STATISTICS = ['pearson', 'spearman', 'kendall', 'roc_auc'] as const;
export type Statistic = (typeof STATISTICS)[number];

export const STATISTIC_LABEL: Record<Statistic, string> = {
  pearson: 'Pearson r',
  spearman: 'Spearman ρ',
  kendall: 'Kendall τ-b',
  roc_auc: 'ROC-AUC',
};

/** Fixed decimals, no "-0.00", a true minus sign. */
export function fixed(value: number, digits: number): string {
  const text = value.toFixed(digits);
  if (Number(text) === 0) return (0).toFixed(digits);
  return text.replace('-', '−');
}

export function num(value: number | null, digits = 3): string {
  return value === null ? UNDEFINED_TEXT : fixed(value, digits);
}

export function signed(value: number | null, digits = 3): string {
  if (value === null) return UNDEFINED_TEXT;
  const text = fixed(value, digits);
  return value > 0 && Number(value.toFixed(digits)) !== 0 ? `+${text}` : text;
}

export function count(value: number): string {
  return value.toLocaleString('en-US');
}

export function percent(value: number | null, digits = 1): string {
  return value === null ? UNDEFINED_TEXT : `${fixed(100 * value, digits)}%`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${n === 1 ? one : many}`;
}

export function halfWidth(ci: Interval): number {
  return (ci[1] - ci[0]) / 2;
}

export function intervalText(ci: Interval | null, digits = 3, format: (v: number) => string = (v) => fixed(v, digits)): string {
  return ci === null ? 'no interval' : `[${format(ci[0])}, ${format(ci[1])}]`;
}

/** "0.134 [0.050, 0.230]", or the value alone when there is no interval. */
export function withInterval(estimate: Estimate, digits = 3): string {
  if (estimate.value === null) return UNDEFINED_TEXT;
  return estimate.ci === null ? fixed(estimate.value, digits) : `${fixed(estimate.value, digits)} ${intervalText(estimate.ci, digits)}${smallN(estimate)}`;
}

export function percentWithInterval(estimate: Estimate): string {
  if (estimate.value === null) return UNDEFINED_TEXT;
  return estimate.ci === null ? percent(estimate.value) : `${percent(estimate.value)} ${intervalText(estimate.ci, 1, (v) => percent(v))}${smallN(estimate)}`;
}

/** Table 2: "0.41 ± 0.08" (value ± half-width), the value alone without an interval; n beside it when n ≤ 5. */
export function plusMinus(estimate: Estimate, digits = 2): string {
  if (estimate.value === null) return UNDEFINED_TEXT;
  if (estimate.ci === null) return fixed(estimate.value, digits);
  return `${fixed(estimate.value, digits)} ± ${fixed(halfWidth(estimate.ci), digits)}${smallN(estimate)}`;
}

export function rateText(rate: Rate, asPercent = false): string {
  return `${asPercent ? percent(rate.value) : num(rate.value)} (n = ${count(rate.n)})`;
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
      ? `No summary to compare: the judge lacks a prediction on a sentence of all ${count(cell.n_left_out)} summaries with a global label.`
      : 'No summary with ≥ 2 sentences, a global label and the judge’s predictions.';
  }
  if (cell.n_faithful === 0 || cell.n_unfaithful === 0) {
    return `The global label is constant over these ${count(cell.n)} summaries (all ${cell.n_faithful === 0 ? 'unfaithful' : 'faithful'}): every statistic against it is undefined.`;
  }
  if (statistic === 'roc_auc') return `Undefined over these ${count(cell.n)} summaries.`;
  return `The aggregate is constant over these ${count(cell.n)} summaries: a correlation with a constant vector is undefined (not 0).`;
}

/** What an interval rests on, for tooltips: replicates and the ones left out. */
export function intervalNote(estimate: Estimate, bootstrap: number, units: string): string {
  if (estimate.value === null) return '';
  if (bootstrap === 0) return 'No interval: the analysis ran with 0 bootstrap replicates.';
  if (estimate.ci === null) return `No interval: the statistic was undefined in every one of the ${count(bootstrap)} replicates.`;
  const dropped = estimate.replicates_dropped > 0 ? `; ${count(estimate.replicates_dropped)} replicates where it was undefined left out` : '';
  return `95% percentile interval ${intervalText(estimate.ci)} from ${count(bootstrap)} bootstrap replicates resampling ${units}${dropped}.`;
}

export function epsilon0Words(dataset: Pick<DatasetAnalysis, 'epsilon0' | 'epsilon0_status' | 'epsilon0_reason'>): string {
  switch (dataset.epsilon0_status) {
    case 'root':
      return `ε₀ = ${num(dataset.epsilon0)}`;
    case 'unconditional':
      return 'unconditional: every ε̂ < ½ qualifies';
    default:
      return `undefined: ${dataset.epsilon0_reason ?? 'p̂ is missing, 0 or 1'}`;
  }
}
