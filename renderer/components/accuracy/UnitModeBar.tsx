/** Which unit the keys act on (T cycles): sentences, their claims, the document's key facts. */
import { UNIT_MODES, UNIT_MODE_NAME, type UnitMode } from '../../state/unitMode';

export function UnitModeBar({ mode, onChoose }: { mode: UnitMode; onChoose: (mode: UnitMode) => void }) {
  return (
    <div className="unit-mode-bar" role="tablist" aria-label="Unit to label" data-testid="unit-mode" data-mode={mode}>
      {UNIT_MODES.map((m) => (
        <button
          key={m}
          type="button"
          role="tab"
          aria-selected={m === mode}
          className={m === mode ? 'unit-mode is-current' : 'unit-mode'}
          data-testid={`unit-mode-${m}`}
          onClick={(event) => {
            // The keys stay with the view: Enter or Space would press this tab again.
            event.currentTarget.blur();
            onChoose(m);
          }}
        >
          {UNIT_MODE_NAME[m]}
        </button>
      ))}
      <span className="muted key-hint">
        <kbd>T</kbd> switch
      </span>
    </div>
  );
}
