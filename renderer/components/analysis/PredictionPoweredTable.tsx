/**
 * p̂_PP per judge beside p̂ (all_units.judges.*.p_pp, shared/analysis/prediction-powered.ts): the
 * judge's share of faithful sentences over the whole dataset corrected by people − judge on the
 * sample, its interval, the sentences it rests on and its width against p̂'s; or why it is refused.
 */
import type { AllUnitsReport, PredictionPowered } from '../../../shared/analysis/types';
import { fixed, formatCount as count, formatEstimate, plural } from '../../format';

/** The estimate's cell and its notes, in words. */
export function predictionPoweredText(pp: PredictionPowered): {
  estimate: string;
  rests: string;
  width: string;
  notes: string[];
} {
  const estimate = formatEstimate(
    {
      value: pp.value,
      ci: pp.ci,
      n: pp.n_sampled_summaries,
      replicates_dropped: pp.replicates_dropped,
      too_few: false,
    },
    { n: 'never' },
  );
  return {
    estimate,
    rests: `${count(pp.n_sampled_units)} sampled of ${count(pp.n_all_units)} judged sentences`,
    width: pp.width_ratio === null ? '—' : `${fixed(pp.width_ratio, 2)} × p̂’s`,
    notes: [
      pp.same_as_p_hat ? 'The judge labeled no sentence outside the sample: p̂_PP is p̂ on the same sentences.' : null,
      pp.too_few ? `n = ${plural(pp.n_sampled_summaries, 'summary')}, too few for an interval.` : null,
      pp.n_drawn_summaries > pp.n_sampled_summaries
        ? `${plural(pp.n_drawn_summaries - pp.n_sampled_summaries, 'drawn summary', 'drawn summaries')} not annotated yet.`
        : null,
    ].filter((note) => note !== null),
  };
}

export function PredictionPoweredTable({ allUnits, judges }: { allUnits: AllUnitsReport; judges: readonly string[] }) {
  if (judges.length === 0) return null;
  return (
    <table className="data-table" data-testid="p-pp-table">
      <caption>
        p̂_PP (prediction-powered): each judge’s share of faithful sentences over every sentence it labeled, corrected by
        people − judge on the sampled sentences. The same p as p̂; 95% interval from a two-sample bootstrap (the sample
        and every summary). Valid only when the people labeled a seeded uniform draw.
      </caption>
      <thead>
        <tr>
          <th scope="col">Judge</th>
          <th scope="col">p̂_PP [95% CI]</th>
          <th scope="col">Rests on</th>
          <th scope="col">Interval width</th>
        </tr>
      </thead>
      <tbody>
        {judges.map((name) => {
          const judge = allUnits.judges[name]!;
          const text = judge.p_pp === null ? null : predictionPoweredText(judge.p_pp);
          return (
            <tr key={name} data-testid="p-pp-row" data-judge={name} data-refused={text === null ? 'true' : undefined}>
              <th scope="row" className="judge-name-cell">
                {name}
              </th>
              {text === null ? (
                <td colSpan={3} className="muted">
                  Refused: {judge.p_pp_reason}
                </td>
              ) : (
                <>
                  <td className="num" data-testid="p-pp-estimate">
                    {text.estimate}
                    {text.notes.map((note) => (
                      <div key={note} className="muted small">
                        {note}
                      </div>
                    ))}
                  </td>
                  <td>{text.rests}</td>
                  <td className="num" data-testid="p-pp-width">
                    {text.width}
                  </td>
                </>
              )}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
