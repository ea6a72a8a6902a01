/**
 * E on a kept fact (Preserved or Partial): which summary sentences convey it (Fact Focus).
 * 1–9 toggle sentence 1–9; J/K (↓/↑) move, Space toggles; Enter saves, Esc closes without saving.
 */
import { useLayoutEffect, useState } from 'react';

interface FactSentencesPickerProps {
  factText: string;
  sentences: ReadonlyArray<{ index: number; text: string }>;
  initial: readonly number[];
  onSave: (sentences: number[]) => void;
  onClose: () => void;
}

export function FactSentencesPicker({ factText, sentences, initial, onSave, onClose }: FactSentencesPickerProps) {
  const [chosen, setChosen] = useState<ReadonlySet<number>>(() => new Set(initial));
  const [cursor, setCursor] = useState(0);
  const toggle = (index: number | undefined) => {
    if (index === undefined) return;
    setChosen((current) => {
      const next = new Set(current);
      if (next.has(index)) next.delete(index);
      else next.add(index);
      return next;
    });
  };
  const save = () => onSave([...chosen].sort((a, b) => a - b));

  // Layout effect: listening from the commit on, so a key pressed right after the dialog opens reaches it.
  useLayoutEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      const key = event.key.toLowerCase();
      if (key === 'escape') return onClose();
      if (key === 'enter') return save();
      if (key === 'j' || key === 'arrowdown') return setCursor((c) => Math.min(sentences.length - 1, c + 1));
      if (key === 'k' || key === 'arrowup') return setCursor((c) => Math.max(0, c - 1));
      if (key === ' ') return toggle(sentences[cursor]?.index);
      if (/^[1-9]$/.test(key)) toggle(sentences.find((s) => s.index === Number(key) - 1)?.index);
    }
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  });

  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-label="Sentences that convey the fact" data-testid="fact-sentences-picker">
      <div className="overlay-card">
        <h2>Which sentences convey this fact?</h2>
        <p className="overlay-unit">{factText}</p>
        <ol className="choice-list convey-choices">
          {sentences.map((s, at) => (
            <li key={s.index}>
              <label className={`choice convey-sentence${at === cursor ? ' is-cursor' : ''}`} data-testid={`fact-sentence-${s.index + 1}`}>
                <input type="checkbox" checked={chosen.has(s.index)} onChange={() => toggle(s.index)} /> <kbd>{s.index + 1}</kbd> {s.text}
              </label>
            </li>
          ))}
        </ol>
        <div className="row">
          <button type="button" className="primary" data-testid="fact-sentences-save" onClick={save}>
            Save <kbd>Enter</kbd>
          </button>
          <button type="button" onClick={onClose}>
            Cancel <kbd>Esc</kbd>
          </button>
        </div>
        <p className="muted">
          <kbd>1</kbd>–<kbd>9</kbd> sentence · <kbd>J</kbd>/<kbd>K</kbd> move, <kbd>Space</kbd> toggle
        </p>
      </div>
    </div>
  );
}
