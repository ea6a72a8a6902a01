/**
 * Association between a score and a binary label (1 = positive), computed exactly from the
 * weighted count of each class at each distinct score.
 *
 * With a binary label every statistic we report depends on the data only through that table:
 * - Pearson r = (m₁ − m₀)·√(N₁N₀) / √(N·Σ c_k (v_k − v̄)²), m_c the class means of the score;
 * - Spearman ρ = the same with v_k replaced by its average rank R_k = C_{<k} + (c_k + 1)/2
 *   (the label's average ranks are an increasing affine map of the label, which leaves r unchanged);
 * - Kendall τ-b: S = Σ_k a_k (B_{<k} − B_{>k}), n0 − n1 = N(N−1)/2 − Σ c_k(c_k−1)/2,
 *   n0 − n2 = N₁N₀;
 * - ROC-AUC = Σ_k a_k (B_{<k} + b_k/2) / (N₁N₀) (Mann–Whitney, ties ½),
 * where a_k / b_k are the positive / negative weights at distinct score v_k, c_k = a_k + b_k,
 * B_{<k} the negative weight below v_k. Integer weights (bootstrap counts) make every
 * statistic equal to the one on the expanded resample; the sums are then exact integers
 * (below 2^53) until the final division.
 *
 * Conventions (docs/methods.md, "Aggregation and correlation"): a constant label makes all four undefined; a constant score makes
 * r, ρ and τ-b undefined and AUC 0.5. Undefined is NaN here (hot path); callers turn it into null.
 */

export const STATISTICS = ['pearson', 'spearman', 'kendall', 'roc_auc'] as const;
export const PEARSON = 0;
export const SPEARMAN = 1;
export const KENDALL = 2;
export const ROC_AUC = 3;

function clampUnit(r: number): number {
  return r > 1 ? 1 : r < -1 ? -1 : r;
}

/**
 * `values`: distinct scores, strictly increasing. `classCounts[2k]` is the negative weight and
 * `classCounts[2k + 1]` the positive weight at `values[k]`. Writes pearson, spearman, kendall,
 * roc_auc into `out[0..3]` (NaN = undefined).
 */
export function associationFromClassCounts(values: Float64Array, classCounts: Float64Array, out: Float64Array): void {
  const distinct = values.length;
  let positive = 0;
  let negative = 0;
  let weightedSum = 0;
  let occupied = 0;
  for (let k = 0; k < distinct; k += 1) {
    const b = classCounts[2 * k]!;
    const a = classCounts[2 * k + 1]!;
    negative += b;
    positive += a;
    if (a + b > 0) {
      occupied += 1;
      weightedSum += (a + b) * values[k]!;
    }
  }
  if (positive === 0 || negative === 0) {
    out[PEARSON] = NaN;
    out[SPEARMAN] = NaN;
    out[KENDALL] = NaN;
    out[ROC_AUC] = NaN;
    return;
  }
  const total = positive + negative;
  if (occupied === 1) {
    out[PEARSON] = NaN;
    out[SPEARMAN] = NaN;
    out[KENDALL] = NaN;
    out[ROC_AUC] = 0.5;
    return;
  }
  const mean = weightedSum / total;
  const meanRank = (total + 1) / 2;
  let positiveDeviation = 0; // Σ a (v − v̄)
  let negativeDeviation = 0; // Σ b (v − v̄)
  let squaredDeviation = 0; // Σ c (v − v̄)²
  let positiveRankDeviation = 0;
  let negativeRankDeviation = 0;
  let squaredRankDeviation = 0;
  let negativeBelow = 0; // B_{<k}
  let weightBelow = 0; // C_{<k}
  let concordanceSum = 0; // Σ a (B_{<k} − B_{>k})
  let aucNumerator = 0; // Σ a (B_{<k} + b/2)
  let scoreTiedPairs = 0; // Σ c (c − 1) / 2
  for (let k = 0; k < distinct; k += 1) {
    const b = classCounts[2 * k]!;
    const a = classCounts[2 * k + 1]!;
    const c = a + b;
    if (c === 0) continue;
    const deviation = values[k]! - mean;
    positiveDeviation += a * deviation;
    negativeDeviation += b * deviation;
    squaredDeviation += c * deviation * deviation;
    const rankDeviation = weightBelow + (c + 1) / 2 - meanRank;
    positiveRankDeviation += a * rankDeviation;
    negativeRankDeviation += b * rankDeviation;
    squaredRankDeviation += c * rankDeviation * rankDeviation;
    const negativeAbove = negative - negativeBelow - b;
    concordanceSum += a * (negativeBelow - negativeAbove);
    aucNumerator += a * (negativeBelow + b / 2);
    scoreTiedPairs += (c * (c - 1)) / 2;
    negativeBelow += b;
    weightBelow += c;
  }
  const classBalance = Math.sqrt(positive * negative);
  out[PEARSON] =
    squaredDeviation > 0
      ? clampUnit(
          ((positiveDeviation / positive - negativeDeviation / negative) * classBalance) /
            Math.sqrt(total * squaredDeviation),
        )
      : NaN;
  out[SPEARMAN] =
    squaredRankDeviation > 0
      ? clampUnit(
          ((positiveRankDeviation / positive - negativeRankDeviation / negative) * classBalance) /
            Math.sqrt(total * squaredRankDeviation),
        )
      : NaN;
  const untiedScorePairs = (total * (total - 1)) / 2 - scoreTiedPairs;
  out[KENDALL] = clampUnit(concordanceSum / Math.sqrt(untiedScorePairs * positive * negative));
  out[ROC_AUC] = aucNumerator / (positive * negative);
}

/**
 * The distinct sorted values of `scores` (over positions where `include` is true, or all)
 * and, per position, the index of its value (−1 when excluded).
 */
export function indexDistinctValues(
  scores: ArrayLike<number>,
  include?: ArrayLike<boolean>,
): { values: Float64Array; valueIndex: Int32Array } {
  const n = scores.length;
  const seen = new Set<number>();
  for (let i = 0; i < n; i += 1) if (include === undefined || include[i]) seen.add(scores[i]!);
  const values = Float64Array.from(seen).sort();
  const position = new Map<number, number>();
  values.forEach((value, k) => position.set(value, k));
  const valueIndex = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i += 1) if (include === undefined || include[i]) valueIndex[i] = position.get(scores[i]!)!;
  return { values, valueIndex };
}

export interface Association {
  pearson: number | null;
  spearman: number | null;
  kendall: number | null;
  roc_auc: number | null;
}

function nullIfNaN(value: number): number | null {
  return Number.isNaN(value) ? null : value;
}

/**
 * The four statistics of `scores` against binary `labels` (1 = positive, 0 = negative),
 * optionally with non-negative weights (e.g. bootstrap counts).
 */
export function binaryAssociation(
  scores: ArrayLike<number>,
  labels: ArrayLike<number>,
  weights?: ArrayLike<number>,
): Association {
  if (scores.length !== labels.length || (weights !== undefined && weights.length !== scores.length)) {
    throw new RangeError('scores, labels and weights must have the same length');
  }
  for (let i = 0; i < scores.length; i += 1) {
    if (!Number.isFinite(scores[i])) throw new RangeError(`non-finite score at position ${i}`);
    if (labels[i] !== 0 && labels[i] !== 1) throw new RangeError(`label at position ${i} is not 0 or 1`);
    if (weights !== undefined && !(weights[i]! >= 0))
      throw new RangeError(`negative or missing weight at position ${i}`);
  }
  const { values, valueIndex } = indexDistinctValues(scores);
  const classCounts = new Float64Array(2 * values.length);
  for (let i = 0; i < scores.length; i += 1)
    classCounts[2 * valueIndex[i]! + labels[i]!]! += weights === undefined ? 1 : weights[i]!;
  const out = new Float64Array(4);
  associationFromClassCounts(values, classCounts, out);
  return {
    pearson: nullIfNaN(out[PEARSON]!),
    spearman: nullIfNaN(out[SPEARMAN]!),
    kendall: nullIfNaN(out[KENDALL]!),
    roc_auc: nullIfNaN(out[ROC_AUC]!),
  };
}
