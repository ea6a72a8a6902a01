/**
 * Bootstrap building blocks: multinomial resampling weights and percentile intervals.
 *
 * A bootstrap resample of n units drawn with replacement is represented by its counts
 * (how many times each unit was drawn). Every statistic computed with these counts as
 * integer weights equals the statistic on the expanded resample, exactly.
 */
import { tooFewToEstimate, type Estimate } from './estimate';
import type { Xoshiro128StarStar } from './prng';

/**
 * Fills `counts` (length n ≤ 2^21) with the draw counts of one resample of n units with
 * replacement: n exactly uniform indexes (see Xoshiro128StarStar.fillResampleCounts).
 */
export function drawResampleCounts(rng: Xoshiro128StarStar, counts: Int32Array): void {
  rng.fillResampleCounts(counts);
}

/**
 * Quantile of sorted finite values, linear interpolation between order statistics:
 * h = (m − 1)·q (0-based), Q = x[⌊h⌋] + (h − ⌊h⌋)(x[⌊h⌋+1] − x[⌊h⌋]).
 * This is Hyndman & Fan type 7, R's quantile(type = 7) and numpy.quantile(method='linear').
 */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const m = sorted.length;
  if (m === 0) throw new RangeError('quantile of an empty sample');
  if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile level must be in [0, 1], got ${q}`);
  const h = (m - 1) * q;
  const lower = Math.floor(h);
  const fraction = h - lower;
  const below = sorted[lower]!;
  if (fraction === 0 || lower + 1 >= m) return below;
  return below + fraction * (sorted[lower + 1]! - below);
}

export interface PercentileInterval {
  /** [2.5th, 97.5th] percentile of the defined replicates; null when none is defined. */
  ci: [number, number] | null;
  /** Replicates where the statistic was undefined (NaN), left out of the interval. */
  dropped: number;
}

/**
 * 95% percentile interval (levels 0.025 and 0.975, type 7) of bootstrap replicates.
 * NaN marks a replicate where the statistic is undefined: it is dropped and counted.
 */
export function percentileInterval(replicates: ArrayLike<number>): PercentileInterval {
  const defined: number[] = [];
  for (let i = 0; i < replicates.length; i += 1) {
    const value = replicates[i]!;
    if (!Number.isNaN(value)) defined.push(value);
  }
  const dropped = replicates.length - defined.length;
  if (defined.length === 0) return { ci: null, dropped };
  const sorted = Float64Array.from(defined).sort();
  // Literal levels: (1 − 0.95) / 2 is 0.025000000000000022 in binary floating point.
  return { ci: [quantileSorted(sorted, 0.025), quantileSorted(sorted, 0.975)], dropped };
}

/** `bootstrap` resamples (draw counts) of n units from one stream, made only when needed; none when n or bootstrap is 0. */
export function drawReplicates(n: number, bootstrap: number, stream: () => Xoshiro128StarStar): Int32Array[] {
  if (n === 0 || bootstrap === 0) return [];
  const rng = stream();
  return Array.from({ length: bootstrap }, () => {
    const counts = new Int32Array(n);
    rng.fillResampleCounts(counts);
    return counts;
  });
}

/**
 * An estimate from its point value (NaN: undefined), its percentile interval (null: none) and its
 * n, resting on `units` resampling units: fewer than MIN_RESAMPLING_UNITS give no interval
 * (too_few), the point value kept. The one place that rule is applied.
 */
export function estimateOf(value: number, interval: PercentileInterval | null, n: number, units: number): Estimate {
  const tooFew = tooFewToEstimate(units);
  return {
    value: Number.isNaN(value) ? null : value,
    ci: tooFew ? null : (interval?.ci ?? null),
    n,
    replicates_dropped: tooFew ? 0 : (interval?.dropped ?? 0),
    too_few: tooFew,
  };
}

/** How many of the resampling units have something in any of the given per-unit counts (the units a figure rests on). */
export function unitsWithData(...perUnit: ReadonlyArray<ArrayLike<number>>): number {
  const n = perUnit[0]?.length ?? 0;
  let units = 0;
  for (let i = 0; i < n; i += 1) if (perUnit.some((counts) => counts[i]! !== 0)) units += 1;
  return units;
}

/**
 * Mean of the defined values (null values left out) with a percentile CI over the given
 * resamples of the entries (each resample's counts weight the entries); null when none is defined.
 * The defined values are the resampling units (fewer than MIN_RESAMPLING_UNITS: too_few).
 */
export function meanEstimate(
  values: ReadonlyArray<number | null>,
  replicates: ReadonlyArray<Int32Array>,
): Estimate | null {
  const n = values.filter((x) => x !== null).length;
  if (n === 0) return null;
  const mean = (counts: ArrayLike<number> | null) => {
    let sum = 0;
    let w = 0;
    values.forEach((x, i) => {
      if (x === null) return;
      const c = counts ? counts[i]! : 1;
      sum += c * x;
      w += c;
    });
    return w === 0 ? Number.NaN : sum / w;
  };
  const interval =
    replicates.length > 0 && !tooFewToEstimate(n) ? percentileInterval(replicates.map((c) => mean(c))) : null;
  return estimateOf(mean(null), interval, n, n);
}
