/**
 * Proposals (the lead's side of shared sets): an annotator link's edit of a summary's claims or a
 * document's key facts or scaffold waits here, current for nobody. Each shows who proposed what,
 * on which version, and its diff against that version; Accept makes it the next version (labels on
 * the old one stay there), Decline closes it with an optional reason. A proposal whose version is
 * no longer current cannot be accepted. Buttons and the reason field are reached with Tab.
 * Hidden where the host has no proposals (an older core answering unsupported).
 */
import { useEffect, useState } from 'react';
import type { Proposal } from '../../../shared/api';
import { ApiError, errorMessage } from '../../api/errors';
import { bridge } from '../../state/session';
import { useChanges } from '../useChanges';

type Listing = { state: 'loading' } | { state: 'unsupported' } | { state: 'ready'; proposals: Proposal[] };

const WHAT: Record<Proposal['kind'], string> = { claims: 'claims', keyfacts: 'key facts', scaffold: 'scaffold' };
const MARK: Record<Proposal['diff'][number]['op'], string> = { same: ' ', removed: '−', added: '+' };

function targetOf(p: Proposal): string {
  return p.kind === 'claims' ? `summary ${p.summaryId ?? p.summaryKey} of ${p.docId}` : `document ${p.docId}`;
}

export function ProposalsPanel({ onDecided }: { onDecided?: () => void }) {
  const [listing, setListing] = useState<Listing>({ state: 'loading' });
  const [reasons, setReasons] = useState<Record<number, string>>({});
  const [decided, setDecided] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function refresh() {
    try {
      setListing({ state: 'ready', proposals: await bridge().call('proposals.list', { status: 'pending' }) });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'unsupported') setListing({ state: 'unsupported' });
      else {
        setListing({ state: 'ready', proposals: [] });
        setError(errorMessage(err));
      }
    }
  }

  useEffect(() => {
    void refresh();
  }, []);
  // An annotator's edit (a new proposal) or another lead tab's decision: the list is refetched.
  useChanges(['claims', 'keyfacts', 'scaffold', 'proposals'], () => void refresh(), {
    matches: (event) => event.namespace === 'proposals' || event.what.endsWith('.edit'),
  });

  if (listing.state !== 'ready') return null;

  async function decide(p: Proposal, decision: 'accept' | 'decline') {
    setBusy(true);
    setError(null);
    setDecided(null);
    try {
      const reason = (reasons[p.id] ?? '').trim();
      const result =
        decision === 'accept'
          ? await bridge().call('proposals.accept', { id: p.id })
          : await bridge().call('proposals.decline', { id: p.id, ...(reason ? { note: reason } : {}) });
      setDecided(
        result.status === 'accepted'
          ? `Proposal ${p.id} accepted: version ${result.resultVersion} of the ${WHAT[p.kind]} of ${targetOf(p)} is current for everyone.`
          : `Proposal ${p.id} declined; ${p.author} sees it declined.`,
      );
      await refresh();
      onDecided?.();
    } catch (err) {
      setError(`Proposal ${p.id}: ${errorMessage(err)}`);
      await refresh();
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="panel" aria-labelledby="proposals-title" data-testid="proposals-panel">
      <h2 id="proposals-title">Proposals</h2>
      <p className="muted small">
        An annotator link&apos;s edit of claims, key facts or a scaffold waits here: nobody labels against it until you
        accept it.
      </p>
      {error && (
        <p className="field-error" role="alert" data-testid="proposals-error">
          {error}
        </p>
      )}
      {decided && (
        <p className="notice" role="status" data-testid="proposals-decided">
          {decided}
        </p>
      )}
      {listing.proposals.length === 0 ? (
        <p className="muted" data-testid="proposals-empty">
          No pending proposals.
        </p>
      ) : (
        <ul className="proposal-list" aria-label="Pending proposals">
          {listing.proposals.map((p) => (
            <li key={p.id} className="proposal" data-testid={`proposal-${p.id}`} data-kind={p.kind}>
              <p>
                <strong>{p.author}</strong> proposes the {WHAT[p.kind]} of {targetOf(p)} ({p.dataset}), made on version{' '}
                {p.baseVersion ?? 'none'}
                <span className="muted"> · {new Date(p.createdAt).toLocaleString()}</span>
              </p>
              {p.note && <p className="muted small">Note: {p.note}</p>}
              {p.stale && (
                <p className="field-error" data-testid={`proposal-stale-${p.id}`}>
                  Version {p.currentVersion ?? 'none'} is current now: this proposal cannot be accepted. Decline it and
                  ask {p.author} to propose again.
                </p>
              )}
              <ol
                className="proposal-diff mono"
                aria-label={`Changes against version ${p.baseVersion ?? 'none'}`}
                data-testid={`proposal-diff-${p.id}`}
              >
                {p.diff.map((line, at) => (
                  <li key={at} className={`diff-${line.op}`} data-op={line.op}>
                    <span aria-hidden="true">{MARK[line.op]} </span>
                    <span className="visually-hidden">{line.op === 'same' ? 'unchanged: ' : `${line.op}: `}</span>
                    {line.text}
                  </li>
                ))}
              </ol>
              <div className="form-row">
                <button
                  type="button"
                  className="primary"
                  disabled={busy || p.stale}
                  onClick={() => void decide(p, 'accept')}
                  data-testid={`proposal-accept-${p.id}`}
                  aria-label={`Accept proposal ${p.id} by ${p.author}`}
                >
                  Accept
                </button>
                <label className="form-field">
                  <span>Reason (optional)</span>
                  <input
                    type="text"
                    value={reasons[p.id] ?? ''}
                    maxLength={2000}
                    onChange={(event) => setReasons({ ...reasons, [p.id]: event.target.value })}
                    data-testid={`proposal-reason-${p.id}`}
                  />
                </label>
                <button
                  type="button"
                  disabled={busy}
                  onClick={() => void decide(p, 'decline')}
                  data-testid={`proposal-decline-${p.id}`}
                  aria-label={`Decline proposal ${p.id} by ${p.author}`}
                >
                  Decline
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
