/**
 * Agreement coefficients against independently computed values.
 *
 * Sources of the expected numbers:
 * - [irrCAC] Gwet's R package irrCAC 1.0, README / vignette "Calculating Chance-corrected
 *   Agreement Coefficients" (K. Gwet), printed outputs for its datasets cont3x3abstractors,
 *   distrib.6raters and cac.raw4raters, which follow Gwet, Handbook of Inter-Rater Reliability
 *   (4th ed., 2014).
 * - [K2011] Krippendorff, "Computing Krippendorff's Alpha-Reliability" (2011), the 4-coder,
 *   12-unit example with missing values: nominal α = 0.743 (the same data is irrCAC's
 *   cac.raw4raters, α = 0.74342).
 * - [py] The script below, run with Debian bookworm's python3-sklearn 1.2.1 and
 *   python3-statsmodels 0.13.5 (sklearn.metrics.cohen_kappa_score,
 *   statsmodels.stats.inter_rater.fleiss_kappa) and, for α, AC1 and specific agreement, a
 *   separate implementation by enumeration of pairs (not the coincidence-matrix code under test).
 *   Printed output in the comments after it.
 *
 * ```python
 * import itertools, numpy as np
 * from sklearn.metrics import cohen_kappa_score
 * from statsmodels.stats.inter_rater import fleiss_kappa
 *
 * T = [[13,0,0],[0,20,7],[0,4,56]]                       # irrCAC cont3x3abstractors
 * a = [i for i in range(3) for j in range(3) for _ in range(T[i][j])]
 * b = [j for i in range(3) for j in range(3) for _ in range(T[i][j])]
 * print('cont3x3 sklearn kappa', repr(cohen_kappa_score(a, b)))
 * D = [[0,0,0,6,0],[0,3,0,0,3],[0,1,4,0,1],[0,0,0,0,6],[0,3,0,3,0],[2,0,4,0,0],[0,0,4,0,2],[2,0,3,1,0],
 *      [2,0,0,4,0],[0,0,0,0,6],[1,0,0,5,0],[1,1,0,4,0],[0,3,3,0,0],[1,0,0,5,0],[0,2,0,3,1]]   # distrib.6raters
 * print('distrib6 statsmodels fleiss', repr(fleiss_kappa(np.array(D), method='fleiss')))
 *
 * F, U, N = 0, 1, None
 * L = {
 *  'ana': [F,F,F,U,F,F,F,U,F,F,F,F,N,F,U,F,F,F,F,F,U,F,N,F],
 *  'ben': [F,F,U,U,F,F,F,F,F,F,N,F,F,F,U,F,F,F,U,F,U,F,F,F],
 *  'cy':  [F,N,F,U,F,U,F,U,F,F,F,F,F,N,F,F,F,F,F,F,U,F,F,N],
 * }
 * names = ['ana','ben','cy']
 * for x, y in itertools.combinations(names, 2):
 *     both = [(p, q) for p, q in zip(L[x], L[y]) if p is not None and q is not None]
 *     print('pair', x, y, len(both), 'sklearn kappa', repr(cohen_kappa_score([p for p,_ in both], [q for _,q in both])))
 * full = [i for i in range(24) if all(L[r][i] is not None for r in names)]
 * table = np.array([[sum(1 for r in names if L[r][i] == k) for k in (0, 1)] for i in full])
 * print('fleiss on', len(full), 'fully rated units, statsmodels', repr(fleiss_kappa(table, method='fleiss')))
 *
 * def alpha_pairs(units):
 *     # D_o = Σ_u Σ_{i≠j in u} [v_i ≠ v_j]/(m_u − 1) / n ; D_e = Σ_{i≠j over all n values} [v_i ≠ v_j] / (n(n − 1))
 *     units = [[v for v in u if v is not None] for u in units]
 *     units = [u for u in units if len(u) >= 2]
 *     values = [v for u in units for v in u]
 *     n = len(values)
 *     do = sum(sum(1 for i, j in itertools.permutations(range(len(u)), 2) if u[i] != u[j]) / (len(u) - 1) for u in units) / n
 *     de = sum(1 for i, j in itertools.permutations(range(n), 2) if values[i] != values[j]) / (n * (n - 1))
 *     return 1 - do / de
 *
 * def ac1_gwet(units, K):
 *     units = [[v for v in u if v is not None] for u in units]
 *     rated = [u for u in units if len(u) >= 1]
 *     pairable = [u for u in units if len(u) >= 2]
 *     pa = np.mean([sum(u.count(k) * (u.count(k) - 1) for k in range(K)) / (len(u) * (len(u) - 1)) for u in pairable])
 *     pi = [np.mean([u.count(k) / len(u) for u in rated]) for k in range(K)]
 *     pe = sum(p * (1 - p) for p in pi) / (K - 1)
 *     return (pa - pe) / (1 - pe), pa
 *
 * def specific(units, k):
 *     units = [[v for v in u if v is not None] for u in units]
 *     units = [u for u in units if len(u) >= 2]
 *     return sum(u.count(k) * (u.count(k) - 1) for u in units) / sum(u.count(k) * (len(u) - 1) for u in units)
 *
 * units = [[L[r][i] for r in names] for i in range(24)]
 * print('loupe alpha', repr(alpha_pairs(units)))
 * print('loupe ac1, pa', [repr(v) for v in ac1_gwet(units, 2)])
 * print('loupe specific F, U', repr(specific(units, 0)), repr(specific(units, 1)))
 * print('krippendorff 2011 alpha', repr(alpha_pairs([[1,1,None,1],[2,2,3,2],[3,3,3,3],[3,3,3,3],[2,2,2,2],[1,2,3,4],
 *       [4,4,4,4],[1,1,2,1],[2,2,2,2],[None,5,5,5],[None,None,1,1],[None,None,3,None]])))
 * a = [0]*90 + [0]*5 + [1]*5
 * b = [0]*90 + [1]*5 + [0]*5
 * print('paradox sklearn kappa', repr(cohen_kappa_score(a, b)))
 * print('constant sklearn kappa', repr(cohen_kappa_score([0]*10, [0]*10)))
 * ```
 * Output:
 * ```
 * cont3x3 sklearn kappa 0.7964094021839718
 * distrib6 statsmodels fleiss 0.41392649903288237
 * pair ana ben 21 sklearn kappa 0.5771812080536913
 * pair ana cy 19 sklearn kappa 0.6833333333333333
 * pair ben cy 20 sklearn kappa 0.2857142857142857
 * fleiss on 18 fully rated units, statsmodels 0.4934333958724202
 * loupe alpha 0.5283018867924528
 * loupe ac1, pa ['0.8027397260273972', '0.861111111111111']
 * loupe specific F, U 0.8936170212765957 0.6153846153846154
 * krippendorff 2011 alpha 0.743421052631579
 * paradox sklearn kappa -0.05263157894736836
 * constant sklearn kappa nan
 * ```
 */
import { describe, expect, it } from 'vitest';
import {
  categoryCounts,
  cohenKappa,
  contingencyTable,
  fleissKappa,
  gwetAc1,
  krippendorffAlpha,
  multiRaterCoefficients,
  pairCoefficients,
} from '../../../shared/agreement/coefficients';
import { createStream } from '../../../shared/stats/prng';

/** irrCAC cont3x3abstractors: 2 raters, 100 subjects, categories Ectopic / AIU / NIU. */
const CONT3X3 = [
  [13, 0, 0],
  [0, 20, 7],
  [0, 4, 56],
];

/** irrCAC distrib.6raters: 15 subjects, 6 raters each, counts over 5 categories. */
const DISTRIB_6RATERS = [
  [0, 0, 0, 6, 0],
  [0, 3, 0, 0, 3],
  [0, 1, 4, 0, 1],
  [0, 0, 0, 0, 6],
  [0, 3, 0, 3, 0],
  [2, 0, 4, 0, 0],
  [0, 0, 4, 0, 2],
  [2, 0, 3, 1, 0],
  [2, 0, 0, 4, 0],
  [0, 0, 0, 0, 6],
  [1, 0, 0, 5, 0],
  [1, 1, 0, 4, 0],
  [0, 3, 3, 0, 0],
  [1, 0, 0, 5, 0],
  [0, 2, 0, 3, 1],
];

/** [K2011] / irrCAC cac.raw4raters: rows = units, columns = coders A–D, values 1–5, null = missing. */
const KRIPPENDORFF_2011: (number | null)[][] = [
  [1, 1, null, 1],
  [2, 2, 3, 2],
  [3, 3, 3, 3],
  [3, 3, 3, 3],
  [2, 2, 2, 2],
  [1, 2, 3, 4],
  [4, 4, 4, 4],
  [1, 1, 2, 1],
  [2, 2, 2, 2],
  [null, 5, 5, 5],
  [null, null, 1, 1],
  [null, null, 3, null],
];
const K2011_COUNTS = categoryCounts(
  KRIPPENDORFF_2011.map((row) => row.map((value) => (value === null ? null : value - 1))),
  5,
);

/** The Loupe-like example of [py]: faithful (0) dominates, each unit misses at most one rating. */
const F = 0;
const U = 1;
const N = null;
const LOUPE: Record<'ana' | 'ben' | 'cy', (number | null)[]> = {
  ana: [F, F, F, U, F, F, F, U, F, F, F, F, N, F, U, F, F, F, F, F, U, F, N, F],
  ben: [F, F, U, U, F, F, F, F, F, F, N, F, F, F, U, F, F, F, U, F, U, F, F, F],
  cy: [F, N, F, U, F, U, F, U, F, F, F, F, F, N, F, F, F, F, F, F, U, F, F, N],
};
const LOUPE_UNITS = LOUPE.ana.map((_, i) => [LOUPE.ana[i]!, LOUPE.ben[i]!, LOUPE.cy[i]!]);

describe('published reference values', () => {
  it('two raters, three categories: irrCAC cont3x3abstractors', () => {
    const pair = pairCoefficients(CONT3X3);
    expect(pair.n_units).toBe(100);
    // [irrCAC]: Cohen 0.7964094, AC1 0.8493305, Krippendorff 0.7972585, percent agreement 0.89.
    // [py]: sklearn cohen_kappa_score 0.7964094021839718.
    expect(pair.cohen_kappa).toBeCloseTo(0.7964094021839718, 13);
    expect(pair.gwet_ac1).toBeCloseTo(0.8493305, 7);
    expect(pair.krippendorff_alpha).toBeCloseTo(0.7972585, 7);
    expect(pair.percent_agreement).toBeCloseTo(0.89, 14);
    // The same 100 units as a two-rater count matrix: Fleiss' κ of two raters is Scott's π,
    // [irrCAC] scott2.table = 0.7962397; multi-rater AC1 and α equal the pair forms.
    const units: number[][] = [];
    CONT3X3.forEach((row, a) =>
      row.forEach((cell, b) => {
        for (let i = 0; i < cell; i += 1) units.push([a, b]);
      }),
    );
    const multi = multiRaterCoefficients(categoryCounts(units, 3));
    expect(multi.fleiss_kappa).toBeCloseTo(0.7962397, 7);
    expect(multi.gwet_ac1).toBeCloseTo(pair.gwet_ac1!, 13);
    expect(multi.krippendorff_alpha).toBeCloseTo(pair.krippendorff_alpha!, 13);
    expect(multi.percent_agreement).toBeCloseTo(0.89, 13);
  });

  it('six raters per unit: irrCAC distrib.6raters and statsmodels fleiss_kappa', () => {
    const c = multiRaterCoefficients(DISTRIB_6RATERS);
    // [irrCAC]: pa 0.5511111, Fleiss 0.4139265 (pe 0.2340741), AC1 0.4448007 (pe 0.1914815),
    // Krippendorff 0.4204384. [py]: statsmodels fleiss_kappa 0.41392649903288237.
    expect(c.percent_agreement).toBeCloseTo(0.5511111, 7);
    expect(c.fleiss_kappa).toBeCloseTo(0.41392649903288237, 13);
    expect(c.gwet_ac1).toBeCloseTo(0.4448007, 7);
    expect(c.krippendorff_alpha).toBeCloseTo(0.4204384, 7);
    expect(c.n_units).toBe(15);
    expect(fleissKappa(DISTRIB_6RATERS)).toBe(c.fleiss_kappa);
  });

  it('missing ratings: Krippendorff (2011) example, α = 0.743; irrCAC cac.raw4raters for the others', () => {
    const c = multiRaterCoefficients(K2011_COUNTS);
    // [K2011]: α nominal = 0.743. [irrCAC]: 0.74342. [py] pair enumeration: 0.743421052631579.
    expect(c.krippendorff_alpha).toBeCloseTo(0.743421052631579, 13);
    expect(krippendorffAlpha(K2011_COUNTS)!.toFixed(3)).toBe('0.743');
    // [irrCAC]: percent agreement 0.8181818, AC1 0.77544 (pe 0.1903212), Fleiss 0.76117 (pe 0.2387153):
    // π over all 12 units (unit 12, rated once, included), p_a over the 11 with ≥ 2 ratings.
    expect(c.percent_agreement).toBeCloseTo(0.8181818, 7);
    expect(c.gwet_ac1).toBeCloseTo(0.77544, 5);
    expect(c.fleiss_kappa).toBeCloseTo(0.76117, 5);
    expect(gwetAc1(K2011_COUNTS)).toBe(c.gwet_ac1);
    expect(c.n_units).toBe(11);
    expect(c.n_units_single).toBe(1);
  });
});

describe('Loupe-like data with missing ratings ([py])', () => {
  it("Cohen's κ of each pair over the units both rated equals sklearn", () => {
    const expected: [keyof typeof LOUPE, keyof typeof LOUPE, number, number][] = [
      ['ana', 'ben', 21, 0.5771812080536913],
      ['ana', 'cy', 19, 0.6833333333333333],
      ['ben', 'cy', 20, 0.2857142857142857],
    ];
    for (const [x, y, n, kappa] of expected) {
      const table = contingencyTable(LOUPE[x], LOUPE[y], 2);
      expect(pairCoefficients(table).n_units).toBe(n);
      expect(cohenKappa(table)).toBeCloseTo(kappa, 13);
    }
  });

  it('α, AC1, percent agreement and specific agreement equal the pair-enumeration script', () => {
    const c = multiRaterCoefficients(categoryCounts(LOUPE_UNITS, 2));
    expect(c.krippendorff_alpha).toBeCloseTo(0.5283018867924528, 13);
    expect(c.gwet_ac1).toBeCloseTo(0.8027397260273972, 13);
    expect(c.percent_agreement).toBeCloseTo(0.861111111111111, 13);
    expect(c.specific_agreement[0]).toBeCloseTo(0.8936170212765957, 13);
    expect(c.specific_agreement[1]).toBeCloseTo(0.6153846153846154, 13);
    expect(c.n_units).toBe(24);
  });

  it("Fleiss' κ on the units every rater rated equals statsmodels (constant m = 3)", () => {
    const full = LOUPE_UNITS.filter((row) => row.every((value) => value !== null));
    expect(full).toHaveLength(18);
    expect(fleissKappa(categoryCounts(full, 2))).toBeCloseTo(0.4934333958724202, 13);
  });
});

describe('prevalence and degenerate cases', () => {
  it('κ paradox: 90% agreement with faithful dominating gives κ < 0 while AC1 is high', () => {
    // 90 both faithful, 5 + 5 disagreements, none both unfaithful.
    const c = pairCoefficients([
      [90, 5],
      [5, 0],
    ]);
    // [py]: sklearn −0.05263157894736836. By hand: p_e = 0.95² + 0.05² = 0.905, κ = (0.9 − 0.905)/0.095 = −1/19.
    expect(c.cohen_kappa).toBeCloseTo(-0.05263157894736836, 13);
    // AC1 by hand: π = (0.95, 0.05), p_e = 2·0.95·0.05 = 0.095, AC1 = (0.9 − 0.095)/0.905 = 0.88950…
    expect(c.gwet_ac1).toBeCloseTo(0.805 / 0.905, 13);
    // Specific agreement: faithful 2·90/(180 + 10) = 0.947…, unfaithful 0/(0 + 10) = 0.
    expect(c.specific_agreement[0]).toBeCloseTo(180 / 190, 13);
    expect(c.specific_agreement[1]).toBe(0);
  });

  it('every rating faithful: κ, Fleiss and α are undefined (null), AC1 = 1, unfaithful specific agreement undefined', () => {
    // [py]: sklearn returns nan for a constant pair.
    const pair = pairCoefficients([
      [10, 0],
      [0, 0],
    ]);
    expect(pair.cohen_kappa).toBeNull();
    expect(pair.krippendorff_alpha).toBeNull();
    expect(pair.gwet_ac1).toBe(1);
    expect(pair.percent_agreement).toBe(1);
    expect(pair.specific_agreement).toEqual([1, null]);
    const multi = multiRaterCoefficients(Array.from({ length: 8 }, () => [3, 0]));
    expect(multi.fleiss_kappa).toBeNull();
    expect(multi.krippendorff_alpha).toBeNull();
    expect(multi.gwet_ac1).toBe(1);
    expect(multi.specific_agreement).toEqual([1, null]);
  });

  it('each rater constant on a different category: κ = 0 (p_e = 0), not undefined', () => {
    const c = pairCoefficients([
      [0, 6],
      [0, 0],
    ]);
    expect(c.cohen_kappa).toBe(0);
    expect(c.percent_agreement).toBe(0);
  });

  it('one category among pairable units but another among singly-rated ones: Fleiss and AC1 use it, α does not', () => {
    const c = multiRaterCoefficients([
      [2, 0],
      [2, 0],
      [0, 1],
    ]);
    // π = ((1 + 1 + 0)/3, 1/3); p_a = 1 → κ = 1, AC1 = 1; α has only faithful pairable values → undefined.
    expect(c.fleiss_kappa).toBeCloseTo(1, 14);
    expect(c.gwet_ac1).toBeCloseTo(1, 14);
    expect(c.krippendorff_alpha).toBeNull();
  });

  it('no unit with two ratings: everything undefined', () => {
    const c = multiRaterCoefficients([
      [1, 0],
      [0, 1],
    ]);
    expect(c).toMatchObject({
      percent_agreement: null,
      fleiss_kappa: null,
      krippendorff_alpha: null,
      gwet_ac1: null,
      n_units: 0,
      n_units_single: 2,
    });
    expect(
      pairCoefficients([
        [0, 0],
        [0, 0],
      ]),
    ).toMatchObject({ percent_agreement: null, cohen_kappa: null, gwet_ac1: null, n_units: 0 });
  });

  it('AC1 counts the categories of the scheme, used or not (three-category chance term)', () => {
    // Two raters, three categories, the third unused: π = (0.5, 0.5, 0), p_e = (0.25 + 0.25)/2 = 0.25.
    const c = pairCoefficients([
      [4, 1, 0],
      [1, 4, 0],
      [0, 0, 0],
    ]);
    expect(c.gwet_ac1).toBeCloseTo((0.8 - 0.25) / 0.75, 14);
    expect(c.specific_agreement[2]).toBeNull();
  });
});

describe('input checks', () => {
  it('rejects malformed tables and counts', () => {
    expect(() => pairCoefficients([[1]])).toThrow(RangeError);
    expect(() => pairCoefficients([[1, 2], [3]])).toThrow(RangeError);
    expect(() =>
      pairCoefficients([
        [1, -1],
        [0, 0],
      ]),
    ).toThrow(RangeError);
    expect(() => multiRaterCoefficients([[1, 0.5]])).toThrow(RangeError);
    expect(() => multiRaterCoefficients([[1, 0], [1]])).toThrow(RangeError);
    expect(() => categoryCounts([[2]], 2)).toThrow(RangeError);
    expect(() => contingencyTable([0], [0, 1], 2)).toThrow(RangeError);
    expect(() => contingencyTable([0], [3], 2)).toThrow(RangeError);
  });
});

// ───────────────────────────── brute force on random data ─────────────────────────────

type Ratings = (number | null)[][];

/** Straight from the definitions, no shared sums: κ with each rater's marginals. */
function naiveCohen(a: (number | null)[], b: (number | null)[], k: number): number {
  const pairs = a
    .map((x, i) => [x, b[i]!] as const)
    .filter((p): p is readonly [number, number] => p[0] !== null && p[1] !== null);
  const n = pairs.length;
  const po = pairs.filter(([x, y]) => x === y).length / n;
  let pe = 0;
  for (let c = 0; c < k; c += 1)
    pe += (pairs.filter(([x]) => x === c).length / n) * (pairs.filter(([, y]) => y === c).length / n);
  return pe === 1 ? NaN : (po - pe) / (1 - pe);
}

/** α by enumerating ordered pairs of values (the Python script's formulation). */
function naiveAlpha(units: Ratings): number {
  const pairable = units.map((u) => u.filter((v): v is number => v !== null)).filter((u) => u.length >= 2);
  const values = pairable.flat();
  const n = values.length;
  let observed = 0;
  for (const u of pairable) {
    let differing = 0;
    for (let i = 0; i < u.length; i += 1)
      for (let j = 0; j < u.length; j += 1) if (i !== j && u[i] !== u[j]) differing += 1;
    observed += differing / (u.length - 1);
  }
  let expected = 0;
  for (let i = 0; i < n; i += 1) for (let j = 0; j < n; j += 1) if (i !== j && values[i] !== values[j]) expected += 1;
  if (expected === 0) return NaN;
  return 1 - observed / n / (expected / (n * (n - 1)));
}

/** Gwet's p_a and π (π over units rated at least once). */
function naiveGwet(units: Ratings, k: number): { pa: number; pi: number[] } {
  const rated = units.map((u) => u.filter((v): v is number => v !== null)).filter((u) => u.length >= 1);
  const pairable = rated.filter((u) => u.length >= 2);
  const count = (u: number[], c: number) => u.filter((v) => v === c).length;
  let pa = 0;
  for (const u of pairable) {
    let agreeing = 0;
    for (let c = 0; c < k; c += 1) agreeing += count(u, c) * (count(u, c) - 1);
    pa += agreeing / (u.length * (u.length - 1));
  }
  pa /= pairable.length;
  const pi = Array.from(
    { length: k },
    (_, c) => rated.reduce((total, u) => total + count(u, c) / u.length, 0) / rated.length,
  );
  return { pa, pi };
}

function randomRatings(seed: string, units: number, raters: number, k: number, missing: number, skew: number): Ratings {
  const rng = createStream(0, 'agreement-test', seed);
  return Array.from({ length: units }, () => {
    // A latent category per unit, each rater copies it with probability skew, else random.
    const truth = rng.nextBernoulli(0.8) ? 0 : rng.nextInt(k);
    return Array.from({ length: raters }, () => {
      if (rng.nextBernoulli(missing)) return null;
      return rng.nextBernoulli(skew) ? truth : rng.nextInt(k);
    });
  });
}

describe('brute-force reimplementation on random data', () => {
  it('matches κ, α, Fleiss, AC1, percent and specific agreement on 40 random data sets', () => {
    for (let trial = 0; trial < 40; trial += 1) {
      const k = 2 + (trial % 3);
      const raters = 2 + (trial % 4);
      const data = randomRatings(`trial-${trial}`, 5 + 3 * trial, raters, k, trial % 2 === 0 ? 0 : 0.3, 0.6);
      const c = multiRaterCoefficients(categoryCounts(data, k));
      const alpha = naiveAlpha(data);
      if (Number.isNaN(alpha)) expect(c.krippendorff_alpha).toBeNull();
      else expect(c.krippendorff_alpha).toBeCloseTo(alpha, 11);
      const { pa, pi } = naiveGwet(data, k);
      const peFleiss = pi.reduce((total, p) => total + p * p, 0);
      const peAc1 = pi.reduce((total, p) => total + p * (1 - p), 0) / (k - 1);
      expect(c.percent_agreement).toBeCloseTo(pa, 12);
      expect(c.gwet_ac1).toBeCloseTo((pa - peAc1) / (1 - peAc1), 11);
      if (pi.filter((p) => p > 0).length > 1) expect(c.fleiss_kappa).toBeCloseTo((pa - peFleiss) / (1 - peFleiss), 11);
      else expect(c.fleiss_kappa).toBeNull();
      for (let a = 0; a < raters; a += 1) {
        for (let b = a + 1; b < raters; b += 1) {
          const x = data.map((row) => row[a]!);
          const y = data.map((row) => row[b]!);
          const pair = pairCoefficients(contingencyTable(x, y, k));
          const kappa = naiveCohen(x, y, k);
          if (pair.n_units === 0 || Number.isNaN(kappa)) expect(pair.cohen_kappa).toBeNull();
          else expect(pair.cohen_kappa).toBeCloseTo(kappa, 11);
          // A pair is a two-rater data set: the multi-rater α / AC1 / specific agreement of the
          // units both rated must equal the pair forms.
          const both = data.filter((row) => row[a] !== null && row[b] !== null).map((row) => [row[a]!, row[b]!]);
          if (both.length === 0) continue;
          const asMulti = multiRaterCoefficients(categoryCounts(both, k));
          const twoAlpha = naiveAlpha(both);
          if (Number.isNaN(twoAlpha)) expect(pair.krippendorff_alpha).toBeNull();
          else expect(pair.krippendorff_alpha).toBeCloseTo(twoAlpha, 11);
          expect(pair.gwet_ac1).toBeCloseTo(asMulti.gwet_ac1!, 11);
          pair.specific_agreement.forEach((value, c2) => {
            const multiValue = asMulti.specific_agreement[c2]!;
            if (multiValue === null) expect(value).toBeNull();
            else expect(value).toBeCloseTo(multiValue, 12);
          });
        }
      }
    }
  });

  it('for two categories and two raters, specific agreement is 2a/(2a+b+c) and 2d/(2d+b+c)', () => {
    const [a, b, c, d] = [17, 3, 5, 9];
    const pair = pairCoefficients([
      [a, b],
      [c, d],
    ]);
    expect(pair.specific_agreement[0]).toBeCloseTo((2 * a) / (2 * a + b + c), 14);
    expect(pair.specific_agreement[1]).toBeCloseTo((2 * d) / (2 * d + b + c), 14);
  });
});
