/**
 * / or M: edit the unit's note (a sentence's, or a claim's or key fact's). Ctrl+Enter saves, Esc
 * cancels; other keys are typing. Letters typed before the text box had the focus (the editor
 * waits for the labels pressed before it) are kept: they reach the note, not the view below.
 */
import { useLayoutEffect, useRef } from 'react';
import { isPlain, type Layer } from '../../keys/dispatcher';
import { cycleFocus } from '../../keys/focus';
import { useLayerKeys, useSyncState } from '../../keys/hooks';

interface NoteEditorProps {
  layer: Layer;
  unit: { index: number; text: string };
  /** What the note is on; "Note on sentence N" when not given. */
  heading?: string;
  initial: string;
  onSave: (text: string) => void;
  onCancel: () => void;
}

export function NoteEditor({ layer, unit, heading, initial, onSave, onCancel }: NoteEditorProps) {
  const [text, setText, currentText] = useSyncState(initial);
  const card = useRef<HTMLDivElement>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => {
    area.current?.focus();
    area.current?.setSelectionRange(initial.length, initial.length);
  }, [initial]);

  useLayerKeys(layer, (press) => {
    if (press.key === 'Enter' && (press.ctrlKey || press.metaKey)) {
      onSave(currentText());
      return 'handled';
    }
    if (press.key === 'Escape') {
      onCancel();
      return 'handled';
    }
    if (press.typing || !isPlain(press)) return 'native';
    if (press.key === 'Tab') return cycleFocus(card.current, press);
    if (press.activatable && (press.key === 'Enter' || press.key === ' ')) return 'native';
    // A letter pressed before the text box took the focus belongs to the note.
    if (press.key.length === 1 && press.target === document.body) setText((current) => current + press.key);
    return 'handled';
  });

  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-label="Note" data-testid="note-editor">
      <div className="overlay-card" ref={card}>
        <h2>{heading ?? `Note on sentence ${unit.index + 1}`}</h2>
        <p className="overlay-unit">{unit.text}</p>
        <textarea
          ref={area}
          className="note-text"
          data-testid="note-text"
          aria-label="Note"
          rows={5}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <div className="row">
          <button type="button" className="primary" data-testid="note-save" onClick={() => onSave(currentText())}>
            Save <kbd>Ctrl+Enter</kbd>
          </button>
          <button type="button" onClick={onCancel}>
            Cancel <kbd>Esc</kbd>
          </button>
        </div>
      </div>
    </div>
  );
}
