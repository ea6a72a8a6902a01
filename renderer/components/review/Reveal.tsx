/**
 * What the decision unlocks, shown beside it: each judge's label (anonymised "Judge A, B…" unless
 * names are asked for), the other annotators' labels, and the summary's global label. Rendered
 * only from a reveal the backend gave for a decided sentence.
 */
import type { RevealedSentence } from '../../../shared/api';
import { ERROR_TYPE_NAMES, type GlobalLabel, type HumanLabel } from '../../../shared/domain';
import { LABEL_NAME } from '../../labels';
import { LabelBadge } from '../LabelBadge';

const hardLabel = (hard: 0 | 1 | null): HumanLabel | null =>
  hard === null ? null : hard === 1 ? 'faithful' : 'unfaithful';

/** `compact`: the row of the sentence list (test id review-reveal-<index>); else the current sentence's (review-reveal-current). */
export function RevealDetails({ sentence, compact = false }: { sentence: RevealedSentence; compact?: boolean }) {
  return (
    <div
      className={`reveal${compact ? ' is-compact' : ''}`}
      data-testid={compact ? `review-reveal-${sentence.index}` : 'review-reveal-current'}
      data-index={sentence.index}
    >
      <div className="reveal-group" data-testid="review-judges">
        <span className="reveal-title">Judges</span>
        {sentence.judges.length === 0 && <span className="muted">no prediction for this sentence</span>}
        {sentence.judges.map((j) => {
          const label = hardLabel(j.hard);
          return (
            <span
              key={j.judge}
              className="reveal-item"
              data-testid="review-judge-label"
              data-judge={j.judge}
              data-label={label ?? ''}
            >
              <LabelBadge label={label} />
              <span className="reveal-name">{j.judge}</span>
              <span className="muted">
                {label ? LABEL_NAME[label] : 'no label'}
                {j.soft !== null && ` · p(faithful) ${j.soft.toFixed(2)}`}
              </span>
            </span>
          );
        })}
      </div>
      <div className="reveal-group" data-testid="review-annotators">
        <span className="reveal-title">Annotators</span>
        {sentence.annotators.length === 0 && <span className="muted">no other annotator labelled it</span>}
        {sentence.annotators.map((a) => (
          <span
            key={a.annotator}
            className="reveal-item"
            data-testid="review-annotator-label"
            data-annotator={a.annotator}
            data-label={a.label}
          >
            <LabelBadge label={a.label} />
            <span className="reveal-name">{a.annotator}</span>
            <span className="muted">
              {LABEL_NAME[a.label]}
              {a.errorType && ` · ${ERROR_TYPE_NAMES[a.errorType]}`}
            </span>
          </span>
        ))}
      </div>
    </div>
  );
}

interface GlobalLabelLineProps {
  /** null: nothing decided on this card yet (nothing revealed, no reveal asked for). */
  reveal: { globalLabel: GlobalLabel | null; globalLabelHidden: boolean } | null;
  marked: number;
  decided: number;
}

/** The benchmark's label of the summary: summary-wide, so it stays hidden until every marked sentence is decided. */
export function GlobalLabelLine({ reveal, marked, decided }: GlobalLabelLineProps) {
  if (reveal === null || reveal.globalLabelHidden) {
    return (
      <p className="review-global muted" data-testid="review-global-label" data-state="hidden">
        Global label: hidden until every marked sentence is decided ({decided} of {marked}).
      </p>
    );
  }
  const { globalLabel } = reveal;
  return (
    <p
      className="review-global"
      data-testid="review-global-label"
      data-state={globalLabel === null ? 'none' : String(globalLabel)}
    >
      Global label (benchmark):{' '}
      {globalLabel === null ? (
        <span className="muted">none in the benchmark</span>
      ) : (
        <strong>{globalLabel === 1 ? 'faithful (1)' : 'unfaithful (0)'}</strong>
      )}
    </p>
  );
}
