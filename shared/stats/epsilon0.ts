/**
 * The judge-error threshold ε₀ of the averaging-bias diagnostic (paper App. A.4).
 *
 * Model (App. A.1, hard predictions): sentences S_i ~ i.i.d. Bernoulli(p); the judge flips each
 * with probability ε, so Ŝ_i ~ Bernoulli(r), r = p + ε(1 − 2p); the unbiased rater gives
 * Y = 1[K = M]; A = min Ŝ, B = mean Ŝ. Pooled over the summary lengths M_g:
 *   μ_q = mean p^M, μ_invM = mean 1/M, μ_A = mean r^M, μ_YA = mean (p(1 − ε))^M,
 *   ρ(Y,A) = (μ_YA − μ_q μ_A) / √(μ_q(1 − μ_q) μ_A(1 − μ_A)),
 *   ρ(Y,B) = μ_q (1 − p)(1 − 2ε) / √(μ_q(1 − μ_q) r(1 − r) μ_invM).
 * ε₀ is the smallest ε in (0, ½) with ρ(Y,A) = ρ(Y,B). gap = ρ(Y,A) − ρ(Y,B) is 1 − ρ(Y,B) > 0
 * at ε = 0 and is usually positive again near ½ even when a root exists, so the root is
 * bracketed by a scan of a fine grid (the first grid point with gap ≤ 0), then bisected.
 */

export type Epsilon0Status = 'root' | 'unconditional' | 'undefined';

export interface Epsilon0Result {
  /** The threshold, or null when unconditional or undefined. */
  epsilon0: number | null;
  status: Epsilon0Status;
  /** Why the status is `undefined` (null otherwise). */
  reason: string | null;
}

/** Summary lengths grouped as (distinct length, share of summaries). */
export interface LengthDistribution {
  lengths: Float64Array;
  shares: Float64Array;
}

/** Groups lengths (each ≥ 2 expected) into distinct values with their shares. */
export function lengthDistribution(lengths: ArrayLike<number>): LengthDistribution {
  const counts = new Map<number, number>();
  for (let i = 0; i < lengths.length; i += 1) counts.set(lengths[i]!, (counts.get(lengths[i]!) ?? 0) + 1);
  const distinct = [...counts.keys()].sort((a, b) => a - b);
  return {
    lengths: Float64Array.from(distinct),
    shares: Float64Array.from(distinct, (m) => counts.get(m)! / lengths.length),
  };
}

export interface ClosedFormCorrelations {
  /** ρ(Y, A): the unbiased label against min of the judge's labels. */
  rhoMin: number;
  /** ρ(Y, B): the unbiased label against mean of the judge's labels. */
  rhoMean: number;
}

/** ρ(Y,A) and ρ(Y,B) of App. A.4 at judge error ε, for p in (0, 1). */
export function closedFormCorrelations(
  p: number,
  epsilon: number,
  distribution: LengthDistribution,
): ClosedFormCorrelations {
  const r = p + epsilon * (1 - 2 * p);
  let muQ = 0;
  let muInvM = 0;
  let muA = 0;
  let muYA = 0;
  const { lengths, shares } = distribution;
  for (let k = 0; k < lengths.length; k += 1) {
    const m = lengths[k]!;
    const share = shares[k]!;
    muQ += share * p ** m;
    muInvM += share / m;
    muA += share * r ** m;
    muYA += share * (p * (1 - epsilon)) ** m;
  }
  const varianceY = muQ * (1 - muQ);
  return {
    rhoMin: (muYA - muQ * muA) / Math.sqrt(varianceY * muA * (1 - muA)),
    rhoMean: (muQ * (1 - p) * (1 - 2 * epsilon)) / Math.sqrt(varianceY * r * (1 - r) * muInvM),
  };
}

function gap(p: number, epsilon: number, distribution: LengthDistribution): number {
  const { rhoMin, rhoMean } = closedFormCorrelations(p, epsilon, distribution);
  return rhoMin - rhoMean;
}

export const EPSILON0_GRID_STEPS = 5000;

/**
 * ε₀ for proportion p of faithful sentences and the lengths of the summaries (those with ≥ 2
 * sentences). Grid ε_i = i / (2·steps), i = 1 … steps − 1; the first ε_i with gap ≤ 0 brackets
 * the root in (ε_{i−1}, ε_i] (ε_0 = 0, where gap > 0), which bisection narrows until the bracket
 * stops shrinking in double precision; the upper end of the final bracket (gap ≤ 0) is returned.
 * A dip below zero narrower than one grid step (1e-4) would be missed.
 */
export function computeEpsilon0(
  p: number | null,
  lengths: ArrayLike<number>,
  steps = EPSILON0_GRID_STEPS,
): Epsilon0Result {
  if (p === null || !Number.isFinite(p))
    return { epsilon0: null, status: 'undefined', reason: 'p̂ is missing (no usable human label)' };
  if (p <= 0 || p >= 1) return { epsilon0: null, status: 'undefined', reason: `p̂ = ${p}: the model needs 0 < p̂ < 1` };
  if (lengths.length === 0) return { epsilon0: null, status: 'undefined', reason: 'no summary with ≥ 2 sentences' };
  for (let i = 0; i < lengths.length; i += 1) {
    if (!Number.isInteger(lengths[i]) || lengths[i]! < 2)
      throw new RangeError(`summary length must be an integer ≥ 2, got ${lengths[i]}`);
  }
  const distribution = lengthDistribution(lengths);
  let previous = 0;
  for (let i = 1; i < steps; i += 1) {
    const epsilon = i / (2 * steps);
    if (gap(p, epsilon, distribution) <= 0) {
      let low = previous; // gap > 0
      let high = epsilon; // gap ≤ 0
      for (let iteration = 0; iteration < 200; iteration += 1) {
        const middle = (low + high) / 2;
        if (middle <= low || middle >= high) break;
        if (gap(p, middle, distribution) <= 0) high = middle;
        else low = middle;
      }
      return { epsilon0: high, status: 'root', reason: null };
    }
    previous = epsilon;
  }
  return { epsilon0: null, status: 'unconditional', reason: null };
}
