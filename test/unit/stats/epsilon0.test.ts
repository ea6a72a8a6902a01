import { describe, expect, it } from 'vitest';
import { closedFormCorrelations, computeEpsilon0, lengthDistribution } from '../../../shared/stats/epsilon0';
import { pearson } from '../../../shared/stats/correlation';
import { createStream } from '../../../shared/stats/prng';

function lengthsFromCounts(counts: Record<number, number>): number[] {
  return Object.entries(counts).flatMap(([m, c]) => new Array<number>(c).fill(Number(m)));
}

// HaluEval-like lengths (mean ≈ 3.9, 20,000 summaries).
const HALU_LIKE = lengthsFromCounts({ 2: 1800, 3: 4700, 4: 6300, 5: 4200, 6: 2000, 7: 700, 8: 300 });

describe('ε₀ against an independent computation', () => {
  // References: a separate NumPy transcription of App. A.4 (float64), the same 5,000-step grid to
  // bracket the first ε with gap ≤ 0, then scipy.optimize.brentq (SciPy 1.17.1, xtol 1e-16).
  it.each([
    ['M = 2, p = 0.5', 0.5, { 2: 1 }, 0.2752551286084106],
    ['CNN-like lengths, p = 0.7', 0.7, { 2: 150, 3: 450, 4: 330, 5: 70, 6: 17 }, 0.3183886384392853],
    ['Other-like lengths, p = 0.45', 0.45, { 2: 560, 3: 70, 4: 10, 5: 4 }, 0.3346054368439679],
    ['HaluEval-like lengths, p = 0.8', 0.8, null, 0.29118158646173303],
    ['HaluEval-like lengths, p = 0.85', 0.85, null, 0.2171468975797699],
  ])('%s', (_name, p, counts, expected) => {
    const lengths = counts === null ? HALU_LIKE : lengthsFromCounts(counts);
    const result = computeEpsilon0(p, lengths);
    expect(result.status).toBe('root');
    expect(result.epsilon0).toBeCloseTo(expected, 12);
  });

  it('M = 2, p = ½ has the closed form (3 − √6)/2', () => {
    // By hand, M = 2, p = ½: r = ½, μ_q = μ_A = ¼, μ_YA = (1−ε)²/4, μ_invM = ½.
    // ρ(Y,A) = ((1−ε)²/4 − 1/16)/(3/16) = (4(1−ε)² − 1)/3; ρ(Y,B) = (1/8)(1−2ε)/√(3/128) = (1−2ε)√(2/3).
    // With t = 1 − 2ε: ρ(Y,A) = (t² + 2t)/3 = t√(2/3) ⇔ t = √6 − 2 ⇔ ε = (3 − √6)/2 ≈ 0.27526.
    expect(computeEpsilon0(0.5, [2, 2, 2]).epsilon0).toBeCloseTo((3 - Math.sqrt(6)) / 2, 13);
  });

  it('unconditional when the gap stays positive', () => {
    // Same reference script: min gap over the grid is 0.0197 (lengths 2/3/5, p = 0.8), 0.0108
    // (lengths 2/3/4, p = 0.3) and 0.0027 (HaluEval-like, p = 0.78).
    expect(computeEpsilon0(0.8, lengthsFromCounts({ 2: 50, 3: 30, 5: 20 }))).toEqual({
      epsilon0: null,
      status: 'unconditional',
      reason: null,
    });
    expect(computeEpsilon0(0.3, lengthsFromCounts({ 2: 10, 3: 5, 4: 1 })).status).toBe('unconditional');
    expect(computeEpsilon0(0.78, HALU_LIKE).status).toBe('unconditional');
  });

  it('finds a root where the gap is positive at both ends of (0, ½) (bisection on the ends would miss it)', () => {
    const distribution = lengthDistribution(HALU_LIKE);
    const gapAt = (e: number) => {
      const { rhoMin, rhoMean } = closedFormCorrelations(0.8, e, distribution);
      return rhoMin - rhoMean;
    };
    expect(gapAt(0.001)).toBeGreaterThan(0);
    expect(gapAt(0.4999)).toBeGreaterThan(0);
    const { epsilon0 } = computeEpsilon0(0.8, HALU_LIKE);
    expect(gapAt(epsilon0!)).toBeLessThanOrEqual(0);
    expect(Math.abs(gapAt(epsilon0!))).toBeLessThan(1e-12);
    // ε₀ jumps with p̂: unconditional at 0.79, ≈ 0.291 at 0.80.
    expect(computeEpsilon0(0.79, HALU_LIKE).status).toBe('unconditional');
  });

  it('undefined without a usable p̂ or lengths', () => {
    expect(computeEpsilon0(null, [2, 3]).status).toBe('undefined');
    expect(computeEpsilon0(0, [2, 3]).status).toBe('undefined');
    expect(computeEpsilon0(1, [2, 3]).status).toBe('undefined');
    expect(computeEpsilon0(0.5, []).status).toBe('undefined');
    expect(computeEpsilon0(0.5, [])).toMatchObject({ epsilon0: null });
    expect(() => computeEpsilon0(0.5, [1, 2])).toThrow(RangeError);
  });

  it('closed forms at ε = 0 reduce to Theorem 1', () => {
    // Theorem 1 (fixed M): ρ(Y,A) = 1 and ρ(Y,B)² = M p^(M−1) (1 − p) / (1 − p^M).
    for (const [m, p] of [
      [2, 0.5],
      [3, 0.8],
      [6, 0.9],
    ] as const) {
      const { rhoMin, rhoMean } = closedFormCorrelations(p, 0, lengthDistribution([m]));
      expect(rhoMin).toBeCloseTo(1, 12);
      expect(rhoMean ** 2).toBeCloseTo((m * p ** (m - 1) * (1 - p)) / (1 - p ** m), 12);
    }
    // Reference (same NumPy script): lengths 2/3/5 in shares .5/.3/.2, p = 0.8.
    const mixed = lengthDistribution(lengthsFromCounts({ 2: 50, 3: 30, 5: 20 }));
    const at = closedFormCorrelations(0.8, 0.1, mixed);
    expect(at.rhoMin).toBeCloseTo(0.6983727708196246, 13);
    expect(at.rhoMean).toBeCloseTo(0.6317538815170806, 13);
  });
});

/**
 * Monte-Carlo of App. A.1: summaries with i.i.d. Bernoulli(p) sentences, Y = min rule, a judge
 * flipping each sentence with probability ε (common random numbers across ε, so the empirical
 * gap is a smooth function of ε), A = min of judge labels, B = mean of judge labels.
 */
function simulate(p: number, lengths: number[], summaries: number, seed: number) {
  const rng = createStream(seed, 'epsilon0-monte-carlo');
  const m = new Int32Array(summaries);
  const truth: Uint8Array[] = [];
  const flipDraw: Float64Array[] = [];
  const y = new Float64Array(summaries);
  for (let g = 0; g < summaries; g += 1) {
    const length = lengths[g % lengths.length]!;
    m[g] = length;
    const s = new Uint8Array(length);
    const u = new Float64Array(length);
    let k = 0;
    for (let i = 0; i < length; i += 1) {
      s[i] = rng.nextFloat() < p ? 1 : 0;
      k += s[i]!;
      u[i] = rng.nextFloat();
    }
    truth.push(s);
    flipDraw.push(u);
    y[g] = k === length ? 1 : 0;
  }
  return (epsilon: number) => {
    const a = new Float64Array(summaries);
    const b = new Float64Array(summaries);
    for (let g = 0; g < summaries; g += 1) {
      let judged = 0;
      const s = truth[g]!;
      const u = flipDraw[g]!;
      for (let i = 0; i < s.length; i += 1) judged += u[i]! < epsilon ? 1 - s[i]! : s[i]!;
      a[g] = judged === s.length ? 1 : 0;
      b[g] = judged / s.length;
    }
    return { rhoMin: pearson(y, a)!, rhoMean: pearson(y, b)! };
  };
}

describe('closed forms against a Monte-Carlo simulation of App. A.1', () => {
  const cases = [
    { name: 'M = 2, p = 0.5', p: 0.5, lengths: [2] },
    { name: 'CNN-like lengths, p = 0.7', p: 0.7, lengths: lengthsFromCounts({ 2: 15, 3: 45, 4: 33, 5: 7, 6: 2 }) },
  ];
  for (const { name, p, lengths } of cases) {
    it(`${name}: ρ(Y,A) and ρ(Y,B) match, and the empirical curves cross near ε₀`, () => {
      const summaries = 200_000;
      const correlationsAt = simulate(p, lengths, summaries, 3);
      const distribution = lengthDistribution(lengths);
      // Sampling sd of a correlation at n = 200,000 is below 1/√n ≈ 0.0022; allow 0.01.
      for (const epsilon of [0.05, 0.15, 0.3, 0.4]) {
        const simulated = correlationsAt(epsilon);
        const closed = closedFormCorrelations(p, epsilon, distribution);
        expect(Math.abs(simulated.rhoMin - closed.rhoMin)).toBeLessThan(0.01);
        expect(Math.abs(simulated.rhoMean - closed.rhoMean)).toBeLessThan(0.01);
      }
      const { epsilon0 } = computeEpsilon0(p, lengths);
      let crossing: number | null = null;
      for (let epsilon = 0.005; epsilon < 0.5; epsilon += 0.005) {
        const { rhoMin, rhoMean } = correlationsAt(epsilon);
        if (rhoMin <= rhoMean) {
          crossing = epsilon;
          break;
        }
      }
      expect(crossing).not.toBeNull();
      expect(Math.abs(crossing! - epsilon0!)).toBeLessThan(0.03);
    });
  }
});
