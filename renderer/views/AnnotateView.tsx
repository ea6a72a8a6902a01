/**
 * Annotate: document left, summary right, one key per decision. The view only wires keys and
 * components to the annotation store; the rules (durability, order, undo) live in the store.
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { AnnotationSummary, AnnotationUnit } from '../../shared/api';
import type { ErrorType } from '../../shared/domain';
import { annotateLegend, commandForKey, isActivatable, isTypingTarget, type AnnotateCommand } from '../keyboard';
import { LABEL_NAME } from '../labels';
import {
  afterPending,
  attachDocument,
  canLabel,
  clearCurrent,
  currentUnit,
  errorTypeTarget,
  dismissError,
  labelCurrent,
  moveUnit,
  nextSummary,
  nextWithWork,
  openSummary,
  previousSummary,
  redo,
  saveNote,
  selectUnit,
  setAnnotationNotice,
  setErrorType,
  startSession,
  undo,
  useAnnotation,
} from '../state/annotation';
import { showView, useSession } from '../state/session';
import { ErrorBanner } from '../components/ErrorBanner';
import { AnnotateDocument } from '../components/annotate/AnnotateDocument';
import { ErrorTypePicker } from '../components/annotate/ErrorTypePicker';
import { HelpOverlay } from '../components/annotate/HelpOverlay';
import { KeyLegend } from '../components/annotate/KeyLegend';
import { NoteEditor } from '../components/annotate/NoteEditor';
import { QueueList } from '../components/annotate/QueueList';
import { formatCount } from '../format';
import { SummaryPane } from '../components/annotate/SummaryPane';
import { useReleaseFocus } from '../components/useReleaseFocus';
import { AccuracyOverlays, NO_ACCURACY_OVERLAY, openAccuracyCommand, type AccuracyOverlay } from '../components/accuracy/AccuracyOverlays';
import { ClaimsPane } from '../components/accuracy/ClaimsPane';
import { KeyFactsPane } from '../components/accuracy/KeyFactsPane';
import { UnitModeBar } from '../components/accuracy/UnitModeBar';
import { dismissAccuracyError, selectClaim, selectFact, setAccuracyNotice, setUnitMode, showItems, useAccuracy } from '../state/accuracy';
import { ScaffoldPane } from '../components/scaffold/ScaffoldPane';
import { NO_SCAFFOLD_OVERLAY, openScaffoldCommand, ScaffoldOverlays, type ScaffoldOverlay } from '../components/scaffold/ScaffoldCommands';
import { dismissScaffoldError, selectScaffoldItem, setScaffoldNotice, showScaffold, useScaffold } from '../state/scaffold';

type Overlay =
  | { kind: 'none' }
  | { kind: 'help' }
  /** `position`: the unit the picker or editor acts on, fixed when it opened. */
  | { kind: 'error-type'; position: number }
  | { kind: 'note'; position: number };

const NO_OVERLAY: Overlay = { kind: 'none' };

export function AnnotateView() {
  const annotator = useSession((state) => state.annotator);
  const projectPath = useSession((state) => state.info?.project?.path ?? '');
  const annotatorLink = useSession((state) => state.info?.role === 'annotator');
  const accuracy = useAccuracy(
    useShallow((state) => ({
      mode: state.mode,
      claims: state.claims,
      claimPosition: state.claimPosition,
      facts: state.facts,
      factPosition: state.factPosition,
      saving: state.saving,
      failed: state.failed,
      kept: state.kept,
      notice: state.notice,
      error: state.error,
    })),
  );
  const mode = accuracy.mode;
  const legend = useMemo(() => annotateLegend(annotatorLink, mode), [annotatorLink, mode]);
  const [accuracyOverlay, setAccuracyOverlay] = useState<AccuracyOverlay>(NO_ACCURACY_OVERLAY);
  const closeAccuracyOverlay = useCallback(() => setAccuracyOverlay(NO_ACCURACY_OVERLAY), []);
  const scaffold = useScaffold(
    useShallow((state) => ({ scaffold: state.scaffold, position: state.position, saving: state.saving, failed: state.failed, kept: state.kept, notice: state.notice, error: state.error })),
  );
  const [scaffoldOverlay, setScaffoldOverlay] = useState<ScaffoldOverlay>(NO_SCAFFOLD_OVERLAY);
  const closeScaffoldOverlay = useCallback(() => setScaffoldOverlay(NO_SCAFFOLD_OVERLAY), []);
  // Not the busy count: it changes twice per keypress (see useBusyAttribute, PendingStatus).
  const { status, queue, position, summary, unitPosition, saving, failed, revealed, notice, error } = useAnnotation(
    useShallow((state) => ({
      status: state.status,
      queue: state.queue,
      position: state.position,
      summary: state.summary,
      unitPosition: state.unitPosition,
      saving: state.saving,
      failed: state.failed,
      revealed: state.revealed,
      notice: state.notice,
      error: state.error,
    })),
  );
  const attaching = useAnnotation((state) => state.busy > 0 && state.summary !== null && state.summary.document === null);
  const root = useBusyAttribute();
  const [overlay, setOverlay] = useState<Overlay>(NO_OVERLAY);
  const closeOverlay = useCallback(() => setOverlay(NO_OVERLAY), []);

  useReleaseFocus();

  useEffect(() => {
    if (annotator) void startSession(`${projectPath}\u0000${annotator}`);
    // Claims or key facts on screen when the view opens again (a run may have made new ones).
    if (annotator) void showItems();
    if (annotator) void showScaffold();
  }, [annotator, projectPath]);

  const unit: AnnotationUnit | undefined = summary?.units[unitPosition];

  useAnnotateKeys(overlay.kind === 'none' && accuracyOverlay.kind === 'none' && scaffoldOverlay.kind === 'none', (command, pressedAt) => {
    // A notice says why the last key did nothing: the next key replaces it.
    if (command.type !== 'error-type' && useAnnotation.getState().notice !== null) setAnnotationNotice(null);
    if (command.type !== 'error-type' && useAccuracy.getState().notice !== null) setAccuracyNotice(null);
    if (command.type !== 'error-type' && useScaffold.getState().notice !== null) setScaffoldNotice(null);
    // The scaffold: its own items, the same keys plus R/4 (renderer/state/scaffold.ts).
    if (mode === 'scaffold' && command.type !== 'unit-mode' && openScaffoldCommand(command, pressedAt, setScaffoldOverlay)) return;
    // Claims and key facts: their own items, the same keys (renderer/state/accuracy.ts).
    if (openAccuracyCommand(command, mode, pressedAt, setAccuracyOverlay)) return;
    if (command.type === 'help') return setOverlay({ kind: 'help' });
    switch (command.type) {
      // The store re-checks at its turn: the summary may change before a queued key runs.
      case 'label':
        return void labelCurrent(command.label, pressedAt);
      case 'next-unit':
        return void moveUnit(1);
      case 'previous-unit':
        return void moveUnit(-1);
      case 'next-summary':
        return void nextSummary();
      case 'previous-summary':
        return void previousSummary();
      case 'error-type':
        return void afterPending(() => {
          const position = errorTypeTarget();
          if (position !== null) setOverlay({ kind: 'error-type', position });
          else setAnnotationNotice(whyNoErrorType(useAnnotation.getState().summary, useAnnotation.getState().unitPosition));
        });
      case 'note':
        return void afterPending(() => {
          const state = useAnnotation.getState();
          if (canLabel(state.summary) && currentUnit(state)) setOverlay({ kind: 'note', position: state.unitPosition });
        });
      case 'clear':
        return void clearCurrent();
      case 'undo':
        return void undo();
      case 'redo':
        return void redo();
      case 'edit-set':
        return setAccuracyNotice('W edits claims, key facts or the scaffold: press T to switch to them first.');
      case 'misrepresented':
        return setAccuracyNotice('R / 4 marks a scaffold fact or attribute Misrepresented: press T to reach the scaffold first.');
    }
  });

  const overlayPosition = overlay.kind === 'error-type' || overlay.kind === 'note' ? overlay.position : -1;
  const overlayUnit = summary?.units[overlayPosition];
  const chooseErrorType = useCallback(
    (errorType: ErrorType | null) => {
      setOverlay(NO_OVERLAY);
      void setErrorType(overlayPosition, errorType);
    },
    [overlayPosition],
  );
  const onSelectUnit = useCallback((index: number) => void selectUnit(index), []);
  // Stable, so the memoised queue and document skip a label keypress (issue 9 item 5).
  const onOpenSummary = useCallback((index: number) => void openSummary(index), []);
  const onAttach = useCallback((text: string) => void attachDocument(text), []);
  const sampleComplete = useMemo(() => nextWithWork(queue, position ?? -1) === null, [queue, position]);

  if (status !== 'ready' && queue.length === 0) {
    return (
      <div className="annotate-empty">
        <ErrorBanner message={error} onDismiss={dismissError} />
        <p className="muted">{status === 'loading' ? 'Loading your queue…' : ''}</p>
      </div>
    );
  }

  if (queue.length === 0) {
    return (
      <div className="annotate-empty" data-testid="queue-empty">
        <ErrorBanner message={error} onDismiss={dismissError} />
        {annotatorLink ? (
          <p className="empty-title">No summaries sampled for you yet: ask the project lead to draw a sample for {annotator}.</p>
        ) : (
          <>
            <p className="empty-title">No summaries sampled for you yet — draw a sample in the Project view (S)</p>
            <button type="button" className="primary" onClick={() => showView('project')}>
              Go to Project view
            </button>
          </>
        )}
      </div>
    );
  }

  return (
    <div className="annotate" ref={root}>
      <aside className="queue-pane">
        <h2 className="pane-title">
          Queue <span className="muted">({formatCount(queue.length)})</span>
        </h2>
        <QueueList items={queue} position={position} onOpen={onOpenSummary} />
      </aside>

      <AnnotateDocument
        summaryKey={summary?.key ?? null}
        docId={summary?.docId ?? ''}
        document={summary?.document ?? null}
        unitText={unit?.text ?? null}
        unitId={unit?.id ?? null}
        busy={attaching}
        onAttach={onAttach}
      />

      <section className="summary-pane" aria-label="Summary">
        <ErrorBanner message={error} onDismiss={dismissError} />
        <ErrorBanner message={accuracy.error} onDismiss={dismissAccuracyError} />
        <ErrorBanner message={scaffold.error} onDismiss={dismissScaffoldError} />
        <UnitModeBar mode={mode} onChoose={(next) => void setUnitMode(next)} />
        {summary && mode === 'claims' && (
          <ClaimsPane
            summary={summary}
            claims={accuracy.claims}
            position={accuracy.claimPosition}
            saving={accuracy.saving}
            failed={accuracy.failed}
            kept={accuracy.kept}
            lead={!annotatorLink}
            onSelect={(at) => void selectClaim(at)}
          />
        )}
        {summary && mode === 'keyfacts' && (
          <KeyFactsPane
            summary={summary}
            facts={accuracy.facts}
            position={accuracy.factPosition}
            saving={accuracy.saving}
            failed={accuracy.failed}
            kept={accuracy.kept}
            lead={!annotatorLink}
            onSelect={(at) => void selectFact(at)}
          />
        )}
        {summary && mode === 'scaffold' && (
          <ScaffoldPane
            summary={summary}
            scaffold={scaffold.scaffold}
            position={scaffold.position}
            saving={scaffold.saving}
            failed={scaffold.failed}
            kept={scaffold.kept}
            lead={!annotatorLink}
            onSelect={(at) => void selectScaffoldItem(at)}
          />
        )}
        {summary && mode === 'sentences' && (
          <SummaryPane
            summary={summary}
            unitPosition={unitPosition}
            place={{ at: position !== null ? position + 1 : null, of: queue.length }}
            saving={saving}
            failed={failed}
            revealed={revealed.has(summary.key)}
            sampleComplete={sampleComplete}
            onSelect={onSelectUnit}
          />
        )}
        {(notice ?? accuracy.notice ?? scaffold.notice) && (
          <p className="notice" role="status" data-testid="annotate-notice">
            {notice ?? accuracy.notice ?? scaffold.notice}
          </p>
        )}
      </section>

      <KeyLegend labelingDisabled={!canLabel(summary)} entries={legend} />

      {overlay.kind === 'error-type' && overlayUnit && (
        <ErrorTypePicker unit={overlayUnit} current={overlayUnit.state.errorType} onChoose={chooseErrorType} onClose={closeOverlay} />
      )}
      {overlay.kind === 'note' && overlayUnit && (
        <NoteEditor
          unit={overlayUnit}
          initial={overlayUnit.state.note ?? ''}
          onSave={(text) => {
            setOverlay(NO_OVERLAY);
            void saveNote(overlayPosition, text);
          }}
          onCancel={closeOverlay}
        />
      )}
      {overlay.kind === 'help' && <HelpOverlay onClose={closeOverlay} entries={legend} />}
      <ScaffoldOverlays overlay={scaffoldOverlay} scaffold={scaffold.scaffold} lead={!annotatorLink} onClose={closeScaffoldOverlay} />
      <AccuracyOverlays overlay={accuracyOverlay} claims={accuracy.claims} facts={accuracy.facts} lead={!annotatorLink} onClose={closeAccuracyOverlay} />
    </div>
  );
}

/** E did nothing: say why (an error type belongs to an Unfaithful sentence). */
function whyNoErrorType(summary: AnnotationSummary | null, unitPosition: number): string {
  if (!summary || !canLabel(summary)) return 'E does nothing here: this summary cannot be labeled (its document is missing).';
  const unit = summary.units[unitPosition];
  if (!unit) return 'E sets the error type of an Unfaithful sentence; there is no sentence here.';
  const label = unit.state.label;
  const what = label === null ? 'is not labeled yet' : `is ${LABEL_NAME[label]}`;
  return `E sets the error type of an Unfaithful sentence: sentence ${unit.index + 1} ${what}. Press U first (then E).`;
}

/** The root's data-busy, kept without rendering the view for each change of the busy count. */
function useBusyAttribute(): { readonly current: HTMLDivElement | null } {
  const root = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const show = (busy: number) => root.current?.setAttribute('data-busy', busy > 0 ? 'true' : 'false');
    show(useAnnotation.getState().busy);
    return useAnnotation.subscribe((state, previous) => {
      if (state.busy !== previous.busy) show(state.busy);
    });
  });
  return root;
}

/** Listens on the window while `active`; the handler always sees the latest render's values. */
function useAnnotateKeys(active: boolean, handle: (command: AnnotateCommand, pressedAt: number) => void) {
  const latest = useLatest(handle);
  useEffect(() => {
    if (!active) return;
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || isTypingTarget(event.target)) return;
      if ((event.key === 'Enter' || event.key === ' ') && isActivatable(event.target)) return;
      const command = commandForKey(event);
      if (!command) return;
      // Holding a label key down must not label a run of sentences by accident.
      if (command.type === 'label' && event.repeat) return;
      event.preventDefault();
      latest.current(command, performance.now());
    }
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [active, latest]);
}

function useLatest<T>(value: T): { readonly current: T } {
  const ref = useRef(value);
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}
