import { memo } from 'react';
import { KEY_LEGEND, type LegendEntry } from '../../keyboard';

/** Always on screen: every action and its key, so nothing has to be remembered. Memoised: it rarely changes. */
export const KeyLegend = memo(function KeyLegend({
  labelingDisabled,
  entries = KEY_LEGEND,
}: {
  labelingDisabled: boolean;
  entries?: ReadonlyArray<LegendEntry>;
}) {
  return (
    <footer className="key-legend" data-testid="key-legend" aria-label="Keyboard shortcuts">
      {entries.map((entry) => (
        <span
          key={entry.keys}
          className={`legend-item${entry.label ? ` legend-${entry.label}` : ''}${entry.label && labelingDisabled ? ' is-disabled' : ''}`}
        >
          <kbd>{entry.keys}</kbd> {entry.action}
        </span>
      ))}
    </footer>
  );
});
