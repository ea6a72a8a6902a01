/**
 * How far each judge can be trusted as a stand-in for the human labels: recall and specificity
 * on unfaithful sentences, the share it calls unfaithful over the whole dataset and that share
 * corrected for its errors (Rogan–Gladen), and the calibration of its soft labels.
 */
import type { DatasetAnalysis } from '../../../shared/analysis/types';
import { formatCount, formatEstimate, nEquals, plural } from '../../format';
import { rateText } from './format';

export function ReliabilityTable({ dataset }: { dataset: DatasetAnalysis }) {
  return (
    <div className="analysis-scroll">
      <table className="data-table reliability-table" data-testid="reliability-table">
        <caption>
          Unfaithful is the positive class. The corrected rate (Rogan–Gladen) = (observed + specificity − 1) / (recall +
          specificity − 1), clipped to [0, 1], undefined when recall + specificity ≤ 1; its interval resamples the
          annotated summaries and, independently, all analysed summaries. Brier and ECE compare soft labels with the
          human labels (1 = faithful).
        </caption>
        <thead>
          <tr>
            <th scope="col">Judge</th>
            <th scope="col">Recall on unfaithful</th>
            <th scope="col">Specificity</th>
            <th scope="col">Judged unfaithful</th>
            <th scope="col">Corrected unfaithful rate [95% CI]</th>
            <th scope="col">Brier [95% CI]</th>
            <th scope="col">ECE (10 bins)</th>
          </tr>
        </thead>
        <tbody>
          {dataset.judge_names.map((name) => {
            const judge = dataset.judges[name]!;
            const corrected = judge.corrected_unfaithful_rate;
            const calibration = judge.calibration;
            return (
              <tr key={name} data-testid="reliability-row" data-judge={name}>
                <th scope="row" className="judge-name-cell">
                  {name}
                </th>
                <td className="num">{rateText(judge.recall)}</td>
                <td className="num">{rateText(judge.specificity)}</td>
                <td className="num">{rateText(corrected.observed, true)}</td>
                <td className="num" data-testid="corrected-rate">
                  {formatEstimate(corrected, { style: 'percent', n: 'never' })}
                  <div className="muted small">
                    {nEquals(corrected.n, 'judged sentence')}; {formatCount(corrected.n_human_summaries)} annotated +{' '}
                    {plural(corrected.n_pool_summaries, 'analysed summary')}
                  </div>
                </td>
                <td className="num">
                  {calibration ? (
                    <>
                      {formatEstimate(calibration.brier, { n: 'never' })}{' '}
                      <span className="muted">({nEquals(calibration.brier.n)})</span>
                    </>
                  ) : (
                    <span className="muted" title="This judge has no soft labels on human-labelled sentences.">
                      no soft labels
                    </span>
                  )}
                </td>
                <td className="num">
                  {calibration ? rateText(calibration.ece) : <span className="muted">no soft labels</span>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
