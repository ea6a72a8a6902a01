/** Right side: the summary in context, the sentence being judged, where it stands, all sentences. */
import type { AnnotationSummary } from '../../../shared/api';
import { useAnnotation } from '../../state/annotation';
import { formatCount } from '../../format';
import { CurrentUnit } from './CurrentUnit';
import { SummaryText } from './SummaryText';
import { UnitList } from './UnitList';

interface SummaryPaneProps {
  summary: AnnotationSummary;
  unitPosition: number;
  /** 1-based place in the queue and the queue's length, for "3 of 25". */
  place: { at: number | null; of: number };
  /** Units whose label is still being written, and those whose write failed. */
  saving: ReadonlyMap<number, number>;
  failed: ReadonlySet<number>;
  /** The annotator opened a view that showed this summary's judge output: labels here are not blind. */
  revealed: boolean;
  /** No other summary of the queue has work left. */
  sampleComplete: boolean;
  onSelect: (position: number) => void;
}

export function SummaryPane({
  summary,
  unitPosition,
  place,
  saving,
  failed,
  revealed,
  sampleComplete,
  onSelect,
}: SummaryPaneProps) {
  const unit = summary.units[unitPosition];
  return (
    <>
      <header className="pane-head">
        <h2 className="pane-title">
          Summary <code>{summary.summaryId}</code> <span className="muted">{summary.dataset}</span>
        </h2>
        <span className="muted" data-testid="summary-position">
          {place.at !== null ? `${place.at} of ${formatCount(place.of)}` : ''}
        </span>
        <PendingStatus />
      </header>
      {revealed && (
        <p className="notice notice-revealed" data-testid="revealed-mark" role="note">
          revealed: your labels here are not blind (you opened a view with judge verdicts for this summary before
          finishing it)
        </p>
      )}
      <SummaryText summary={summary.summary} units={summary.units} currentId={unit?.id ?? null} onSelect={onSelect} />
      {unit && (
        <CurrentUnit
          unit={unit}
          total={summary.units.length}
          saving={saving.has(unit.id)}
          failed={failed.has(unit.id)}
        />
      )}
      <SummaryStatus summary={summary} unitPosition={unitPosition} sampleComplete={sampleComplete} />
      <UnitList
        units={summary.units}
        currentPosition={unitPosition}
        onSelect={onSelect}
        saving={saving}
        failed={failed}
      />
    </>
  );
}

/**
 * "saving…" while a command runs or a label is being written. Subscribed on its own: the command
 * lane's busy count changes twice per keypress, and the whole view rendering again for it cost
 * the keypress a render.
 */
function PendingStatus() {
  const pending = useAnnotation((state) => state.busy > 0 || state.saving.size > 0);
  if (!pending) return null;
  return (
    <span className="saving" data-testid="saving" role="status">
      saving…
    </span>
  );
}

/** Why keys do nothing (missing document) or what to do next (summary finished). */
function SummaryStatus({
  summary,
  unitPosition,
  sampleComplete,
}: {
  summary: AnnotationSummary;
  unitPosition: number;
  sampleComplete: boolean;
}) {
  if (summary.document === null) {
    return (
      <p className="notice" data-testid="labeling-disabled">
        Labeling is disabled until the document is attached.
      </p>
    );
  }
  const atLastUnit = unitPosition === summary.units.length - 1;
  const unlabeled = summary.units.filter((unit) => unit.state.label === null).length;
  if (summary.units.length === 0) return null;
  if (unlabeled === 0 && sampleComplete) {
    return (
      <p className="notice notice-done" data-testid="sample-complete" role="status">
        Sample complete: every summary of your queue that can be labeled is labeled. <kbd>P</kbd> and the queue go back
        to any of them; undo still works.
      </p>
    );
  }
  if (!atLastUnit) return null;
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
