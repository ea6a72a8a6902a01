/** Who is annotating: labels are stored per annotator, so this comes before anything else. */
import { useEffect, useState, type FormEvent } from 'react';
import type { Annotator } from '../../shared/api';
import { bridge, chooseAnnotator, rememberedAnnotator, useSession } from '../state/session';

export function AnnotatorPicker() {
  const preset = useSession((state) => state.info?.annotator ?? null);
  const [name, setName] = useState(() => preset ?? rememberedAnnotator() ?? '');
  const [known, setKnown] = useState<Annotator[]>([]);

  useEffect(() => {
    bridge()
      .call('annotators.list', {})
      .then(setKnown, () => setKnown([]));
  }, []);

  function submit(event: FormEvent) {
    event.preventDefault();
    void chooseAnnotator(name);
  }

  return (
    <div className="start-view" data-testid="annotator-picker">
      <h1>Who is annotating?</h1>
      <form className="row" onSubmit={submit}>
        <input
          type="text"
          autoFocus
          value={name}
          onChange={(event) => setName(event.target.value)}
          placeholder="Your name or initials"
          aria-label="Annotator name"
          data-testid="annotator-name"
        />
        <button type="submit" className="primary" disabled={name.trim() === ''} data-testid="annotator-submit">
          Start
        </button>
      </form>
      {known.length > 0 && (
        <ul className="annotator-list">
          {known.map((annotator) => (
            <li key={annotator.id}>
              <button type="button" className="link-button" onClick={() => void chooseAnnotator(annotator.name)}>
                {annotator.name}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

