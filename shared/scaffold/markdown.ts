/** The Markdown section of a dataset's Semantic Scaffold block: means per source and system, the system comparison, judges vs people, provenance. */
import { renderComparison } from '../comparison-markdown';
import { COMPARED_LABELS } from './metricLabels';
import { COMPARED_METRICS, type ComparedMetric } from './metrics';
import type { AlignmentError, ScaffoldBlock } from './report';
import { estimateCell as est, inert, table } from '../markdown';

export function renderScaffold(block: ScaffoldBlock): string[] {
  const parts: string[] = ['### Semantic Scaffold (FPS, QPS, EPS)'];
  parts.push(
    'Per summary against its document\'s scaffold, then averaged (95% summary-bootstrap intervals; fewer than 5 summaries: no interval). Only "preserved" / "answered" count as kept; a metric whose denominator is 0 is undefined (—); Fact Focus counts sentences linked to a preserved or partial fact, 0.0 when a source that links sentences linked none. Several people on a summary resolve item by item by the human-label rule; unresolved items are left out and counted.',
  );
  const header = ['source', 'system', 'summaries', ...COMPARED_METRICS.map((m) => COMPARED_LABELS[m])];
  const rows: string[][] = [];
  for (const [name, s] of Object.entries(block.sources)) {
    rows.push([
      inert(name),
      'all',
      String(s.means.n_summaries),
      ...COMPARED_METRICS.map((m) => est(s.means[m] ?? null)),
    ]);
    for (const [system, x] of Object.entries(s.by_system))
      rows.push([inert(name), inert(system), String(x.n_summaries), ...COMPARED_METRICS.map((m) => est(x[m] ?? null))]);
  }
  parts.push(table(header, rows));
  parts.push(
    ...renderComparison(
      block.comparison,
      block.comparison_sources,
      block.comparison_note,
      (m) => COMPARED_LABELS[m as ComparedMetric] ?? m,
    ),
  );
  if (block.comparison && block.direct_score_judge)
    parts.push(
      `Direct score: App. G.7's holistic 1–10 score (mean of its four axes) by ${inert(block.direct_score_judge)} for people's rows, by each judge for its own.`,
    );
  const errors = Object.entries(block.sources).filter(([, s]) => s.vs_people);
  if (errors.length > 0) {
    parts.push(
      "Judge vs people: share of (summary, item, person) comparisons where the judge's value differs from the person's, per alignment type (95% summary-bootstrap interval; differing / compared).",
    );
    const e = (x: AlignmentError | null) => (x === null ? '—' : `${est(x.error)} (${x.n_differ}/${x.n_items})`);
    parts.push(
      table(
        ['judge', 'facts', 'questions', 'attributes'],
        errors.map(([name, s]) => [
          inert(name),
          e(s.vs_people!.facts),
          e(s.vs_people!.questions),
          e(s.vs_people!.attributes),
        ]),
      ),
    );
  }
  const made = block.provenance;
  if (made && (Object.keys(made.scaffolds).length > 0 || Object.keys(made.alignments).length > 0)) {
    const counts = (r: Record<string, number>) =>
      Object.entries(r)
        .map(([k, n]) => `${inert(k)} (${n})`)
        .join(', ');
    parts.push(
      `Made by: scaffolds ${counts(made.scaffolds) || '—'}; judges' alignments ${
        Object.entries(made.alignments)
          .map(([j, r]) => `${inert(j)}: ${counts(r)}`)
          .join('; ') || '—'
      }.`,
    );
  }
  parts.push(...block.notes.map((n) => `- ${n}`));
  return parts;
}
