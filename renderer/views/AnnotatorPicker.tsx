/**
 * Who is annotating (or reviewing): labels and decisions are stored under this name, for this tab
 * only. Only the project's people are offered: an imported label set (a benchmark's annotators) is
 * a read-only source, never someone to annotate as.
 */
import { useEffect, useState, type FormEvent } from 'react';
import type { Annotator } from '../../shared/api';
import { chooseAnnotatorFor } from '../state/reveal';
import { bridge, cancelSwitch, useSession, type View } from '../state/session';

const PURPOSE: Partial<Record<View, { title: string; why: string }>> = {
  annotate: {
    title: 'Who is annotating?',
    why: 'Labels are stored under this name, for this tab only (a new tab asks again).',
  },
  review: {
    title: 'Who is reviewing?',
    why: 'Review decisions are stored under this name, and each card shows your own decisions.',
  },
};

export function AnnotatorPicker({ purpose }: { purpose: 'annotate' | 'review' }) {
  const current = useSession((state) => state.annotator);
  const [name, setName] = useState('');
  const [people, setPeople] = useState<Annotator[]>([]);

  useEffect(() => {
    bridge()
      .call('annotators.list', {})
      .then(
        (list) => setPeople(list.filter((annotator) => annotator.kind === 'person')),
        () => setPeople([]),
      );
  }, []);

  function submit(event: FormEvent) {
    event.preventDefault();
    void chooseAnnotatorFor(purpose, name);
  }

  const words = PURPOSE[purpose]!;
  return (
    <div className="start-view" data-testid="annotator-picker">
      <h1>{words.title}</h1>
      <p className="muted">{words.why}</p>
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
        {current && (
          <button type="button" onClick={cancelSwitch} data-testid="annotator-cancel">
            Stay {current}
          </button>
        )}
      </form>
      {people.length > 0 && (
        <ul className="annotator-list" data-testid="annotator-choices">
          {people.map((annotator) => (
            <li key={annotator.id}>
              <button
                type="button"
                className="link-button"
                onClick={() => void chooseAnnotatorFor(purpose, annotator.name)}
                data-testid={`annotator-choice-${annotator.name}`}
              >
                {annotator.name}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
