/**
 * Counts in words, for every host (the renderer's formatter re-exports these; the CLI and the
 * reports use them directly): "5,060", "1 summary" / "2 summaries", and the verb that agrees.
 */

/** One shared Intl formatter (building one per call showed in the label keypress's profile). */
const COUNTS = new Intl.NumberFormat('en-US');

/** "5,060". */
export function formatCount(n: number): string {
  return COUNTS.format(n);
}

/**
 * The noun for n of it: "summary" / "summaries". The default plural: consonant + y → ies
 * ("summary", "query"), s / x / z / ch / sh → es ("batch"), else + s; `many` for anything else.
 * A phrase pluralises its last word ("key fact" → "key facts").
 */
export function pluralNoun(n: number, one: string, many = regularPlural(one)): string {
  return n === 1 ? one : many;
}

function regularPlural(noun: string): string {
  if (/[^aeiou]y$/i.test(noun)) return `${noun.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(noun)) return `${noun}es`;
  return `${noun}s`;
}

/** "1 summary", "2 summaries", "1,204 sentences". */
export function plural(n: number, one: string, many?: string): string {
  return `${formatCount(n)} ${pluralNoun(n, one, many)}`;
}

/** The verb agreeing with n: agree(1, 'differs', 'differ') → "differs". */
export function agree(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

/** The non-zero counts as phrases, in order: [[2, 'claim set'], [0, 'label']] → ["2 claim sets"]. */
export function nonZeroCounts(counts: ReadonlyArray<readonly [number, string]>): string[] {
  return counts.filter(([n]) => n > 0).map(([n, noun]) => plural(n, noun));
}
