/**
 * The comparison of systems by one source (shared/stats/system-comparison.ts), as the accuracy and
 * the scaffold blocks both report it: per metric each system's mean with its interval, the ranking
 * (systems whose difference interval covers 0 share a rank; none with fewer than 5 paired
 * documents), every paired difference with its interval, and the saturation flag. The source
 * picker runs the analysis again compared by another source (analysis.start compareSource, as
 * `loupe analyze --compare-source`).
 */
import type { Estimate } from '../../../shared/analysis/types';
import {
  pairedDocumentsText,
  type ComparisonCandidate,
  type MetricComparison,
  type SystemComparison as Comparison,
} from '../../../shared/stats/system-comparison';
import { comparedMetrics } from '../../../shared/comparison-markdown';
import { compareBy, isRunning, useAnalysis } from '../../state/analysis';
import { TitledTable } from './TitledTable';
import { fixed, formatEstimate, intervalText, plural, signed, tooFewNote, UNDEFINED_TEXT } from '../../format';

/** The picker's value of a source: "people" for the people (the blocks' "human"), else the judge's name. */
const pickerValue = (source: string) => (source === 'human' ? 'people' : source);
export const sourceName = (source: string) => (source === 'human' ? 'people' : `judge ${source}`);

function mean(estimate: Estimate | null): string {
  if (!estimate) return UNDEFINED_TEXT;
  return formatEstimate(estimate, { style: 'plus-minus', n: 'always' });
}

/** "1. a · 1. b (shared) · 3. c", or why there is no ranking. */
export function rankingText(c: MetricComparison): string {
  if (c.ranks === null) return `no ranking: ${c.ranking_note ?? UNDEFINED_TEXT}`;
  const ranks = c.ranks;
  const order = Object.keys(ranks).sort((a, b) => ranks[a]! - ranks[b]! || a.localeCompare(b));
  const shared = (r: number) => order.filter((s) => ranks[s] === r).length > 1;
  return order.map((s) => `${ranks[s]}. ${s}${shared(ranks[s]!) ? ' (shared)' : ''}`).join(' · ');
}

function SourcePicker({
  comparison,
  candidates,
  testId,
}: {
  comparison: Comparison | null;
  candidates: readonly ComparisonCandidate[];
  testId: string;
}) {
  const pending = useAnalysis((state) => state.pending);
  const running = useAnalysis((state) => state.job?.state === 'running');
  if (candidates.length === 0) return null;
  return (
    <label
      className="form-field comparison-source"
      title="Whose figures the systems are compared on: the people's, or one judge's (the analysis runs again)"
    >
      <span>Compare by</span>
      <select
        value={comparison ? pickerValue(comparison.source) : ''}
        disabled={running || pending !== null}
        onChange={(event) => {
          if (event.target.value !== '' && !isRunning()) void compareBy(event.target.value);
        }}
        data-testid={`${testId}-source`}
      >
        {comparison === null && <option value="">choose a source</option>}
        {candidates.map((c) => (
          <option key={c.source} value={pickerValue(c.source)}>
            {sourceName(c.source)} ({pairedDocumentsText(c.n_documents)})
          </option>
        ))}
      </select>
    </label>
  );
}

export function SystemComparisonTable({
  title,
  comparison,
  candidates,
  note,
  label,
  testId,
}: {
  /** The heading above the table ("Comparison of systems"); the source is added to it. */
  title: string;
  comparison: Comparison | null;
  candidates: readonly ComparisonCandidate[];
  note: string | null;
  label: (metric: string) => string;
  testId: string;
}) {
  return (
    <div className="system-comparison" data-testid={testId} data-source={comparison?.source ?? ''}>
      <div className="form-row">
        <SourcePicker comparison={comparison} candidates={candidates} testId={testId} />
      </div>
      {note && (
        <p className="muted" data-testid={`${testId}-note`}>
          {note}
        </p>
      )}
      {comparison && (
        <TitledTable
          title={`${title} (${sourceName(comparison.source)})`}
          about={
            <>
              Systems compared by {sourceName(comparison.source)} on {pairedDocumentsText(comparison.n_documents)}: each
              system’s mean ± 95% CI half-width; paired-bootstrap differences a − b over the documents both have;
              systems whose difference interval covers 0 share a rank; no ranking with fewer than 5 paired documents.
            </>
          }
          tableTestId={`${testId}-table`}
        >
          <thead>
            <tr>
              <th scope="col">Metric</th>
              {comparison.systems.map((s) => (
                <th key={s} scope="col">
                  {s}
                </th>
              ))}
              <th scope="col">Ranking</th>
              <th scope="col">Spread / noise</th>
              <th scope="col">Paired differences (a − b, 95% CI, documents)</th>
            </tr>
          </thead>
          <tbody>
            {comparedMetrics(comparison).map(([metric, c]) => (
              <tr
                key={metric}
                data-metric={metric}
                data-saturated={c.saturated === true ? 'true' : 'false'}
                data-ranked={c.ranks === null ? 'false' : 'true'}
              >
                <th scope="row">
                  {label(metric)}{' '}
                  {c.saturated === true && (
                    <span
                      className="tag tag-saturated"
                      data-testid={`saturated-${metric}`}
                      title="The systems' spread is within the metric's own noise (median CI half-width)"
                    >
                      saturated
                    </span>
                  )}
                </th>
                {comparison.systems.map((s) => (
                  <td key={s} data-system={s}>
                    {mean(c.by_system[s] ?? null)}
                  </td>
                ))}
                <td data-role="ranking">{rankingText(c)}</td>
                <td>
                  {c.spread === null ? UNDEFINED_TEXT : fixed(c.spread, 3)} /{' '}
                  {c.noise === null ? UNDEFINED_TEXT : fixed(c.noise, 3)}
                </td>
                <td>
                  {c.differences.length === 0 ? (
                    <span className="muted">fewer than two systems</span>
                  ) : (
                    <ul className="plain-list">
                      {c.differences.map((d) => (
                        <li key={`${d.a}\u0000${d.b}`} data-role="pair" data-too-few={String(d.too_few)}>
                          {d.a} − {d.b}: {signed(d.value, 3)}
                          {d.value === null || d.ci === null
                            ? tooFewNote(d) || ` (${plural(d.n, 'document')})`
                            : ` ${intervalText(d.ci, 3)} (${plural(d.n, 'document')})`}
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </TitledTable>
      )}
    </div>
  );
}
