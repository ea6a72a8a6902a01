/**
 * p̂_PP, the prediction-powered estimate of p (Angelopoulos et al., Science 2023; PROTOCOL
 * "Prediction-powered estimates and planning the annotation"). The judges label every unit, people
 * a seeded uniform sample of summaries; for judge J with hard labels f (1 = faithful):
 *
 *   p̂_PP = F_all + (Y_lab − F_lab)
 *
 * F_all = Σ f / units over every unit of the dataset J labeled; Y_lab and F_lab = Σ y / units and
 * Σ f / units over the sampled units with both a usable human label y and a label of J. The
 * rectifier Y_lab − F_lab removes the judge's bias, so p̂_PP estimates the same p as p̂; its
 * variance is the judge's over the whole dataset plus that of the people-minus-judge difference
 * on the sample, which is small when the judge is good: a narrower interval for the same labels.
 *
 * Interval: a two-sample bootstrap. Each replicate resamples the annotated summaries (the same
 * human-sample stream as all_units.p_hat, so the width ratio compares paired resamples) and,
 * independently, every summary of the dataset (its own stream, `prediction-powered/pool`); 2.5 /
 * 97.5 percentiles as everywhere. Refused (null with the reason) unless the sample is a uniform
 * seeded draw (sample-design.ts). When J labeled no unit outside the sample there is nothing to
 * add: p̂_PP is p̂ on the units both labeled (Y_lab), with the human side's interval.
 */
import { drawResampleCounts, percentileInterval } from '../stats/bootstrap';
import { tooFewToEstimate } from '../stats/estimate';
import type { Xoshiro128StarStar } from '../stats/prng';
import { computeAllUnits } from './all-units';
import { nullIfNaN, ratio, sum, weightedSum } from './human-sample';
import { isAnnotated, predictionOf, usableHumanValue } from './prepare';
import { checkSampleDesign, type SampleDesign } from './sample-design';
import type {
  AllUnitsReport,
  AnalysisDataset,
  AnalysisSummary,
  Estimate,
  HumanReferenceReport,
  Interval,
  PredictionPowered,
} from './types';

export interface PredictionPoweredInput {
  /** Every summary of the dataset, any length (the pool side). */
  all: readonly AnalysisSummary[];
  /** The annotated ones (the sample side), in the order all_units resamples them. */
  annotated: readonly AnalysisSummary[];
  judges: readonly string[];
  design: SampleDesign;
  /** all_units.p_hat, for the width ratio. */
  pHat: Estimate;
  bootstrap: number;
  humanRng: Xoshiro128StarStar;
  poolRng: Xoshiro128StarStar;
}

export interface PredictionPoweredResult {
  p_pp: PredictionPowered | null;
  p_pp_reason: string | null;
}

/** One judge's per-summary counts on both sides. */
interface JudgeCounts {
  /** Sample side, per annotated summary: units with y and f, Σ y, Σ f. */
  labeled: Float64Array;
  human: Float64Array;
  judgeOnSample: Float64Array;
  /** Pool side, per summary of the dataset: units with f, Σ f. */
  judged: Float64Array;
  judgeOnAll: Float64Array;
  /** J has a hard label on a unit of a summary outside the sample. */
  outside: boolean;
}

function countJudge(
  all: readonly AnalysisSummary[],
  annotated: readonly AnalysisSummary[],
  sampled: ReadonlySet<string>,
  judge: string,
): JudgeCounts {
  const counts: JudgeCounts = {
    labeled: new Float64Array(annotated.length),
    human: new Float64Array(annotated.length),
    judgeOnSample: new Float64Array(annotated.length),
    judged: new Float64Array(all.length),
    judgeOnAll: new Float64Array(all.length),
    outside: false,
  };
  annotated.forEach((summary, s) => {
    for (const unit of summary.units) {
      const y = usableHumanValue(unit);
      const f = predictionOf(unit, judge)?.hard ?? null;
      if (y === null || f === null) continue;
      counts.labeled[s]! += 1;
      counts.human[s]! += y;
      counts.judgeOnSample[s]! += f;
    }
  });
  all.forEach((summary, a) => {
    for (const unit of summary.units) {
      const f = predictionOf(unit, judge)?.hard ?? null;
      if (f === null) continue;
      counts.judged[a]! += 1;
      counts.judgeOnAll[a]! += f;
      if (!sampled.has(summary.summaryId)) counts.outside = true;
    }
  });
  return counts;
}

const width = (ci: Interval | null): number | null => (ci === null ? null : ci[1] - ci[0]);

/**
 * The pool side's per-summary counts, grouped: summaries with the same counts in every column
 * (each judge's Σ f, and its count of judged units, shared by judges that labeled the same units)
 * are one group, so a replicate folds the resample's weights into the groups in one pass over the
 * summaries and sums each column over the groups (a few hundred on real data, where whole
 * summaries are alike). Only judges with a label outside the sample need the pool.
 */
class PoolColumns {
  readonly judgeColumn: number[] = [];
  readonly countColumn: number[] = [];
  /** Per column, its value in each group. */
  private readonly grouped: Float64Array[];
  private readonly groupOf: Int32Array;
  private readonly groupWeights: Int32Array;
  readonly sums: Float64Array;

  constructor(counts: readonly JudgeCounts[], size: number) {
    const columns: Float64Array[] = [];
    const countColumns: number[] = [];
    counts.forEach((c, j) => {
      if (!c.outside) return;
      this.judgeColumn[j] = columns.push(c.judgeOnAll) - 1;
      let shared = countColumns.find((k) => columns[k]!.every((value, i) => value === c.judged[i]));
      if (shared === undefined) {
        shared = columns.push(c.judged) - 1;
        countColumns.push(shared);
      }
      this.countColumn[j] = shared;
    });
    const groups = new Map<string, number>();
    const firstOf: number[] = [];
    this.groupOf = new Int32Array(size);
    for (let i = 0; i < size; i += 1) {
      const key = columns.map((column) => column[i]).join(',');
      let group = groups.get(key);
      if (group === undefined) {
        group = firstOf.push(i) - 1;
        groups.set(key, group);
      }
      this.groupOf[i] = group;
    }
    this.grouped = columns.map((column) => Float64Array.from(firstOf, (i) => column[i]!));
    this.groupWeights = new Int32Array(firstOf.length);
    this.sums = new Float64Array(columns.length);
  }

  /** Every column's sum under one resample (`weights[i]` copies of summary i). */
  sumUnder(weights: Int32Array): void {
    const groupWeights = this.groupWeights;
    const groupOf = this.groupOf;
    groupWeights.fill(0);
    for (let i = 0; i < weights.length; i += 1) groupWeights[groupOf[i]!]! += weights[i]!;
    this.grouped.forEach((column, c) => {
      let total = 0;
      for (let g = 0; g < column.length; g += 1) total += groupWeights[g]! * column[g]!;
      this.sums[c] = total;
    });
  }
}

export function computePredictionPowered(input: PredictionPoweredInput): Record<string, PredictionPoweredResult> {
  const { all, annotated, judges, design, pHat, bootstrap, humanRng, poolRng } = input;
  if (!design.uniform)
    return Object.fromEntries(judges.map((judge) => [judge, { p_pp: null, p_pp_reason: design.reason }]));

  const sampled = new Set(annotated.map((summary) => summary.summaryId));
  const counts = judges.map((judge) => countJudge(all, annotated, sampled, judge));
  // Too few sampled summaries: no interval (docs/methods.md, "Too few to estimate").
  const tooFew = tooFewToEstimate(annotated.length);
  const replicates = tooFew ? 0 : bootstrap;
  const samples = judges.map(() => new Float64Array(replicates));
  const humanWeights = new Int32Array(annotated.length);
  const poolWeights = new Int32Array(all.length);
  const needsPool = counts.some((c) => c.outside);
  const pool = needsPool && replicates > 0 ? new PoolColumns(counts, all.length) : null;
  for (let r = 0; r < replicates; r += 1) {
    drawResampleCounts(humanRng, humanWeights);
    if (pool) {
      drawResampleCounts(poolRng, poolWeights);
      pool.sumUnder(poolWeights);
    }
    counts.forEach((c, j) => {
      const labeled = weightedSum(c.labeled, humanWeights);
      const y = ratio(weightedSum(c.human, humanWeights), labeled);
      samples[j]![r] =
        pool && c.outside
          ? ratio(pool.sums[pool.judgeColumn[j]!]!, pool.sums[pool.countColumn[j]!]!) +
            y -
            ratio(weightedSum(c.judgeOnSample, humanWeights), labeled)
          : y;
    });
  }

  const pHatWidth = width(pHat.ci);
  return Object.fromEntries(
    judges.map((judge, j): [string, PredictionPoweredResult] => {
      const c = counts[j]!;
      const nSampled = sum(c.labeled);
      if (nSampled === 0)
        return [
          judge,
          { p_pp: null, p_pp_reason: 'No sampled unit has both a usable human label and a hard label of this judge.' },
        ];
      const yLab = sum(c.human) / nSampled;
      const fLab = sum(c.judgeOnSample) / nSampled;
      const fAll = ratio(sum(c.judgeOnAll), sum(c.judged));
      const value = c.outside ? fAll + yLab - fLab : yLab;
      const { ci, dropped } = replicates > 0 ? percentileInterval(samples[j]!) : { ci: null, dropped: 0 };
      const ppWidth = width(ci);
      return [
        judge,
        {
          p_pp: {
            value: nullIfNaN(value),
            ci,
            too_few: tooFew,
            replicates_dropped: dropped,
            n_sampled_units: nSampled,
            n_all_units: sum(c.judged),
            n_sampled_summaries: annotated.length,
            n_all_summaries: all.length,
            judge_rate: nullIfNaN(fAll),
            rectifier: yLab - fLab,
            width_ratio: ppWidth !== null && pHatWidth !== null && pHatWidth > 0 ? ppWidth / pHatWidth : null,
            same_as_p_hat: !c.outside,
            sample_seed: design.seed,
            n_drawn_summaries: design.nDrawn,
          },
          p_pp_reason: null,
        },
      ];
    }),
  );
}

/**
 * The all-units block of a dataset with p̂_PP per judge: what analyzeDataset reports under
 * `all_units` and what the planner rests on. `stream(purpose)` gives the dataset's random stream
 * of that purpose (a fresh one per call).
 */
export function allUnitsWithPredictionPowered(
  dataset: AnalysisDataset,
  reference: HumanReferenceReport,
  bootstrap: number,
  stream: (purpose: string) => Xoshiro128StarStar,
): AllUnitsReport {
  const judges = [...dataset.judges];
  const annotated = dataset.summaries.filter(isAnnotated);
  const base = computeAllUnits({ annotated, judges, bootstrap, rng: stream('human-sample') });
  const powered = computePredictionPowered({
    all: dataset.summaries,
    annotated,
    judges,
    design: checkSampleDesign(dataset, annotated, reference),
    pHat: base.p_hat,
    bootstrap,
    humanRng: stream('human-sample'),
    poolRng: stream('prediction-powered/pool'),
  });
  return {
    ...base,
    judges: Object.fromEntries(judges.map((judge) => [judge, { ...base.judges[judge]!, ...powered[judge]! }])),
  };
}
