/** R on a decided sentence: the F/U/C choice again. The new decision is stored as a new event; Esc keeps the old one. */
import type { ReviewUnit } from '../../../shared/api';
import type { HumanLabel } from '../../../shared/domain';
import { isPlain, type Layer } from '../../keys/dispatcher';
import { useLayerKeys } from '../../keys/hooks';
import { LABEL_NAME } from '../../labels';
import { LabelBadge } from '../LabelBadge';
import { labelForKey } from './keys';

interface RevisePromptProps {
  layer: Layer;
  unit: ReviewUnit;
  onChoose: (label: HumanLabel, pressedAt: number) => void;
  onClose: () => void;
}

const CHOICES: ReadonlyArray<{ label: HumanLabel; keys: string }> = [
  { label: 'faithful', keys: 'F / 1' },
  { label: 'unfaithful', keys: 'U / 2' },
  { label: 'unclear', keys: 'C / 3' },
];

export function RevisePrompt({ layer, unit, onChoose, onClose }: RevisePromptProps) {
  // While the choice is open, only F/U/C (1–3) and Esc act.
  useLayerKeys(layer, (press) => {
    if (!isPlain(press)) return 'native';
    if (press.key === 'Escape') onClose();
    const label = labelForKey(press.key);
    if (label && !press.repeat) onChoose(label, press.at);
    return 'handled';
  });

  return (
    <div
      className="overlay"
      role="dialog"
      aria-modal="true"
      aria-label="Revise the decision"
      data-testid="review-revise"
    >
      <div className="overlay-card">
        <h2>Revise the decision</h2>
        <p className="overlay-unit">
          <span className="muted">Sentence {unit.index + 1}: </span>
          {unit.text}
        </p>
        <p>
          Now: <LabelBadge label={unit.decision.label} />{' '}
          {unit.decision.label ? LABEL_NAME[unit.decision.label] : 'not decided'}. The revision is stored as a new
          event; the first, blind decision stays in the history.
        </p>
        <ol className="choice-list">
          {CHOICES.map((choice) => (
            <li key={choice.label}>
              <button
                type="button"
                className={choice.label === unit.decision.label ? 'choice is-chosen' : 'choice'}
                data-testid={`review-revise-option-${choice.label}`}
                onClick={() => onChoose(choice.label, performance.now())}
              >
                <kbd>{choice.keys}</kbd> {LABEL_NAME[choice.label]}
              </button>
            </li>
          ))}
        </ol>
        <p className="muted">
          <kbd>Esc</kbd> keep the decision
        </p>
      </div>
    </div>
  );
}
