/** A keyboard overlay for picking one of a short list of types: 1–9 choose, 0 removes, Esc closes. */
import type { ReactNode } from 'react';
import { isPlain, type Layer } from '../keys/dispatcher';
import { useLayerKeys } from '../keys/hooks';

interface ChoicePickerProps<T extends string> {
  /** The picker's layer, opened by the key that asked for it. */
  layer: Layer;
  /** The types in the order their digits choose them. */
  types: readonly T[];
  /** How a type reads on its button. */
  label: (type: T) => ReactNode;
  current: T | null;
  onChoose: (choice: T | null) => void;
  onClose: () => void;
  title: string;
  ariaLabel: string;
  /** Names the dialog (`testId`) and its options (`${testId-prefix}-option-…`) for tests. */
  testId: string;
  optionTestIdPrefix: string;
  /** What is being described, shown under the title. */
  children: ReactNode;
}

export function ChoicePicker<T extends string>({
  layer,
  types,
  label,
  current,
  onChoose,
  onClose,
  title,
  ariaLabel,
  testId,
  optionTestIdPrefix,
  children,
}: ChoicePickerProps<T>) {
  // While the picker is open, digits choose and nothing else acts.
  useLayerKeys(layer, (press) => {
    if (!isPlain(press)) return 'native';
    if (press.key === 'Escape') onClose();
    else if (press.key === '0') onChoose(null);
    else if (/^[1-9]$/.test(press.key) && types[Number(press.key) - 1]) onChoose(types[Number(press.key) - 1]!);
    return 'handled';
  });

  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-label={ariaLabel} data-testid={testId}>
      <div className="overlay-card">
        <h2>{title}</h2>
        <p className="overlay-unit">{children}</p>
        <ol className="choice-list">
          {types.map((type, i) => (
            <li key={type}>
              <button
                type="button"
                className={type === current ? 'choice is-chosen' : 'choice'}
                data-testid={`${optionTestIdPrefix}-option-${type}`}
                onClick={() => onChoose(type)}
              >
                <kbd>{i + 1}</kbd> {label(type)}
              </button>
            </li>
          ))}
          <li>
            <button
              type="button"
              className="choice"
              data-testid={`${optionTestIdPrefix}-option-none`}
              onClick={() => onChoose(null)}
            >
              <kbd>0</kbd> No error type
            </button>
          </li>
        </ol>
        <p className="muted">
          <kbd>Esc</kbd> close
        </p>
      </div>
    </div>
  );
}
