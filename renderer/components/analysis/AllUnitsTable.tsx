/**
 * The judge-error table over every annotated sentence, whatever its summary's length (issue 10
 * item 2, `all_units`): p̂, then per judge ε̂ with its interval, the confusion (unfaithful is the
 * positive class), recall and specificity with theirs, each with its n. One-sentence (XSum-style)
 * summaries count here; the averaging-bias diagnostic below takes only summaries with ≥ 2.
 */
import type { AllUnitsReport, Estimate } from '../../../shared/analysis/types';
import { count, plural, withInterval } from './format';
import { PredictionPoweredTable } from './PredictionPoweredTable';

function EstimateCell({ estimate, unit, testId }: { estimate: Estimate; unit: string; testId?: string }) {
  return (
    <td className="num" data-testid={testId}>
      {withInterval(estimate)}
      <div className="muted small">n = {plural(estimate.n, unit)}</div>
    </td>
  );
}

export function AllUnitsTable({ allUnits, judges }: { allUnits: AllUnitsReport; judges: readonly string[] }) {
  const human = allUnits.human;
  return (
    <div className="analysis-scroll">
      <p data-testid="all-units-facts">
        Every annotated sentence: {plural(allUnits.n_summaries, 'annotated summary', 'annotated summaries')}
        {allUnits.n_single_sentence > 0 && <> ({count(allUnits.n_single_sentence)} with one sentence)</>}, {plural(allUnits.n_units, 'sentence')}:{' '}
        {count(human.n_usable)} usable ({count(human.n_faithful)} faithful, {count(human.n_unfaithful)} unfaithful), {count(human.n_unclear)} unclear
        {human.n_unresolved > 0 && <>, {count(human.n_unresolved)} unresolved (left out)</>}. p̂ ={' '}
        <span data-testid="all-units-p-hat">{withInterval(allUnits.p_hat)}</span>{' '}
        <span className="muted">(n = {plural(allUnits.p_hat.n, 'sentence')})</span>
      </p>
      <PredictionPoweredTable allUnits={allUnits} judges={judges} />
      {judges.length > 0 && (
        <table className="data-table all-units-table" data-testid="all-units-table">
          <caption>
            Judge error on every annotated sentence, any summary length: ε̂ = share of usable human-labelled sentences where the judge’s hard label differs. Unfaithful
            is the positive class (TP = both say unfaithful). 95% bootstrap intervals resampling the annotated summaries.
          </caption>
          <thead>
            <tr>
              <th scope="col">Judge</th>
              <th scope="col">ε̂ [95% CI]</th>
              <th scope="col">TP</th>
              <th scope="col">FP</th>
              <th scope="col">TN</th>
              <th scope="col">FN</th>
              <th scope="col">Recall on unfaithful [95% CI]</th>
              <th scope="col">Specificity [95% CI]</th>
            </tr>
          </thead>
          <tbody>
            {judges.map((name) => {
              const judge = allUnits.judges[name]!;
              const c = judge.confusion;
              return (
                <tr key={name} data-testid="all-units-row" data-judge={name}>
                  <th scope="row" className="judge-name-cell">
                    {name}
                  </th>
                  <EstimateCell estimate={judge.epsilon_hat} unit="sentence" testId="all-units-epsilon" />
                  <td className="num">{count(c.tp)}</td>
                  <td className="num">{count(c.fp)}</td>
                  <td className="num">{count(c.tn)}</td>
                  <td className="num">{count(c.fn)}</td>
                  <EstimateCell estimate={judge.recall} unit="unfaithful sentence" />
                  <EstimateCell estimate={judge.specificity} unit="faithful sentence" />
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </div>
  );
}
