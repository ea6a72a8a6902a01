/**
 * min / mean / max aggregation of each judge's sentence predictions against the global label,
 * with a paired bootstrap over summaries.
 *
 * The global label is binary, so each statistic depends on a resample only through the weighted
 * count of each class at each distinct aggregate value (stats/binary-association.ts). A replicate
 * is a vector of draw counts shared by every cell (paired); no cell re-sorts or re-ranks:
 * - few distinct (min, mean, max) patterns (hard labels: a pattern is (K, M)): one pass over the
 *   summaries fills a (pattern, label) table for the (judge, kind), and each aggregator's
 *   (value, label) table is summed from it;
 * - many patterns (soft labels): each aggregator keeps its summaries sorted by value once, with
 *   tie groups marked, and one pass in that order accumulates every statistic (average ranks
 *   through the Mann–Whitney identity and the tie-corrected rank variance).
 * Both paths are exact: they equal the statistics of the expanded resample (tests compare them
 * with straightforward implementations on random weights).
 */
import {
  associationFromClassCounts,
  indexDistinctValues,
  KENDALL,
  PEARSON,
  ROC_AUC,
  SPEARMAN,
  STATISTICS,
} from '../stats/binary-association';
import { drawResampleCounts, estimateOf, percentileInterval } from '../stats/bootstrap';
import { FEEDBACK_CHUNK } from '../stats/feedback-chunk';
import { replicateStream, type StreamKey } from '../stats/prng';
import { predictionOf } from './prepare';
import type {
  AnalysisSummary,
  Aggregator,
  CorrelationCell,
  Estimate,
  KindCorrelations,
  PredictionKind,
  Statistics,
} from './types';
import { AGGREGATORS } from './types';

/** Use the pattern table while it has at most this many patterns (and fewer than a quarter of the summaries). */
const MAX_PATTERNS = 4096;

/** A (judge, kind, aggregator) cell: evaluates the four statistics for given summary weights. */
export interface CorrelationCellEngine {
  judge: string;
  kind: PredictionKind;
  aggregator: Aggregator;
  /** Summaries in the cell. */
  n: number;
  nLeftOut: number;
  nFaithful: number;
  /** Per summary of the population: its aggregate (NaN when left out). */
  scores: Float64Array;
}

/** The aggregates of one judge's predictions of one kind. */
export interface KindAggregates {
  included: Uint8Array;
  scores: Record<Aggregator, Float64Array>;
  anyPrediction: boolean;
}

function aggregate(population: AnalysisSummary[], judge: string, kind: PredictionKind): KindAggregates {
  const n = population.length;
  const included = new Uint8Array(n);
  const scores: Record<Aggregator, Float64Array> = {
    min: new Float64Array(n).fill(NaN),
    mean: new Float64Array(n).fill(NaN),
    max: new Float64Array(n).fill(NaN),
  };
  let anyPrediction = false;
  population.forEach((summary, i) => {
    let min = Infinity;
    let max = -Infinity;
    let sum = 0;
    let complete = true;
    for (const unit of summary.units) {
      const value = predictionOf(unit, judge)?.[kind] ?? null;
      if (value === null) {
        complete = false;
        continue;
      }
      anyPrediction = true;
      if (value < min) min = value;
      if (value > max) max = value;
      sum += value;
    }
    if (!complete) return;
    included[i] = 1;
    scores.min[i] = min;
    // Hard: the sum is the integer count of 1s, so K/M is the correctly rounded rational and equal
    // fractions (1/2, 2/4) are exact ties.
    scores.mean[i] = sum / summary.units.length;
    scores.max[i] = max;
  });
  return { included, scores, anyPrediction };
}

/** Evaluates the three aggregators of one (judge, kind) for a weight vector. */
interface KindEvaluator {
  /** Writes 4 statistics per aggregator (min, mean, max) into out[12]. */
  evaluate(weights: Int32Array, out: Float64Array): void;
}

/** Few distinct (min, mean, max) patterns: one (pattern, label) table per replicate. */
function patternEvaluator(
  aggregates: KindAggregates,
  labels: Uint8Array,
  patternKeys: Map<string, number>,
  patternOf: Int32Array,
): KindEvaluator {
  const patterns = patternKeys.size;
  const patternCodes = new Int32Array(labels.length);
  for (let i = 0; i < labels.length; i += 1) patternCodes[i] = patternOf[i]! < 0 ? -1 : 2 * patternOf[i]! + labels[i]!;
  const perAggregator = AGGREGATORS.map((aggregator) => {
    const scores = aggregates.scores[aggregator];
    // Each pattern's value for this aggregator, then the distinct values and each pattern's index among them.
    const patternValue = new Float64Array(patterns);
    for (let i = 0; i < labels.length; i += 1) if (patternOf[i]! >= 0) patternValue[patternOf[i]!] = scores[i]!;
    const { values, valueIndex } = indexDistinctValues(patternValue);
    return { values, valueIndex, classCounts: new Float64Array(2 * values.length) };
  });
  // Summaries grouped by (pattern, label) code: each code's weight is then a gather summed in a
  // register (incrementing a few shared counters in place serialises on memory instead).
  const codeMembers: number[][] = Array.from({ length: 2 * patterns }, () => []);
  patternCodes.forEach((code, i) => {
    if (code >= 0) codeMembers[code]!.push(i);
  });
  const members = Int32Array.from(codeMembers.flat());
  const codeEnd = new Int32Array(codeMembers.length);
  codeMembers.reduce((end, list, code) => (codeEnd[code] = end + list.length), 0);
  const patternCounts = new Float64Array(2 * patterns);
  const statistics = new Float64Array(4);
  return {
    evaluate(weights, out) {
      let k = 0;
      for (let code = 0; code < codeEnd.length; code += 1) {
        let weight = 0;
        for (const end = codeEnd[code]!; k < end; k += 1) weight += weights[members[k]!]!;
        patternCounts[code] = weight;
      }
      perAggregator.forEach(({ values, valueIndex, classCounts }, a) => {
        classCounts.fill(0);
        for (let p = 0; p < patterns; p += 1) {
          const k = valueIndex[p]!;
          classCounts[2 * k]! += patternCounts[2 * p]!;
          classCounts[2 * k + 1]! += patternCounts[2 * p + 1]!;
        }
        associationFromClassCounts(values, classCounts, statistics);
        out.set(statistics, 4 * a);
      });
    },
  };
}

/**
 * The summaries a (judge, kind) includes, with per-replicate totals every cell over them shares:
 * class weights and Σw², Σw³ (for the tie terms of singleton values).
 */
class InclusionTotals {
  readonly members: Int32Array;
  readonly memberLabels: Float64Array;
  /** positive, total, Σw², Σw³ of the last replicate (sumInclusion writes them). */
  private readonly sums = new Float64Array(4);
  positive = 0;
  negative = 0;
  sumSquares = 0;
  sumCubes = 0;

  constructor(included: Uint8Array, labels: Uint8Array) {
    const members: number[] = [];
    for (let i = 0; i < included.length; i += 1) if (included[i]) members.push(i);
    this.members = Int32Array.from(members);
    this.memberLabels = Float64Array.from(members, (i) => labels[i]!);
  }

  compute(weights: Int32Array): void {
    const sums = this.sums;
    sumInclusion(this.members, this.memberLabels, weights, sums);
    this.positive = sums[0]!;
    this.negative = sums[1]! - sums[0]!;
    this.sumSquares = sums[2]!;
    this.sumCubes = sums[3]!;
  }
}

/** Writes positive weight, total weight, Σw², Σw³ of the members into sums[0..3], chunk by chunk (feedback-chunk.ts). */
function sumInclusion(members: Int32Array, memberLabels: Float64Array, weights: Int32Array, sums: Float64Array): void {
  let positive = 0;
  let total = 0;
  let squares = 0;
  let cubes = 0;
  sums.fill(0);
  const n = members.length;
  for (let m = 0; m < n;) {
    const chunkEnd = Math.min(n, m + FEEDBACK_CHUNK);
    for (; m < chunkEnd; m += 1) {
      const w = weights[members[m]!]!;
      positive += w * memberLabels[m]!;
      total += w;
      const ww = w * w;
      squares += ww;
      cubes += ww * w;
    }
    sums[0] = positive;
    sums[1] = total;
    sums[2] = squares;
    sums[3] = cubes;
  }
}

function sameMembers(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

/** Many distinct values: the cell's summaries sorted by value once. */
interface SortedCell {
  order: Int32Array;
  label: Float64Array;
  /** value − (unweighted mean of the cell's values), to keep the moment sums well conditioned. */
  deviation: Float64Array;
  /** Some value occurs in more than one summary. */
  hasTies: boolean;
  /** 1 at the last position of each tie group, else 0 (used when hasTies; doubles, as the pass multiplies by it). */
  groupEnd: Float64Array;
}

function sortedCell(scores: Float64Array, totals: InclusionTotals, labels: Uint8Array): SortedCell {
  const members = Array.from(totals.members);
  let sum = 0;
  for (const i of members) sum += scores[i]!;
  const center = members.length > 0 ? sum / members.length : 0;
  members.sort((a, b) => scores[a]! - scores[b]!);
  const groupEnd = Float64Array.from(members, (i, j) =>
    j === members.length - 1 || scores[i] !== scores[members[j + 1]!] ? 1 : 0,
  );
  return {
    order: Int32Array.from(members),
    label: Float64Array.from(members, (i) => labels[i]!),
    deviation: Float64Array.from(members, (i) => scores[i]! - center),
    // A group closes at the last position, so a 0 anywhere is a tie.
    hasTies: groupEnd.includes(0),
    groupEnd,
  };
}

/**
 * One pass in value order over the cell's summaries, with w, y an element's weight and label,
 * B the negative weight of lower values: T1 = Σ w·y·B (positive above negative) and the Pearson
 * moments Σ w·d, Σ w·d², Σ w·d·y; then, over tie groups only, T2 = Σ_g a_g·b_g. With the shared
 * totals: U = T1 + T2/2 (Mann–Whitney), AUC = U/(N₁N₀), Kendall S = 2·T1 + T2 − N₁N₀ over
 * √((N(N−1)/2 − Σ_g c_g(c_g−1)/2)·N₁N₀), Spearman = (U − N₁N₀/2)/√(S_RR·N₁N₀/N) with the
 * average-rank sum of squares S_RR = (N³ − Σ_g c_g³)/12. A value held by one summary drawn w
 * times is a group with c = w and a·b = 0, so singletons need only Σw² and Σw³ (shared totals).
 * Counts are integers below 2^53: everything but the Pearson moments is exact. The loop keeps few
 * accumulators and tests no weight or label (zeros are multiplied in): measured, mispredicted
 * branches and long dependency chains, not memory, set its speed. (Moving the order-free Pearson
 * moments to a separate sequential pass was measured slower.)
 */
function evaluateSorted(
  cell: SortedCell,
  totals: InclusionTotals,
  weights: Int32Array,
  sums: Float64Array,
  out: Float64Array,
  offset: number,
): void {
  const positive = totals.positive;
  const negative = totals.negative;
  if (positive === 0 || negative === 0) {
    out[offset + PEARSON] = NaN;
    out[offset + SPEARMAN] = NaN;
    out[offset + KENDALL] = NaN;
    out[offset + ROC_AUC] = NaN;
    return;
  }
  let tiedPairs: number;
  let groupCubes: number;
  if (cell.hasTies) {
    sortedPassWithTies(cell.order, cell.label, cell.deviation, cell.groupEnd, weights, sums);
    tiedPairs = sums[TIED_PAIRS_TWICE]! / 2;
    groupCubes = sums[GROUP_CUBES]!;
  } else {
    // Without ties every summary is its own group, so the tie terms follow from the totals.
    sortedPassWithoutTies(cell.order, cell.label, cell.deviation, weights, sums);
    tiedPairs = (totals.sumSquares - (positive + negative)) / 2;
    groupCubes = totals.sumCubes;
  }
  const sumD = sums[SUM_D]!;
  const sumDD = sums[SUM_DD]!;
  const sumDY = sums[SUM_DY]!;
  const t1 = sums[T1]!;
  const t2 = sums[T2]!;
  const total = positive + negative;
  const pairsAcross = positive * negative;
  const untiedPairs = (total * (total - 1)) / 2 - tiedPairs;
  if (untiedPairs === 0) {
    // Every drawn summary has the same aggregate.
    out[offset + PEARSON] = NaN;
    out[offset + SPEARMAN] = NaN;
    out[offset + KENDALL] = NaN;
    out[offset + ROC_AUC] = 0.5;
    return;
  }
  const varianceTerm = total * sumDD - sumD * sumD;
  out[offset + PEARSON] =
    varianceTerm > 0 ? clampUnit((total * sumDY - sumD * positive) / Math.sqrt(varianceTerm * pairsAcross)) : NaN;
  const u = t1 + t2 / 2;
  const rankSquares = (total * total * total - groupCubes) / 12;
  out[offset + SPEARMAN] = clampUnit((u - pairsAcross / 2) / Math.sqrt((rankSquares * pairsAcross) / total));
  out[offset + KENDALL] = clampUnit((2 * t1 + t2 - pairsAcross) / Math.sqrt(untiedPairs * pairsAcross));
  out[offset + ROC_AUC] = u / pairsAcross;
}

/** Slots of the sums a sorted pass writes (TIED_PAIRS_TWICE and GROUP_CUBES only with ties). */
const SUM_D = 0;
const SUM_DD = 1;
const SUM_DY = 2;
const T1 = 3;
const T2 = 4;
/** 2 · Σ_g C(c_g, 2): kept doubled so the pass adds integers and divides once. */
const TIED_PAIRS_TWICE = 5;
const GROUP_CUBES = 6;
const SORTED_SUMS = 7;

/*
 * The two passes are plain functions of typed arrays that end with their loop: they write the
 * sums back after every chunk (feedback-chunk.ts), so the compiled loop never leaves to the
 * interpreter.
 */

function sortedPassWithoutTies(
  order: Int32Array,
  label: Float64Array,
  deviation: Float64Array,
  weights: Int32Array,
  sums: Float64Array,
): void {
  let sumD = 0;
  let sumDD = 0;
  let sumDY = 0;
  let t1 = 0;
  let negativeBelow = 0;
  sums.fill(0);
  const n = order.length;
  for (let j = 0; j < n;) {
    const chunkEnd = Math.min(n, j + FEEDBACK_CHUNK);
    for (; j < chunkEnd; j += 1) {
      const w = weights[order[j]!]!;
      const y = label[j]!;
      const d = deviation[j]!;
      const wd = w * d;
      sumD += wd;
      sumDD += wd * d;
      sumDY += wd * y;
      const wy = w * y;
      t1 += wy * negativeBelow;
      negativeBelow += w - wy;
    }
    sums[SUM_D] = sumD;
    sums[SUM_DD] = sumDD;
    sums[SUM_DY] = sumDY;
    sums[T1] = t1;
  }
}

/**
 * One pass with tie groups: negatives of a group join "below" only after the whole group, and
 * each group (c summaries drawn, a positive, b negative) adds a·b to t2, c(c − 1) to the doubled
 * tied pairs and c³. The group's running weights are reset by multiplying with 1 − end: the reset
 * is on the loop's longest dependency chain, and an add then a multiply is shorter than the
 * multiply then subtract it replaced (the values are the same integers).
 */
function sortedPassWithTies(
  order: Int32Array,
  label: Float64Array,
  deviation: Float64Array,
  groupEnd: Float64Array,
  weights: Int32Array,
  sums: Float64Array,
): void {
  let sumD = 0;
  let sumDD = 0;
  let sumDY = 0;
  let t1 = 0;
  let negativeBelow = 0;
  let t2 = 0;
  let tiedPairsTwice = 0;
  let groupCubes = 0;
  let groupPositive = 0;
  let groupNegative = 0;
  sums.fill(0);
  const n = order.length;
  for (let j = 0; j < n;) {
    const chunkEnd = Math.min(n, j + FEEDBACK_CHUNK);
    for (; j < chunkEnd; j += 1) {
      const w = weights[order[j]!]!;
      const y = label[j]!;
      const d = deviation[j]!;
      const wd = w * d;
      sumD += wd;
      sumDD += wd * d;
      sumDY += wd * y;
      const wy = w * y;
      t1 += wy * negativeBelow;
      const positiveSoFar = groupPositive + wy;
      const negativeSoFar = groupNegative + (w - wy);
      // Branch-free close of a group (end = 1 at its last member): tie boundaries are too
      // irregular for the branch predictor, and a mispredicted branch costs more than this math.
      const end = groupEnd[j]!;
      const c = positiveSoFar + negativeSoFar;
      const endC = end * c;
      t2 += end * positiveSoFar * negativeSoFar;
      tiedPairsTwice += endC * (c - 1);
      groupCubes += endC * c * c;
      negativeBelow += end * negativeSoFar;
      const keep = 1 - end;
      groupPositive = positiveSoFar * keep;
      groupNegative = negativeSoFar * keep;
    }
    sums[SUM_D] = sumD;
    sums[SUM_DD] = sumDD;
    sums[SUM_DY] = sumDY;
    sums[T1] = t1;
    sums[T2] = t2;
    sums[TIED_PAIRS_TWICE] = tiedPairsTwice;
    sums[GROUP_CUBES] = groupCubes;
  }
}

function clampUnit(r: number): number {
  return r > 1 ? 1 : r < -1 ? -1 : r;
}

function sortedEvaluator(aggregates: KindAggregates, labels: Uint8Array, totals: InclusionTotals): KindEvaluator {
  const cells = AGGREGATORS.map((aggregator) => sortedCell(aggregates.scores[aggregator], totals, labels));
  const sums = new Float64Array(SORTED_SUMS);
  return {
    evaluate(weights, out) {
      for (let a = 0; a < cells.length; a += 1) evaluateSorted(cells[a]!, totals, weights, sums, out, 4 * a);
    },
  };
}

/** Which evaluation path a (judge, kind) takes; tests force each one. */
export type EnginePath = 'auto' | 'sorted' | 'pattern';

/** The pattern table when the (min, mean, max) patterns are few, else sorted cells. */
function kindEvaluator(
  aggregates: KindAggregates,
  labels: Uint8Array,
  totals: () => InclusionTotals,
  path: EnginePath,
): KindEvaluator {
  if (path === 'sorted') return sortedEvaluator(aggregates, labels, totals());
  const patternKeys = new Map<string, number>();
  const patternOf = new Int32Array(labels.length).fill(-1);
  const limit = path === 'pattern' ? Infinity : Math.min(MAX_PATTERNS, Math.floor(labels.length / 4));
  for (let i = 0; i < labels.length; i += 1) {
    if (!aggregates.included[i]) continue;
    const key = `${aggregates.scores.min[i]}|${aggregates.scores.mean[i]}|${aggregates.scores.max[i]}`;
    let pattern = patternKeys.get(key);
    if (pattern === undefined) {
      if (patternKeys.size >= limit) return sortedEvaluator(aggregates, labels, totals());
      pattern = patternKeys.size;
      patternKeys.set(key, pattern);
    }
    patternOf[i] = pattern;
  }
  return patternEvaluator(aggregates, labels, patternKeys, patternOf);
}

/** Everything the bootstrap needs for a population: cells and their evaluators. */
export interface CorrelationEngine {
  cells: CorrelationCellEngine[];
  /** Writes 4 statistics per cell, in `cells` order (NaN = undefined). */
  evaluate(weights: Int32Array, out: Float64Array): void;
}

/**
 * What the correlation engine is built from, as plain data (typed arrays and strings) so another
 * thread can build the same engine: the global labels and each (judge, kind)'s aggregates, in cell
 * order, soft kinds without any soft prediction left out.
 */
export interface CorrelationData {
  labels: Uint8Array;
  kinds: Array<{ judge: string; kind: PredictionKind; aggregates: KindAggregates }>;
}

export function correlationData(population: AnalysisSummary[], judges: string[]): CorrelationData {
  const labels = Uint8Array.from(population, (summary) => {
    if (summary.globalLabel === null) throw new RangeError(`summary ${summary.summaryId} has no global label`);
    return summary.globalLabel;
  });
  const kinds: CorrelationData['kinds'] = [];
  for (const judge of judges) {
    for (const kind of ['hard', 'soft'] as const) {
      const aggregates = aggregate(population, judge, kind);
      // Soft labels are optional: no soft prediction at all → no soft cells (null in the report).
      if (kind === 'soft' && !aggregates.anyPrediction) continue;
      kinds.push({ judge, kind, aggregates });
    }
  }
  return { labels, kinds };
}

/** Statistics per replicate: 4 per cell, 3 cells (min, mean, max) per (judge, kind). */
export function correlationWidth(data: CorrelationData): number {
  return 4 * AGGREGATORS.length * data.kinds.length;
}

export function createCorrelationEngine(
  population: AnalysisSummary[],
  judges: string[],
  path: EnginePath = 'auto',
): CorrelationEngine {
  return engineOf(correlationData(population, judges), path);
}

export function engineOf({ labels, kinds }: CorrelationData, path: EnginePath = 'auto'): CorrelationEngine {
  const cells: CorrelationCellEngine[] = [];
  const evaluators: KindEvaluator[] = [];
  // Cells over the same summaries share one set of per-replicate totals.
  const sharedTotals: InclusionTotals[] = [];
  const totalsFor = (included: Uint8Array) => (): InclusionTotals => {
    const candidate = new InclusionTotals(included, labels);
    const existing = sharedTotals.find((totals) => sameMembers(totals.members, candidate.members));
    if (existing) return existing;
    sharedTotals.push(candidate);
    return candidate;
  };
  for (const { judge, kind, aggregates } of kinds) {
    let n = 0;
    let nFaithful = 0;
    for (let i = 0; i < labels.length; i += 1) {
      if (aggregates.included[i]) {
        n += 1;
        nFaithful += labels[i]!;
      }
    }
    for (const aggregator of AGGREGATORS) {
      cells.push({
        judge,
        kind,
        aggregator,
        n,
        nLeftOut: labels.length - n,
        nFaithful,
        scores: aggregates.scores[aggregator],
      });
    }
    evaluators.push(kindEvaluator(aggregates, labels, totalsFor(aggregates.included), path));
  }
  const scratch = new Float64Array(12);
  return {
    cells,
    evaluate(weights, out) {
      for (const totals of sharedTotals) totals.compute(weights);
      evaluators.forEach((evaluator, e) => {
        evaluator.evaluate(weights, scratch);
        out.set(scratch, 12 * e);
      });
    },
  };
}

/** A slice [from, to) of a correlation bootstrap: enough to compute it anywhere. */
export interface CorrelationReplicateJob {
  data: CorrelationData;
  stream: StreamKey;
  from: number;
  to: number;
}

/**
 * Writes the statistics of replicates from..to−1 into `target`, replicate r at row
 * r − from + firstRow (`width` values a row): replicate r resamples with its own stream, so any
 * split of the replicates gives the same numbers.
 */
export function writeCorrelationReplicates(
  { data, stream, from, to }: CorrelationReplicateJob,
  engine: CorrelationEngine,
  target: Float64Array,
  firstRow: number = from,
): void {
  const width = correlationWidth(data);
  const weights = new Int32Array(data.labels.length);
  const out = new Float64Array(width);
  for (let r = from; r < to; r += 1) {
    drawResampleCounts(replicateStream(stream, r), weights);
    engine.evaluate(weights, out);
    target.set(out, (r - from + firstRow) * width);
  }
}

/** The statistics of replicates from..to−1, replicate-major (replicate r at (r − from)·width). */
export function correlationReplicates(
  job: CorrelationReplicateJob,
  engine: CorrelationEngine = engineOf(job.data),
): Float64Array {
  const values = new Float64Array(correlationWidth(job.data) * (job.to - job.from));
  writeCorrelationReplicates(job, engine, values, 0);
  return values;
}

/**
 * Every replicate of a correlation bootstrap (replicate-major, `bootstrap` × width), in two
 * steps: the call starts them (in this thread by default, nothing runs until the collection; the
 * analysis worker passes one that starts helper threads on them at once), and the function it
 * returns computes what this thread takes on, with the engine of `data` the caller built for
 * the point values, and returns them all. The audit computes its other blocks in between.
 */
export type CorrelationReplicator = (data: CorrelationData, bootstrap: number, stream: StreamKey) => CollectReplicates;

export type CollectReplicates = (engine: CorrelationEngine) => Float64Array;

export const replicateInThisThread: CorrelationReplicator = (data, bootstrap, stream) => (engine) =>
  correlationReplicates({ data, stream, from: 0, to: bootstrap }, engine);

/** n = the cell's summaries, which are also its resampling units. */
function toEstimate(point: number, replicates: Float64Array, n: number): Estimate {
  return estimateOf(point, percentileInterval(replicates), n, n);
}

export type JudgeCorrelations = Record<string, { hard: KindCorrelations; soft: KindCorrelations | null }>;

export interface CorrelationInput {
  /** Analysed summaries (≥ 2 sentences) with a global label. */
  population: AnalysisSummary[];
  judges: string[];
  bootstrap: number;
  /** The per-replicate streams of this bootstrap. */
  stream: StreamKey;
  replicator?: CorrelationReplicator;
}

/**
 * Starts a correlation bootstrap (the replicator's first step) and returns what finishes it:
 * the point values, the replicates collected, the cells' report.
 */
export function startCorrelations({
  population,
  judges,
  bootstrap,
  stream,
  replicator = replicateInThisThread,
}: CorrelationInput): () => JudgeCorrelations {
  const data = correlationData(population, judges);
  const collect = replicator(data, bootstrap, stream);
  return () => correlationsReport(data, judges, bootstrap, collect);
}

export function computeCorrelations(input: CorrelationInput): JudgeCorrelations {
  return startCorrelations(input)();
}

function correlationsReport(
  data: CorrelationData,
  judges: string[],
  bootstrap: number,
  collect: CollectReplicates,
): JudgeCorrelations {
  const engine = engineOf(data);
  const width = correlationWidth(data);
  const point = new Float64Array(width);
  engine.evaluate(new Int32Array(data.labels.length).fill(1), point);
  const byReplicate = collect(engine);
  if (byReplicate.length !== bootstrap * width)
    throw new RangeError(`expected ${bootstrap} × ${width} replicate statistics, got ${byReplicate.length}`);
  // replicates[statistic slot][replicate]
  const replicates = Array.from({ length: width }, (_, slot) => {
    const values = new Float64Array(bootstrap);
    for (let r = 0; r < bootstrap; r += 1) values[r] = byReplicate[r * width + slot]!;
    return values;
  });

  const cellReport = (c: number): CorrelationCell => {
    const cell = engine.cells[c]!;
    const [pearson, spearman, kendall, rocAuc] = STATISTICS.map((_, s) =>
      toEstimate(point[4 * c + s]!, replicates[4 * c + s]!, cell.n),
    ) as [Estimate, Estimate, Estimate, Estimate];
    return {
      n: cell.n,
      n_left_out: cell.nLeftOut,
      n_faithful: cell.nFaithful,
      n_unfaithful: cell.n - cell.nFaithful,
      pearson,
      spearman,
      kendall,
      roc_auc: rocAuc,
    };
  };
  // Paired differences mean − min per replicate (NaN when either is undefined).
  const differenceReport = (meanCell: number, minCell: number): Statistics<Estimate> => {
    const [pearson, spearman, kendall, rocAuc] = STATISTICS.map((_, s) => {
      const mean = replicates[4 * meanCell + s]!;
      const min = replicates[4 * minCell + s]!;
      const difference = new Float64Array(bootstrap);
      for (let r = 0; r < bootstrap; r += 1) difference[r] = mean[r]! - min[r]!;
      // min and mean of one (judge, kind) hold the same summaries.
      return toEstimate(point[4 * meanCell + s]! - point[4 * minCell + s]!, difference, engine.cells[meanCell]!.n);
    }) as [Estimate, Estimate, Estimate, Estimate];
    return { pearson, spearman, kendall, roc_auc: rocAuc };
  };
  const kindReport = (judge: string, kind: PredictionKind): KindCorrelations | null => {
    const find = (aggregator: Aggregator) =>
      engine.cells.findIndex((cell) => cell.judge === judge && cell.kind === kind && cell.aggregator === aggregator);
    const [min, mean, max] = [find('min'), find('mean'), find('max')];
    if (min < 0) return null;
    return {
      min: cellReport(min),
      mean: cellReport(mean),
      max: cellReport(max),
      mean_minus_min: differenceReport(mean, min),
    };
  };
  // fromEntries defines own properties, so any judge name (even "__proto__") is a plain key.
  return Object.fromEntries(
    judges.map((judge) => [judge, { hard: kindReport(judge, 'hard')!, soft: kindReport(judge, 'soft') }]),
  );
}
