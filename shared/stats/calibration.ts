/**
 * Calibration of probabilities p_i = P(outcome = 1) against binary outcomes o_i.
 *
 * Bins: 10 equal-width bins on [0, 1]; bin b = min(⌊10·p⌋, 9), i.e. [0, 0.1), [0.1, 0.2), …,
 * [0.9, 1.0] (the last bin is closed so p = 1 has a bin).
 * ECE = Σ_b (n_b / n)·|mean p in b − share of o = 1 in b| over non-empty bins.
 */

export const CALIBRATION_BINS = 10;

export interface ReliabilityBin {
  /** Bin edges [lower, upper); the last bin includes 1. */
  lower: number;
  upper: number;
  /** Mean predicted probability in the bin (null when empty). */
  mean_predicted: number | null;
  /** Share of outcomes equal to 1 in the bin (null when empty). */
  observed_frequency: number | null;
  count: number;
}

export interface Calibration {
  /** Mean squared difference (p − o)²; null when n = 0. */
  brier: number | null;
  /** Expected calibration error, 10 equal-width bins; null when n = 0. */
  ece: number | null;
  bins: ReliabilityBin[];
  n: number;
}

export function calibrationBin(probability: number): number {
  return Math.min(Math.floor(probability * CALIBRATION_BINS), CALIBRATION_BINS - 1);
}

function checkInputs(probabilities: ArrayLike<number>, outcomes: ArrayLike<number>): void {
  if (probabilities.length !== outcomes.length) throw new RangeError('probabilities and outcomes differ in length');
  for (let i = 0; i < probabilities.length; i += 1) {
    const p = probabilities[i]!;
    if (!(p >= 0 && p <= 1)) throw new RangeError(`probability at position ${i} is not in [0, 1]: ${p}`);
    if (outcomes[i] !== 0 && outcomes[i] !== 1) throw new RangeError(`outcome at position ${i} is not 0 or 1`);
  }
}

export function brierScore(probabilities: ArrayLike<number>, outcomes: ArrayLike<number>): number | null {
  checkInputs(probabilities, outcomes);
  if (probabilities.length === 0) return null;
  let sum = 0;
  for (let i = 0; i < probabilities.length; i += 1) sum += (probabilities[i]! - outcomes[i]!) ** 2;
  return sum / probabilities.length;
}

export function calibration(probabilities: ArrayLike<number>, outcomes: ArrayLike<number>): Calibration {
  checkInputs(probabilities, outcomes);
  const n = probabilities.length;
  const counts = new Float64Array(CALIBRATION_BINS);
  const predictedSums = new Float64Array(CALIBRATION_BINS);
  const outcomeSums = new Float64Array(CALIBRATION_BINS);
  for (let i = 0; i < n; i += 1) {
    const bin = calibrationBin(probabilities[i]!);
    counts[bin]! += 1;
    predictedSums[bin]! += probabilities[i]!;
    outcomeSums[bin]! += outcomes[i]!;
  }
  let ece = 0;
  const bins: ReliabilityBin[] = [];
  for (let b = 0; b < CALIBRATION_BINS; b += 1) {
    const count = counts[b]!;
    const meanPredicted = count > 0 ? predictedSums[b]! / count : null;
    const observed = count > 0 ? outcomeSums[b]! / count : null;
    if (meanPredicted !== null && observed !== null) ece += (count / n) * Math.abs(meanPredicted - observed);
    bins.push({
      lower: b / CALIBRATION_BINS,
      upper: (b + 1) / CALIBRATION_BINS,
      mean_predicted: meanPredicted,
      observed_frequency: observed,
      count,
    });
  }
  return { brier: brierScore(probabilities, outcomes), ece: n > 0 ? ece : null, bins, n };
}
