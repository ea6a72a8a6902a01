/** E on an unfaithful unit: 1–8 pick an error type, 0 removes it, Esc closes. */
import { useEffect } from 'react';
import type { AnnotationUnit } from '../../../shared/api';
import { ERROR_TYPES, ERROR_TYPE_NAMES, type ErrorType } from '../../../shared/domain';

interface ErrorTypePickerProps {
  /** The unfaithful unit being described (shown, since it may be the one just left). */
  unit: AnnotationUnit;
  current: ErrorType | null;
  onChoose: (errorType: ErrorType | null) => void;
  onClose: () => void;
}

export function ErrorTypePicker({ unit, current, onChoose, onClose }: ErrorTypePickerProps) {
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      // Capture phase + stopPropagation: while the picker is open, digits choose, nothing else fires.
      event.preventDefault();
      event.stopImmediatePropagation();
      if (event.key === 'Escape') return onClose();
      if (event.key === '0') return onChoose(null);
      const chosen = ERROR_TYPES[Number(event.key) - 1];
      if (/^[1-9]$/.test(event.key) && chosen) onChoose(chosen);
    }
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [onChoose, onClose]);

  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-label="Error type" data-testid="error-type-picker">
      <div className="overlay-card">
        <h2>Error type</h2>
        <p className="overlay-unit">
          <span className="muted">Sentence {unit.index + 1}: </span>
          {unit.text}
        </p>
        <ol className="choice-list">
          {ERROR_TYPES.map((type, i) => (
            <li key={type}>
              <button
                type="button"
                className={type === current ? 'choice is-chosen' : 'choice'}
                data-testid={`error-type-option-${type}`}
                onClick={() => onChoose(type)}
              >
                <kbd>{i + 1}</kbd> {ERROR_TYPE_NAMES[type]}
              </button>
            </li>
          ))}
          <li>
            <button type="button" className="choice" data-testid="error-type-option-none" onClick={() => onChoose(null)}>
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
