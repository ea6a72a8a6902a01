/**
 * The one formatter of counts and estimates (renderer/format.ts, with shared/words.ts): plural
 * rules and agreeing verbs, "undefined" for an undefined value, intervals, and an estimate's n
 * written once: beside a small-n interval by default, never when the caller writes it, always
 * (with its noun) when asked.
 */
import { describe, expect, it } from 'vitest';
import {
  agree,
  fixed,
  formatCount,
  formatEstimate,
  nEquals,
  nonZeroCounts,
  percent,
  plural,
  pluralNoun,
  signed,
  SMALL_N,
  UNDEFINED_TEXT,
} from '../../../renderer/format';
import type { Estimate } from '../../../shared/analysis/types';

const est = (value: number | null, ci: [number, number] | null, n: number): Estimate => ({
  value,
  ci,
  n,
  replicates_dropped: 0,
  too_few: false,
});

describe('counts and plurals', () => {
  it('writes counts with en-US grouping, whatever the machine’s locale', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(5060)).toBe('5,060');
    expect(formatCount(1234567)).toBe('1,234,567');
  });

  it('one is singular, zero and many are plural', () => {
    expect(plural(1, 'sentence')).toBe('1 sentence');
    expect(plural(0, 'sentence')).toBe('0 sentences');
    expect(plural(2, 'sentence')).toBe('2 sentences');
    expect(plural(1204, 'sentence')).toBe('1,204 sentences');
  });

  it('applies the regular English rules, to the last word of a phrase', () => {
    expect(plural(2, 'summary')).toBe('2 summaries');
    expect(plural(1, 'summary')).toBe('1 summary');
    expect(plural(3, 'annotated summary')).toBe('3 annotated summaries');
    expect(plural(2, 'key fact')).toBe('2 key facts');
    expect(plural(2, 'batch')).toBe('2 batches');
    expect(plural(2, 'day')).toBe('2 days');
    expect(plural(6, 'document')).toBe('6 documents');
    expect(pluralNoun(2, 'person', 'people')).toBe('people');
    expect(pluralNoun(1, 'person', 'people')).toBe('person');
  });

  it('verbs agree with their count', () => {
    expect(`${plural(1, 'sentence')} ${agree(1, 'differs', 'differ')}`).toBe('1 sentence differs');
    expect(`${plural(4, 'sentence')} ${agree(4, 'differs', 'differ')}`).toBe('4 sentences differ');
    expect(`${plural(0, 'sentence')} ${agree(0, 'differs', 'differ')}`).toBe('0 sentences differ');
  });

  it('lists only the counts that are not zero', () => {
    expect(
      nonZeroCounts([
        [2, 'claim set'],
        [0, 'label'],
        [1, 'key-fact list'],
      ]),
    ).toEqual(['2 claim sets', '1 key-fact list']);
    expect(nonZeroCounts([[0, 'label']])).toEqual([]);
  });

  it('n = …, with or without its noun', () => {
    expect(nEquals(5)).toBe('n = 5');
    expect(nEquals(5, 'summary')).toBe('n = 5 summaries');
    expect(nEquals(1, 'summary')).toBe('n = 1 summary');
    expect(nEquals(12_000, 'sentence')).toBe('n = 12,000 sentences');
  });
});

describe('numbers', () => {
  it('fixed decimals with a true minus sign and no negative zero', () => {
    expect(fixed(0.1234, 3)).toBe('0.123');
    expect(fixed(-0.25, 2)).toBe('−0.25');
    expect(fixed(-0.0001, 3)).toBe('0.000');
    expect(signed(0.12)).toBe('+0.120');
    expect(signed(-0.04)).toBe('−0.040');
    expect(signed(0.0001)).toBe('0.000');
    expect(percent(0.134)).toBe('13.4%');
  });

  it('an undefined value reads "undefined", never 0 or a dash', () => {
    expect(signed(null)).toBe(UNDEFINED_TEXT);
    expect(percent(null)).toBe(UNDEFINED_TEXT);
    for (const style of ['interval', 'percent', 'plus-minus'] as const) {
      expect(formatEstimate(est(null, null, 0), { style })).toBe('undefined');
      expect(formatEstimate(est(null, null, 3), { style, n: 'always' })).toBe('undefined');
    }
  });
});

describe('estimates', () => {
  const large = est(0.134, [0.05, 0.23], 40);
  const small = est(0.5, [0.5, 0.5], 3);

  it('interval, percent and plus-minus styles', () => {
    expect(formatEstimate(large)).toBe('0.134 [0.050, 0.230]');
    expect(formatEstimate(large, { style: 'percent' })).toBe('13.4% [5.0%, 23.0%]');
    expect(formatEstimate(large, { style: 'plus-minus' })).toBe('0.13 ± 0.09');
    expect(formatEstimate(large, { style: 'plus-minus', digits: 3 })).toBe('0.134 ± 0.090');
    expect(formatEstimate(est(0.134, null, 40))).toBe('0.134');
  });

  it('writes the n beside a small-n interval once, so "± 0.000" never stands alone', () => {
    expect(SMALL_N).toBe(5);
    expect(formatEstimate(small)).toBe('0.500 [0.500, 0.500] (n = 3)');
    expect(formatEstimate(small, { style: 'plus-minus', digits: 3 })).toBe('0.500 ± 0.000 (n = 3)');
    expect(formatEstimate(est(0.5, [0.4, 0.6], 6))).toBe('0.500 [0.400, 0.600]');
    // Without an interval there is no precision to mistake.
    expect(formatEstimate(est(0.5, null, 3))).toBe('0.500');
  });

  it('n: never leaves it to the caller; n: always writes it with its noun, once', () => {
    expect(formatEstimate(small, { n: 'never' })).toBe('0.500 [0.500, 0.500]');
    expect(formatEstimate(large, { style: 'plus-minus', n: 'always' })).toBe('0.13 ± 0.09 (n = 40)');
    expect(formatEstimate(small, { style: 'plus-minus', n: 'always', unit: 'summary' })).toBe(
      '0.50 ± 0.00 (n = 3 summaries)',
    );
    expect(formatEstimate(est(0.5, [0.5, 0.5], 1), { n: 'always', unit: 'summary' })).toBe(
      '0.500 [0.500, 0.500] (n = 1 summary)',
    );
    for (const n of ['small', 'always', 'never'] as const) {
      expect(formatEstimate(small, { n }).match(/n =/g)?.length ?? 0).toBeLessThanOrEqual(1);
    }
  });
});
