/**
 * The renderer's one formatter for numbers in words: counts with their nouns (plural rules),
 * fixed decimals, percentages, intervals, estimates and their n. Every view prints figures
 * through these, so a figure reads the same everywhere and its n is written once:
 * - an undefined value is "undefined" (never 0, nor a dash that could pass for one);
 * - an interval is "[low, high]", a Table-2 style cell "value ± half-width";
 * - at or below SMALL_N an estimate carries its n beside it (a bootstrap over ≤ 5 units often
 *   collapses to a point, and "± 0.000" must not read as precision), unless the caller writes
 *   the n itself (`n: 'never'` with nEquals beside it, or `n: 'always'` with its unit).
 */
import type { Estimate, Interval } from '../shared/analysis/types';
import { tooFewText } from '../shared/stats/estimate';
import { formatCount, plural } from '../shared/words';

export { agree, formatCount, nonZeroCounts, plural, pluralNoun } from '../shared/words';

export const UNDEFINED_TEXT = 'undefined';

/** At or below this n an estimate's n is always written beside it. */
export const SMALL_N = 5;

/** "n = 5", or with a noun "n = 5 summaries" / "n = 1 summary". */
export function nEquals(n: number, noun?: string, many?: string): string {
  return noun === undefined ? `n = ${formatCount(n)}` : `n = ${plural(n, noun, many)}`;
}

/** Fixed decimals, no "-0.00", a true minus sign. */
export function fixed(value: number, digits: number): string {
  const text = value.toFixed(digits);
  if (Number(text) === 0) return (0).toFixed(digits);
  return text.replace('-', '−');
}

export function num(value: number | null, digits = 3): string {
  return value === null ? UNDEFINED_TEXT : fixed(value, digits);
}

/** "+0.120", "−0.040", "0.000". */
export function signed(value: number | null, digits = 3): string {
  if (value === null) return UNDEFINED_TEXT;
  const text = fixed(value, digits);
  return value > 0 && Number(value.toFixed(digits)) !== 0 ? `+${text}` : text;
}

/** A share as a percentage: 0.134 → "13.4%". */
export function percent(value: number | null, digits = 1): string {
  return value === null ? UNDEFINED_TEXT : `${fixed(100 * value, digits)}%`;
}

export function halfWidth(ci: Interval): number {
  return (ci[1] - ci[0]) / 2;
}

export function intervalText(
  ci: Interval | null,
  digits = 3,
  format: (v: number) => string = (v) => fixed(v, digits),
): string {
  return ci === null ? 'no interval' : `[${format(ci[0])}, ${format(ci[1])}]`;
}

export interface EstimateFormat {
  /** interval: "0.134 [0.050, 0.230]" (default); percent: "13.4% [5.0%, 23.0%]"; plus-minus: "0.13 ± 0.09". */
  style?: 'interval' | 'percent' | 'plus-minus';
  /** Decimals (default 3; 2 for plus-minus; 1 for percent). */
  digits?: number;
  /**
   * Where the estimate's n goes: 'small' (default) beside an interval when n ≤ SMALL_N; 'always'
   * beside it whatever n; 'never' when the caller writes it itself (nEquals under a cell).
   */
  n?: 'small' | 'always' | 'never';
  /** The noun of n ("summary"): "(n = 5 summaries)"; without it "(n = 5)". */
  unit?: string;
  /**
   * The resampling units (summaries, documents) when the estimate's n counts something else
   * (sentences): the n of the too-few note; null when not known.
   */
  units?: number | null;
}

/**
 * " (n = k, too few for an interval)" after a value shown without an interval because its
 * resampling units were fewer than 5 (docs/methods.md, "Too few to estimate"), else nothing.
 */
export function tooFewNote(
  estimate: Pick<Estimate, 'value' | 'n' | 'too_few'>,
  units: number | null = estimate.n,
): string {
  return estimate.too_few && estimate.value !== null ? ` (${tooFewText(units)})` : '';
}

/** One estimate with its interval and, once, its n. Undefined values read "undefined". */
export function formatEstimate(estimate: Estimate, options: EstimateFormat = {}): string {
  const style = options.style ?? 'interval';
  if (estimate.value === null) return UNDEFINED_TEXT;
  const digits = options.digits ?? (style === 'plus-minus' ? 2 : style === 'percent' ? 1 : 3);
  const value = style === 'percent' ? percent(estimate.value, digits) : fixed(estimate.value, digits);
  const n = options.n ?? 'small';
  const showN = n === 'always' || (n === 'small' && estimate.ci !== null && estimate.n <= SMALL_N);
  const nText = showN ? ` (${nEquals(estimate.n, options.unit)})` : '';
  if (estimate.ci === null) {
    // When n counts something else (sentences), the note names what it counts: "n = 3 summaries".
    const tooFew =
      options.units === undefined || options.units === null
        ? tooFewNote(estimate, options.units === undefined ? estimate.n : null)
        : estimate.too_few && estimate.value !== null
          ? ` (n = ${plural(options.units, 'summary')}, too few for an interval)`
          : '';
    return `${value}${tooFew || nText}`;
  }
  if (style === 'plus-minus') return `${value} ± ${fixed(halfWidth(estimate.ci), digits)}${nText}`;
  const bounds =
    style === 'percent'
      ? intervalText(estimate.ci, digits, (v) => percent(v, digits))
      : intervalText(estimate.ci, digits);
  return `${value} ${bounds}${nText}`;
}
