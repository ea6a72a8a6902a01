import type { AnnotatorActivity } from '../../../shared/api';
import { formatCount, nonZeroCounts, plural } from '../../format';

function seconds(ms: number | null): string {
  return ms === null ? '—' : `${(ms / 1000).toFixed(1)} s`;
}

const day = (iso: string) => iso.slice(0, 10);

/** "2026-11-01 – 2026-11-03", one day alone, or "not yet" for someone who has labeled nothing. */
function active(a: AnnotatorActivity): string {
  if (a.firstAt === null || a.lastAt === null) return 'not yet';
  return day(a.firstAt) === day(a.lastAt) ? day(a.firstAt) : `${day(a.firstAt)} – ${day(a.lastAt)}`;
}

/** The labels other than sentences a person or a label set holds: "144 key-fact labels", or "none". */
function otherLabels(a: AnnotatorActivity): string {
  const parts = nonZeroCounts([
    [a.claimLabels, 'claim label'],
    [a.keyFactLabels, 'key-fact label'],
    [a.scaffoldAlignments, 'scaffold alignment'],
  ]);
  return parts.length > 0 ? parts.join(', ') : 'none';
}

/** Every label a set holds, by kind: "191 sentence labels", "107 key-fact labels". */
function allLabels(a: AnnotatorActivity): string {
  const other = otherLabels(a);
  if (a.annotationLabels === 0) return other === 'none' ? 'no labels' : other;
  const sentences = plural(a.annotationLabels, 'sentence label');
  return other === 'none' ? sentences : `${sentences}, ${other}`;
}

/**
 * The project's people: who labeled how much (sentences, claims, key facts, scaffold items), how
 * long a decision takes them, and how many decisions were implausibly fast (counts only; never
 * whose label was what). Imported label sets (a benchmark's annotators, e.g. FRANK's or
 * REALSumm's) are listed apart: they hold labels but take no decisions here, so no times.
 */
export function AnnotatorsTable({ annotators, fastMs }: { annotators: readonly AnnotatorActivity[]; fastMs: number }) {
  if (annotators.length === 0) {
    return (
      <p className="muted" data-testid="annotators-empty">
        No annotators yet — whoever starts annotating (or an imported labels file) appears here.
      </p>
    );
  }
  const people = annotators.filter((a) => a.kind === 'person');
  const imported = annotators.filter((a) => a.kind === 'imported');
  return (
    <>
      {people.length > 0 ? (
        <table className="data-table" data-testid="annotators">
          <thead>
            <tr>
              <th>Annotator</th>
              <th className="num">Sentences labeled</th>
              <th>Claims, key facts, scaffold</th>
              <th className="num">Review decisions</th>
              <th className="num">Median time per decision</th>
              <th
                className="num"
                title={`Keypress decisions under ${fastMs / 1000} s: too fast to read a sentence against its document`}
              >
                Fast decisions
              </th>
              <th>Active</th>
            </tr>
          </thead>
          <tbody>
            {people.map((a) => (
              <tr key={a.name} data-testid={`annotator-${a.name}`}>
                <td>{a.name}</td>
                <td className="num">{formatCount(a.annotationLabels)}</td>
                <td data-testid={`annotator-other-${a.name}`}>{otherLabels(a)}</td>
                <td className="num">{formatCount(a.reviewDecisions)}</td>
                <td className="num" title={plural(a.timedDecisions, 'timed decision')}>
                  {seconds(a.medianMsPerDecision)}
                </td>
                <td className={a.fastDecisions > 0 ? 'num warn' : 'num'} data-testid={`annotator-fast-${a.name}`}>
                  {a.timedDecisions === 0 ? '—' : `${formatCount(a.fastDecisions)} of ${formatCount(a.timedDecisions)}`}
                </td>
                <td data-testid={`annotator-active-${a.name}`}>{active(a)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted" data-testid="annotators-no-people">
          No one of the project has labeled yet; only imported label sets so far.
        </p>
      )}
      {imported.length > 0 && (
        <>
          <h3 className="panel-subtitle">Imported label sets</h3>
          <p className="muted small">
            Labels a benchmark import brought, read-only: they count as the reference where the analysis says so.
          </p>
          <table className="data-table" data-testid="annotators-imported">
            <thead>
              <tr>
                <th>Label set</th>
                <th>Labels</th>
                <th>Imported</th>
              </tr>
            </thead>
            <tbody>
              {imported.map((a) => (
                <tr key={a.name} data-testid={`label-set-${a.name}`}>
                  <td>{a.name}</td>
                  <td data-testid={`label-set-labels-${a.name}`}>{allLabels(a)}</td>
                  <td>{a.firstAt === null ? '—' : day(a.firstAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </>
  );
}
