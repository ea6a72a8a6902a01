/**
 * Table 2 of the paper, per dataset: judges in rows; min and mean for hard and for soft labels
 * ("value ± half-width of the 95% CI", the higher of min and mean as displayed in bold, equal
 * displays in neither), max as a quieter extra column, and the n each cell rests on.
 */
import type {
  CorrelationCell,
  DatasetAnalysis,
  KindCorrelations,
  PredictionKind,
} from '../../../shared/analysis/types';
import { setStatistic, useAnalysis } from '../../state/analysis';
import { formatCount, formatEstimate, plural, UNDEFINED_TEXT } from '../../format';
import { STATISTICS, STATISTIC_LABEL, displayedHigher, intervalNote, undefinedReason, type Statistic } from './format';

const DIGITS = 2;

export function CorrelationTable({ dataset, bootstrap }: { dataset: DatasetAnalysis; bootstrap: number }) {
  const statistic = useAnalysis((state) => state.statistic);
  const label = STATISTIC_LABEL[statistic];
  return (
    <div className="analysis-table-block" data-testid="correlation-table">
      <div className="analysis-table-head">
        <h4>{label} between aggregated sentence judgments and the global label</h4>
        <label className="statistic-picker">
          Statistic{' '}
          <select
            value={statistic}
            onChange={(event) => setStatistic(event.target.value as Statistic)}
            data-testid="statistic-select"
          >
            {STATISTICS.map((s) => (
              <option key={s} value={s}>
                {STATISTIC_LABEL[s]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="analysis-scroll">
        <table className="data-table correlation-table">
          <caption>
            Cells: {label} ± half-width of its 95% bootstrap interval
            {bootstrap > 0
              ? ` (${plural(bootstrap, 'replicate')} resampling summaries)`
              : ' (no interval: 0 replicates)'}
            ; faithful = 1. The higher of min and mean as displayed is in <strong>bold</strong> (equal: neither).
            Summaries with one sentence are left out; n = summaries.
          </caption>
          <thead>
            <tr>
              <th rowSpan={2} scope="col">
                Judge
              </th>
              <th colSpan={4} scope="colgroup" className="group-start">
                Hard labels
              </th>
              <th colSpan={4} scope="colgroup" className="group-start">
                Soft labels
              </th>
            </tr>
            <tr>
              {(['hard', 'soft'] as const).map((kind) => (
                <AggregatorHeads key={kind} />
              ))}
            </tr>
          </thead>
          <tbody>
            {dataset.judge_names.map((judge) => {
              const correlations = dataset.judges[judge]!.correlations;
              return (
                <tr key={judge} data-testid="correlation-row" data-judge={judge}>
                  <th scope="row" className="judge-name-cell">
                    {judge}
                  </th>
                  <KindCells kind="hard" correlations={correlations.hard} statistic={statistic} bootstrap={bootstrap} />
                  <KindCells kind="soft" correlations={correlations.soft} statistic={statistic} bootstrap={bootstrap} />
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function AggregatorHeads() {
  return (
    <>
      <th scope="col" className="group-start num">
        min
      </th>
      <th scope="col" className="num">
        mean
      </th>
      <th scope="col" className="num extra-col" title="Not part of Table 2; shown for reference.">
        max
      </th>
      <th scope="col" className="num n-col">
        n
      </th>
    </>
  );
}

function KindCells({
  kind,
  correlations,
  statistic,
  bootstrap,
}: {
  kind: PredictionKind;
  correlations: KindCorrelations | null;
  statistic: Statistic;
  bootstrap: number;
}) {
  if (correlations === null) {
    return (
      <td colSpan={4} className="group-start muted" data-testid={`corr-${kind}-none`}>
        no soft labels from this judge
      </td>
    );
  }
  const higher = displayedHigher(correlations.min[statistic], correlations.mean[statistic], DIGITS);
  return (
    <>
      <StatCell
        kind={kind}
        aggregator="min"
        cell={correlations.min}
        statistic={statistic}
        bold={higher === 'min'}
        bootstrap={bootstrap}
        first
      />
      <StatCell
        kind={kind}
        aggregator="mean"
        cell={correlations.mean}
        statistic={statistic}
        bold={higher === 'mean'}
        bootstrap={bootstrap}
      />
      <StatCell
        kind={kind}
        aggregator="max"
        cell={correlations.max}
        statistic={statistic}
        bold={false}
        bootstrap={bootstrap}
        extra
      />
      <NCell kind={kind} cell={correlations.min} />
    </>
  );
}

function StatCell({
  kind,
  aggregator,
  cell,
  statistic,
  bold,
  bootstrap,
  first,
  extra,
}: {
  kind: PredictionKind;
  aggregator: 'min' | 'mean' | 'max';
  cell: CorrelationCell;
  statistic: Statistic;
  bold: boolean;
  bootstrap: number;
  first?: boolean;
  extra?: boolean;
}) {
  const estimate = cell[statistic];
  const classes = ['num', first ? 'group-start' : '', extra ? 'extra-col' : ''].filter(Boolean).join(' ');
  const testId = `corr-${kind}-${aggregator}`;
  if (estimate.value === null) {
    return (
      <td
        className={`${classes} undefined-value`}
        data-testid={testId}
        data-bold="false"
        title={undefinedReason(cell, statistic)}
      >
        {UNDEFINED_TEXT}
      </td>
    );
  }
  const text = formatEstimate(estimate, { style: 'plus-minus', digits: DIGITS });
  return (
    <td
      className={classes}
      data-testid={testId}
      data-bold={bold ? 'true' : 'false'}
      title={intervalNote(estimate, bootstrap, plural(cell.n, 'summary'))}
    >
      {bold ? <strong>{text}</strong> : text}
    </td>
  );
}

function NCell({ kind, cell }: { kind: PredictionKind; cell: CorrelationCell }) {
  return (
    <td
      className="num n-col"
      data-testid={`corr-${kind}-n`}
      title={`${plural(cell.n, 'summary')} (${formatCount(cell.n_faithful)} labelled faithful, ${formatCount(cell.n_unfaithful)} unfaithful)${
        cell.n_left_out > 0
          ? `; ${formatCount(cell.n_left_out)} left out because the judge lacks a prediction on one of their sentences`
          : ''
      }`}
    >
      {formatCount(cell.n)}
      {cell.n_left_out > 0 && <span className="left-out"> ({formatCount(cell.n_left_out)} left out)</span>}
    </td>
  );
}
