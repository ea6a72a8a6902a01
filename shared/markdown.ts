/**
 * Project text in a Markdown report, made inert: every report (the analysis, its accuracy and
 * scaffold sections) prints dataset, judge, annotator and system names and document and summary
 * ids through these, so a hostile name can never become HTML, an entity, a code span, a link, a
 * table column or a new line wherever the report is rendered. Also the one cell text of an
 * estimate in the accuracy, scaffold and comparison tables.
 */
import { tooFewText, type Estimate } from './stats/estimate';
const INERT: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
  '[': '&#91;',
  ']': '&#93;',
};

/**
 * A name or id from the project as inert one-line text: no HTML tag, entity, code span or link can
 * come out of it. Table pipes and backslashes are escaped by `cell` like every table cell; outside
 * tables (headings) a pipe is plain text.
 */
export function inert(name: string): string {
  return name.replace(/[\r\n]+/g, ' ').replace(/[&<>"'`[\]]/g, (c) => INERT[c]!);
}

/** One table cell: backslashes and pipes escaped, on one line. */
export function cell(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/[\r\n]+/g, ' ');
}

/** A Markdown table; every header and cell goes through `cell`. */
export function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(header), `|${header.map(() => ' --- ').join('|')}|`, ...rows.map(line)].join('\n');
}

const fixed3 = (v: number | null) => (v === null ? '—' : v.toFixed(3));

/**
 * An estimate as a table cell: "0.500 [0.300, 0.700] (n = 12)"; too few resampling units: "0.667
 * (n = 1, too few for an interval)", with `units` the resampling units when the estimate's n counts
 * something else (claims, sentences); no interval otherwise: "0.500 (n = 12)"; none: "—".
 */
export function estimateCell(
  e: Estimate | null,
  format: (v: number | null) => string = fixed3,
  units?: number | null,
): string {
  if (e === null) return '—';
  if (e.too_few && e.value !== null) return `${format(e.value)} (${tooFewText(units === undefined ? e.n : units)})`;
  return e.ci === null
    ? `${format(e.value)} (n = ${e.n})`
    : `${format(e.value)} [${format(e.ci[0])}, ${format(e.ci[1])}] (n = ${e.n})`;
}
