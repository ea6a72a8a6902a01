/**
 * Annotate: document left, summary right, one key per decision. The view only wires keys and
 * components to the annotation store; the rules (durability, order, undo) live in the store.
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { AnnotationSummary, AnnotationUnit } from '../../shared/api';
import type { ErrorType } from '../../shared/domain';
import { closestPassages, indexDocument, type Passage } from '../alignment';
import { commandForKey, isActivatable, isTypingTarget, type AnnotateCommand } from '../keyboard';
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
  openSummary,
  previousSummary,
  redo,
  saveNote,
  selectUnit,
  setErrorType,
  startSession,
  undo,
  useAnnotation,
} from '../state/annotation';
import { showView, useSession } from '../state/session';
import { ErrorBanner } from '../components/ErrorBanner';
import { CurrentUnit } from '../components/annotate/CurrentUnit';
import { DocumentView } from '../components/annotate/DocumentView';
import { ErrorTypePicker } from '../components/annotate/ErrorTypePicker';
import { HelpOverlay } from '../components/annotate/HelpOverlay';
import { KeyLegend } from '../components/annotate/KeyLegend';
import { MissingDocument } from '../components/annotate/MissingDocument';
import { NoteEditor } from '../components/annotate/NoteEditor';
import { QueueList } from '../components/annotate/QueueList';
import { SummaryText } from '../components/annotate/SummaryText';
import { UnitList } from '../components/annotate/UnitList';

type Overlay =
  | { kind: 'none' }
  | { kind: 'help' }
  /** `position`: the unit the picker or editor acts on, fixed when it opened. */
  | { kind: 'error-type'; position: number }
  | { kind: 'note'; position: number };

const NO_OVERLAY: Overlay = { kind: 'none' };

const NO_PASSAGES: readonly Passage[] = Object.freeze([]);

export function AnnotateView() {
  const annotator = useSession((state) => state.annotator);
  const projectPath = useSession((state) => state.info?.project?.path ?? '');
  const { status, queue, position, summary, unitPosition, busy, error } = useAnnotation(
    useShallow((state) => ({
      status: state.status,
      queue: state.queue,
      position: state.position,
      summary: state.summary,
      unitPosition: state.unitPosition,
      busy: state.busy,
      error: state.error,
    })),
  );
  const [overlay, setOverlay] = useState<Overlay>(NO_OVERLAY);
  const closeOverlay = useCallback(() => setOverlay(NO_OVERLAY), []);

  // A nav button keeps focus after the click that brought us here; Space would press it again.
  useEffect(() => {
    if (document.activeElement instanceof HTMLElement && document.activeElement !== document.body) document.activeElement.blur();
  }, []);

  useEffect(() => {
    if (annotator) void startSession(`${projectPath}\u0000${annotator}`);
  }, [annotator, projectPath]);

  const unit: AnnotationUnit | undefined = summary?.units[unitPosition];
  const passages = useClosestPassages(summary, unit);
  const labelingEnabled = canLabel(summary);

  useAnnotateKeys(overlay.kind === 'none', (command, pressedAt) => {
    switch (command.type) {
      case 'label':
        if (labelingEnabled) void labelCurrent(command.label, pressedAt);
        return;
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
        });
      case 'note':
        return void afterPending(() => {
          const state = useAnnotation.getState();
          if (canLabel(state.summary) && currentUnit(state)) setOverlay({ kind: 'note', position: state.unitPosition });
        });
      case 'clear':
        if (labelingEnabled) void clearCurrent();
        return;
      case 'undo':
        return void undo();
      case 'redo':
        return void redo();
      case 'help':
        return setOverlay({ kind: 'help' });
      case 'project':
        return showView('project');
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
        <p className="empty-title">No summaries sampled for you yet — draw a sample in the Project view (S)</p>
        <button type="button" className="primary" onClick={() => showView('project')}>
          Go to Project view
        </button>
      </div>
    );
  }

  const allLabeled = summary !== null && summary.units.length > 0 && summary.units.every((u) => u.state.label !== null);
  const atLastUnit = summary !== null && unitPosition === summary.units.length - 1;
  const unlabeledLeft = summary ? summary.units.filter((u) => u.state.label === null).length : 0;

  return (
    <div className="annotate" data-busy={busy > 0 ? 'true' : 'false'}>
      <aside className="queue-pane">
        <h2 className="pane-title">
          Queue <span className="muted">({queue.length.toLocaleString()})</span>
        </h2>
        <QueueList items={queue} position={position} onOpen={(index) => void openSummary(index)} />
      </aside>

      <section className="document-pane" aria-label="Document">
        <header className="pane-head">
          <h2 className="pane-title">Document {summary && <code>{summary.docId}</code>}</h2>
          {summary?.document != null && unit && (
            <span className="passage-legend" data-testid="passage-legend">
              {passages.length > 0 ? (
                <>
                  <mark className="passage passage-rank-0">closest passages</mark> to the current sentence (word overlap, not a
                  verdict)
                </>
              ) : (
                'no passage shares enough words with the current sentence'
              )}
            </span>
          )}
        </header>
        {summary === null ? (
          <p className="muted">Loading…</p>
        ) : summary.document === null ? (
          <MissingDocument key={summary.key} docId={summary.docId} busy={busy > 0} onAttach={(text) => void attachDocument(text)} />
        ) : (
          <DocumentView text={summary.document} passages={passages} />
        )}
      </section>

      <section className="summary-pane" aria-label="Summary">
        <ErrorBanner message={error} onDismiss={dismissError} />
        {summary && (
          <>
            <header className="pane-head">
              <h2 className="pane-title">
                Summary <code>{summary.summaryId}</code> <span className="muted">{summary.dataset}</span>
              </h2>
              <span className="muted" data-testid="summary-position">
                {position !== null ? `${position + 1} of ${queue.length.toLocaleString()}` : ''}
              </span>
              {busy > 0 && (
                <span className="saving" data-testid="saving">
                  saving…
                </span>
              )}
            </header>
            <SummaryText summary={summary.summary} units={summary.units} currentId={unit?.id ?? null} onSelect={onSelectUnit} />
            {unit && <CurrentUnit unit={unit} total={summary.units.length} />}
            {!labelingEnabled && summary.document === null && (
              <p className="notice" data-testid="labeling-disabled">
                Labeling is disabled until the document is attached.
              </p>
            )}
            {allLabeled && atLastUnit && (
              <p className="notice notice-done" data-testid="summary-done">
                Summary done — <kbd>Enter</kbd> for next
              </p>
            )}
            {!allLabeled && atLastUnit && labelingEnabled && unit?.state.label != null && (
              <p className="notice" data-testid="summary-unfinished">
                Last sentence — {unlabeledLeft} still unlabeled above (<kbd>K</kbd> to go back)
              </p>
            )}
            <UnitList units={summary.units} currentPosition={unitPosition} onSelect={onSelectUnit} />
          </>
        )}
      </section>

      <KeyLegend labelingDisabled={!labelingEnabled} />

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
      {overlay.kind === 'help' && <HelpOverlay onClose={closeOverlay} />}
    </div>
  );
}

/** The document index is built once per document; each unit change only queries it. */
function useClosestPassages(summary: AnnotationSummary | null, unit: AnnotationUnit | undefined): readonly Passage[] {
  const document = summary?.document ?? null;
  const index = useMemo(() => (document ? indexDocument(document) : null), [document]);
  const text = unit?.text ?? null;
  const unitId = unit?.id ?? null;
  return useMemo(
    () => (index && text ? closestPassages(index, text) : NO_PASSAGES),
    // unitId: two identical sentences in one summary still count as a move (scroll again).
    [index, text, unitId],
  );
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
