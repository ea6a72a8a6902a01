/**
 * The judge-error table over every annotated sentence, whatever its summary's length (`all_units`): p̂, then per judge ε̂ with its interval, the confusion (unfaithful is the
 * positive class), recall and specificity with theirs, each with its n. One-sentence (XSum-style)
 * summaries count here; the averaging-bias diagnostic below takes only summaries with ≥ 2.
 */
import type { AllUnitsReport } from '../../../shared/analysis/types';
import { formatCount, formatEstimate, nEquals, plural } from '../../format';
import { EstimateCell } from './EstimateCell';
import { PredictionPoweredTable } from './PredictionPoweredTable';

export function AllUnitsTable({ allUnits, judges }: { allUnits: AllUnitsReport; judges: readonly string[] }) {
  const human = allUnits.human;
  return (
    <div className="analysis-scroll">
      <p data-testid="all-units-facts">
        Every annotated sentence: {plural(allUnits.n_summaries, 'annotated summary')}
        {allUnits.n_single_sentence > 0 && <> ({formatCount(allUnits.n_single_sentence)} with one sentence)</>},{' '}
        {plural(allUnits.n_units, 'sentence')}: {formatCount(human.n_usable)} usable ({formatCount(human.n_faithful)}{' '}
        faithful, {formatCount(human.n_unfaithful)} unfaithful), {formatCount(human.n_unclear)} unclear
        {human.n_unresolved > 0 && <>, {formatCount(human.n_unresolved)} unresolved (left out)</>}. p̂ ={' '}
        <span data-testid="all-units-p-hat">
          {formatEstimate(allUnits.p_hat, { n: 'never', units: allUnits.p_hat.n_summaries })}
        </span>{' '}
        <span className="muted">({nEquals(allUnits.p_hat.n, 'sentence')})</span>
      </p>
      <PredictionPoweredTable allUnits={allUnits} judges={judges} />
      {judges.length > 0 && (
        <table className="data-table all-units-table" data-testid="all-units-table">
          <caption>
            Judge error on every annotated sentence, any summary length: ε̂ = share of usable human-labelled sentences
            where the judge’s hard label differs. Unfaithful is the positive class (TP = both say unfaithful). 95%
            bootstrap intervals resampling the annotated summaries.
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
                  <EstimateCell
                    estimate={judge.epsilon_hat}
                    unit="sentence"
                    units={judge.epsilon_hat.n_summaries}
                    testId="all-units-epsilon"
                  />
                  <td className="num">{formatCount(c.tp)}</td>
                  <td className="num">{formatCount(c.fp)}</td>
                  <td className="num">{formatCount(c.tn)}</td>
                  <td className="num">{formatCount(c.fn)}</td>
                  <EstimateCell estimate={judge.recall} unit="unfaithful sentence" units={null} />
                  <EstimateCell estimate={judge.specificity} unit="faithful sentence" units={null} />
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </div>
  );
}
