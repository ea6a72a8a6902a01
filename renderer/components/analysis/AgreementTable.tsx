/**
 * Inter-rater agreement of one dataset: the annotators among themselves (multi-rater
 * figures, then each pair) and each judge's hard label against the resolved human label. Cells are
 * value ± half-width of the 95% bootstrap interval; n = units each row rests on.
 */
import type { DatasetAgreement, PairAgreement } from '../../../shared/agreement/types';
import type { Estimate } from '../../../shared/analysis/types';
import { agree, formatCount, formatEstimate, plural, UNDEFINED_TEXT } from '../../format';

interface Row {
  key: string;
  kind: 'humans' | 'pair' | 'judge';
  label: string;
  kappaName: string;
  percent: Estimate;
  kappa: Estimate;
  alpha: Estimate;
  ac1: Estimate;
  specific: Record<string, Estimate>;
  n: number;
  /** The summaries the row rests on (its resampling units); null: not reported (the multi-rater row). */
  summaries: number | null;
}

function pairRow(kind: 'pair' | 'judge', label: string, pair: PairAgreement): Row {
  return {
    key: `${kind}:${pair.rater_a}\u0000${pair.rater_b}`,
    kind,
    label,
    kappaName: 'Cohen',
    percent: pair.percent_agreement,
    kappa: pair.cohen_kappa,
    alpha: pair.krippendorff_alpha,
    ac1: pair.gwet_ac1,
    specific: pair.specific_agreement,
    n: pair.n_units,
    summaries: pair.n_summaries,
  };
}

export function agreementTableRows(agreement: DatasetAgreement): Row[] {
  const h = agreement.humans;
  return [
    {
      key: 'humans',
      kind: 'humans',
      label: `Humans (${h.n_raters} annotator${h.n_raters === 1 ? '' : 's'})`,
      kappaName: 'Fleiss',
      percent: h.percent_agreement,
      kappa: h.fleiss_kappa,
      alpha: h.krippendorff_alpha,
      ac1: h.gwet_ac1,
      specific: h.specific_agreement,
      n: h.n_units,
      summaries: null,
    },
    ...h.pairs.map((pair) => pairRow('pair', `${pair.rater_a} vs ${pair.rater_b}`, pair)),
    ...agreement.judge_names.map((judge) => pairRow('judge', `${judge} vs humans`, agreement.judges[judge]!)),
  ];
}

export function AgreementTable({ agreement }: { agreement: DatasetAgreement }) {
  const unclear =
    agreement.unclear === 'exclude'
      ? `Unclear is excluded: two categories; ${plural(agreement.n_units_unclear_dropped, 'unit')} an annotator rated unclear ${agree(agreement.n_units_unclear_dropped, 'leaves', 'leave')} the human figures, and units whose human label is unclear leave the judge rows.`
      : 'Unclear is a third category (judges never use it).';
  const cell = (estimate: Estimate | undefined, row: Row) =>
    estimate ? formatEstimate(estimate, { style: 'plus-minus', digits: 3, units: row.summaries }) : UNDEFINED_TEXT;
  return (
    <div className="analysis-scroll">
      <table className="data-table agreement-table" data-testid="agreement-table">
        <caption data-testid="agreement-unclear">
          Annotation-phase labels over {plural(agreement.n_summaries, 'summary')} of any length with a label. Value ±
          half-width of the 95% bootstrap interval (resampling summaries); n = units. {unclear} Judges: hard label
          against the resolved human label.
        </caption>
        <thead>
          <tr>
            <th scope="col">Raters</th>
            <th scope="col">% agreement</th>
            <th scope="col">κ</th>
            <th scope="col">Krippendorff α</th>
            <th scope="col">Gwet AC1</th>
            {agreement.categories.map((category) => (
              <th scope="col" key={category}>
                specific {category}
              </th>
            ))}
            <th scope="col">n</th>
          </tr>
        </thead>
        <tbody>
          {agreementTableRows(agreement).map((row) => (
            <tr key={row.key} data-testid="agreement-row" data-kind={row.kind}>
              <th scope="row" className="judge-name-cell">
                {row.label}
              </th>
              <td className="num">{cell(row.percent, row)}</td>
              <td className="num">
                <span className="muted">{row.kappaName}</span> {cell(row.kappa, row)}
              </td>
              <td className="num">{cell(row.alpha, row)}</td>
              <td className="num">{cell(row.ac1, row)}</td>
              {agreement.categories.map((category) => (
                <td className="num" key={category}>
                  {cell(row.specific[category], row)}
                </td>
              ))}
              <td className="num">{formatCount(row.n)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
