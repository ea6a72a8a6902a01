/** Right side: the summary in context, the sentence being judged, where it stands, all sentences. */
import type { AnnotationSummary } from '../../../shared/api';
import { CurrentUnit } from './CurrentUnit';
import { SummaryText } from './SummaryText';
import { UnitList } from './UnitList';

interface SummaryPaneProps {
  summary: AnnotationSummary;
  unitPosition: number;
  /** 1-based place in the queue and the queue's length, for "3 of 25". */
  place: { at: number | null; of: number };
  busy: boolean;
  onSelect: (position: number) => void;
}

export function SummaryPane({ summary, unitPosition, place, busy, onSelect }: SummaryPaneProps) {
  const unit = summary.units[unitPosition];
  return (
    <>
      <header className="pane-head">
        <h2 className="pane-title">
          Summary <code>{summary.summaryId}</code> <span className="muted">{summary.dataset}</span>
        </h2>
        <span className="muted" data-testid="summary-position">
          {place.at !== null ? `${place.at} of ${place.of.toLocaleString()}` : ''}
        </span>
        {busy && (
          <span className="saving" data-testid="saving" role="status">
            saving…
          </span>
        )}
      </header>
      <SummaryText summary={summary.summary} units={summary.units} currentId={unit?.id ?? null} onSelect={onSelect} />
      {unit && <CurrentUnit unit={unit} total={summary.units.length} />}
      <SummaryStatus summary={summary} unitPosition={unitPosition} />
      <UnitList units={summary.units} currentPosition={unitPosition} onSelect={onSelect} />
    </>
  );
}

/** Why keys do nothing (missing document) or what to do next (summary finished). */
function SummaryStatus({ summary, unitPosition }: { summary: AnnotationSummary; unitPosition: number }) {
  if (summary.document === null) {
    return (
      <p className="notice" data-testid="labeling-disabled">
        Labeling is disabled until the document is attached.
      </p>
    );
  }
  const atLastUnit = unitPosition === summary.units.length - 1;
  const unlabeled = summary.units.filter((unit) => unit.state.label === null).length;
  if (!atLastUnit || summary.units.length === 0) return null;
  if (unlabeled === 0) {
    return (
      <p className="notice notice-done" data-testid="summary-done" role="status">
        Summary done — <kbd>Enter</kbd> for next
      </p>
    );
  }
  if (summary.units[unitPosition]?.state.label == null) return null;
  return (
    <p className="notice" data-testid="summary-unfinished" role="status">
      Last sentence — {unlabeled} still unlabeled above (<kbd>K</kbd> to go back)
    </p>
  );
}
