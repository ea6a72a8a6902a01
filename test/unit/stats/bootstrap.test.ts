import { describe, expect, it } from 'vitest';
import { percentileInterval, quantileSorted } from '../../../shared/stats/bootstrap';

describe('percentile interval', () => {
  it('uses linear interpolation between order statistics (R type 7, numpy "linear")', () => {
    const x = [0.3, 0.1, 0.7, 0.2, 0.9, 0.4, 0.5, 0.8, 0.6, 1.0, 0.05];
    // numpy.quantile(x, [0.025, 0.975], method='linear') = [0.0625, 0.975] (NumPy 2.4.6).
    // By hand: sorted x, h = 10·0.025 = 0.25 → 0.05 + 0.25·(0.1 − 0.05) = 0.0625;
    // h = 10·0.975 = 9.75 → 0.9 + 0.75·(1.0 − 0.9) = 0.975.
    const { ci, dropped } = percentileInterval(x);
    expect(dropped).toBe(0);
    expect(ci![0]).toBeCloseTo(0.0625, 14);
    expect(ci![1]).toBeCloseTo(0.975, 14);
  });

  it('drops and counts undefined replicates', () => {
    const { ci, dropped } = percentileInterval([NaN, 1, 2, NaN, 3]);
    expect(dropped).toBe(2);
    // Over [1, 2, 3]: h = 2·0.025 = 0.05 → 1.05; h = 1.95 → 2.95.
    expect(ci![0]).toBeCloseTo(1.05, 14);
    expect(ci![1]).toBeCloseTo(2.95, 14);
    expect(percentileInterval([NaN, NaN])).toEqual({ ci: null, dropped: 2 });
    expect(percentileInterval([])).toEqual({ ci: null, dropped: 0 });
    expect(percentileInterval([4])).toEqual({ ci: [4, 4], dropped: 0 });
  });

  it('quantile edge cases', () => {
    expect(quantileSorted([1, 2], 0)).toBe(1);
    expect(quantileSorted([1, 2], 1)).toBe(2);
    expect(quantileSorted([1, 2], 0.5)).toBe(1.5);
    expect(() => quantileSorted([], 0.5)).toThrow(RangeError);
    expect(() => quantileSorted([1], 1.5)).toThrow(RangeError);
  });
});
