/**
 * Review: adjudicate the sentences a queue marks — suspicious summaries, human-vs-judge
 * and judge-vs-judge disagreements, human-vs-human disagreements — with Annotate's layout and
 * keys: document left (closest passages), summary right, F/U/C to decide, E for an error type.
 *
 * Blind: the card shows no judge label, no other person's label and no global label; they
 * appear beside a sentence's decision only once `review.record` has stored it (its answer
 * carries them), or, for a card reopened later, from `review.reveal` of its decided sentences.
 * R opens the F/U/C choice again on a decided sentence (a new event). The Results tab holds
 * Table 4 and the corrected global labels, loaded only there.
 */
import { useCallback, useEffect, useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { AnnotationUnit, ReviewCard, ReviewQueue, ReviewUnit } from '../../shared/api';
import type { ErrorType, HumanLabel } from '../../shared/domain';
import type { KeyPress } from '../keys/dispatcher';
import { useKeyLayer } from '../keys/hooks';
import { createOverlaySlot, type OpenOverlay } from '../keys/overlaySlot';
import {
  afterPending,
  attachDocument,
  canDecide,
  cancelRevision,
  decideCurrent,
  dismissError,
  dismissNotice,
  errorTypeTarget,
  isDecided,
  moveUnit,
  nextCard,
  openCard,
  previousCard,
  redo,
  refreshReviewJudges,
  revise,
  saveNote,
  selectUnit,
  setErrorType,
  showTab,
  startReview,
  startRevision,
  undo,
  useReview,
  type CardReveal,
} from '../state/review';
import { isShowing, showView, useSession } from '../state/session';
import { ErrorBanner } from '../components/ErrorBanner';
import { LabelBadge } from '../components/LabelBadge';
import { CurrentUnit } from '../components/annotate/CurrentUnit';
import { DocumentPane } from '../components/annotate/DocumentPane';
import { ErrorTypePicker } from '../components/annotate/ErrorTypePicker';
import { KeyLegend } from '../components/annotate/KeyLegend';
import { NoteEditor } from '../components/annotate/NoteEditor';
import { SummaryText } from '../components/annotate/SummaryText';
import { UnitList } from '../components/annotate/UnitList';
import { cardAsSummary, contextIdsOf } from '../components/review/adapt';
import { fastWords, seconds } from '../components/review/format';
import { REVIEW_KEY_LEGEND, REVISE_KEY, reviewCommandForKey, type ReviewCommand } from '../components/review/keys';
import { useClosestPassages } from '../components/review/passages';
import { GlobalLabelLine, RevealDetails } from '../components/review/Reveal';
import { ReviewFilters } from '../components/review/ReviewFilters';
import { ReviewQueueList } from '../components/review/ReviewQueueList';
import { ReviewResults } from '../components/review/ReviewResults';
import { RevisePrompt } from '../components/review/RevisePrompt';
import { useReleaseFocus } from '../components/useReleaseFocus';
import { useChanges } from '../components/useChanges';
import { VIEW_KEYS_LEGEND } from '../viewKeys';
import { agree, formatCount, plural } from '../format';

/** Review's keys and the view keys (S G A V / L), which work here too. */
const REVIEW_LEGEND = [...REVIEW_KEY_LEGEND, VIEW_KEYS_LEGEND];

/** What a key opened over the card; `position` and `unit`: the sentence it acts on, fixed when it opened. */
type ReviewOverlay =
  { kind: 'error-type' | 'note'; position: number; unit: AnnotationUnit } | { kind: 'revise'; unit: ReviewUnit };
const overlays = createOverlaySlot<ReviewOverlay>();

export function ReviewView() {
  const annotator = useSession((state) => state.annotator);
  const projectPath = useSession((state) => state.info?.project?.path ?? '');
  const s = useReview(
    useShallow((state) => ({
      tab: state.tab,
      filters: state.filters,
      datasets: state.datasets,
      judges: state.judges,
      showJudgeNames: state.showJudgeNames,
      showAnnotatorNames: state.showAnnotatorNames,
      status: state.status,
      queue: state.queue,
      position: state.position,
      card: state.card,
      unitPosition: state.unitPosition,
      reveal: state.reveal,
      revising: state.revising,
      notice: state.notice,
      busy: state.busy,
      error: state.error,
      results: state.results,
    })),
  );
  const overlay = overlays.use();

  useReleaseFocus();
  // Leaving the view (a tab click) closes what a key opened over the card.
  useEffect(() => () => overlays.closeAll(), []);

  useEffect(() => {
    if (annotator) void startReview(`${projectPath}\u0000${annotator}`);
  }, [annotator, projectPath]);
  // A judge added or removed elsewhere (another tab, the CLI) appears in the judge checkboxes.
  useChanges(['judges', 'imports'], () => refreshReviewJudges(), {
    enabled: annotator !== null,
    matches: (event) =>
      event.namespace === 'judges' ? event.what !== 'judges.run' : event.what === 'imports.predictions',
  });

  const card = s.card;
  const summary = useMemo(() => (card ? cardAsSummary(card) : null), [card]);
  const contextIds = useMemo(() => (card ? contextIdsOf(card) : new Set<number>()), [card]);
  const reviewUnit = card?.units[s.unitPosition];
  const unit = summary?.units[s.unitPosition];
  const passages = useClosestPassages(summary?.document ?? null, unit?.text ?? null, unit?.id ?? null);
  const item = s.queue && s.position !== null ? s.queue.items[s.position] : undefined;

  useReviewKeys((command, press) => {
    switch (command.type) {
      case 'decide':
        return void decideCurrent(command.label, press.at);
      case 'revise':
        void startRevision();
        return overlays.open('picker', 'revise', afterPending, () => {
          const state = useReview.getState();
          const revising = state.card?.units.find((u) => u.id === state.revising?.unitId);
          return revising ? { kind: 'revise', unit: revising } : null;
        });
      case 'next-unit':
        return void moveUnit(1);
      case 'previous-unit':
        return void moveUnit(-1);
      case 'next-card':
        return void nextCard();
      case 'previous-card':
        return void previousCard();
      case 'error-type':
        return overlays.open('picker', 'error-type', afterPending, () => {
          const position = errorTypeTarget();
          const shown = position === null ? undefined : unitAt(position);
          return shown && position !== null ? { kind: 'error-type', position, unit: shown } : null;
        });
      case 'note':
        return overlays.open('editor', 'note', afterPending, () => {
          const state = useReview.getState();
          const current = state.card?.units[state.unitPosition];
          const shown = unitAt(state.unitPosition);
          return canDecide(state.card) && current?.marked && isDecided(current) && shown
            ? { kind: 'note', position: state.unitPosition, unit: shown }
            : null;
        });
      case 'undo':
        return void undo();
      case 'redo':
        return void redo();
    }
  });

  const onSelectUnit = useCallback((position: number) => void selectUnit(position), []);

  const reveal = s.reveal && card && s.reveal.key === card.key ? s.reveal : null;
  const fast = useMemo(() => new Set(item?.fast ?? []), [item]);
  const aside = useCallback(
    (u: { id: number; index: number }) => {
      const sentence = reveal?.sentences[u.id];
      const isFast = fast.has(u.index);
      if (!sentence && !isFast) return null;
      return (
        <div className="unit-aside">
          {isFast && s.queue && <FastTag fastMs={s.queue.fastMs} />}
          {sentence && <RevealDetails sentence={sentence} compact />}
        </div>
      );
    },
    [reveal, fast, s.queue],
  );

  return (
    <div className="review-view" data-testid="review-view" data-busy={s.busy > 0 ? 'true' : 'false'}>
      <div className="review-top">
        <nav className="review-tabs" aria-label="Review">
          <button
            type="button"
            className={s.tab === 'review' ? 'tab is-active' : 'tab'}
            aria-current={s.tab === 'review' ? 'page' : undefined}
            onClick={() => void showTab('review')}
            data-testid="review-tab-review"
          >
            Review
          </button>
          <button
            type="button"
            className={s.tab === 'results' ? 'tab is-active' : 'tab'}
            aria-current={s.tab === 'results' ? 'page' : undefined}
            onClick={() => void showTab('results')}
            data-testid="review-tab-results"
          >
            Results: Table 4 and corrections
          </button>
        </nav>
        <ReviewFilters
          filters={s.filters}
          datasets={s.datasets}
          judges={s.judges}
          showJudgeNames={s.showJudgeNames}
          showAnnotatorNames={s.showAnnotatorNames}
        />
      </div>

      {s.tab === 'results' ? (
        <ReviewResults
          results={s.results}
          panelWords={s.filters.judges === null ? 'every judge with predictions' : s.filters.judges.join(', ')}
          fastMs={s.queue?.fastMs ?? 2000}
        />
      ) : s.status !== 'ready' && !s.queue ? (
        <div className="annotate-empty">
          <ErrorBanner message={s.error} onDismiss={dismissError} />
          <p className="muted">{s.status === 'loading' ? 'Loading the queue…' : ''}</p>
        </div>
      ) : !s.queue || s.queue.items.length === 0 ? (
        <div className="annotate-empty" data-testid="review-empty">
          <ErrorBanner message={s.error} onDismiss={dismissError} />
          {s.queue && <QueueCounts queue={s.queue} />}
          <EmptyQueue queue={s.queue} hasDataset={s.filters.dataset !== null} />
        </div>
      ) : (
        <div className="annotate review-body">
          <aside className="queue-pane">
            <QueueCounts queue={s.queue} />
            <ReviewQueueList
              items={s.queue.items}
              position={s.position}
              fastMs={s.queue.fastMs}
              onOpen={(index) => void openCard(index)}
            />
          </aside>

          <DocumentPane
            summary={summary}
            hasCurrentUnit={unit !== undefined}
            passages={passages}
            busy={s.busy > 0}
            onAttach={(text) => void attachDocument(text)}
          />

          <section className="summary-pane" aria-label="Summary">
            <ErrorBanner message={s.error} onDismiss={dismissError} />
            {s.notice && (
              <p className="notice" role="status" data-testid="review-notice">
                {s.notice}{' '}
                <button type="button" className="link-button" onClick={dismissNotice}>
                  ok
                </button>
              </p>
            )}
            {card && summary && (
              <div data-testid="review-card" data-key={card.key} data-summary={card.summaryId}>
                <CardHead
                  card={card}
                  place={{ at: s.position !== null ? s.position + 1 : null, of: s.queue.items.length }}
                  busy={s.busy > 0}
                />
                <SummaryText
                  summary={summary.summary}
                  units={summary.units}
                  currentId={unit?.id ?? null}
                  onSelect={onSelectUnit}
                  contextIds={contextIds}
                />
                {unit && reviewUnit && (
                  <>
                    <CurrentUnit unit={unit} total={summary.units.length} />
                    <CurrentStatus
                      card={card}
                      unitIndex={reviewUnit.index}
                      reveal={reveal}
                      fastMs={fast.has(reviewUnit.index) ? s.queue.fastMs : null}
                    />
                  </>
                )}
                <GlobalLabelLine reveal={reveal} marked={card.progress.marked} decided={card.progress.decided} />
                <UnitList
                  units={summary.units}
                  currentPosition={s.unitPosition}
                  onSelect={onSelectUnit}
                  contextIds={contextIds}
                  aside={aside}
                />
              </div>
            )}
          </section>

          <KeyLegend labelingDisabled={!canDecide(card)} entries={REVIEW_LEGEND} />
        </div>
      )}

      {overlay && <ReviewOverlays overlay={overlay} />}
    </div>
  );
}

/** The card's sentence at `position` as Annotate's components show it. */
function unitAt(position: number): AnnotationUnit | undefined {
  const card = useReview.getState().card;
  return card ? cardAsSummary(card).units[position] : undefined;
}

function ReviewOverlays({ overlay }: { overlay: OpenOverlay<ReviewOverlay> }) {
  const { data, layer } = overlay;
  const close = () => overlays.close(overlay);
  if (data.kind === 'revise') {
    return (
      <RevisePrompt
        layer={layer}
        unit={data.unit}
        onChoose={(label: HumanLabel, pressedAt: number) => {
          close();
          void revise(label, pressedAt);
        }}
        onClose={() => {
          close();
          cancelRevision();
        }}
      />
    );
  }
  if (data.kind === 'error-type') {
    return (
      <ErrorTypePicker
        layer={layer}
        unit={data.unit}
        current={data.unit.state.errorType}
        onChoose={(errorType: ErrorType | null) => {
          close();
          void setErrorType(data.position, errorType);
        }}
        onClose={close}
      />
    );
  }
  return (
    <NoteEditor
      layer={layer}
      unit={data.unit}
      initial={data.unit.state.note ?? ''}
      onSave={(text) => {
        close();
        void saveNote(data.position, text);
      }}
      onCancel={close}
    />
  );
}

function FastTag({ fastMs }: { fastMs: number }) {
  return (
    <span className="tag tag-fast" data-testid="review-fast-sentence" title={fastWords(1, fastMs)}>
      ⚑ decided in &lt; {seconds(fastMs)}
    </span>
  );
}

/** Pool, matching, listed, and how far the review has got (this reviewer's decisions). */
function QueueCounts({ queue }: { queue: ReviewQueue }) {
  const marked = queue.items.reduce((n, item) => n + item.marked.length, 0);
  const decided = queue.items.reduce((n, item) => n + item.decided.length, 0);
  const reviewed = queue.items.filter(
    (item) => item.marked.length > 0 && item.decided.length >= item.marked.length,
  ).length;
  const fast = queue.items.reduce((n, item) => n + item.fast.length, 0);
  return (
    <div
      className="review-counts"
      data-testid="review-counts"
      data-pool={queue.pool}
      data-matching={queue.matching}
      data-listed={queue.items.length}
      data-reviewed={reviewed}
      data-decided={decided}
      data-marked={marked}
      data-fast={fast}
    >
      <p>
        Pool <strong>{formatCount(queue.pool)}</strong>
        {queue.matching !== queue.pool && (
          <>
            {' '}
            · {formatCount(queue.matching)} {agree(queue.matching, 'matches', 'match')} the filters
          </>
        )}{' '}
        · listed <strong>{formatCount(queue.items.length)}</strong> (cap {formatCount(queue.cap)})
        {queue.queue !== 'human-human' && <> · {plural(queue.judgeCount, 'judge')}</>}
      </p>
      <p>
        Reviewed <strong>{formatCount(reviewed)}</strong> of {plural(queue.items.length, 'summary')} ·{' '}
        {formatCount(decided)} of {plural(marked, 'sentence')} decided
        {fast > 0 && (
          <>
            {' '}
            ·{' '}
            <span className="tag tag-fast">
              ⚑ {fast} decided in &lt; {seconds(queue.fastMs)}
            </span>
          </>
        )}
      </p>
    </div>
  );
}

function EmptyQueue({ queue, hasDataset }: { queue: ReviewQueue | null; hasDataset: boolean }) {
  if (!hasDataset) {
    return (
      <>
        <p className="empty-title">No dataset in this project yet</p>
        <button type="button" className="primary" onClick={() => showView('project')}>
          Go to Project view
        </button>
      </>
    );
  }
  if (!queue) return null;
  const why =
    queue.queue === 'suspicious'
      ? queue.judgeCount === 0
        ? 'No judge has predictions in this dataset: run one in Judges (G).'
        : `No summary is labelled faithful while all ${queue.judgeCount} judges flag one of its sentences. A missing prediction is not a flag: with several judges, only sentences every judge labelled can be flagged by all — choose fewer judges above, or run the judges on the whole dataset.`
      : queue.queue === 'human-human'
        ? 'No sentence has two annotators who disagree.'
        : queue.judgeCount === 0
          ? 'No judge has predictions in this dataset: run one in Judges (G).'
          : 'No sentence of this queue in the annotated summaries.';
  return (
    <>
      <p className="empty-title">Nothing to review in this queue</p>
      <p className="muted" data-testid="review-empty-why">
        {queue.matching === 0 && queue.pool > 0 ? 'No summary matches the error-type filter.' : why}
      </p>
    </>
  );
}

function CardHead({
  card,
  place,
  busy,
}: {
  card: ReviewCard;
  place: { at: number | null; of: number };
  busy: boolean;
}) {
  return (
    <header className="pane-head">
      <h2 className="pane-title">
        Summary <code>{card.summaryId}</code> <span className="muted">{card.dataset}</span>
      </h2>
      <span className="muted" data-testid="review-position">
        {place.at !== null ? `${place.at} of ${formatCount(place.of)}` : ''}
      </span>
      <span
        className="muted"
        data-testid="review-card-progress"
        data-decided={card.progress.decided}
        data-marked={card.progress.marked}
      >
        {card.progress.decided} of {card.progress.marked} marked decided
      </span>
      {busy && (
        <span className="saving" data-testid="review-saving" role="status">
          saving…
        </span>
      )}
    </header>
  );
}

/** Under the current sentence: what to do, or the decision with what it revealed. */
function CurrentStatus({
  card,
  unitIndex,
  reveal,
  fastMs,
}: {
  card: ReviewCard;
  unitIndex: number;
  reveal: CardReveal | null;
  fastMs: number | null;
}) {
  const unit = card.units.find((u) => u.index === unitIndex);
  if (!unit) return null;
  if (card.document === null) {
    return (
      <p className="notice" data-testid="review-disabled">
        Deciding is disabled until the document is attached.
      </p>
    );
  }
  if (!isDecided(unit)) {
    return (
      <p className="notice review-blind" data-testid="review-blind">
        Blind: decide with <kbd>F</kbd> <kbd>U</kbd> <kbd>C</kbd>. The judges&apos; and annotators&apos; labels appear
        once the decision is stored.
      </p>
    );
  }
  const sentence = reveal?.sentences[unit.id];
  return (
    <div className="review-decided" data-testid="review-decided">
      <p className="review-decision">
        Your decision <LabelBadge label={unit.decision.label} /> · <kbd>{REVISE_KEY}</kbd> revise
        {fastMs !== null && (
          <>
            {' '}
            · <FastTag fastMs={fastMs} />
          </>
        )}
      </p>
      {sentence ? <RevealDetails sentence={sentence} /> : <p className="muted">Loading what the decision reveals…</p>}
    </div>
  );
}

/** Review's layer of the keyboard, on the Review tab; the handler always sees the latest render's values. */
function useReviewKeys(handle: (command: ReviewCommand, press: KeyPress) => void) {
  useKeyLayer(
    'view',
    'review',
    (press) => {
      if (press.typing || ((press.key === 'Enter' || press.key === ' ') && press.activatable)) return 'pass';
      const command = reviewCommandForKey(press);
      if (!command) return 'pass';
      // Holding a decision key down must not decide a run of sentences.
      if ((command.type === 'decide' || command.type === 'revise') && press.repeat) return 'handled';
      handle(command, press);
      return 'handled';
    },
    () => isShowing('review') && useReview.getState().tab === 'review',
  );
}
