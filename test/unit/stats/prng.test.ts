import { describe, expect, it } from 'vitest';
import { createStream, Xoshiro128StarStar } from '../../../shared/stats/prng';
import { drawResampleCounts } from '../../../shared/stats/bootstrap';

describe('xoshiro128**', () => {
  it('matches the reference algorithm', () => {
    // Reference: a separate Python transcription of xoshiro128starstar.c (Blackman & Vigna),
    // run on state {1, 2, 3, 4}; the first output is rotl(2·5, 7)·9 = 11520 by hand.
    const rng = new Xoshiro128StarStar([1, 2, 3, 4]);
    const outputs = Array.from({ length: 8 }, () => rng.nextUint32());
    expect(outputs).toEqual([11520, 0, 5927040, 70819200, 2031721883, 1637235492, 1287239034, 3734860849]);
  });

  it('seeds streams with SplitMix64 over FNV-1a of the key', () => {
    // Reference: the same Python script, state = two SplitMix64 outputs from fnv1a64("0\0test").
    const rng = createStream(0, 'test');
    expect(Array.from({ length: 4 }, () => rng.nextUint32())).toEqual([185519937, 4002277956, 4214968577, 4117437908]);
  });

  it('gives independent, reproducible streams per key', () => {
    const a = createStream(0, 'dataset', 'correlations');
    const b = createStream(0, 'dataset', 'correlations');
    const c = createStream(1, 'dataset', 'correlations');
    const d = createStream(0, 'dataset', 'human');
    const first = (rng: Xoshiro128StarStar) => Array.from({ length: 5 }, () => rng.nextUint32());
    const reference = first(a);
    expect(first(b)).toEqual(reference);
    expect(first(c)).not.toEqual(reference);
    expect(first(d)).not.toEqual(reference);
  });

  it('refuses invalid seeds and an all-zero state', () => {
    expect(() => createStream(-1)).toThrow(RangeError);
    expect(() => createStream(1.5)).toThrow(RangeError);
    expect(() => createStream(2 ** 53)).toThrow(RangeError);
    expect(() => new Xoshiro128StarStar([0, 0, 0, 0])).toThrow(RangeError);
  });

  it('draws uniform integers and floats in range', () => {
    const rng = createStream(7, 'uniform');
    const n = 7;
    const counts = new Array<number>(n).fill(0);
    const draws = 70_000;
    for (let i = 0; i < draws; i += 1) counts[rng.nextInt(n)]! += 1;
    // Each cell ~ Binomial(70000, 1/7): mean 10000, sd ≈ 92.6; allow 5 sd.
    for (const count of counts) expect(Math.abs(count - 10_000)).toBeLessThan(463);
    let sum = 0;
    for (let i = 0; i < 10_000; i += 1) {
      const u = rng.nextFloat();
      expect(u).toBeGreaterThanOrEqual(0);
      expect(u).toBeLessThan(1);
      sum += u;
    }
    // Mean of 10,000 U(0,1): sd = 0.00289; allow 5 sd.
    expect(Math.abs(sum / 10_000 - 0.5)).toBeLessThan(0.0145);
    expect(() => rng.nextInt(0)).toThrow(RangeError);
    expect(rng.nextInt(1)).toBe(0);
  });

  it('fast resample counts equal n exact uniform indexes (Lemire rejection, checked with BigInt)', () => {
    for (const n of [1, 2, 3, 7, 1000, 20_000, 65_537]) {
      const fast = new Int32Array(n);
      const fastRng = createStream(5, 'lemire', String(n));
      fastRng.fillResampleCounts(fast);
      const reference = new Int32Array(n);
      const rng = createStream(5, 'lemire', String(n));
      const rejectBelow = (1n << 32n) % BigInt(n);
      for (let draw = 0; draw < n;) {
        const product = BigInt(rng.nextUint32()) * BigInt(n);
        if ((product & 0xffffffffn) < rejectBelow) continue;
        reference[Number(product >> 32n)]! += 1;
        draw += 1;
      }
      expect(fast).toEqual(reference);
      // Both generators end in the same state.
      expect(fastRng.nextUint32()).toBe(rng.nextUint32());
    }
    // The largest size allowed (x·n < 2^53 keeps the product exact): the counts still add up to n.
    const largest = new Int32Array(2 ** 21);
    createStream(5, 'lemire-largest').fillResampleCounts(largest);
    expect(largest.reduce((a, b) => a + b, 0)).toBe(2 ** 21);
    expect(() => new Xoshiro128StarStar([1, 2, 3, 4]).fillResampleCounts(new Int32Array(2 ** 21 + 1))).toThrow(
      RangeError,
    );
  });

  it('resample counts add up to n', () => {
    const rng = createStream(0, 'counts');
    const counts = new Int32Array(1000);
    drawResampleCounts(rng, counts);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1000);
    // Share of units never drawn ≈ (1 − 1/n)^n ≈ e^−1 = 0.368.
    const unused = counts.filter((c) => c === 0).length / 1000;
    expect(unused).toBeGreaterThan(0.32);
    expect(unused).toBeLessThan(0.42);
  });
});
