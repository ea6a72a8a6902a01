/**
 * The lead's view of a set's versions while editing it: who made each, from which version, and
 * how many label events it holds (labels stay on their version). claims.versions and
 * keyfacts.versions are the lead's: an annotator link never shows (or calls) this.
 */
import { useEffect, useState } from 'react';
import { errorMessage } from '../../api/errors';
import { bridge } from '../../state/session';

interface Version {
  version: number;
  source: string;
  by: string;
  basedOnVersion: number | null;
  items: number;
  labelEvents: number;
}

export function VersionHistory({
  of,
}: {
  of: { kind: 'claims'; key: number } | { kind: 'keyfacts'; documentKey: number };
}) {
  const [versions, setVersions] = useState<Version[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const id = of.kind === 'claims' ? of.key : of.documentKey;
  useEffect(() => {
    let live = true;
    const load = async (): Promise<Version[]> =>
      of.kind === 'claims'
        ? (await bridge().call('claims.versions', { key: id })).map((v) => ({
            version: v.version,
            source: v.source,
            by: v.decomposer,
            basedOnVersion: v.basedOnVersion,
            items: v.claims.length,
            labelEvents: v.labelEvents,
          }))
        : (await bridge().call('keyfacts.versions', { documentKey: id })).map((v) => ({
            version: v.version,
            source: v.source,
            by: v.extractor,
            basedOnVersion: v.basedOnVersion,
            items: v.facts.length,
            labelEvents: v.labelEvents,
          }));
    load().then(
      (loaded) => live && setVersions(loaded),
      (err) => live && setError(errorMessage(err)),
    );
    return () => {
      live = false;
    };
  }, [of.kind, id]);
  if (error) return <p className="muted">Versions: {error}</p>;
  if (!versions || versions.length === 0) return null;
  return (
    <table className="data-table version-history" data-testid="version-history">
      <caption>Versions (every annotator’s label events stay on the version they were given on)</caption>
      <thead>
        <tr>
          <th className="num">Version</th>
          <th>Made by</th>
          <th className="num">From</th>
          <th className="num">Items</th>
          <th className="num">Label events</th>
        </tr>
      </thead>
      <tbody>
        {versions.map((v) => (
          <tr key={v.version} data-testid="version-row">
            <td className="num">{v.version}</td>
            <td>
              {v.source} <code>{v.by}</code>
            </td>
            <td className="num">{v.basedOnVersion ?? '—'}</td>
            <td className="num">{v.items}</td>
            <td className="num">{v.labelEvents}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
