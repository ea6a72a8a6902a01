/**
 * The `scaffold` block of one dataset in the Analysis view: per source (people, each judge) a
 * table of F, FC, QC, Main FC, Supp FC, Fact Focus, FPS, QPS, EPS per system (mean ± CI half-width
 * with its n, or "n = k, too few for an interval"; "undefined" where the denominator is 0 for every
 * summary); the comparison of systems by one source, with its source picker
 * (SystemComparisonTable: ranking with shared ranks, paired difference CIs, saturated badge); and
 * the spread chart with SVG / PNG export. App. G.7's direct score (1–10) joins the tables and the
 * chart (divided by 10 there) when the report has it, so its saturation shows beside FPS / EPS;
 * each judge's error against people per alignment type follows its table.
 */
import type { Estimate } from '../../../shared/analysis/types';
import type { JudgeVsPeople, ScaffoldBlock, ScaffoldMeans } from '../../../shared/scaffold/report';
import { COMPARED_LABELS } from '../../../shared/scaffold/metricLabels';
import type { ComparedMetric } from '../../../shared/scaffold/metrics';
import { safeFileName } from '../../charts/export';
import { ChartFrame } from '../analysis/ChartFrame';
import { formatCount, formatEstimate, UNDEFINED_TEXT } from '../../format';
import { sourceName, SystemComparisonTable } from '../analysis/SystemComparison';
import { TitledTable } from '../analysis/TitledTable';
import { shownMetrics, shownName } from './metricNames';
import { ScaffoldSpreadChart } from './ScaffoldSpreadChart';

/** "0.41 ± 0.08 (n = 12)": every cell names its n once (summaries with a defined value). */
function cell(estimate: Estimate | null): string {
  if (!estimate) return UNDEFINED_TEXT;
  return formatEstimate(estimate, { style: 'plus-minus', n: 'always' });
}

function MeansTable({ title, rows, testId }: { title: string; rows: Array<[string, ScaffoldMeans]>; testId: string }) {
  const metrics = shownMetrics(rows.some(([, means]) => means.direct_score != null));
  return (
    <TitledTable
      title={title}
      about="Mean ± half-width of the 95% summary-bootstrap interval; n = summaries with a defined value."
      tableTestId={testId}
    >
      <thead>
        <tr>
          <th scope="col">System</th>
          <th scope="col">Summaries</th>
          {metrics.map((m) => (
            <th key={m} scope="col">
              {shownName(m)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map(([system, means]) => (
          <tr key={system} data-system={system}>
            <th scope="row">{system}</th>
            <td>{formatCount(means.n_summaries)}</td>
            {metrics.map((m) => (
              <td key={m} data-metric={m}>
                {cell(means[m] ?? null)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </TitledTable>
  );
}

const ALIGNMENT_KINDS = [
  ['facts', 'Facts'],
  ['questions', 'Questions'],
  ['attributes', 'Entity attributes'],
] as const;

/** How often the judge's alignment of an item differs from a person's, per kind of item. */
function VsPeople({ judge, vs, testId }: { judge: string; vs: JudgeVsPeople; testId: string }) {
  return (
    <TitledTable
      title={`Judge ${judge} vs people`}
      about="Items where the judge's value differs from a person's (95% summary-bootstrap CI)."
      tableTestId={testId}
    >
      <thead>
        <tr>
          <th scope="col">Items</th>
          <th scope="col">Differ</th>
          <th scope="col">Error</th>
        </tr>
      </thead>
      <tbody>
        {ALIGNMENT_KINDS.map(([kind, name]) => {
          const e = vs[kind];
          return (
            <tr key={kind} data-kind={kind}>
              <th scope="row">{name}</th>
              <td>{e ? `${formatCount(e.n_differ)} of ${formatCount(e.n_items)}` : 'no overlap'}</td>
              <td>{e ? formatEstimate(e.error, { style: 'percent' }) : UNDEFINED_TEXT}</td>
            </tr>
          );
        })}
      </tbody>
    </TitledTable>
  );
}

export function ScaffoldAnalysis({ scaffold, dataset }: { scaffold: ScaffoldBlock; dataset: string }) {
  const sources = Object.entries(scaffold.sources).sort(([a], [b]) =>
    a === 'human' ? -1 : b === 'human' ? 1 : a.localeCompare(b),
  );
  return (
    <div className="scaffold-analysis" data-testid="scaffold-analysis">
      {scaffold.notes.length > 0 && (
        <ul className="muted" data-testid="scaffold-notes">
          {scaffold.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
      {sources.length === 0 && (
        <p className="analysis-empty">
          No alignments to this dataset’s scaffolds yet: align summaries in Annotate (T to the scaffold) or import them.
        </p>
      )}
      {sources.map(([source, report]) => (
        <section key={source} data-testid="scaffold-source" data-source={source}>
          <MeansTable
            title={source === 'human' ? 'People' : `Judge ${source}`}
            testId={`scaffold-means-${source}`}
            rows={[
              ...Object.entries(report.by_system).sort(([a], [b]) => a.localeCompare(b)),
              ['all systems', report.means] as [string, ScaffoldMeans],
            ]}
          />
          {report.vs_people && (
            <VsPeople judge={source} vs={report.vs_people} testId={`scaffold-vs-people-${source}`} />
          )}
        </section>
      ))}
      <SystemComparisonTable
        title="Model comparison"
        comparison={scaffold.comparison}
        candidates={scaffold.comparison_sources}
        note={scaffold.comparison_note}
        label={(m) => COMPARED_LABELS[m as ComparedMetric] ?? m}
        testId="scaffold-comparison"
      />
      {scaffold.comparison && (
        <ChartFrame
          fileName={safeFileName('loupe', dataset, 'scaffold-spread')}
          testId="scaffold-spread-chart"
          caption={`Each system's mean with its 95% CI per metric, on one 0–1 axis; a saturated metric's points collapse (${sourceName(scaffold.comparison.source)}).`}
        >
          <ScaffoldSpreadChart comparison={scaffold.comparison} source={sourceName(scaffold.comparison.source)} />
        </ChartFrame>
      )}
    </div>
  );
}
