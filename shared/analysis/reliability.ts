/**
 * Judge reliability on the human sample (App. A.4 "Estimating p̂ and ε̂"), calibration of soft
 * labels, and the Rogan–Gladen corrected rate of unfaithful sentences.
 *
 * Bootstrap units: the annotated summaries (≥ 1 annotation-phase label, unclear included) for
 * p̂, ε̂, recall, specificity and Brier — one resample stream shared by every judge (paired);
 * for the corrected rate, the judged pool (all analysed summaries) is resampled too, from its
 * own stream, because q is itself an estimate.
 */
import { drawResampleCounts, unitsWithData } from '../stats/bootstrap';
import { calibration } from '../stats/calibration';
import { roganGladen } from '../stats/prevalence';
import type { Xoshiro128StarStar } from '../stats/prng';
import { estimate, nullIfNaN, ratio, sum, tallyHumanSample, weightedSum, type ConfusionCounts } from './human-sample';
import { predictionOf } from './prepare';
import type {
  AnalysisSummary,
  CalibrationReport,
  Confusion,
  CorrectedRate,
  Estimate,
  HumanSampleCounts,
  Rate,
} from './types';

export interface JudgeReliability {
  epsilon_hat: Estimate & { n_summaries: number };
  confusion: Confusion;
  recall: Rate;
  specificity: Rate;
  calibration: CalibrationReport | null;
  corrected_unfaithful_rate: CorrectedRate;
}

export interface ReliabilityResult {
  human: HumanSampleCounts;
  pHat: Estimate & { n_summaries: number };
  judges: Map<string, JudgeReliability>;
}

export interface ReliabilityInput {
  /** Analysed summaries (≥ 2 sentences). */
  analysed: AnalysisSummary[];
  /** The annotated ones among them. */
  annotated: AnalysisSummary[];
  judges: string[];
  bootstrap: number;
  humanRng: Xoshiro128StarStar;
  poolRng: Xoshiro128StarStar;
}

/** Per-summary counts of one judge in the human sample: its confusion and its soft labels. */
interface JudgeSampleCounts extends ConfusionCounts {
  softCount: Float64Array;
  softSquaredError: Float64Array;
  probabilities: number[];
  outcomes: number[];
}

function rate(numerator: number, denominator: number): Rate {
  return { value: denominator > 0 ? numerator / denominator : null, n: denominator };
}

export function computeReliability({
  analysed,
  annotated,
  judges,
  bootstrap,
  humanRng,
  poolRng,
}: ReliabilityInput): ReliabilityResult {
  const g = annotated.length;
  const soft = judges.map(() => ({
    softCount: new Float64Array(g),
    softSquaredError: new Float64Array(g),
    probabilities: [] as number[],
    outcomes: [] as number[],
  }));
  const { human, usable, faithful, confusion } = tallyHumanSample(annotated, judges, (unit, truth, s) => {
    judges.forEach((judge, j) => {
      const value = predictionOf(unit, judge)?.soft ?? null;
      if (value === null) return;
      const sample = soft[j]!;
      sample.softCount[s]! += 1;
      sample.softSquaredError[s]! += (value - truth) ** 2;
      sample.probabilities.push(value);
      sample.outcomes.push(truth);
    });
  });
  const samples = new Map<string, JudgeSampleCounts>(
    judges.map((judge, j) => [judge, { ...confusion[j]!, ...soft[j]! }]),
  );

  // The judged pool: every sentence of the analysed summaries with a hard label.
  const poolSize = analysed.length;
  const judged = new Map<string, { count: Float64Array; unfaithful: Float64Array }>(
    judges.map((judge) => [judge, { count: new Float64Array(poolSize), unfaithful: new Float64Array(poolSize) }]),
  );
  analysed.forEach((summary, s) => {
    for (const unit of summary.units) {
      for (const judge of judges) {
        const hard = predictionOf(unit, judge)?.hard ?? null;
        if (hard === null) continue;
        const pool = judged.get(judge)!;
        pool.count[s]! += 1;
        if (hard === 0) pool.unfaithful[s]! += 1;
      }
    }
  });

  // Judges that labeled the same sentences share one count array (the usual case: all of them),
  // so each replicate sums it once.
  const distinctCounts: Float64Array[] = [];
  const countSlot = new Map<string, number>();
  for (const judge of judges) {
    const counts = judged.get(judge)!.count;
    let slot = distinctCounts.findIndex((other) => other.every((value, i) => value === counts[i]));
    if (slot < 0) slot = distinctCounts.push(counts) - 1;
    countSlot.set(judge, slot);
  }
  const countSums = new Float64Array(distinctCounts.length);

  // Replicates: one human-sample resample and one pool resample per replicate, shared by all judges.
  const pHatReplicates = new Float64Array(bootstrap);
  const replicates = new Map(
    judges.map((judge) => [
      judge,
      {
        epsilon: new Float64Array(bootstrap),
        brier: new Float64Array(bootstrap),
        corrected: new Float64Array(bootstrap),
      },
    ]),
  );
  const humanWeights = new Int32Array(g);
  const poolWeights = new Int32Array(poolSize);
  for (let r = 0; r < bootstrap; r += 1) {
    drawResampleCounts(humanRng, humanWeights);
    drawResampleCounts(poolRng, poolWeights);
    distinctCounts.forEach((counts, slot) => (countSums[slot] = weightedSum(counts, poolWeights)));
    pHatReplicates[r] = ratio(weightedSum(faithful, humanWeights), weightedSum(usable, humanWeights));
    for (const judge of judges) {
      const sample = samples.get(judge)!;
      const out = replicates.get(judge)!;
      const tp = weightedSum(sample.tp, humanWeights);
      const fp = weightedSum(sample.fp, humanWeights);
      const tn = weightedSum(sample.tn, humanWeights);
      const fn = weightedSum(sample.fn, humanWeights);
      out.epsilon[r] = ratio(fp + fn, tp + fp + tn + fn);
      out.brier[r] = ratio(
        weightedSum(sample.softSquaredError, humanWeights),
        weightedSum(sample.softCount, humanWeights),
      );
      const pool = judged.get(judge)!;
      const observed = ratio(weightedSum(pool.unfaithful, poolWeights), countSums[countSlot.get(judge)!]!);
      const corrected = roganGladen(nullIfNaN(observed), nullIfNaN(ratio(tp, tp + fn)), nullIfNaN(ratio(tn, tn + fp)));
      out.corrected[r] = corrected ?? NaN;
    }
  }

  const pHat = {
    ...estimate(ratio(human.n_faithful, human.n_usable), pHatReplicates, human.n_usable, unitsWithData(usable)),
    n_summaries: g,
  };

  const reliability = new Map<string, JudgeReliability>();
  for (const judge of judges) {
    const sample = samples.get(judge)!;
    const out = replicates.get(judge)!;
    const tp = sum(sample.tp);
    const fp = sum(sample.fp);
    const tn = sum(sample.tn);
    const fn = sum(sample.fn);
    const compared = tp + fp + tn + fn;
    const comparedSummaries = unitsWithData(sample.tp, sample.fp, sample.tn, sample.fn);
    const sensitivity = rate(tp, tp + fn);
    const specificity = rate(tn, tn + fp);
    const pool = judged.get(judge)!;
    const observed = rate(sum(pool.unfaithful), sum(pool.count));
    const softUnits = sample.probabilities.length;
    let calibrationReport: CalibrationReport | null = null;
    if (softUnits > 0) {
      const result = calibration(sample.probabilities, sample.outcomes);
      calibrationReport = {
        brier: estimate(result.brier ?? NaN, out.brier, softUnits, unitsWithData(sample.softCount)),
        ece: { value: result.ece, n: softUnits },
        bins: result.bins,
      };
    }
    reliability.set(judge, {
      epsilon_hat: { ...estimate(ratio(fp + fn, compared), out.epsilon, compared, comparedSummaries), n_summaries: g },
      confusion: { positive_class: 'unfaithful', tp, fp, tn, fn, n: compared },
      recall: sensitivity,
      specificity,
      calibration: calibrationReport,
      corrected_unfaithful_rate: {
        ...estimate(
          roganGladen(observed.value, sensitivity.value, specificity.value) ?? NaN,
          out.corrected,
          observed.n,
          comparedSummaries,
        ),
        observed,
        sensitivity,
        specificity,
        n_human_summaries: g,
        n_pool_summaries: poolSize,
      },
    });
  }
  return { human, pHat, judges: reliability };
}
