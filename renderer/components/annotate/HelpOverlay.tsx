import type { LegendEntry } from '../../keyboard';
import { isPlain, type Layer } from '../../keys/dispatcher';
import { useLayerKeys } from '../../keys/hooks';

/** ? : the full key map with the rules that are not obvious from the legend. Esc or ? closes; no other key acts behind it. */
export function HelpOverlay({
  layer,
  onClose,
  entries,
}: {
  layer: Layer;
  onClose: () => void;
  entries: ReadonlyArray<LegendEntry>;
}) {
  useLayerKeys(layer, (press) => {
    if (!isPlain(press)) return 'native';
    if (press.key === 'Escape' || press.key === '?') onClose();
    return 'handled';
  });

  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-label="Help" data-testid="help" onClick={onClose}>
      <div className="overlay-card" onClick={(event) => event.stopPropagation()}>
        <h2>Keyboard</h2>
        <table className="help-table">
          <tbody>
            {entries.map((entry) => (
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
          <li>
            A label shows at once, marked <em>saving</em> until it is stored; keys pressed meanwhile are applied in
            order. If a save fails, its sentence is marked <em>not saved</em>, the view goes back to it, and the keys
            pressed after it are kept.
          </li>
          <li>
            Labeling advances to the next sentence; after the last one, Enter opens the next summary with work left.
          </li>
          <li>Highlighted passages in the document are the lexically closest ones, a reading aid — not a verdict.</li>
          <li>
            <kbd>Ctrl+Z</kbd> undoes, <kbd>Ctrl+Shift+Z</kbd> (or <kbd>Ctrl+Y</kbd>) redoes, across summaries; both are
            stored as new events, so the history is kept. This tab keeps its undo history, and its place (unit, summary,
            item), across a reload; a new tab starts without one.
          </li>
          <li>The time from a sentence becoming current to its label is recorded.</li>
          <li>
            <kbd>T</kbd> switches what the keys label, in turn: sentences → their claims (F Supported, U Unsupported, C
            Unclear; E the error type after U) → the document&apos;s key facts for this summary (F Covered, U Not
            covered; E the sentences and claims that convey it) → the document&apos;s scaffold (F Preserved or Answered,
            U Missing or Unanswered, C Partial, R Misrepresented; E the sentences that convey a fact) → sentences again.{' '}
            <kbd>W</kbd> edits the claims, key facts or scaffold into a new version: labels stay on the version they
            were given on. In each mode Ctrl+Z undoes that mode&apos;s labels (claims and key facts together; in
            scaffold mode your own alignments).
          </li>
        </ul>
        <p className="muted">
          <kbd>Esc</kbd> close
        </p>
      </div>
    </div>
  );
}
