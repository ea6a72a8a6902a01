/**
 * E on a Covered key fact: which of the summary's sentences and claims convey it. 1–9 toggle
 * sentence 1–9; J/K (↓/↑) move over every line, claims included, and Space toggles the line;
 * Enter saves, Esc closes without saving.
 */
import type { ConveyedBy, KeyFactAnnotation } from '../../../shared/contract/keyfacts';
import type { Layer } from '../../keys/dispatcher';
import { ChecklistPicker, type ChecklistLine } from '../ChecklistPicker';
import { conveyLines, type ConveyLine } from './lines';

interface ConveyedByPickerProps {
  layer: Layer;
  facts: KeyFactAnnotation;
  factText: string;
  initial: ConveyedBy;
  onSave: (conveyedBy: ConveyedBy) => void;
  onClose: () => void;
}

const lineKey = (line: Pick<ConveyLine, 'kind' | 'id'>) => `${line.kind}:${line.id}`;

export function ConveyedByPicker({ layer, facts, factText, initial, onSave, onClose }: ConveyedByPickerProps) {
  const lines: ChecklistLine[] = conveyLines(facts).map((line) => ({
    key: lineKey(line),
    label: line.label,
    digit: line.kind === 'sentence' ? line.label : null,
    className: `convey-${line.kind}`,
    testId: `convey-${line.kind}-${line.label}`,
    text: (
      <>
        {line.kind === 'claim' ? <span className="muted">claim </span> : null}
        {line.text}
      </>
    ),
  }));
  return (
    <ChecklistPicker
      layer={layer}
      title="Which lines convey this key fact?"
      ariaLabel="Conveyed by"
      testId="conveyed-by-picker"
      saveTestId="conveyed-by-save"
      subject={factText}
      lines={lines}
      initial={
        new Set([...initial.sentences.map((id) => `sentence:${id}`), ...initial.claims.map((id) => `claim:${id}`)])
      }
      onSave={(chosen) => onSave(toConveyedBy(chosen))}
      onClose={onClose}
      hint={
        <>
          <kbd>1</kbd>–<kbd>9</kbd> sentence · <kbd>J</kbd>/<kbd>K</kbd> move, <kbd>Space</kbd> toggle (claims too)
        </>
      }
    />
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
