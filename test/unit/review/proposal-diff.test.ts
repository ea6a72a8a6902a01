/**
 * The line diff a proposal is shown with (shared/proposals/diff.ts): the longest common
 * subsequence kept, removals before the additions that replace them, the common head and tail
 * matched first, and a middle too large for the table shown as removed, then added.
 */
import { describe, expect, it } from 'vitest';
import { diffLines } from '../../../shared/proposals/diff';

const ops = (before: string[], after: string[]) =>
  diffLines(before, after).map((d) => `${d.op === 'same' ? ' ' : d.op === 'removed' ? '-' : '+'}${d.text}`);

describe('diffLines', () => {
  it('keeps what both have, in order, and marks the rest', () => {
    expect(ops(['a', 'b', 'c', 'd'], ['a', 'x', 'c', 'd', 'e'])).toEqual([' a', '-b', '+x', ' c', ' d', '+e']);
    expect(ops([], ['a'])).toEqual(['+a']);
    expect(ops(['a'], [])).toEqual(['-a']);
    expect(ops(['a', 'b'], ['a', 'b'])).toEqual([' a', ' b']);
    // A moved line is one removal and one addition; the longer common run stays.
    expect(ops(['a', 'b', 'c'], ['b', 'c', 'a'])).toEqual(['-a', ' b', ' c', '+a']);
  });

  it('matches a long common head and tail around a large middle without the quadratic table', () => {
    const head = Array.from({ length: 500 }, (_, i) => `h${i}`);
    const before = [...head, ...Array.from({ length: 2_500 }, (_, i) => `old${i}`), 'tail'];
    const after = [...head, ...Array.from({ length: 2_500 }, (_, i) => `new${i}`), 'tail'];
    const diff = diffLines(before, after);
    expect(diff.slice(0, 500).every((d) => d.op === 'same')).toBe(true);
    expect(diff.slice(500, 3_000).every((d) => d.op === 'removed')).toBe(true);
    expect(diff.slice(3_000, 5_500).every((d) => d.op === 'added')).toBe(true);
    expect(diff.at(-1)).toEqual({ op: 'same', text: 'tail' });
  });
});
