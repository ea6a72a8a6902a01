/** Left side: the document with its closest passages, or the way to attach a missing one. */
import type { AnnotationSummary } from '../../../shared/api';
import type { Passage } from '../../alignment';
import { DocumentView } from './DocumentView';
import { MissingDocument } from './MissingDocument';

interface DocumentPaneProps {
  /** Only what the pane shows of the summary (Annotate passes a memoised object of these). */
  summary: Pick<AnnotationSummary, 'key' | 'docId' | 'document'> | null;
  hasCurrentUnit: boolean;
  passages: readonly Passage[];
  busy: boolean;
  onAttach: (text: string) => void;
}

export function DocumentPane({ summary, hasCurrentUnit, passages, busy, onAttach }: DocumentPaneProps) {
  return (
    <section className="document-pane" aria-label="Document">
      <header className="pane-head">
        <h2 className="pane-title">Document {summary && <code>{summary.docId}</code>}</h2>
        {summary?.document != null && hasCurrentUnit && <PassageLegend found={passages.length > 0} />}
      </header>
      {summary === null ? (
        <p className="muted">Loading…</p>
      ) : summary.document === null ? (
        <MissingDocument key={summary.key} docId={summary.docId} busy={busy} onAttach={onAttach} />
      ) : (
        <DocumentView text={summary.document} passages={passages} />
      )}
    </section>
  );
}

/** Says what the highlight is (and is not): a lexical reading aid, never a verdict. */
function PassageLegend({ found }: { found: boolean }) {
  return (
    <span className="passage-legend" data-testid="passage-legend">
      {found ? (
        <>
          <mark className="passage passage-rank-0">closest passages</mark> to the current sentence (word overlap, not a
          verdict)
        </>
      ) : (
        'no passage shares enough words with the current sentence'
      )}
    </span>
  );
}
