/** E on an Unsupported claim: 1–5 pick the card's error type, 0 removes it, Esc closes. */
import { useEffect } from 'react';
import { CLAIM_ERROR_TYPES, type ClaimErrorType } from '../../../shared/accuracy/domain';
import { claimErrorName } from './ClaimsPane';

interface ClaimErrorTypePickerProps {
  claimText: string;
  current: ClaimErrorType | null;
  onChoose: (errorType: ClaimErrorType | null) => void;
  onClose: () => void;
}

export function ClaimErrorTypePicker({ claimText, current, onChoose, onClose }: ClaimErrorTypePickerProps) {
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      // While the picker is open, digits choose and nothing else fires.
      event.preventDefault();
      event.stopImmediatePropagation();
      if (event.key === 'Escape') return onClose();
      if (event.key === '0') return onChoose(null);
      const chosen = CLAIM_ERROR_TYPES[Number(event.key) - 1];
      if (/^[1-9]$/.test(event.key) && chosen) onChoose(chosen);
    }
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [onChoose, onClose]);

  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-label="Claim error type" data-testid="claim-error-type-picker">
      <div className="overlay-card">
        <h2>Error type of the unsupported claim</h2>
        <p className="overlay-unit">{claimText}</p>
        <ol className="choice-list">
          {CLAIM_ERROR_TYPES.map((type, i) => (
            <li key={type}>
              <button type="button" className={type === current ? 'choice is-chosen' : 'choice'} data-testid={`claim-error-option-${type}`} onClick={() => onChoose(type)}>
                <kbd>{i + 1}</kbd> {claimErrorName(type)} <code className="muted">{type}</code>
              </button>
            </li>
          ))}
          <li>
            <button type="button" className="choice" data-testid="claim-error-option-none" onClick={() => onChoose(null)}>
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
