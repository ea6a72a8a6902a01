/**
 * The Analysis view's plan of the annotation (planning.plan on the report's own settings): per
 * dataset, for p̂, each judge's p̂_PP and ε̂, the summaries to annotate so that the 95% interval's
 * half-width reaches the target (the 1/√n rule from the current sample, ≥ 10 annotated summaries)
 * and the annotator time at the median time per summary recorded so far.
 */
import { useState, type FormEvent } from 'react';
import type { AnalysisStatus } from '../../../shared/api';
import { DEFAULT_TARGET_HALF_WIDTH, durationText, type DatasetPlan } from '../../../shared/analysis/planning';
import { planLineText } from './planText';
import { usePlan } from './usePlan';

function DatasetPlanTable({ plan }: { plan: DatasetPlan }) {
  const time =
    plan.median_ms_per_summary === null
      ? 'no time recorded yet'
      : `median ${durationText(plan.median_ms_per_summary)} per summary (n = ${plan.n_timed_summaries})`;
  return (
    <div data-testid="plan-dataset" data-dataset={plan.dataset}>
      <h3>
        <span className="muted">Dataset</span> {plan.dataset}
      </h3>
      <p data-testid="plan-facts">
        {plan.n_annotated} annotated of {plan.n_summaries} summaries ({plan.n_drawn} drawn, {plan.n_undrawn} not drawn
        yet); {time}.
      </p>
      {plan.reason && (
        <p className="analysis-empty" data-testid="plan-reason">
          {plan.reason}
        </p>
      )}
      <table className="data-table" data-testid="plan-table">
        <thead>
          <tr>
            <th scope="col">Figure</th>
            <th scope="col">Half-width now</th>
            <th scope="col">Rests on</th>
            <th scope="col">To annotate</th>
            <th scope="col">Annotator time</th>
          </tr>
        </thead>
        <tbody>
          {plan.lines.map((line) => {
            const text = planLineText(line);
            return (
              <tr
                key={`${line.figure}:${line.judge ?? ''}`}
                data-testid="plan-row"
                data-figure={line.figure}
                data-judge={line.judge ?? ''}
              >
                <th scope="row">{text.figure}</th>
                <td className="num">{text.now}</td>
                <td className="num">{text.nNow}</td>
                <td data-testid="plan-more">{text.more}</td>
                <td className="num" data-testid="plan-time">
                  {text.time}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export function PlanCard({ result }: { result: AnalysisStatus }) {
  const settings = result.report!.settings;
  const [targetText, setTargetText] = useState(String(DEFAULT_TARGET_HALF_WIDTH));
  const [target, setTarget] = useState(DEFAULT_TARGET_HALF_WIDTH);
  const { plan, error, busy } = usePlan({
    ...(result.settings.dataset !== null ? { dataset: result.settings.dataset } : {}),
    // The contract refuses what is not a number above 0 and below 0.5, with its message.
    target,
    bootstrap: settings.bootstrap,
    seed: settings.seed,
    reference: settings.reference,
    humanLabel: settings.human_label,
    includeRevealed: settings.include_revealed,
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setTarget(targetText.trim() === '' ? Number.NaN : Number(targetText));
  }

  return (
    <section className="panel" aria-labelledby="plan-title" data-testid="plan-card">
      <h2 id="plan-title">How many more to annotate</h2>
      <p className="muted">
        Summaries to annotate so that each figure’s 95% interval has the target half-width: n_now × (half-width now /
        target)², from the current sample (at least 10 annotated summaries), with the report’s settings. p̂_PP needs
        fewer than p̂ when the judge is good.
      </p>
      <form className="form-row" onSubmit={submit}>
        <label>
          Target half-width
          <input
            type="text"
            inputMode="decimal"
            className="narrow"
            value={targetText}
            onChange={(event) => setTargetText(event.target.value)}
            data-testid="plan-target"
          />
        </label>
        <button type="submit" disabled={busy} data-testid="plan-run">
          Plan
        </button>
        {busy && (
          <span className="muted" role="status">
            Planning…
          </span>
        )}
      </form>
      {error && (
        <p className="error-banner" role="alert" data-testid="plan-error">
          {error}
        </p>
      )}
      {plan && !error && plan.datasets.map((d) => <DatasetPlanTable key={d.dataset} plan={d} />)}
    </section>
  );
}
