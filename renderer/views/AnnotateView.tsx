/**
 * Annotate: document left, summary right, one key per decision. The view holds the keys every
 * unit mode shares (summary moves, help, T) and hands the others to the current mode
 * (views/annotate/*Mode.tsx: its legend, commands, pane and overlays); the rules (durability,
 * order, undo) live in the stores.
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { annotateLegend, commandForKey, type AnnotateCommand } from '../keyboard';
import type { KeyPress } from '../keys/dispatcher';
import { useKeyLayer } from '../keys/hooks';
import {
  attachDocument,
  canLabel,
  dismissError,
  nextSummary,
  openSummary,
  previousSummary,
  listedItemAt,
  setAnnotationNotice,
  showQueueAt,
  startSession,
  useAnnotation,
} from '../state/annotation';
import {
  dismissItemsError,
  reloadItemsLater,
  setItemsNotice,
  showItems,
  useClaimsAndKeyFacts,
} from '../state/claimsAndKeyFacts';
import { dismissScaffoldError, reloadScaffold, setScaffoldNotice, showScaffold, useScaffold } from '../state/scaffold';
import { useModeProgress, type ItemCounts } from '../state/modeProgress';
import { isShowing, showView, useSession } from '../state/session';
import { nextUnitMode, setUnitMode, useUnitMode, type UnitMode } from '../state/unitMode';
import { ErrorBanner } from '../components/ErrorBanner';
import { AnnotateDocument } from '../components/annotate/AnnotateDocument';
import { HelpOverlay } from '../components/annotate/HelpOverlay';
import { KeyLegend } from '../components/annotate/KeyLegend';
import { QueueList } from '../components/annotate/QueueList';
import { formatCount } from '../format';
import { useReleaseFocus } from '../components/useReleaseFocus';
import { useChanges } from '../components/useChanges';
import { UnitModeBar } from '../components/accuracy/UnitModeBar';
import { claimsMode, keyFactsMode } from './annotate/itemModes';
import type { AnnotateMode } from './annotate/mode';
import { AnnotateOverlay, closeAnnotateOverlays, openNow } from './annotate/overlays';
import { useRememberPlace } from './annotate/place';
import { scaffoldMode } from './annotate/scaffoldMode';
import { sentencesMode } from './annotate/sentencesMode';

const MODES: Record<UnitMode, AnnotateMode> = {
  sentences: sentencesMode,
  claims: claimsMode,
  keyfacts: keyFactsMode,
  scaffold: scaffoldMode,
};
const MODE_LIST = Object.values(MODES);

export function AnnotateView() {
  const annotator = useSession((state) => state.annotator);
  const projectPath = useSession((state) => state.info?.project?.path ?? '');
  const annotatorLink = useSession((state) => state.info?.role === 'annotator');
  const mode = useUnitMode((state) => state.mode);
  const current = MODES[mode];
  const legend = useMemo(() => annotateLegend(annotatorLink, current.legend), [annotatorLink, current]);
  const itemsError = useClaimsAndKeyFacts((state) => state.error);
  const itemsNotice = useClaimsAndKeyFacts((state) => state.notice);
  const scaffoldError = useScaffold((state) => state.error);
  const scaffoldNotice = useScaffold((state) => state.notice);
  const status = useAnnotation((state) => state.status);
  const queue = useAnnotation((state) => state.queue);
  const queueStart = useAnnotation((state) => state.queueStart);
  const listed = useAnnotation((state) => state.listed);
  const queueTotal = useAnnotation((state) => state.queueTotal);
  const position = useAnnotation((state) => state.position);
  const summary = useAnnotation((state) => state.summary);
  const notice = useAnnotation((state) => state.notice);
  const error = useAnnotation((state) => state.error);
  const attaching = useAnnotation(
    (state) => state.busy > 0 && state.summary !== null && state.summary.document === null,
  );
  const root = useBusyAttribute();
  const queueCounts = useModeProgress((state) => (mode === 'sentences' ? null : state[mode]));
  const progress = useSummaryProgress(summary);
  // Every mode's hook in one order; the current mode's sentence is the one shown.
  const focuses = MODE_LIST.map((m) => m.useFocusSentence(summary));
  const focus = focuses[MODE_LIST.indexOf(current)] ?? null;

  useReleaseFocus();
  useRememberPlace();
  useAnnotateKeys(!annotatorLink, legend);
  // Leaving the view (a tab click) closes what a key opened.
  useEffect(() => () => closeAnnotateOverlays(), []);

  useEffect(() => {
    if (annotator) void startSession(`${projectPath}\u0000${annotator}`);
    // Claims, key facts or the scaffold on screen when the view opens again (a run may have made new ones).
    if (annotator) void showItems();
    if (annotator) void showScaffold();
  }, [annotator, projectPath]);
  // Claim, key-fact or scaffold sets another tab, the CLI or a run brought: shown without a reload
  // (this person's own labels and edits are on screen already).
  useChanges(
    ['imports', 'claims', 'keyfacts', 'scaffold', 'proposals'],
    () => {
      reloadItemsLater();
      return reloadScaffold();
    },
    {
      enabled: annotator !== null,
      matches: (event) =>
        event.namespace === 'imports' ||
        event.namespace === 'proposals' ||
        event.what === 'accuracy.run' ||
        (event.what.endsWith('.edit') && event.by !== annotator),
    },
  );

  // New when a page arrives or a count moves: the list's rows read the store through it.
  const itemAt = useMemo(
    () => (at: number) => listedItemAt(at, { ...useAnnotation.getState(), queue, queueStart, listed }),
    [queue, queueStart, listed],
  );
  // Stable, so the memoised queue and document skip a label keypress.
  const onOpenSummary = useCallback((index: number) => void openSummary(index), []);
  const onAttach = useCallback((text: string) => void attachDocument(text), []);

  if (status !== 'ready' && queueTotal === 0) {
    return (
      <div className="annotate-empty">
        <ErrorBanner message={error} onDismiss={dismissError} />
        <p className="muted">{status === 'loading' ? 'Loading your queue…' : ''}</p>
      </div>
    );
  }

  if (queueTotal === 0) {
    return (
      <div className="annotate-empty" data-testid="queue-empty">
        <ErrorBanner message={error} onDismiss={dismissError} />
        {annotatorLink ? (
          <p className="empty-title">
            No summaries sampled for you yet: ask the project lead to draw a sample for {annotator}.
          </p>
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

  const shownNotice = notice ?? itemsNotice ?? scaffoldNotice;
  return (
    <div className="annotate" ref={root}>
      <aside className="queue-pane">
        <h2 className="pane-title">
          Queue{' '}
          <span className="muted" data-testid="queue-pane-count">
            ({formatCount(queueTotal)})
          </span>
        </h2>
        <QueueList
          items={queue}
          itemAt={itemAt}
          total={queueTotal}
          position={position}
          onOpen={onOpenSummary}
          onMissing={showQueueAt}
          mode={mode}
          counts={queueCounts}
        />
      </aside>

      <AnnotateDocument
        summaryKey={summary?.key ?? null}
        docId={summary?.docId ?? ''}
        document={summary?.document ?? null}
        unitText={focus?.text ?? null}
        unitId={focus?.id ?? null}
        busy={attaching}
        onAttach={onAttach}
      />

      <section className="summary-pane" aria-label="Summary">
        <ErrorBanner message={error} onDismiss={dismissError} />
        <ErrorBanner message={itemsError} onDismiss={dismissItemsError} />
        <ErrorBanner message={scaffoldError} onDismiss={dismissScaffoldError} />
        <UnitModeBar mode={mode} progress={progress} onChoose={setUnitMode} />
        {summary && <current.Pane summary={summary} lead={!annotatorLink} />}
        {shownNotice && (
          <p className="notice" role="status" data-testid="annotate-notice">
            {shownNotice}
          </p>
        )}
      </section>

      <KeyLegend labelingDisabled={!canLabel(summary)} entries={legend} />
      <AnnotateOverlay />
    </div>
  );
}

/**
 * Annotate's two layers of the keyboard: the current unit mode's (top: labels, moves, E, W, notes)
 * and the view's (summary moves, help, T). The mode is read at each key, so the key right after T
 * already goes to the new mode.
 */
function useAnnotateKeys(lead: boolean, legend: ReadonlyArray<{ keys: string; action: string }>) {
  const showing = () => isShowing('annotate');
  useKeyLayer(
    'mode',
    'annotate-unit',
    (press) => {
      const command = annotateCommand(press);
      if (!command) return 'pass';
      // A notice says why the last key did nothing: the next key replaces it.
      if (command.type !== 'error-type') clearNotices();
      // Holding a label key down must not label a run of units by accident.
      if (command.type === 'label' && press.repeat) return 'handled';
      return MODES[useUnitMode.getState().mode].run(command, press, { lead }) ? 'handled' : 'pass';
    },
    showing,
  );
  useKeyLayer(
    'view',
    'annotate',
    (press) => {
      const command = annotateCommand(press);
      if (!command) return 'pass';
      switch (command.type) {
        case 'help':
          openNow('dialog', 'help', (layer, close) => <HelpOverlay layer={layer} onClose={close} entries={legend} />);
          return 'handled';
        case 'unit-mode':
          nextUnitMode();
          return 'handled';
        case 'next-summary':
          return (void nextSummary(), 'handled');
        case 'previous-summary':
          return (void previousSummary(), 'handled');
        default:
          return 'pass';
      }
    },
    showing,
  );
}

/** The command of a key for Annotate; typing and a focused control's Enter / Space are not. */
function annotateCommand(press: KeyPress): AnnotateCommand | null {
  if (press.typing) return null;
  if ((press.key === 'Enter' || press.key === ' ') && press.activatable) return null;
  return commandForKey(press);
}

function clearNotices(): void {
  if (useAnnotation.getState().notice !== null) setAnnotationNotice(null);
  if (useClaimsAndKeyFacts.getState().notice !== null) setItemsNotice(null);
  if (useScaffold.getState().notice !== null) setScaffoldNotice(null);
}

/** The summary on screen's done / total in each unit mode (null where its items were not on screen yet). */
function useSummaryProgress(
  summary: { key: number; units: ReadonlyArray<{ state: { label: unknown } }> } | null,
): Record<UnitMode, ItemCounts | null> {
  const counts = useModeProgress();
  const labeled = summary ? summary.units.filter((unit) => unit.state.label !== null).length : 0;
  return useMemo(() => {
    const key = summary?.key ?? -1;
    return {
      sentences: summary ? { done: labeled, total: summary.units.length } : null,
      claims: counts.claims.get(key) ?? null,
      keyfacts: counts.keyfacts.get(key) ?? null,
      scaffold: counts.scaffold.get(key) ?? null,
    };
  }, [summary?.key, summary?.units.length, labeled, counts]);
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
