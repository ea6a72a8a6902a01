/**
 * The sampling panel's "draw N more": the plan of the chosen dataset on the people's labels
 * (planning.plan, reference people: the draw is for people to label) gives how many more summaries
 * bring a figure's 95% interval to the target half-width, and the button draws that many with the
 * seed the dataset's sample started with, so the batches stay one ranking (no repeats; p̂_PP stays
 * valid). Only counts and times are shown here: no figure, so nothing is revealed to a lead who
 * also annotates.
 */
import { useState, type FormEvent } from 'react';
import {
  DEFAULT_TARGET_HALF_WIDTH,
  durationText,
  planFigureName,
  type DatasetPlan,
} from '../../../shared/analysis/planning';
import { usePlan } from './usePlan';

interface DrawMoreProps {
  dataset: string;
  /** Changes after every draw (the batches), so the plan is fetched again. */
  version: number;
  drawing: boolean;
  onDraw: (n: number, seed: number) => void;
}

const EVERY = 'every';

/** How many to draw for the chosen figure (or for every figure), at most what is left to draw. */
function chosenCount(plan: DatasetPlan, choice: string): number | null {
  if (choice === EVERY) return plan.draw_more;
  const line = plan.lines[Number(choice)];
  return line?.n_more === null || line === undefined ? null : Math.min(line.n_more, plan.n_undrawn);
}

export function DrawMore({ dataset, version, drawing, onDraw }: DrawMoreProps) {
  const [targetText, setTargetText] = useState(String(DEFAULT_TARGET_HALF_WIDTH));
  const [target, setTarget] = useState(DEFAULT_TARGET_HALF_WIDTH);
  const [choice, setChoice] = useState(EVERY);
  const { plan, error, busy } = usePlan({ dataset, target, reference: 'people' }, version);
  const d = plan?.datasets[0] ?? null;
  const n = d ? chosenCount(d, choice) : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    setTarget(targetText.trim() === '' ? Number.NaN : Number(targetText));
  }

  return (
    <div className="draw-more" data-testid="draw-more">
      <form className="form-row" onSubmit={submit}>
        <label>
          Target half-width
          <input
            type="text"
            inputMode="decimal"
            className="narrow"
            value={targetText}
            onChange={(event) => setTargetText(event.target.value)}
            data-testid="draw-more-target"
          />
        </label>
        <label>
          For
          <select value={choice} onChange={(event) => setChoice(event.target.value)} data-testid="draw-more-for">
            <option value={EVERY}>every figure</option>
            {d?.lines.map((line, i) => (
              <option key={`${line.figure}:${line.judge ?? ''}`} value={String(i)} disabled={line.n_more === null}>
                {planFigureName(line)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={busy} data-testid="draw-more-plan">
          Plan
        </button>
        <button
          type="button"
          className="primary"
          disabled={drawing || busy || d === null || n === null || n === 0}
          onClick={() => d && n !== null && onDraw(n, d.seed)}
          data-testid="draw-more-draw"
        >
          {n === null || n === 0 ? 'Draw more' : `Draw ${n} more`}
        </button>
      </form>
      <p className="muted" role="status" data-testid="draw-more-status">
        {busy ? 'Planning…' : error ? '' : d ? drawMoreWords(d, n) : ''}
      </p>
      {error && (
        <p className="error-banner" role="alert" data-testid="draw-more-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** What the button will do, in words: the count, the seed, the time; or why there is nothing to draw. */
function drawMoreWords(plan: DatasetPlan, n: number | null): string {
  if (!plan.enough) return `${plan.reason} Then the plan says how many more to draw.`;
  if (n === null) return 'No figure of this dataset can be planned (see the Analysis view for why).';
  if (n === 0)
    return plan.n_undrawn === 0 ? 'Every summary is drawn already.' : 'The target is met: nothing more to draw.';
  const time =
    plan.median_ms_per_summary === null
      ? 'no annotator time recorded yet'
      : `≈ ${durationText(n * plan.median_ms_per_summary)} of annotator time at the median so far`;
  const seed =
    plan.lineage === 'mixed'
      ? `seed ${plan.seed} (the first draw's; the draws used several seeds)`
      : `seed ${plan.seed}, continuing the sample`;
  return `${n} more summaries with ${seed}; ${time}.`;
}
