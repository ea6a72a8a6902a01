/** / or M: edit the unit's note. Ctrl+Enter saves, Esc cancels; other keys are typing. */
import type { AnnotationUnit } from '../../../shared/api';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';

interface NoteEditorProps {
  unit: AnnotationUnit;
  initial: string;
  onSave: (text: string) => void;
  onCancel: () => void;
}

export function NoteEditor({ unit, initial, onSave, onCancel }: NoteEditorProps) {
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
        <h2>Note on sentence {unit.index + 1}</h2>
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
