import { describe, expect, it } from 'vitest';
import { drawSample, fnv1a64, sampleRank, splitmix64 } from '../../../shared/sampling';

const ids = (n: number) => Array.from({ length: n }, (_, i) => ({ summaryId: `s${i}` }));

describe('hash-rank sampling', () => {
  it('uses the published FNV-1a 64 and splitmix64 constants', () => {
    // FNV-1a 64 test vectors from the reference implementation (isthe.com/chongo/tech/comp/fnv): "" and "a".
    expect(fnv1a64('')).toBe(0xcbf29ce484222325n);
    expect(fnv1a64('a')).toBe(0xaf63dc4c8601ec8cn);
    // splitmix64 with state 0: first output of Vigna's reference generator is 0xe220a8397b1dcdaf.
    expect(splitmix64(0n)).toBe(0xe220a8397b1dcdafn);
  });

  it('is a pure function of dataset, id and seed (order of candidates does not matter)', () => {
    const a = drawSample('d', ids(200), 25, 0).map((c) => c.summaryId);
    const b = drawSample('d', ids(200).reverse(), 25, 0).map((c) => c.summaryId);
    expect(a).toEqual(b);
    expect(new Set(a).size).toBe(25);
    expect(drawSample('d', ids(200), 25, 1).map((c) => c.summaryId)).not.toEqual(a);
    expect(drawSample('other', ids(200), 25, 0).map((c) => c.summaryId)).not.toEqual(a);
  });

  it('continues the same ranking in a second batch and never repeats the first', () => {
    const all = ids(100);
    const first = drawSample('d', all, 10, 0);
    const rest = all.filter((c) => !first.includes(c));
    const second = drawSample('d', rest, 10, 0);
    expect(second.some((c) => first.includes(c))).toBe(false);
    expect([...first, ...second].map((c) => c.summaryId)).toEqual(drawSample('d', all, 20, 0).map((c) => c.summaryId));
  });

  it('pins the sample of seed 0 so that a change of algorithm cannot go unnoticed', () => {
    expect(drawSample('frank', ids(50), 5, 0).map((c) => c.summaryId)).toMatchInlineSnapshot(`
      [
        "s30",
        "s19",
        "s35",
        "s25",
        "s34",
      ]
    `);
  });

  it('is close to uniform: each of 20 items is chosen about half the time over 2,000 seeds', () => {
    const counts = new Map<string, number>();
    for (let seed = 0; seed < 2000; seed += 1) {
      for (const c of drawSample('u', ids(20), 10, seed)) counts.set(c.summaryId, (counts.get(c.summaryId) ?? 0) + 1);
    }
    // Binomial(2000, 0.5): sd ≈ 22; ±110 is five standard deviations.
    for (const n of counts.values()) expect(Math.abs(n - 1000)).toBeLessThan(110);
    expect(sampleRank('u', 's1', 0)).not.toBe(sampleRank('u', 's2', 0));
  });
});
