import { describe, expect, it } from 'vitest';
import { averageRanks, kendallTauB, pearson, rocAuc, spearman } from '../../../shared/stats/correlation';
import { binaryAssociation } from '../../../shared/stats/binary-association';
import { createStream } from '../../../shared/stats/prng';

// Reference values: SciPy 1.17.1 / NumPy 2.4.6 — scipy.stats.pearsonr, spearmanr, kendalltau
// (default variant 'b'), and AUC = mannwhitneyu(pos, neg).statistic / (n₊ n₋).

describe('correlations against SciPy', () => {
  it('no ties', () => {
    const x = [1, 2, 3, 4, 5];
    const y = [2, 1, 4, 3, 5];
    expect(pearson(x, y)).toBeCloseTo(0.8, 14);
    expect(spearman(x, y)).toBeCloseTo(0.7999999999999999, 14);
    // τ: 10 pairs, 2 discordant ((1,2) and (3,4)) → (8 − 2)/10 = 0.6.
    expect(kendallTauB(x, y)).toBeCloseTo(0.6, 14);
  });

  it('ties in both variables', () => {
    const x = [1, 2, 2, 3, 3, 3, 4];
    const y = [1, 1, 2, 2, 3, 1, 3];
    expect(pearson(x, y)).toBeCloseTo(0.6779076806833005, 13);
    expect(spearman(x, y)).toBeCloseTo(0.6633988537943719, 13);
    expect(kendallTauB(x, y)).toBeCloseTo(0.6063390625908325, 13);
  });

  it('a binary label against tied scores', () => {
    const scores = [0.1, 0.4, 0.4, 0.35, 0.8, 0.8, 0.2, 0.9];
    const labels = [0, 0, 1, 1, 1, 0, 0, 1];
    expect(pearson(scores, labels)).toBeCloseTo(0.42243088159854797, 13);
    expect(spearman(scores, labels)).toBeCloseTo(0.44172610429938614, 13);
    expect(kendallTauB(scores, labels)).toBeCloseTo(0.3922322702763681, 13);
    expect(rocAuc(scores, labels)).toBeCloseTo(0.75, 14);
    const fast = binaryAssociation(scores, labels);
    expect(fast.pearson).toBeCloseTo(0.42243088159854797, 13);
    expect(fast.spearman).toBeCloseTo(0.44172610429938614, 13);
    expect(fast.kendall).toBeCloseTo(0.3922322702763681, 13);
    expect(fast.roc_auc).toBeCloseTo(0.75, 14);
  });

  it('mean of hard labels (few distinct values, many ties)', () => {
    const scores = [1, 0.5, 0.5, 2 / 3, 1, 0, 1 / 3, 1, 0.5, 1];
    const labels = [1, 1, 0, 1, 1, 0, 0, 0, 1, 1];
    const fast = binaryAssociation(scores, labels);
    expect(fast.pearson).toBeCloseTo(0.47607722977063693, 13);
    expect(fast.spearman).toBeCloseTo(0.4828744872318541, 13);
    expect(fast.kendall).toBeCloseTo(0.44226898133585163, 13);
    expect(fast.roc_auc).toBeCloseTo(0.7708333333333334, 14);
  });

  it("binary against binary: Pearson = Spearman = Kendall (phi), as in the paper's min rows", () => {
    const a = [1, 0, 1, 1, 0, 0, 1, 0, 1, 1];
    const y = [1, 0, 0, 1, 0, 1, 1, 0, 1, 0];
    const fast = binaryAssociation(a, y);
    // phi by hand: table n11=4, n10=2 (a=1,y=0), n01=1 (a=0,y=1), n00=3;
    // (4·3 − 2·1) / √(6·4·5·5) = 10 / √600 = 0.408248290463863.
    expect(fast.pearson).toBeCloseTo(0.408248290463863, 14);
    expect(fast.spearman).toBeCloseTo(0.408248290463863, 14);
    expect(fast.kendall).toBeCloseTo(0.408248290463863, 14);
  });
});

describe('undefined cases', () => {
  it('a constant score: correlations undefined, AUC 0.5', () => {
    const scores = [0.5, 0.5, 0.5, 0.5];
    const labels = [0, 1, 0, 1];
    expect(pearson(scores, labels)).toBeNull();
    expect(spearman(scores, labels)).toBeNull();
    expect(kendallTauB(scores, labels)).toBeNull();
    expect(rocAuc(scores, labels)).toBe(0.5);
    expect(binaryAssociation(scores, labels)).toEqual({ pearson: null, spearman: null, kendall: null, roc_auc: 0.5 });
  });

  it('a constant label: all four undefined', () => {
    const scores = [0.1, 0.2, 0.3];
    const labels = [1, 1, 1];
    expect(pearson(scores, labels)).toBeNull();
    expect(kendallTauB(scores, labels)).toBeNull();
    expect(rocAuc(scores, labels)).toBeNull();
    expect(binaryAssociation(scores, labels)).toEqual({ pearson: null, spearman: null, kendall: null, roc_auc: null });
    // Constant label and constant score together: still all undefined.
    expect(binaryAssociation([1, 1], [0, 0])).toEqual({ pearson: null, spearman: null, kendall: null, roc_auc: null });
  });

  it('empty and single samples', () => {
    expect(pearson([], [])).toBeNull();
    expect(kendallTauB([1], [1])).toBeNull();
    expect(binaryAssociation([], [])).toEqual({ pearson: null, spearman: null, kendall: null, roc_auc: null });
  });

  it('refuses mismatched or non-finite input', () => {
    expect(() => pearson([1, 2], [1])).toThrow(RangeError);
    expect(() => pearson([1, NaN], [1, 2])).toThrow(RangeError);
    expect(() => binaryAssociation([1, 2], [0, 2])).toThrow(RangeError);
    expect(() => binaryAssociation([1, 2], [0, 1], [1, -1])).toThrow(RangeError);
  });
});

// Straightforward O(n²) definitions, written independently of the library code.
function bruteKendallTauB(x: number[], y: number[]): number | null {
  let concordant = 0;
  let discordant = 0;
  let tiedXOnly = 0;
  let tiedYOnly = 0;
  for (let i = 0; i < x.length; i += 1) {
    for (let j = i + 1; j < x.length; j += 1) {
      const dx = Math.sign(x[i]! - x[j]!);
      const dy = Math.sign(y[i]! - y[j]!);
      if (dx === 0 && dy === 0) continue;
      if (dx === 0) tiedXOnly += 1;
      else if (dy === 0) tiedYOnly += 1;
      else if (dx === dy) concordant += 1;
      else discordant += 1;
    }
  }
  const denominator = (concordant + discordant + tiedXOnly) * (concordant + discordant + tiedYOnly);
  return denominator === 0 ? null : (concordant - discordant) / Math.sqrt(denominator);
}

function bruteAuc(scores: number[], labels: number[]): number | null {
  let wins = 0;
  let pairs = 0;
  for (let i = 0; i < scores.length; i += 1) {
    if (labels[i] !== 1) continue;
    for (let j = 0; j < scores.length; j += 1) {
      if (labels[j] !== 0) continue;
      pairs += 1;
      wins += scores[i]! > scores[j]! ? 1 : scores[i] === scores[j] ? 0.5 : 0;
    }
  }
  return pairs === 0 ? null : wins / pairs;
}

function bruteRanks(values: number[]): number[] {
  // rank = 1 + #smaller + (#equal − 1)/2
  return values.map((v) => 1 + values.filter((w) => w < v).length + (values.filter((w) => w === v).length - 1) / 2);
}

function brutePearson(x: number[], y: number[]): number | null {
  const n = x.length;
  const mx = x.reduce((a, b) => a + b, 0) / n;
  const my = y.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i += 1) {
    sxy += (x[i]! - mx) * (y[i]! - my);
    sxx += (x[i]! - mx) ** 2;
    syy += (y[i]! - my) ** 2;
  }
  if (new Set(x).size < 2 || new Set(y).size < 2) return null;
  return sxy / Math.sqrt(sxx * syy);
}

function expectClose(actual: number | null, expected: number | null, digits = 11): void {
  if (expected === null) expect(actual).toBeNull();
  else expect(actual).toBeCloseTo(expected, digits);
}

describe('fast paths agree with straightforward definitions on random data', () => {
  it('general Kendall τ-b (Knight) and AUC vs O(n²) pair counting', () => {
    const rng = createStream(11, 'kendall-random');
    for (let trial = 0; trial < 200; trial += 1) {
      const n = 2 + rng.nextInt(40);
      const levels = 1 + rng.nextInt(6); // few levels → many ties
      const x = Array.from({ length: n }, () => rng.nextInt(levels));
      const y = Array.from({ length: n }, () => rng.nextInt(1 + rng.nextInt(5)));
      expectClose(kendallTauB(x, y), bruteKendallTauB(x, y), 12);
      expectClose(spearman(x, y), brutePearson(bruteRanks(x), bruteRanks(y)), 12);
      const labels = y.map((v) => (v > 0 ? 1 : 0));
      const auc = bruteAuc(x, labels);
      expectClose(rocAuc(x, labels), auc, 13);
    }
  });

  it('weighted class-count statistics equal the statistics of the expanded resample', () => {
    const rng = createStream(12, 'binary-random');
    for (let trial = 0; trial < 300; trial += 1) {
      const n = 1 + rng.nextInt(30);
      const continuous = trial % 2 === 0;
      const levels = 1 + rng.nextInt(5);
      const scores = Array.from({ length: n }, () =>
        continuous ? Math.round(rng.nextFloat() * 20) / 20 : rng.nextInt(levels) / levels,
      );
      const labels = Array.from({ length: n }, () => rng.nextInt(2));
      const weights = Array.from({ length: n }, () => rng.nextInt(4)); // bootstrap-like counts, zeros included
      const expandedScores: number[] = [];
      const expandedLabels: number[] = [];
      scores.forEach((s, i) => {
        for (let c = 0; c < weights[i]!; c += 1) {
          expandedScores.push(s);
          expandedLabels.push(labels[i]!);
        }
      });
      const fast = binaryAssociation(scores, labels, weights);
      const hasBothClasses = new Set(expandedLabels).size === 2;
      const constantScore = new Set(expandedScores).size < 2;
      if (!hasBothClasses) {
        expect(fast).toEqual({ pearson: null, spearman: null, kendall: null, roc_auc: null });
        continue;
      }
      expectClose(fast.pearson, constantScore ? null : brutePearson(expandedScores, expandedLabels));
      expectClose(
        fast.spearman,
        constantScore ? null : brutePearson(bruteRanks(expandedScores), bruteRanks(expandedLabels)),
      );
      expectClose(fast.kendall, bruteKendallTauB(expandedScores, expandedLabels));
      expectClose(fast.roc_auc, bruteAuc(expandedScores, expandedLabels), 13);
      // And the general library functions on the expanded sample.
      expectClose(fast.kendall, kendallTauB(expandedScores, expandedLabels));
      expectClose(fast.roc_auc, rocAuc(expandedScores, expandedLabels), 13);
    }
  });

  it('average ranks', () => {
    expect(Array.from(averageRanks([3, 1, 3, 2, 3]))).toEqual([4, 1, 4, 2, 4]);
    expect(Array.from(averageRanks([]))).toEqual([]);
  });
});
