/**
 * The lead's view of a document's scaffold versions while editing it: who made each, from which
 * version, its facts / questions / attributes, and how many alignment events it holds (alignments
 * stay on their version). scaffold.versions is the lead's: an annotator link never calls it.
 */
import { useEffect, useState } from 'react';
import type { ScaffoldVersion } from '../../../shared/contract/scaffold';
import { errorMessage } from '../../api/errors';
import { bridge } from '../../state/session';

export function ScaffoldVersionHistory({ documentKey }: { documentKey: number }) {
  const [versions, setVersions] = useState<ScaffoldVersion[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    bridge()
      .call('scaffold.versions', { documentKey })
      .then(
        (loaded) => live && setVersions(loaded),
        (err) => live && setError(errorMessage(err)),
      );
    return () => {
      live = false;
    };
  }, [documentKey]);
  if (error) return <p className="muted">Versions: {error}</p>;
  if (!versions || versions.length === 0) return null;
  const countOf = (v: ScaffoldVersion, kind: string) => v.items.filter((i) => i.kind === kind).length;
  return (
    <table className="data-table version-history" data-testid="scaffold-version-history">
      <caption>Versions (every alignment stays on the version it was given on)</caption>
      <thead>
        <tr>
          <th className="num">Version</th>
          <th>Made by</th>
          <th className="num">From</th>
          <th className="num">Facts (main)</th>
          <th className="num">Questions</th>
          <th className="num">Attributes</th>
          <th className="num">Alignment events</th>
        </tr>
      </thead>
      <tbody>
        {versions.map((v) => (
          <tr key={v.version} data-testid="scaffold-version-row">
            <td className="num">{v.version}</td>
            <td>
              {v.source} <code>{v.createdBy ?? v.extractor}</code>
            </td>
            <td className="num">{v.basedOnVersion ?? '—'}</td>
            <td className="num">
              {countOf(v, 'fact')} ({v.items.filter((i) => i.kind === 'fact' && i.tier === 'main').length})
            </td>
            <td className="num">{countOf(v, 'question')}</td>
            <td className="num">{countOf(v, 'attribute')}</td>
            <td className="num">{v.alignmentEvents}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
