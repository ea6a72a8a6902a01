/**
 * Merge annotators' copies (teams without a server): desktop only, as it reads project
 * files from disk (`loupe serve` has no such method; the CLI has `loupe merge`). Picks several
 * .loupe files, merges each (all of it or nothing) and shows what each file brought or why it
 * was refused.
 */
import { useState } from 'react';
import type { MergeFileResult } from '../../../shared/api';
import { bridge, useSession } from '../../state/session';

export function MergePanel({ onMerged }: { onMerged: () => void }) {
  const fileDialogs = useSession((state) => state.info?.fileDialogs ?? false);
  const [running, setRunning] = useState(false);
  const [results, setResults] = useState<MergeFileResult[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (!fileDialogs) return null;

  async function merge() {
    setError(null);
    try {
      const { paths } = await bridge().call('dialog.openProjects', {});
      if (paths.length === 0) return;
      setRunning(true);
      setResults(await bridge().call('merge.projects', { paths }));
      onMerged();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setRunning(false);
    }
  }

  return (
    <section className="panel" aria-labelledby="merge-title">
      <h2 id="merge-title">Merge annotators’ copies</h2>
      <p className="muted">
        Bring in the labels made offline in copies of this project (or assignment files made from it). Merging the same
        file again adds nothing; a file whose sentences differ from this project’s is refused whole.
      </p>
      <div className="form-row">
        <button
          type="button"
          className="primary"
          disabled={running}
          onClick={() => void merge()}
          data-testid="merge-choose"
        >
          {running ? 'Merging…' : 'Merge annotators’ copies…'}
        </button>
      </div>
      {error && (
        <div className="error-banner" role="alert" data-testid="merge-error">
          <span className="error-text">{error}</span>
        </div>
      )}
      {results && (
        <table className="data-table" data-testid="merge-results">
          <thead>
            <tr>
              <th>File</th>
              <th>Events added</th>
              <th>Already present</th>
              <th>Annotators</th>
              <th>Problems</th>
            </tr>
          </thead>
          <tbody>
            {results.map((r) => (
              <tr key={r.path} data-testid="merge-result" data-merged={r.merged}>
                <td>{r.path}</td>
                <td>{r.eventsAdded}</td>
                <td>{r.eventsPresent}</td>
                <td>
                  {r.annotators.join(', ') || '—'}
                  {r.annotatorsAdded.length > 0 && (
                    <span className="muted"> (new: {r.annotatorsAdded.join(', ')})</span>
                  )}
                </td>
                <td>
                  {r.problems.length === 0 ? (
                    'none'
                  ) : (
                    <>
                      <strong>not merged</strong>
                      <ul className="notes">
                        {r.problems.map((p, i) => (
                          <li key={i}>{p}</li>
                        ))}
                      </ul>
                    </>
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
