/**
 * The averaging-bias diagnostic (§3.2, Cor. 3) per judge, as its conditions in words with a mark
 * each: mean ≥ min on hard Pearson; ε̂ below ε₀ (½ when unconditional); and the same at the upper
 * end of ε̂'s interval. Then what they add up to, in a sentence.
 */
import type { ReactNode } from 'react';
import type { DatasetAnalysis, JudgeAnalysis } from '../../../shared/analysis/types';
import { verdictWords } from '../../../shared/analysis/verdict';
import { fixed, intervalText, nEquals, num, signed } from '../../format';
import { EstimateCell } from './EstimateCell';
import { epsilon0Words } from './format';

type Mark = 'yes' | 'no' | 'undefined';

const markOf = (value: boolean | null): Mark => (value === null ? 'undefined' : value ? 'yes' : 'no');

function Condition({ value, testId, children }: { value: boolean | null; testId: string; children: ReactNode }) {
  const mark = markOf(value);
  return (
    <td className={`verdict-cell verdict-${mark}`} data-testid={testId} data-state={mark}>
      <span className="verdict-mark" aria-hidden="true">
        {mark === 'yes' ? '✓' : mark === 'no' ? '✗' : '?'}
      </span>{' '}
      <span className="verdict-word">{mark === 'yes' ? 'holds' : mark === 'no' ? 'fails' : 'undefined'}</span>
      <span className="verdict-detail">{children}</span>
    </td>
  );
}

function thresholdName(dataset: DatasetAnalysis): string {
  return dataset.epsilon0_status === 'unconditional' ? '½ (ε₀ unconditional)' : `ε₀ = ${num(dataset.epsilon0)}`;
}

function meanMinDetail(judge: JudgeAnalysis): string {
  const hard = judge.correlations.hard;
  const min = hard.min.pearson.value;
  const mean = hard.mean.pearson.value;
  if (min === null || mean === null) {
    return `hard Pearson ${min === null ? 'of min' : 'of mean'} is undefined (${nEquals(hard.min.n, 'summary')})`;
  }
  const diff = hard.mean_minus_min.pearson;
  return `mean ${fixed(mean, 3)} ${judge.averaging_bias.mean_ge_min ? '≥' : '<'} min ${fixed(min, 3)}; mean − min ${signed(diff.value)}${
    diff.ci ? ` ${intervalText(diff.ci, 3, (v) => signed(v))}` : ''
  } (${nEquals(hard.min.n, 'summary')})`;
}

function belowDetail(dataset: DatasetAnalysis, judge: JudgeAnalysis): string {
  const eps = judge.epsilon_hat.value;
  if (dataset.epsilon0_status === 'undefined') return epsilon0Words(dataset);
  if (eps === null) return 'ε̂ undefined: no sentence with a usable human label and a hard judge label';
  return `ε̂ ${fixed(eps, 3)} ${judge.averaging_bias.below_threshold ? '<' : '≥'} ${thresholdName(dataset)}`;
}

function upperDetail(dataset: DatasetAnalysis, judge: JudgeAnalysis): string {
  const ci = judge.epsilon_hat.ci;
  if (dataset.epsilon0_status === 'undefined') return 'ε₀ undefined';
  if (ci === null)
    return judge.epsilon_hat.value === null ? 'ε̂ undefined' : 'no interval (0 bootstrap replicates, or none defined)';
  return `upper end ${fixed(ci[1], 3)} ${judge.averaging_bias.below_threshold_at_upper_ci ? '<' : '≥'} ${thresholdName(dataset)}`;
}

export function VerdictTable({ dataset }: { dataset: DatasetAnalysis }) {
  return (
    <div className="analysis-scroll">
      <table className="data-table verdict-table" data-testid="verdict-table">
        <caption>
          Averaging-bias diagnostic (§3.2): the global labels show averaging bias by a judge when <em>both</em> mean ≥
          min (hard Pearson, not strict) and ε̂ &lt; ε₀ (strict; ε̂ &lt; ½ when ε₀ is unconditional). The last condition
          is checked again at the upper end of ε̂’s 95% interval.
        </caption>
        <thead>
          <tr>
            <th scope="col">Judge</th>
            <th scope="col">ε̂ [95% CI]</th>
            <th scope="col">1. mean ≥ min</th>
            <th scope="col">2. ε̂ below the threshold</th>
            <th scope="col">2′. at the upper end of ε̂’s CI</th>
            <th scope="col">Verdict</th>
          </tr>
        </thead>
        <tbody>
          {dataset.judge_names.map((name) => {
            const judge = dataset.judges[name]!;
            return (
              <tr key={name} data-testid="verdict-row" data-judge={name}>
                <th scope="row" className="judge-name-cell">
                  {name}
                </th>
                <EstimateCell
                  estimate={judge.epsilon_hat}
                  unit="sentence"
                  units={judge.epsilon_hat.n_summaries}
                  testId="verdict-epsilon"
                  className="verdict-epsilon"
                />
                <Condition value={judge.averaging_bias.mean_ge_min} testId="verdict-mean-ge-min">
                  {meanMinDetail(judge)}
                </Condition>
                <Condition value={judge.averaging_bias.below_threshold} testId="verdict-below">
                  {belowDetail(dataset, judge)}
                </Condition>
                <Condition value={judge.averaging_bias.below_threshold_at_upper_ci} testId="verdict-upper">
                  {upperDetail(dataset, judge)}
                </Condition>
                <td
                  className="verdict-words"
                  data-testid="verdict-words"
                  data-holds={markOf(judge.averaging_bias.holds)}
                >
                  {verdictWords(judge)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
