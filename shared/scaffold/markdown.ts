/** The Markdown section of a dataset's Semantic Scaffold block: means per source and system, and the model comparison. */
import type { Estimate } from '../stats/estimate';
import { COMPARED_LABELS } from './metricLabels';
import { COMPARED_METRICS } from './metrics';
import type { AlignmentError, MetricComparison, ScaffoldBlock } from './report';
import { inert, table } from '../markdown';

const num = (v: number | null) => (v === null ? '—' : v.toFixed(3));
const est = (e: Estimate | null) => (e === null ? '—' : e.ci === null ? `${num(e.value)} (n = ${e.n})` : `${num(e.value)} [${num(e.ci[0])}, ${num(e.ci[1])}]`);

const verdict = (c: MetricComparison) => (c.saturated === null ? '—' : c.saturated ? `saturated (spread ${num(c.spread)} ≤ noise ${num(c.noise)})` : `spread ${num(c.spread)} > noise ${num(c.noise)}`);

export function renderScaffold(block: ScaffoldBlock): string[] {
  const parts: string[] = ['### Semantic Scaffold (FPS, QPS, EPS)'];
  parts.push(
    'Per summary against its document\'s scaffold, then averaged (95% summary-bootstrap intervals). Only "preserved" / "answered" count as kept; a metric whose denominator is 0 is undefined (—). Ranks tie systems whose paired-bootstrap difference interval covers 0; a metric is saturated when the spread of the system means is within the median half-width of their intervals.',
  );
  const header = ['source', 'system', 'summaries', ...COMPARED_METRICS.map((m) => COMPARED_LABELS[m])];
  const rows: string[][] = [];
  for (const [name, s] of Object.entries(block.sources)) {
    rows.push([inert(name), 'all', String(s.means.n_summaries), ...COMPARED_METRICS.map((m) => est(s.means[m] ?? null))]);
    for (const [system, x] of Object.entries(s.by_system)) rows.push([inert(name), inert(system), String(x.n_summaries), ...COMPARED_METRICS.map((m) => est(x[m] ?? null))]);
  }
  parts.push(table(header, rows));
  if (block.comparison && block.comparison_source !== null) {
    parts.push(`Model comparison (${inert(block.comparison_source)}): rank (ties share a rank) and saturation per metric.`);
    const systems = block.comparison.fps.systems.map((s) => s.system).sort();
    const rankOf = (c: MetricComparison, system: string) => {
      const s = c.systems.find((x) => x.system === system);
      return s?.rank == null ? '—' : String(s.rank);
    };
    parts.push(
      table(
        ['metric', ...systems.map(inert), 'saturation'],
        COMPARED_METRICS.flatMap((m) => {
          const c = block.comparison![m];
          return c === undefined ? [] : [[COMPARED_LABELS[m], ...systems.map((s) => rankOf(c, s)), verdict(c)]];
        }),
      ),
    );
    if (block.direct_score_judge) parts.push(`Direct score: App. G.7's holistic 1–10 score (mean of its four axes) by ${inert(block.direct_score_judge)} for people's rows, by each judge for its own.`);
  }
  const errors = Object.entries(block.sources).filter(([, s]) => s.vs_people);
  if (errors.length > 0) {
    parts.push('Judge vs people: share of (summary, item, person) comparisons where the judge\'s value differs from the person\'s, per alignment type (95% summary-bootstrap interval; differing / compared).');
    const e = (x: AlignmentError | null) => (x === null ? '—' : `${est(x.error)} (${x.n_differ}/${x.n_items})`);
    parts.push(table(['judge', 'facts', 'questions', 'attributes'], errors.map(([name, s]) => [inert(name), e(s.vs_people!.facts), e(s.vs_people!.questions), e(s.vs_people!.attributes)])));
  }
  parts.push(...block.notes.map((n) => `- ${n}`));
  return parts;
}
