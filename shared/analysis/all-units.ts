/**
 * The all-units scope (issue 10 item 2; PROTOCOL "Two scopes"): p̂ and each judge's error on
 * every annotated unit, whatever its summary's length. XSum-style benchmarks have one sentence
 * per summary: the averaging-bias diagnostic does not apply to them (min = mean = max), judge
 * error does.
 *
 * Same definitions as the diagnostic scope (reliability.ts): p̂ = faithful / usable human labels;
 * ε̂ = usable units whose hard label differs / usable units with a hard label; unfaithful is the
 * positive class of the confusion, recall and specificity. Bootstrap units: the annotated
 * summaries (≥ 1 annotation-phase label, unclear included), one resample per replicate shared by
 * p̂ and every judge (paired). The caller passes the human-sample stream of the dataset: on a
 * dataset with no single-sentence summary the figures, intervals included, equal the diagnostic
 * scope's.
 */
import { drawResampleCounts, percentileInterval } from '../stats/bootstrap';
import type { Xoshiro128StarStar } from '../stats/prng';
import { predictionOf, usableHumanValue } from './prepare';
import type { AllUnitsJudge, AllUnitsReport, AnalysisSummary, Estimate, HumanSampleCounts } from './types';

export interface AllUnitsInput {
  /** The annotated summaries of the dataset, any length. */
  annotated: readonly AnalysisSummary[];
  judges: readonly string[];
  bootstrap: number;
  rng: Xoshiro128StarStar;
}

function weightedSum(values: Float64Array, weights: Int32Array): number {
  let total = 0;
  for (let i = 0; i < values.length; i += 1) total += values[i]! * weights[i]!;
  return total;
}

function sum(values: Float64Array): number {
  let total = 0;
  for (let i = 0; i < values.length; i += 1) total += values[i]!;
  return total;
}

const ratio = (numerator: number, denominator: number) => (denominator > 0 ? numerator / denominator : NaN);

function estimate(point: number, replicates: Float64Array, n: number): Estimate {
  const { ci, dropped } = percentileInterval(replicates);
  return { value: Number.isNaN(point) ? null : point, ci, n, replicates_dropped: dropped };
}

export function computeAllUnits({ annotated, judges, bootstrap, rng }: AllUnitsInput): AllUnitsReport {
  const g = annotated.length;
  const usable = new Float64Array(g);
  const faithful = new Float64Array(g);
  const cells = judges.map(() => ({ tp: new Float64Array(g), fp: new Float64Array(g), tn: new Float64Array(g), fn: new Float64Array(g) }));
  const human: HumanSampleCounts = { n_annotated_summaries: g, n_units: 0, n_usable: 0, n_faithful: 0, n_unfaithful: 0, n_unclear: 0, n_unresolved: 0, n_unlabeled: 0 };
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
        const cell = cells[j]!;
        if (hard === 0) (truth === 0 ? cell.tp : cell.fp)[s]! += 1;
        else (truth === 0 ? cell.fn : cell.tn)[s]! += 1;
      });
    }
  });
  human.n_usable = sum(usable);
  human.n_faithful = sum(faithful);
  human.n_unfaithful = human.n_usable - human.n_faithful;

  const pHatReplicates = new Float64Array(bootstrap);
  const replicates = judges.map(() => ({ epsilon: new Float64Array(bootstrap), recall: new Float64Array(bootstrap), specificity: new Float64Array(bootstrap) }));
  const weights = new Int32Array(g);
  for (let r = 0; r < bootstrap; r += 1) {
    drawResampleCounts(rng, weights);
    pHatReplicates[r] = ratio(weightedSum(faithful, weights), weightedSum(usable, weights));
    cells.forEach((cell, j) => {
      const tp = weightedSum(cell.tp, weights);
      const fp = weightedSum(cell.fp, weights);
      const tn = weightedSum(cell.tn, weights);
      const fn = weightedSum(cell.fn, weights);
      const out = replicates[j]!;
      out.epsilon[r] = ratio(fp + fn, tp + fp + tn + fn);
      out.recall[r] = ratio(tp, tp + fn);
      out.specificity[r] = ratio(tn, tn + fp);
    });
  }

  const judgeReports = judges.map((judge, j): [string, AllUnitsJudge] => {
    const cell = cells[j]!;
    const out = replicates[j]!;
    const [tp, fp, tn, fn] = [sum(cell.tp), sum(cell.fp), sum(cell.tn), sum(cell.fn)];
    const compared = tp + fp + tn + fn;
    return [
      judge,
      {
        epsilon_hat: { ...estimate(ratio(fp + fn, compared), out.epsilon, compared), n_summaries: g },
        confusion: { positive_class: 'unfaithful', tp, fp, tn, fn, n: compared },
        recall: estimate(ratio(tp, tp + fn), out.recall, tp + fn),
        specificity: estimate(ratio(tn, tn + fp), out.specificity, tn + fp),
      },
    ];
  });

  return {
    n_summaries: g,
    n_single_sentence: annotated.filter((summary) => summary.units.length === 1).length,
    n_units: human.n_units,
    human,
    p_hat: { ...estimate(ratio(human.n_faithful, human.n_usable), pHatReplicates, human.n_usable), n_summaries: g },
    judges: Object.fromEntries(judgeReports),
  };
}
