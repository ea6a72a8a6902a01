/**
 * Means with summary-bootstrap CIs, and the model comparison of one metric:
 * each system's mean and CI, the paired-bootstrap CI of the difference for every pair of systems
 * (the documents both systems have a value on are resampled, the same draw for both), a ranking
 * that ties systems whose difference CI covers 0, and the saturation flag.
 *
 * Ranking: a system's rank is 1 + the number of systems whose mean is higher and whose paired
 * difference CI lies entirely above 0 (clearly better); systems with the same rank are tied.
 * Saturated: with ≥ 2 systems that have a mean and a CI, spread = max − min of their means,
 * noise = the median of their CIs' half-widths ((hi − lo) / 2); saturated = spread ≤ noise (the
 * spread across systems is within one system's own sampling noise). Otherwise null.
 */
import type { Estimate } from '../stats/estimate';
import { drawReplicates, meanEstimate } from '../stats/bootstrap';
import type { Xoshiro128StarStar } from '../stats/prng';
import type { ComparedSystem, MetricComparison, SystemPair } from './report';

/**
 * Mean(a) − mean(b) over the documents both have a value on (sorted by document id), with a
 * percentile CI over `bootstrap` resamples of those documents (one draw used for both systems).
 */
export function pairedDifference(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>, bootstrap: number, rng: () => Xoshiro128StarStar): Estimate {
  const docs = [...a.keys()].filter((d) => b.has(d)).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  const diffs = docs.map((d) => a.get(d)! - b.get(d)!);
  const estimate = meanEstimate(diffs, drawReplicates(docs.length, bootstrap, rng));
  return estimate ?? { value: null, ci: null, n: 0, replicates_dropped: 0 };
}

export interface SystemValues {
  system: string;
  mean: Estimate | null;
  /** The system's value per document (the mean over its summaries of that document). */
  byDocument: ReadonlyMap<string, number>;
}

export function compareSystems(systems: readonly SystemValues[], bootstrap: number, pairStream: (a: string, b: string) => () => Xoshiro128StarStar): MetricComparison {
  const sorted = [...systems].sort((x, y) => (x.system < y.system ? -1 : x.system > y.system ? 1 : 0));
  const pairs: SystemPair[] = [];
  for (let i = 0; i < sorted.length; i += 1) {
    for (let j = i + 1; j < sorted.length; j += 1) {
      const a = sorted[i]!;
      const b = sorted[j]!;
      const difference = pairedDifference(a.byDocument, b.byDocument, bootstrap, pairStream(a.system, b.system));
      pairs.push({ a: a.system, b: b.system, n_documents: difference.n, difference, separable: difference.ci === null ? null : difference.ci[0] > 0 || difference.ci[1] < 0 });
    }
  }
  /** Whether `better` is clearly above `than`: their paired difference CI lies above 0. */
  const clearlyAbove = (better: string, than: string): boolean => {
    const p = pairs.find((x) => (x.a === better && x.b === than) || (x.a === than && x.b === better))!;
    if (p.difference.ci === null) return false;
    return p.a === better ? p.difference.ci[0] > 0 : p.difference.ci[1] < 0;
  };
  const ranked: ComparedSystem[] = sorted.map((s) => ({
    system: s.system,
    mean: s.mean,
    rank: s.mean?.value == null ? null : 1 + sorted.filter((o) => o.system !== s.system && o.mean?.value != null && o.mean.value > s.mean!.value! && clearlyAbove(o.system, s.system)).length,
  }));
  ranked.sort((x, y) => (x.rank ?? Infinity) - (y.rank ?? Infinity) || (y.mean?.value ?? -Infinity) - (x.mean?.value ?? -Infinity) || (x.system < y.system ? -1 : 1));
  return { systems: ranked, pairs, ...saturation(sorted.map((s) => s.mean)) };
}

/** The saturation rule of the module comment. */
export function saturation(means: ReadonlyArray<Estimate | null>): { spread: number | null; noise: number | null; saturated: boolean | null } {
  const usable = means.filter((m): m is Estimate & { value: number; ci: [number, number] } => m !== null && m.value !== null && m.ci !== null);
  if (usable.length < 2) return { spread: null, noise: null, saturated: null };
  const values = usable.map((m) => m.value);
  const spread = Math.max(...values) - Math.min(...values);
  const halves = usable.map((m) => (m.ci[1] - m.ci[0]) / 2).sort((x, y) => x - y);
  const mid = halves.length >> 1;
  const noise = halves.length % 2 === 1 ? halves[mid]! : (halves[mid - 1]! + halves[mid]!) / 2;
  return { spread, noise, saturated: spread <= noise };
}
