import type { AnnotatorActivity } from '../../../shared/api';

function seconds(ms: number | null): string {
  return ms === null ? '—' : `${(ms / 1000).toFixed(1)} s`;
}

function day(iso: string | null): string {
  return iso === null ? '—' : iso.slice(0, 10);
}

/**
 * The annotators' profiles: who labeled how much, how long a decision takes them, and how many
 * decisions were implausibly fast (counts only; never whose label was what).
 */
export function AnnotatorsTable({ annotators, fastMs }: { annotators: readonly AnnotatorActivity[]; fastMs: number }) {
  if (annotators.length === 0) {
    return (
      <p className="muted" data-testid="annotators-empty">
        No annotators yet — whoever starts annotating (or an imported labels file) appears here.
      </p>
    );
  }
  return (
    <table className="data-table" data-testid="annotators">
      <thead>
        <tr>
          <th>Annotator</th>
          <th className="num">Sentences labeled</th>
          <th className="num">Review decisions</th>
          <th className="num">Median time per decision</th>
          <th className="num" title={`Keypress decisions under ${fastMs / 1000} s: too fast to read a sentence against its document`}>
            Fast decisions
          </th>
          <th>Active</th>
        </tr>
      </thead>
      <tbody>
        {annotators.map((a) => (
          <tr key={a.name} data-testid={`annotator-${a.name}`}>
            <td>{a.name}</td>
            <td className="num">{a.annotationLabels.toLocaleString()}</td>
            <td className="num">{a.reviewDecisions.toLocaleString()}</td>
            <td className="num" title={`${a.timedDecisions} timed decisions`}>
              {seconds(a.medianMsPerDecision)}
            </td>
            <td className={a.fastDecisions > 0 ? 'num warn' : 'num'} data-testid={`annotator-fast-${a.name}`}>
              {a.timedDecisions === 0 ? '—' : `${a.fastDecisions} of ${a.timedDecisions}`}
            </td>
            <td>
              {day(a.firstAt)} – {day(a.lastAt)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
