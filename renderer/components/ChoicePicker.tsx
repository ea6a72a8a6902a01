/** A keyboard overlay for picking one of a short list of types: 1–9 choose, 0 removes, Esc closes. */
import { useEffect, type ReactNode } from 'react';

interface ChoicePickerProps<T extends string> {
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
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      // Capture phase + stopPropagation: while the picker is open, digits choose, nothing else fires.
      event.preventDefault();
      event.stopImmediatePropagation();
      if (event.key === 'Escape') return onClose();
      if (event.key === '0') return onChoose(null);
      const chosen = types[Number(event.key) - 1];
      if (/^[1-9]$/.test(event.key) && chosen) onChoose(chosen);
    }
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [types, onChoose, onClose]);

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
            <button type="button" className="choice" data-testid={`${optionTestIdPrefix}-option-none`} onClick={() => onChoose(null)}>
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
