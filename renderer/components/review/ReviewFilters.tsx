/**
 * Which queue: kind, dataset, judge panel, error type and cap (the order comes from the backend:
 * doc id, then summary id). Also whether the reveal names the judges and annotators.
 */
import { useEffect, useState, type ChangeEvent, type KeyboardEvent } from 'react';
import { ERROR_TYPES, ERROR_TYPE_NAMES, type ErrorType } from '../../../shared/domain';
import type { ReviewQueueKind } from '../../../shared/api';
import { MAX_CAP, QUEUE_KINDS, setFilters, setShowNames, type ReviewFilters as Filters } from '../../state/review';

interface ReviewFiltersProps {
  filters: Filters;
  datasets: readonly string[];
  judges: readonly string[];
  showJudgeNames: boolean;
  showAnnotatorNames: boolean;
}

/** A select keeps focus after a change and would swallow the next F/U/C: let go of it. */
const release = (event: ChangeEvent<HTMLElement>) => event.currentTarget.blur();

export function ReviewFilters({ filters, datasets, judges, showJudgeNames, showAnnotatorNames }: ReviewFiltersProps) {
  const [cap, setCap] = useState(String(filters.cap));
  useEffect(() => setCap(String(filters.cap)), [filters.cap]);
  const capValue = Number(cap);
  const capValid = /^\d+$/.test(cap.trim()) && capValue >= 0 && capValue <= MAX_CAP;
  const applyCap = () => {
    if (capValid && capValue !== filters.cap) void setFilters({ cap: capValue });
  };
  const onCapKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      applyCap();
      event.currentTarget.blur();
    }
  };
  const panel = filters.judges ?? judges;
  const toggleJudge = (name: string, on: boolean) => {
    const next = on ? [...new Set([...panel, name])] : panel.filter((j) => j !== name);
    // Every judge ticked = the backend's default panel (every judge with a prediction in the dataset).
    void setFilters({ judges: next.length === judges.length && judges.every((j) => next.includes(j)) ? null : next });
  };
  const judgesApply = filters.queue !== 'human-human';
  const current = QUEUE_KINDS.find((q) => q.kind === filters.queue);

  return (
    <section className="review-filters" aria-label="Review queue" data-testid="review-filters">
      <label className="review-field">
        <span>Queue</span>
        <select
          value={filters.queue}
          data-testid="review-filter-queue"
          onChange={(event) => {
            release(event);
            void setFilters({ queue: event.target.value as ReviewQueueKind });
          }}
        >
          {QUEUE_KINDS.map((q) => (
            <option key={q.kind} value={q.kind}>
              {q.name}
            </option>
          ))}
        </select>
      </label>
      <label className="review-field">
        <span>Dataset</span>
        <select
          value={filters.dataset ?? ''}
          data-testid="review-filter-dataset"
          disabled={datasets.length === 0}
          onChange={(event) => {
            release(event);
            void setFilters({ dataset: event.target.value });
          }}
        >
          {datasets.length === 0 && <option value="">no dataset</option>}
          {datasets.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <fieldset className="review-field review-judges" disabled={!judgesApply} data-testid="review-filter-judges">
        <legend>
          Judges{' '}
          {judgesApply
            ? filters.judges === null
              ? '(all)'
              : `(${filters.judges.length} of ${judges.length})`
            : '(not used by this queue)'}
        </legend>
        {judges.length === 0 && <span className="muted">none in the project</span>}
        {judges.map((name) => (
          <label key={name} className="review-check">
            <input
              type="checkbox"
              data-testid="review-filter-judge"
              value={name}
              checked={panel.includes(name)}
              onChange={(event) => {
                release(event);
                toggleJudge(name, event.target.checked);
              }}
            />
            <span className="mono">{name}</span>
          </label>
        ))}
      </fieldset>
      <label className="review-field">
        <span>Error type</span>
        <select
          value={filters.errorType ?? ''}
          data-testid="review-filter-error-type"
          onChange={(event) => {
            release(event);
            void setFilters({ errorType: (event.target.value || null) as ErrorType | null });
          }}
        >
          <option value="">any</option>
          {ERROR_TYPES.map((type) => (
            <option key={type} value={type}>
              {ERROR_TYPE_NAMES[type]}
            </option>
          ))}
        </select>
      </label>
      <label className="review-field review-cap">
        <span>Cap</span>
        <input
          type="number"
          min={0}
          max={MAX_CAP}
          value={cap}
          data-testid="review-filter-cap"
          aria-invalid={!capValid}
          onChange={(event) => setCap(event.target.value)}
          onBlur={applyCap}
          onKeyDown={onCapKey}
        />
      </label>
      <div className="review-field review-names">
        <span>Reveal</span>
        <label className="review-check">
          <input
            type="checkbox"
            checked={showJudgeNames}
            data-testid="review-show-judge-names"
            onChange={(event) => {
              release(event);
              void setShowNames({ judges: event.target.checked });
            }}
          />
          judge names
        </label>
        <label className="review-check">
          <input
            type="checkbox"
            checked={showAnnotatorNames}
            data-testid="review-show-annotator-names"
            onChange={(event) => {
              release(event);
              void setShowNames({ annotators: event.target.checked });
            }}
          />
          annotator names
        </label>
      </div>
      {current && <p className="review-queue-help muted">{current.help}.</p>}
    </section>
  );
}
