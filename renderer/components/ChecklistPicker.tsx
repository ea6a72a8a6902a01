/**
 * A keyboard overlay for ticking lines of a list (the sentences, and claims, that convey a fact):
 * 1–9 toggle the line with that digit; J/K (↓/↑) move over every line and Space toggles it; Enter
 * saves, Esc closes without saving.
 */
import type { ReactNode } from 'react';
import { isPlain, type Layer } from '../keys/dispatcher';
import { useLayerKeys, useSyncState } from '../keys/hooks';

export interface ChecklistLine {
  /** Unique in the list: what `initial` and the saved set hold. */
  key: string;
  /** The number shown ("2", "2.1"). */
  label: string;
  /** The digit key that toggles it, if any. */
  digit: string | null;
  /** Extra class of the row (convey-sentence, convey-claim). */
  className: string;
  testId: string;
  text: ReactNode;
}

interface ChecklistPickerProps {
  layer: Layer;
  title: string;
  ariaLabel: string;
  testId: string;
  saveTestId: string;
  /** What is being described, shown under the title. */
  subject: string;
  lines: readonly ChecklistLine[];
  initial: ReadonlySet<string>;
  onSave: (chosen: ReadonlySet<string>) => void;
  onClose: () => void;
  /** The key hint under the buttons. */
  hint: ReactNode;
}

export function ChecklistPicker({
  layer,
  title,
  ariaLabel,
  testId,
  saveTestId,
  subject,
  lines,
  initial,
  onSave,
  onClose,
  hint,
}: ChecklistPickerProps) {
  const [chosen, setChosen, currentChosen] = useSyncState<ReadonlySet<string>>(initial);
  const [cursor, setCursor, currentCursor] = useSyncState(0);
  const toggle = (key: string | undefined) => {
    if (key === undefined) return;
    setChosen((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  };

  useLayerKeys(layer, (press) => {
    if (!isPlain(press)) return 'native';
    const key = press.key.toLowerCase();
    if (key === 'escape') onClose();
    else if (key === 'enter') onSave(currentChosen());
    else if (key === 'j' || key === 'arrowdown') setCursor((c) => Math.min(lines.length - 1, c + 1));
    else if (key === 'k' || key === 'arrowup') setCursor((c) => Math.max(0, c - 1));
    else if (key === ' ') toggle(lines[currentCursor()]?.key);
    else if (/^[1-9]$/.test(key)) toggle(lines.find((line) => line.digit === key)?.key);
    return 'handled';
  });

  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-label={ariaLabel} data-testid={testId}>
      <div className="overlay-card">
        <h2>{title}</h2>
        <p className="overlay-unit">{subject}</p>
        <ol className="choice-list convey-choices">
          {lines.map((line, at) => (
            <li key={line.key}>
              <label
                className={`choice ${line.className}${at === cursor ? ' is-cursor' : ''}`}
                data-testid={line.testId}
              >
                <input type="checkbox" checked={chosen.has(line.key)} onChange={() => toggle(line.key)} />{' '}
                <kbd>{line.label}</kbd> {line.text}
              </label>
            </li>
          ))}
        </ol>
        <div className="row">
          <button type="button" className="primary" data-testid={saveTestId} onClick={() => onSave(currentChosen())}>
            Save <kbd>Enter</kbd>
          </button>
          <button type="button" onClick={onClose}>
            Cancel <kbd>Esc</kbd>
          </button>
        </div>
        <p className="muted">{hint}</p>
      </div>
    </div>
  );
}
