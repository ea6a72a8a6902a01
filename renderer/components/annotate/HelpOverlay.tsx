import { useEffect } from 'react';
import { KEY_LEGEND } from '../../keyboard';

/** ? : the full key map with the rules that are not obvious from the legend. */
export function HelpOverlay({ onClose }: { onClose: () => void }) {
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.key === 'Escape' || event.key === '?') {
        event.preventDefault();
        event.stopImmediatePropagation();
        onClose();
      }
    }
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [onClose]);

  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-label="Help" data-testid="help" onClick={onClose}>
      <div className="overlay-card" onClick={(event) => event.stopPropagation()}>
        <h2>Keyboard</h2>
        <table className="help-table">
          <tbody>
            {KEY_LEGEND.map((entry) => (
              <tr key={entry.keys}>
                <td>
                  <kbd>{entry.keys}</kbd>
                </td>
                <td>{entry.action}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <ul className="help-notes">
          <li>A label is saved before the cursor moves on; keys pressed meanwhile are applied in order.</li>
          <li>Labeling advances to the next sentence; after the last one, Enter opens the next summary with work left.</li>
          <li>Highlighted passages in the document are the lexically closest ones, a reading aid — not a verdict.</li>
          <li>Undo and redo work across summaries and are stored as new events, so the history is kept.</li>
          <li>The time from a sentence becoming current to its label is recorded.</li>
        </ul>
        <p className="muted">
          <kbd>Esc</kbd> close
        </p>
      </div>
    </div>
  );
}
