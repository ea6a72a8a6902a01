/** / or M: edit the unit's note (a sentence's, or a claim's or key fact's). Ctrl+Enter saves, Esc cancels; other keys are typing. */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';

interface NoteEditorProps {
  unit: { index: number; text: string };
  /** What the note is on; "Note on sentence N" when not given. */
  heading?: string;
  initial: string;
  onSave: (text: string) => void;
  onCancel: () => void;
}

export function NoteEditor({ unit, heading, initial, onSave, onCancel }: NoteEditorProps) {
  const [text, setText] = useState(initial);
  const area = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    area.current?.focus();
    area.current?.setSelectionRange(initial.length, initial.length);
  }, [initial]);

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      onSave(text);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
    }
  }

  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-label="Note" data-testid="note-editor">
      <div className="overlay-card">
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
          onKeyDown={onKeyDown}
        />
        <div className="row">
          <button type="button" className="primary" data-testid="note-save" onClick={() => onSave(text)}>
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
