import { describe, expect, it } from 'vitest';
import { brierScore, calibration, calibrationBin } from '../../../shared/stats/calibration';
import { roganGladen } from '../../../shared/stats/prevalence';

describe('calibration', () => {
  it('Brier, ECE and reliability bins by hand', () => {
    const p = [0.05, 0.15, 0.95, 1.0, 0.55, 0.6];
    const o = [0, 0, 1, 1, 1, 0];
    // Brier = (0.0025 + 0.0225 + 0.0025 + 0 + 0.2025 + 0.36) / 6 = 0.59 / 6.
    expect(brierScore(p, o)).toBeCloseTo(0.59 / 6, 14);
    const result = calibration(p, o);
    expect(result.n).toBe(6);
    // Bins: 0 → {0.05}, 1 → {0.15}, 5 → {0.55}, 6 → {0.6}, 9 → {0.95, 1.0} (the last bin includes 1).
    expect(result.bins.map((b) => b.count)).toEqual([1, 1, 0, 0, 0, 1, 1, 0, 0, 2]);
    expect(result.bins[9]).toMatchObject({ lower: 0.9, upper: 1, count: 2, observed_frequency: 1 });
    expect(result.bins[9]!.mean_predicted).toBeCloseTo(0.975, 14);
    expect(result.bins[2]).toMatchObject({ mean_predicted: null, observed_frequency: null, count: 0 });
    // ECE = (1/6)(0.05 + 0.15 + 0.45 + 0.6) + (2/6)(0.025) = (1.25 + 0.05)/6.
    expect(result.ece).toBeCloseTo(1.3 / 6, 14);
  });

  it('bin edges', () => {
    expect(calibrationBin(0)).toBe(0);
    expect(calibrationBin(0.1)).toBe(1);
    expect(calibrationBin(0.3)).toBe(3);
    expect(calibrationBin(0.7)).toBe(7);
    expect(calibrationBin(0.9999)).toBe(9);
    expect(calibrationBin(1)).toBe(9);
  });

  it('empty input and invalid probabilities', () => {
    expect(calibration([], [])).toMatchObject({ brier: null, ece: null, n: 0 });
    expect(() => calibration([1.2], [1])).toThrow(RangeError);
    expect(() => calibration([0.2], [2])).toThrow(RangeError);
  });
});

describe('Rogan–Gladen', () => {
  it('corrects the apparent rate', () => {
    // q = 0.3, Se = 0.8, Sp = 0.9: (0.3 + 0.9 − 1) / (0.8 + 0.9 − 1) = 0.2 / 0.7.
    expect(roganGladen(0.3, 0.8, 0.9)).toBeCloseTo(0.2 / 0.7, 14);
    // A perfect classifier leaves q unchanged.
    expect(roganGladen(0.25, 1, 1)).toBe(0.25);
  });

  it('clips to [0, 1] and is undefined at or below chance', () => {
    expect(roganGladen(0.05, 0.8, 0.9)).toBe(0); // (0.05 − 0.1)/0.7 < 0
    expect(roganGladen(0.95, 0.8, 0.9)).toBe(1); // (0.85)/0.7 > 1
    expect(roganGladen(0.3, 0.5, 0.5)).toBeNull();
    expect(roganGladen(0.3, 0.4, 0.5)).toBeNull();
    expect(roganGladen(null, 0.8, 0.9)).toBeNull();
    expect(roganGladen(0.3, null, 0.9)).toBeNull();
  });
});
