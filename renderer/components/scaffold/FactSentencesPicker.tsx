/**
 * E on a kept fact (Preserved or Partial): which summary sentences convey it (Fact Focus).
 * 1–9 toggle sentence 1–9; J/K (↓/↑) move, Space toggles; Enter saves, Esc closes without saving.
 */
import type { Layer } from '../../keys/dispatcher';
import { ChecklistPicker, type ChecklistLine } from '../ChecklistPicker';

interface FactSentencesPickerProps {
  layer: Layer;
  factText: string;
  sentences: ReadonlyArray<{ index: number; text: string }>;
  initial: readonly number[];
  onSave: (sentences: number[]) => void;
  onClose: () => void;
}

export function FactSentencesPicker({
  layer,
  factText,
  sentences,
  initial,
  onSave,
  onClose,
}: FactSentencesPickerProps) {
  const lines: ChecklistLine[] = sentences.map((s) => ({
    key: String(s.index),
    label: String(s.index + 1),
    digit: s.index < 9 ? String(s.index + 1) : null,
    className: 'convey-sentence',
    testId: `fact-sentence-${s.index + 1}`,
    text: s.text,
  }));
  return (
    <ChecklistPicker
      layer={layer}
      title="Which sentences convey this fact?"
      ariaLabel="Sentences that convey the fact"
      testId="fact-sentences-picker"
      saveTestId="fact-sentences-save"
      subject={factText}
      lines={lines}
      initial={new Set(initial.map(String))}
      onSave={(chosen) => onSave([...chosen].map(Number).sort((a, b) => a - b))}
      onClose={onClose}
      hint={
        <>
          <kbd>1</kbd>–<kbd>9</kbd> sentence · <kbd>J</kbd>/<kbd>K</kbd> move, <kbd>Space</kbd> toggle
        </>
      }
    />
  );
}
