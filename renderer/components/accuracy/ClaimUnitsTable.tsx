/**
 * App. D of seed 003 one level down (the accuracy block's `claim_units`): a sentence's claim
 * verdicts from each judge aggregated by min (any unsupported claim makes the sentence
 * unfaithful) and by mean, against the sentence's human label, with the correlations the sentence
 * audit uses (Pearson, Spearman, Kendall, ROC-AUC; 95% bootstrap intervals), and the review queue:
 * human-faithful sentences where every judge flags a claim.
 */
import type { Estimate } from '../../../shared/analysis/types';
import type { ClaimUnitsReport } from '../../../shared/accuracy/report';
import { formatCount, formatEstimate, plural } from '../../format';
import { TitledTable } from '../analysis/TitledTable';

const STATS = [
  ['pearson', 'Pearson'],
  ['spearman', 'Spearman'],
  ['kendall', 'Kendall τ'],
  ['roc_auc', 'ROC-AUC'],
] as const;

const AGGREGATIONS = [
  ['min', 'min (any claim unsupported)'],
  ['mean', 'mean (share supported)'],
] as const;

function Cell({ estimate, testId }: { estimate: Estimate; testId: string }) {
  return (
    <td className="num" data-testid={testId}>
      {formatEstimate(estimate)}
    </td>
  );
}

export function ClaimUnitsTable({ units }: { units: ClaimUnitsReport }) {
  const judges = Object.keys(units.judges).sort();
  return (
    <div className="claim-units" data-testid="accuracy-claim-units">
      {judges.length > 0 && (
        <TitledTable
          title="Claims as units (App. D)"
          about={
            <>
              Each sentence’s claim verdicts aggregated by min or mean, against the sentence’s human label (sentences
              with a resolved label, ≥ 2 claims and a verdict on each). 95% bootstrap intervals.
            </>
          }
          tableClassName="accuracy-claim-units"
        >
          <thead>
            <tr>
              <th scope="col">Judge</th>
              <th scope="col">Aggregation</th>
              <th scope="col" className="num">
                Sentences
              </th>
              {STATS.map(([key, name]) => (
                <th key={key} scope="col" className="num">
                  {name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {judges.flatMap((judge) =>
              AGGREGATIONS.map(([aggregation, name]) => {
                const unit = units.judges[judge]!;
                const cell = unit[aggregation];
                return (
                  <tr
                    key={`${judge}:${aggregation}`}
                    data-testid="claim-units-row"
                    data-judge={judge}
                    data-aggregation={aggregation}
                  >
                    <th scope="row" className="judge-name-cell">
                      {judge}
                    </th>
                    <td>{name}</td>
                    <td className="num">{formatCount(unit.n_sentences)}</td>
                    {STATS.map(([key]) => (
                      <Cell key={key} estimate={cell[key]} testId={`claim-units-${key}`} />
                    ))}
                  </tr>
                );
              }),
            )}
          </tbody>
        </TitledTable>
      )}
      <p className="muted" data-testid="claim-units-queue">
        Review queue: {plural(units.review_queue.length, 'human-faithful sentence')} where every judge flags a claim, of{' '}
        {formatCount(units.human_faithful_sentences)} with every verdict.
      </p>
    </div>
  );
}
