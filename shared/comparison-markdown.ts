/** The Markdown of a block's system comparison (shared/stats/system-comparison.ts): the accuracy and the scaffold sections print it alike. */
import { estimateCell, inert, table } from './markdown';
import {
  pairedDocumentsText,
  type ComparisonCandidate,
  type MetricComparison,
  type SystemComparison,
  type SystemDifference,
} from './stats/system-comparison';

const signed = (v: number | null) =>
  v === null ? '—' : `${v > 0 && Number(v.toFixed(3)) !== 0 ? '+' : ''}${v.toFixed(3)}`;

/** "+0.600 [0.550, 0.650] (n = 6)": the difference signed, its interval as numbers. */
const differenceCell = (d: SystemDifference) =>
  d.ci === null
    ? estimateCell(d, signed)
    : `${signed(d.value)} [${d.ci[0].toFixed(3)}, ${d.ci[1].toFixed(3)}] (n = ${d.n})`;

/** How a source is named in the report: the people, or a judge by name. */
export const sourceWords = (source: string): string => (source === 'human' ? 'people' : `judge ${inert(source)}`);

/** "1. a · 1. b (shared) · 3. c", or why there is no ranking. */
export function rankingWords(c: MetricComparison): string {
  if (c.ranks === null) return `no ranking (${c.ranking_note ?? 'undefined'})`;
  const ranks = c.ranks;
  const order = Object.keys(ranks).sort((x, y) => ranks[x]! - ranks[y]! || (x < y ? -1 : 1));
  const shared = (r: number) => order.filter((s) => ranks[s] === r).length > 1;
  return order.map((s) => `${ranks[s]}. ${inert(s)}${shared(ranks[s]!) ? ' (shared)' : ''}`).join(' · ');
}

function saturationWords(c: MetricComparison): string {
  if (c.saturated === null) return '—';
  const spread = c.spread!.toFixed(3);
  const noise = c.noise!.toFixed(3);
  return c.saturated ? `saturated (spread ${spread} ≤ noise ${noise})` : `spread ${spread} > noise ${noise}`;
}

/** The metrics some system has a value of (the others, undefined for every system, are in the JSON only). */
export function comparedMetrics(comparison: SystemComparison): Array<[string, MetricComparison]> {
  return Object.entries(comparison.metrics).filter(([, c]) =>
    Object.values(c.by_system).some((m) => m !== null && m.value !== null),
  );
}

export function renderComparison(
  comparison: SystemComparison | null,
  candidates: readonly ComparisonCandidate[],
  note: string | null,
  label: (metric: string) => string,
): string[] {
  const parts: string[] = [];
  if (comparison !== null) {
    parts.push(
      `Systems compared by ${sourceWords(comparison.source)} (${pairedDocumentsText(comparison.n_documents)}): paired-bootstrap differences a − b over the documents both have; systems whose difference interval covers 0 share a rank; no ranking with fewer than 5 paired documents.`,
    );
    parts.push(
      table(
        ['metric', 'ranking', 'differences (a − b)', 'saturation'],
        comparedMetrics(comparison).map(([metric, c]) => [
          label(metric),
          rankingWords(c),
          c.differences.length === 0
            ? '—'
            : c.differences.map((d) => `${inert(d.a)} − ${inert(d.b)}: ${differenceCell(d)}`).join('; '),
          saturationWords(c),
        ]),
      ),
    );
  }
  if (note !== null) parts.push(`Comparison: ${note}`);
  const others = comparison === null ? [] : candidates.filter((c) => c.source !== comparison.source);
  if (others.length > 0)
    parts.push(
      `Other sources to compare by (--compare-source people|JUDGE): ${others.map((c) => `${sourceWords(c.source)} (${pairedDocumentsText(c.n_documents)})`).join(', ')}.`,
    );
  return parts;
}
