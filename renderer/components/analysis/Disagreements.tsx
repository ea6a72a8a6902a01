/**
 * Where humans and judges part (annotated summaries): per judge, the sentences whose hard label
 * differs from the human one; and the sentences on which the judges themselves split.
 */
import { useState } from 'react';
import type { DatasetAnalysis, HumanJudgeDisagreement, JudgeSplit } from '../../../shared/analysis/types';
import { agree, formatCount, plural } from '../../format';

const ROWS_SHOWN = 100;
const judgeWord = (value: 0 | 1) => (value === 1 ? 'faithful' : 'unfaithful');

function useLimit<T>(rows: readonly T[]) {
  const [all, setAll] = useState(false);
  const shown = all ? rows : rows.slice(0, ROWS_SHOWN);
  const more =
    rows.length > ROWS_SHOWN && !all ? (
      <button type="button" className="link-button" onClick={() => setAll(true)} data-testid="disagreements-show-all">
        show all {formatCount(rows.length)}
      </button>
    ) : null;
  return { shown, more };
}

export function Disagreements({ dataset }: { dataset: DatasetAnalysis }) {
  const d = dataset.disagreements;
  return (
    <div className="disagreements" data-testid="disagreements">
      {dataset.judge_names.map((judge) => (
        <HumanVsJudge key={judge} judge={judge} rows={d.human_vs_judge[judge] ?? []} />
      ))}
      {dataset.judge_names.length > 1 && (
        <details data-testid="judges-split">
          <summary>
            Judges split on {plural(d.judges_split.length, 'sentence')} of annotated summaries (
            {formatCount(d.n_judges_split_all)} over all analysed summaries)
          </summary>
          <SplitTable rows={d.judges_split} />
        </details>
      )}
    </div>
  );
}

function HumanVsJudge({ judge, rows }: { judge: string; rows: HumanJudgeDisagreement[] }) {
  const { shown, more } = useLimit(rows);
  return (
    <details data-testid="human-vs-judge" data-judge={judge}>
      <summary>
        Human vs <span className="judge-name-inline">{judge}</span>: {plural(rows.length, 'sentence')}{' '}
        {agree(rows.length, 'differs', 'differ')}
      </summary>
      {rows.length > 0 && (
        <table className="data-table compact">
          <thead>
            <tr>
              <th scope="col">summary_id</th>
              <th scope="col">doc_id</th>
              <th scope="col">sentence</th>
              <th scope="col">human</th>
              <th scope="col">judge</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((row) => (
              <tr key={`${row.summary_id}\u0000${row.sentence}`}>
                <td className="mono">{row.summary_id}</td>
                <td className="mono">{row.doc_id}</td>
                <td className="num">{row.sentence}</td>
                <td>{row.human}</td>
                <td>{judgeWord(row.judge)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {more}
    </details>
  );
}

function SplitTable({ rows }: { rows: JudgeSplit[] }) {
  const { shown, more } = useLimit(rows);
  if (rows.length === 0) return null;
  return (
    <>
      <table className="data-table compact">
        <thead>
          <tr>
            <th scope="col">summary_id</th>
            <th scope="col">doc_id</th>
            <th scope="col">sentence</th>
            <th scope="col">human</th>
            <th scope="col">say faithful</th>
            <th scope="col">say unfaithful</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((row) => (
            <tr key={`${row.summary_id}\u0000${row.sentence}`}>
              <td className="mono">{row.summary_id}</td>
              <td className="mono">{row.doc_id}</td>
              <td className="num">{row.sentence}</td>
              <td>{row.human ?? 'no usable label'}</td>
              <td>{row.faithful_judges.join(', ')}</td>
              <td>{row.unfaithful_judges.join(', ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {more}
    </>
  );
}
