/**
 * E on a Covered key fact: which of the summary's sentences and claims convey it. 1–9 toggle
 * sentence 1–9; J/K (↓/↑) move over every line, claims included, and Space toggles the line;
 * Enter saves, Esc closes without saving.
 */
import { useEffect, useState } from 'react';
import type { ConveyedBy, KeyFactAnnotation } from '../../../shared/contract/keyfacts';
import { conveyLines, type ConveyLine } from './lines';

interface ConveyedByPickerProps {
  facts: KeyFactAnnotation;
  factText: string;
  initial: ConveyedBy;
  onSave: (conveyedBy: ConveyedBy) => void;
  onClose: () => void;
}

const lineKey = (line: Pick<ConveyLine, 'kind' | 'id'>) => `${line.kind}:${line.id}`;

export function ConveyedByPicker({ facts, factText, initial, onSave, onClose }: ConveyedByPickerProps) {
  const lines = conveyLines(facts);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(
    () => new Set([...initial.sentences.map((id) => `sentence:${id}`), ...initial.claims.map((id) => `claim:${id}`)]),
  );
  const [cursor, setCursor] = useState(0);

  useEffect(() => {
    const toggle = (line: ConveyLine | undefined) => {
      if (!line) return;
      setChosen((current) => {
        const next = new Set(current);
        if (next.has(lineKey(line))) next.delete(lineKey(line));
        else next.add(lineKey(line));
        return next;
      });
    };
    function onKey(event: KeyboardEvent) {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      const key = event.key.toLowerCase();
      if (key === 'escape') return onClose();
      if (key === 'enter') return onSave(toConveyedBy(chosen));
      if (key === 'j' || key === 'arrowdown') return setCursor((c) => Math.min(lines.length - 1, c + 1));
      if (key === 'k' || key === 'arrowup') return setCursor((c) => Math.max(0, c - 1));
      if (key === ' ') return toggle(lines[cursor]);
      if (/^[1-9]$/.test(key)) toggle(lines.find((line) => line.kind === 'sentence' && line.label === key));
    }
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [chosen, cursor, lines, onClose, onSave]);

  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-label="Conveyed by" data-testid="conveyed-by-picker">
      <div className="overlay-card">
        <h2>Which lines convey this key fact?</h2>
        <p className="overlay-unit">{factText}</p>
        <ol className="choice-list convey-choices">
          {lines.map((line, at) => (
            <li key={lineKey(line)}>
              <label className={`choice convey-${line.kind}${at === cursor ? ' is-cursor' : ''}`} data-testid={`convey-${line.kind}-${line.label}`}>
                <input
                  type="checkbox"
                  checked={chosen.has(lineKey(line))}
                  onChange={() =>
                    setChosen((current) => {
                      const next = new Set(current);
                      if (next.has(lineKey(line))) next.delete(lineKey(line));
                      else next.add(lineKey(line));
                      return next;
                    })
                  }
                />{' '}
                <kbd>{line.label}</kbd> {line.kind === 'claim' ? <span className="muted">claim </span> : null}
                {line.text}
              </label>
            </li>
          ))}
        </ol>
        <div className="row">
          <button type="button" className="primary" data-testid="conveyed-by-save" onClick={() => onSave(toConveyedBy(chosen))}>
            Save <kbd>Enter</kbd>
          </button>
          <button type="button" onClick={onClose}>
            Cancel <kbd>Esc</kbd>
          </button>
        </div>
        <p className="muted">
          <kbd>1</kbd>–<kbd>9</kbd> sentence · <kbd>J</kbd>/<kbd>K</kbd> move, <kbd>Space</kbd> toggle (claims too)
        </p>
      </div>
    </div>
  );
}

function toConveyedBy(chosen: ReadonlySet<string>): ConveyedBy {
  const ids = (kind: string) =>
    [...chosen]
      .filter((key) => key.startsWith(`${kind}:`))
      .map((key) => Number(key.slice(kind.length + 1)))
      .sort((a, b) => a - b);
  return { sentences: ids('sentence'), claims: ids('claim') };
}
