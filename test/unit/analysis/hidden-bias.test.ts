import { describe, expect, it } from 'vitest';
import { simulateHiddenBias } from '../../../shared/analysis/hidden-bias';
import { createStream } from '../../../shared/stats/prng';

function binomial(n: number, k: number, p: number): number {
  let coefficient = 1;
  for (let i = 1; i <= k; i += 1) coefficient = (coefficient * (n - k + i)) / i;
  return coefficient * p ** k * (1 - p) ** (n - k);
}

/**
 * The population value the simulation estimates, by enumeration: lengths equally likely, K ~ Bin(M, p),
 * the judge's faithful count K̂ = Bin(K, 1 − ε) + Bin(M − K, ε); Y = 1[2K ≥ M] with probability y
 * (independently of everything else), else 1[K = M]; X = K̂/M (mean) or 1[K̂ = M] (min).
 */
function populationGap(p: number, epsilon: number, lengths: number[], y: number): number {
  const moments: Record<'mean' | 'min', [number, number, number]> = { mean: [0, 0, 0], min: [0, 0, 0] }; // E[X], E[X²], E[XY]
  let meanY = 0;
  for (const m of lengths) {
    const share = 1 / lengths.length;
    for (let k = 0; k <= m; k += 1) {
      const pk = share * binomial(m, k, p);
      const label = y * (2 * k >= m ? 1 : 0) + (1 - y) * (k === m ? 1 : 0); // E[Y | K]
      meanY += pk * label;
      for (let kept = 0; kept <= k; kept += 1) {
        for (let flippedIn = 0; flippedIn <= m - k; flippedIn += 1) {
          const q = pk * binomial(k, kept, 1 - epsilon) * binomial(m - k, flippedIn, epsilon);
          const judged = kept + flippedIn;
          for (const [name, x] of [
            ['mean', judged / m],
            ['min', judged === m ? 1 : 0],
          ] as const) {
            moments[name][0] += q * x;
            moments[name][1] += q * x * x;
            moments[name][2] += q * x * label;
          }
        }
      }
    }
  }
  const rho = ([ex, exx, exy]: [number, number, number]) =>
    (exy - ex * meanY) / Math.sqrt((exx - ex ** 2) * (meanY - meanY ** 2));
  return rho(moments.mean) - rho(moments.min);
}

describe('hidden-bias simulation (Fig. 3)', () => {
  const lengths = [2, 3, 3, 4, 6];
  const run = (epsilonBar: number | null, seed = 0) =>
    simulateHiddenBias({
      pHat: 0.8,
      epsilonBar,
      nJudgesAveraged: 2,
      lengths,
      points: 11,
      minSummaries: 40_000,
      sentenceRng: createStream(seed, 'hb', 's'),
      judgeRng: createStream(seed, 'hb', 'j'),
      orderRng: createStream(seed, 'hb', 'o'),
    });

  it('matches the exact population gap for a perfect and a noisy judge', () => {
    const result = run(0.15);
    expect(result.n_simulated_summaries).toBe(40_000);
    expect(result.points.map((point) => point.y)).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]);
    for (const point of result.points) {
      // Sampling sd of a correlation difference at n = 40,000 is about 0.005; allow 0.02.
      expect(Math.abs(point.perfect.gap! - populationGap(0.8, 0, lengths, point.y))).toBeLessThan(0.02);
      expect(Math.abs(point.noisy!.gap! - populationGap(0.8, 0.15, lengths, point.y))).toBeLessThan(0.02);
    }
    // y = 0: labels follow the min rule; the perfect judge's min is the label itself.
    expect(result.points[0]!.perfect.rho_min).toBeCloseTo(1, 12);
    // The paper's point: the perfect judge's gap grows with the share of averaging labels.
    expect(result.points[10]!.perfect.gap!).toBeGreaterThan(result.points[0]!.perfect.gap!);
  });

  it('the perfect curve does not depend on ε̄ (common random numbers), and no ε̄ means no noisy curve', () => {
    const withNoise = run(0.15);
    const without = run(null);
    expect(without.points.map((p) => p.perfect)).toEqual(withNoise.points.map((p) => p.perfect));
    expect(without.points.every((p) => p.noisy === null)).toBe(true);
    expect(run(0.15, 1).points).not.toEqual(withNoise.points);
  });
});
