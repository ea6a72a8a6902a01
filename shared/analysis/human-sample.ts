/**
 * The human sample as per-summary counts: what the diagnostic scope (reliability.ts) and the
 * all-units scope (all-units.ts) both bootstrap. One counting pass and one set of definitions
 * (usable human label, unfaithful as the positive class), so the two scopes agree by construction.
 *
 * Per-summary counts are all Float64Array so the bootstrap loops stay monomorphic (fast) in V8.
 */
import { estimateOf, percentileInterval } from '../stats/bootstrap';
import { predictionOf, usableHumanValue } from './prepare';
import type { AnalysisSummary, AnalysisUnit, Estimate, HumanSampleCounts } from './types';

/** One judge's confusion per annotated summary; unfaithful (hard 0) is the positive class. */
export interface ConfusionCounts {
  tp: Float64Array;
  fp: Float64Array;
  tn: Float64Array;
  fn: Float64Array;
}

export interface HumanSampleTally {
  human: HumanSampleCounts;
  /** Usable human labels per annotated summary. */
  usable: Float64Array;
  /** Faithful ones among them. */
  faithful: Float64Array;
  /** Per judge, in the order given. */
  confusion: ConfusionCounts[];
}

/**
 * Counts the annotated summaries' units. `onUsable` sees every unit with a usable human label
 * (its value and its summary's index), for counts a scope adds of its own.
 */
export function tallyHumanSample(
  annotated: readonly AnalysisSummary[],
  judges: readonly string[],
  onUsable?: (unit: AnalysisUnit, truth: 0 | 1, summary: number) => void,
): HumanSampleTally {
  const g = annotated.length;
  const usable = new Float64Array(g);
  const faithful = new Float64Array(g);
  const confusion = judges.map(() => ({
    tp: new Float64Array(g),
    fp: new Float64Array(g),
    tn: new Float64Array(g),
    fn: new Float64Array(g),
  }));
  const human: HumanSampleCounts = {
    n_annotated_summaries: g,
    n_units: 0,
    n_usable: 0,
    n_faithful: 0,
    n_unfaithful: 0,
    n_unclear: 0,
    n_unresolved: 0,
    n_unlabeled: 0,
  };
  annotated.forEach((summary, s) => {
    for (const unit of summary.units) {
      human.n_units += 1;
      if (unit.human === 'unclear') human.n_unclear += 1;
      else if (unit.humanStatus === 'disagreement' || unit.humanStatus === 'tie') human.n_unresolved += 1;
      else if (unit.human === null) human.n_unlabeled += 1;
      const truth = usableHumanValue(unit);
      if (truth === null) continue;
      usable[s]! += 1;
      faithful[s]! += truth;
      judges.forEach((judge, j) => {
        const hard = predictionOf(unit, judge)?.hard ?? null;
        if (hard === null) return;
        const cell = confusion[j]!;
        if (hard === 0) (truth === 0 ? cell.tp : cell.fp)[s]! += 1;
        else (truth === 0 ? cell.fn : cell.tn)[s]! += 1;
      });
      onUsable?.(unit, truth, s);
    }
  });
  human.n_usable = sum(usable);
  human.n_faithful = sum(faithful);
  human.n_unfaithful = human.n_usable - human.n_faithful;
  return { human, usable, faithful, confusion };
}

export function sum(values: Float64Array): number {
  let total = 0;
  for (let i = 0; i < values.length; i += 1) total += values[i]!;
  return total;
}

/** The sum under one bootstrap resample: `weights[i]` copies of summary i. */
export function weightedSum(values: Float64Array, weights: Int32Array): number {
  let total = 0;
  for (let i = 0; i < values.length; i += 1) total += values[i]! * weights[i]!;
  return total;
}

/** NaN when the denominator is 0, so a replicate without data is dropped from the interval. */
export function ratio(numerator: number, denominator: number): number {
  return denominator > 0 ? numerator / denominator : NaN;
}

export function nullIfNaN(value: number): number | null {
  return Number.isNaN(value) ? null : value;
}

/** A point estimate with its percentile interval over the replicates; `units`: the summaries it rests on (too few: no interval). */
export function estimate(point: number, replicates: Float64Array, n: number, units: number): Estimate {
  return estimateOf(point, percentileInterval(replicates), n, units);
}
