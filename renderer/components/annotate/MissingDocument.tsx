import { useState, type ChangeEvent } from 'react';

interface MissingDocumentProps {
  docId: string;
  busy: boolean;
  onAttach: (text: string) => void;
}

/** Shown instead of the document when it was not imported: paste it or pick a text file. */
export function MissingDocument({ docId, busy, onAttach }: MissingDocumentProps) {
  const [text, setText] = useState('');

  async function readFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (file) setText(await file.text());
  }

  return (
    <div className="missing-document" data-testid="document-missing">
      <p className="missing-title">Document missing — this summary can be labeled once its document is attached</p>
      <p className="muted">
        Document id <code>{docId}</code>. Paste its text below or choose a text file; every summary of this document
        gets it.
      </p>
      <textarea
        className="attach-text"
        data-testid="attach-document-text"
        aria-label="Document text"
        value={text}
        onChange={(event) => setText(event.target.value)}
        rows={12}
        placeholder="Paste the document text here"
      />
      <div className="row">
        <label className="file-button">
          Choose text file…
          <input type="file" accept=".txt,text/plain" onChange={readFile} />
        </label>
        <button
          type="button"
          className="primary"
          data-testid="attach-document-submit"
          disabled={busy || text.trim() === ''}
          onClick={() => onAttach(text)}
        >
          Attach document
        </button>
      </div>
    </div>
  );
}
