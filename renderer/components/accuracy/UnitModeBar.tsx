/**
 * Which unit the keys act on (T cycles): sentences, their claims, the document's key facts, its
 * scaffold; each tab with this summary's progress in that mode (once its items were on screen).
 */
import type { ItemCounts } from '../../state/modeProgress';
import { UNIT_MODES, UNIT_MODE_NAME, type UnitMode } from '../../state/unitMode';

interface UnitModeBarProps {
  mode: UnitMode;
  /** The summary on screen's done / total per mode (null: not known yet). */
  progress: Readonly<Record<UnitMode, ItemCounts | null>>;
  onChoose: (mode: UnitMode) => void;
}

export function UnitModeBar({ mode, progress, onChoose }: UnitModeBarProps) {
  return (
    <div className="unit-mode-bar" role="tablist" aria-label="Unit to label" data-testid="unit-mode" data-mode={mode}>
      {UNIT_MODES.map((m) => {
        const count = progress[m];
        return (
          <button
            key={m}
            type="button"
            role="tab"
            aria-selected={m === mode}
            className={m === mode ? 'unit-mode is-current' : 'unit-mode'}
            data-testid={`unit-mode-${m}`}
            data-done={count?.done ?? ''}
            data-total={count?.total ?? ''}
            onClick={(event) => {
              // The keys stay with the view: Enter or Space would press this tab again.
              event.currentTarget.blur();
              onChoose(m);
            }}
          >
            {UNIT_MODE_NAME[m]}
            {count && (
              <span className="muted unit-mode-count">
                {' '}
                {count.done}/{count.total}
              </span>
            )}
          </button>
        );
      })}
      <span className="muted key-hint">
        <kbd>T</kbd> switch
      </span>
    </div>
  );
}
