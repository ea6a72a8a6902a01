/**
 * The all-units scope (docs/methods.md, "Scopes"): p̂ and each judge's error on
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
import { drawResampleCounts, unitsWithData } from '../stats/bootstrap';
import type { Xoshiro128StarStar } from '../stats/prng';
import { estimate, ratio, sum, tallyHumanSample, weightedSum } from './human-sample';
import type { AllUnitsJudge, AllUnitsReport, AnalysisSummary } from './types';

export interface AllUnitsInput {
  /** The annotated summaries of the dataset, any length. */
  annotated: readonly AnalysisSummary[];
  judges: readonly string[];
  bootstrap: number;
  rng: Xoshiro128StarStar;
}

/** The all-units block before p̂_PP, which prediction-powered.ts adds per judge. */
export type JudgeErrorReport = Omit<AllUnitsReport, 'judges'> & {
  judges: Record<string, Omit<AllUnitsJudge, 'p_pp' | 'p_pp_reason'>>;
};

export function computeAllUnits({ annotated, judges, bootstrap, rng }: AllUnitsInput): JudgeErrorReport {
  const g = annotated.length;
  const { human, usable, faithful, confusion: cells } = tallyHumanSample(annotated, judges);

  const pHatReplicates = new Float64Array(bootstrap);
  const replicates = judges.map(() => ({
    epsilon: new Float64Array(bootstrap),
    recall: new Float64Array(bootstrap),
    specificity: new Float64Array(bootstrap),
  }));
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

  const judgeReports = judges.map((judge, j): [string, JudgeErrorReport['judges'][string]] => {
    const cell = cells[j]!;
    const out = replicates[j]!;
    const [tp, fp, tn, fn] = [sum(cell.tp), sum(cell.fp), sum(cell.tn), sum(cell.fn)];
    const compared = tp + fp + tn + fn;
    return [
      judge,
      {
        epsilon_hat: {
          ...estimate(
            ratio(fp + fn, compared),
            out.epsilon,
            compared,
            unitsWithData(cell.tp, cell.fp, cell.tn, cell.fn),
          ),
          n_summaries: g,
        },
        confusion: { positive_class: 'unfaithful', tp, fp, tn, fn, n: compared },
        recall: estimate(ratio(tp, tp + fn), out.recall, tp + fn, unitsWithData(cell.tp, cell.fn)),
        specificity: estimate(ratio(tn, tn + fp), out.specificity, tn + fp, unitsWithData(cell.tn, cell.fp)),
      },
    ];
  });

  return {
    n_summaries: g,
    n_single_sentence: annotated.filter((summary) => summary.units.length === 1).length,
    n_units: human.n_units,
    human,
    p_hat: {
      ...estimate(ratio(human.n_faithful, human.n_usable), pHatReplicates, human.n_usable, unitsWithData(usable)),
      n_summaries: g,
    },
    judges: Object.fromEntries(judgeReports),
  };
}
