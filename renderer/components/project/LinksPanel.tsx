/**
 * Annotator links (loupe serve): the lead hands each person a link that allows only that
 * person's annotation. The link carries its token and is shown once, when created; the list shows
 * who has one and since when, and revoking stops a link at once. Hidden where the host has no
 * links (links.list answers unsupported: the desktop app).
 */
import { useEffect, useState, type FormEvent } from 'react';
import type { Annotator, AnnotatorLink } from '../../../shared/api';
import { ApiError, errorMessage } from '../../api/errors';
import { bridge } from '../../state/session';

type Listing = { state: 'loading' } | { state: 'unsupported' } | { state: 'ready'; links: AnnotatorLink[] };

export function LinksPanel() {
  const [listing, setListing] = useState<Listing>({ state: 'loading' });
  const [people, setPeople] = useState<Annotator[]>([]);
  const [name, setName] = useState('');
  const [created, setCreated] = useState<AnnotatorLink | null>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function refresh() {
    try {
      const links = await bridge().call('links.list', {});
      setListing({ state: 'ready', links });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'unsupported') setListing({ state: 'unsupported' });
      else {
        setListing({ state: 'ready', links: [] });
        setError(errorMessage(err));
      }
    }
  }

  useEffect(() => {
    void refresh();
    bridge()
      .call('annotators.list', {})
      .then(
        // An imported label set is a source, not a person: it never gets a link.
        (list) => setPeople(list.filter((annotator) => annotator.kind === 'person')),
        () => setPeople([]),
      );
  }, []);

  if (listing.state !== 'ready') return null;

  async function create(event: FormEvent) {
    event.preventDefault();
    const annotator = name.trim();
    if (!annotator) return;
    setBusy(true);
    setError(null);
    setCopied(null);
    try {
      const link = await bridge().call('links.create', { annotator });
      setCreated(link);
      setName('');
      await refresh();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  async function copy(url: string) {
    try {
      await navigator.clipboard.writeText(url);
      setCopied('Copied. It is not shown again: send it to its annotator now.');
    } catch {
      setCopied('Copying was refused by the browser: select the link and copy it by hand.');
    }
  }

  async function revoke(id: string) {
    setBusy(true);
    setError(null);
    try {
      await bridge().call('links.revoke', { id });
      setConfirming(null);
      if (created?.id === id) setCreated(null);
      await refresh();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="panel" aria-labelledby="links-title" data-testid="links-panel">
      <h2 id="links-title">Annotator links</h2>
      <p className="muted small">
        A link for one person: it opens only Annotate, as that person, and cannot see judges, analyses, reviews or
        anyone else&apos;s labels.
      </p>
      <form className="form-row" onSubmit={(event) => void create(event)}>
        <label className="form-field">
          <span>Annotator</span>
          <input
            type="text"
            list="link-people"
            value={name}
            onChange={(event) => setName(event.target.value)}
            placeholder="a person's name"
            data-testid="link-annotator"
          />
          <datalist id="link-people">
            {people.map((person) => (
              <option key={person.id} value={person.name} />
            ))}
          </datalist>
        </label>
        <button type="submit" className="primary" disabled={busy || name.trim() === ''} data-testid="link-create">
          Create link
        </button>
      </form>
      {error && (
        <p className="field-error" role="alert" data-testid="links-error">
          {error}
        </p>
      )}
      {created?.url && (
        <div className="link-created" data-testid="link-created">
          <p>
            Link for <strong>{created.annotator}</strong> (shown once):
          </p>
          <div className="row">
            <input
              type="text"
              readOnly
              value={created.url}
              className="mono link-url"
              aria-label={`Link for ${created.annotator}`}
              data-testid="link-url"
              onFocus={(event) => event.currentTarget.select()}
            />
            <button type="button" onClick={() => void copy(created.url!)} data-testid="link-copy">
              Copy
            </button>
            <button type="button" onClick={() => setCreated(null)} data-testid="link-done">
              Done
            </button>
          </div>
          {copied && (
            <p className="muted small" role="status" data-testid="link-copied">
              {copied}
            </p>
          )}
        </div>
      )}
      {listing.links.length === 0 ? (
        <p className="muted" data-testid="links-empty">
          No annotator links yet.
        </p>
      ) : (
        <table className="data-table" data-testid="links">
          <thead>
            <tr>
              <th>Annotator</th>
              <th>Created</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {listing.links.map((link) => (
              <tr key={link.id} data-testid={`link-${link.id}`}>
                <td>{link.annotator}</td>
                <td>{new Date(link.createdAt).toLocaleString()}</td>
                <td>
                  {confirming === link.id ? (
                    <span className="row">
                      <span>Revoke {link.annotator}&apos;s link? It stops working at once.</span>
                      <button
                        type="button"
                        className="danger"
                        disabled={busy}
                        onClick={() => void revoke(link.id)}
                        data-testid={`link-revoke-confirm-${link.id}`}
                      >
                        Revoke
                      </button>
                      <button
                        type="button"
                        onClick={() => setConfirming(null)}
                        data-testid={`link-revoke-cancel-${link.id}`}
                      >
                        Keep
                      </button>
                    </span>
                  ) : (
                    <button type="button" onClick={() => setConfirming(link.id)} data-testid={`link-revoke-${link.id}`}>
                      Revoke…
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
