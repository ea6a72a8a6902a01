/**
 * The review session: one queue of one dataset (filters), the card on screen, the
 * sentence being decided, and what has been revealed for the sentences already decided.
 *
 * Blindness: the queue and the card carry no label but the adjudicator's own decision. Judge
 * labels, other annotators' labels and the global label enter this store only from the answer of
 * `review.record` (the decision is stored first) or from `review.reveal`, which is called only for
 * a card that already has decided sentences (the backend refuses undecided ones anyway). Table 4
 * and the corrections (`review.table`, `review.corrections`) are audit views: loaded only when the
 * Results tab is opened, never while a card is being decided.
 *
 * Durability: like annotation, every command runs through one serial queue; a decision is shown
 * (and the cursor moves on) only after `review.record` returned it. A failed write shows the
 * error, moves nothing, and drops the keys queued behind it.
 *
 * A revision (R, then F/U/C) is a new decision event (cause `label`: the contract has no separate
 * cause; the history shows it as the sentence's second event). Undo/redo record the previous /
 * next state as new events (causes `undo` / `redo`), within the current queue: changing a filter
 * clears the stack.
 */
import { create } from 'zustand';
import type {
  DatasetCorrections,
  ReviewCard,
  ReviewQueue,
  ReviewQueueKind,
  ReviewRecordInput,
  ReviewReveal,
  ReviewTable,
  RevealedSentence,
  UnitLabelState,
} from '../../shared/api';
import { noteFromText, type ErrorType, type GlobalLabel, type HumanLabel } from '../../shared/domain';
import { errorMessage } from '../api/errors';
import { createCommandLane } from './serial';
import { bridge, useSession } from './session';
import { timeSpent } from './timeSpent';
import { LIMITS } from '../../shared/limits';

/** The contract's queues (shared/api REVIEW_QUEUES), named for people. */
export const QUEUE_KINDS = [
  {
    kind: 'suspicious',
    name: 'Suspicious',
    help: 'labelled faithful while every judge flags a sentence; the flagged sentences are marked',
  },
  { kind: 'human-judge', name: 'Human vs judge', help: 'sentences whose human label a judge contradicts' },
  { kind: 'judges-split', name: 'Judges split', help: 'sentences of annotated summaries on which the judges disagree' },
  { kind: 'human-human', name: 'Human vs human', help: 'sentences the annotators labelled differently' },
] as const satisfies ReadonlyArray<{ kind: ReviewQueueKind; name: string; help: string }>;

/** The contract's review cap (shared/limits.ts: plain numbers, so the UI bundle needs no zod). */
export const DEFAULT_CAP = LIMITS.review.cap.default!;
export const MAX_CAP = LIMITS.review.cap.max;

export interface ReviewFilters {
  queue: ReviewQueueKind;
  /** null until the project's datasets are known. */
  dataset: string | null;
  /** The judge panel; null = every judge with a prediction in the dataset (the backend's default). */
  judges: string[] | null;
  errorType: ErrorType | null;
  cap: number;
}

/** What has been revealed on the card on screen (only decided sentences). */
export interface CardReveal {
  key: number;
  globalLabel: GlobalLabel | null;
  globalLabelHidden: boolean;
  /** By unit id. */
  sentences: Record<number, RevealedSentence>;
}

interface UndoEntry {
  key: number;
  unitId: number;
  before: UnitLabelState;
  after: UnitLabelState;
}

export interface ResultsState {
  status: 'idle' | 'loading' | 'ready';
  tables: ReviewTable[];
  corrections: DatasetCorrections[];
  error: string | null;
}

export interface ReviewState {
  /** "project path + reviewer": another owner starts from scratch. */
  owner: string | null;
  tab: 'review' | 'results';
  filters: ReviewFilters;
  datasets: string[];
  /** Project judges by name (filters). */
  judges: string[];
  /** Reveal judges / other annotators by name instead of "Judge A" / "Annotator 1" (passed to the backend). */
  showJudgeNames: boolean;
  showAnnotatorNames: boolean;
  status: 'idle' | 'loading' | 'ready';
  queue: ReviewQueue | null;
  /** Index into queue.items of the card on screen. */
  position: number | null;
  card: ReviewCard | null;
  /** Index into card.units of the current (marked) sentence. */
  unitPosition: number;
  /** performance.now() when the current sentence became current: the start of its time spent. */
  unitSince: number;
  /** The sentence decided by the last F/U/C (for E right after U). */
  lastDecidedId: number | null;
  reveal: CardReveal | null;
  /** R: the F/U/C choice is open again for this sentence. */
  revising: { unitId: number; since: number } | null;
  /** Sentences decided in this session (their blind time is known to be already recorded). */
  decidedBefore: number[];
  past: UndoEntry[];
  future: UndoEntry[];
  /** Set by "open in review" links: the summary to show once the queue is loaded. */
  pendingSummaryId: string | null;
  notice: string | null;
  busy: number;
  error: string | null;
  results: ResultsState;
}

const EMPTY_RESULTS: ResultsState = { status: 'idle', tables: [], corrections: [], error: null };

const initialState: ReviewState = {
  owner: null,
  tab: 'review',
  filters: { queue: 'suspicious', dataset: null, judges: null, errorType: null, cap: DEFAULT_CAP },
  datasets: [],
  judges: [],
  showJudgeNames: false,
  showAnnotatorNames: false,
  status: 'idle',
  queue: null,
  position: null,
  card: null,
  unitPosition: 0,
  unitSince: 0,
  lastDecidedId: null,
  reveal: null,
  revising: null,
  decidedBefore: [],
  past: [],
  future: [],
  pendingSummaryId: null,
  notice: null,
  busy: 0,
  error: null,
  results: EMPTY_RESULTS,
};

export const useReview = create<ReviewState>(() => ({ ...initialState }));

const now = (): number => performance.now();
const set = (partial: Partial<ReviewState>): void => useReview.setState(partial);
const get = (): ReviewState => useReview.getState();
const MAX_UNDO = 500;

// ---------------------------------------------------------------------------------------------
// The command queue (the same rules as annotation's)

const lane = createCommandLane({
  error: (err) => set({ error: errorMessage(err) }),
  busy: (size) => set({ busy: size }),
});
const enqueue = lane.enqueue;

/** Runs a UI step (opening the error-type picker) after the commands already queued. */
export function afterPending(step: () => void): Promise<void> {
  return enqueue(step);
}

/** Another reviewer or project: forget everything; pending commands become no-ops. */
export function resetReview(): void {
  lane.reset();
  useReview.setState({ ...initialState });
}

function reviewer(): string {
  const name = useSession.getState().annotator;
  if (!name) throw new Error('Choose your name first: decisions are stored under it.');
  return name;
}

// ---------------------------------------------------------------------------------------------
// Reading the card

export function isDecided(unit: { decision: UnitLabelState } | undefined): boolean {
  return unit !== undefined && unit.decision.label !== null;
}

export function canDecide(card: ReviewCard | null): boolean {
  return card !== null && card.document !== null;
}

export function currentUnit(state: ReviewState = get()) {
  return state.card?.units[state.unitPosition];
}

function markedPositions(card: ReviewCard): number[] {
  return card.units.flatMap((unit, position) => (unit.marked ? [position] : []));
}

/** The first undecided marked sentence after `from` (wrapping), else null. */
function nextUndecided(card: ReviewCard, from: number): number | null {
  const marked = markedPositions(card);
  const after = marked.filter((p) => p > from && !isDecided(card.units[p]));
  if (after.length > 0) return after[0]!;
  const before = marked.filter((p) => p <= from && !isDecided(card.units[p]));
  return before[0] ?? null;
}

function startPosition(card: ReviewCard): number {
  return nextUndecided(card, -1) ?? markedPositions(card)[0] ?? 0;
}

function panel(filters: ReviewFilters): { judges?: string[] } {
  return filters.judges === null ? {} : { judges: filters.judges };
}

function anonymity(state: ReviewState = get()) {
  return { anonymizeJudges: !state.showJudgeNames, anonymizeAnnotators: !state.showAnnotatorNames };
}

// ---------------------------------------------------------------------------------------------
// Loading

/**
 * Entering the Review view. A new owner starts fresh (datasets, judges, then the queue); the
 * same owner keeps the card and refreshes the queue's counts.
 */
export function startReview(owner: string): Promise<void> {
  if (get().owner === owner) {
    if (get().pendingSummaryId !== null) return loadQueue();
    return enqueue(refreshQueueCounts);
  }
  const pending = get().pendingSummaryId;
  const filters = get().filters;
  resetReview();
  set({ owner, status: 'loading', pendingSummaryId: pending, filters });
  return enqueue(async () => {
    const owner = lane.token();
    const [datasets, judges] = await Promise.all([
      bridge().call('datasets.list', {}),
      bridge().call('judges.list', {}),
    ]);
    if (!lane.isCurrent(owner)) return;
    const names = datasets.map((d) => d.name);
    const wanted = get().filters.dataset;
    const dataset = wanted !== null && names.includes(wanted) ? wanted : (names[0] ?? null);
    const known = judges.map((j) => j.name);
    const chosen = get().filters.judges?.filter((j) => known.includes(j)) ?? null;
    set({
      datasets: names,
      judges: known,
      filters: { ...get().filters, dataset, judges: chosen && chosen.length > 0 ? chosen : null },
    });
    await fetchQueue();
  });
}

/** The judges of the project changed (one added or removed): the checkboxes list them again. */
export function refreshReviewJudges(): Promise<void> {
  return enqueue(async () => {
    const owner = lane.token();
    const judges = await bridge().call('judges.list', {});
    if (!lane.isCurrent(owner)) return;
    const known = judges.map((j) => j.name);
    const chosen = get().filters.judges?.filter((j) => known.includes(j)) ?? null;
    set({ judges: known, filters: { ...get().filters, judges: chosen && chosen.length > 0 ? chosen : null } });
  });
}

/** Opens the Review view's suspicious queue of `dataset` at `summaryId` (the Analysis view's link). */
export function openReviewAt(dataset: string, summaryId: string, cap?: number): void {
  const { filters } = get();
  set({
    tab: 'review',
    pendingSummaryId: summaryId,
    filters: { queue: 'suspicious', dataset, judges: null, errorType: null, cap: Math.max(filters.cap, cap ?? 0) },
    past: [],
    future: [],
  });
}

export function loadQueue(): Promise<void> {
  set({ status: 'loading', error: null });
  return enqueue(fetchQueue);
}

async function fetchQueue(): Promise<void> {
  const owner = lane.token();
  const { filters } = get();
  if (filters.dataset === null) {
    set({ status: 'ready', queue: null, card: null, position: null, reveal: null });
    return;
  }
  const queue = await bridge().call('review.queue', {
    queue: filters.queue,
    dataset: filters.dataset,
    ...panel(filters),
    ...(filters.errorType ? { errorType: filters.errorType } : {}),
    cap: filters.cap,
    reviewer: reviewer(),
  });
  if (!lane.isCurrent(owner)) return;
  const pending = get().pendingSummaryId;
  set({
    queue,
    status: 'ready',
    card: null,
    position: null,
    reveal: null,
    revising: null,
    pendingSummaryId: null,
    notice: null,
  });
  let target = -1;
  if (pending !== null) {
    target = queue.items.findIndex((item) => item.summaryId === pending);
    if (target === -1) {
      set({
        notice: `Summary ${pending} is not among the ${queue.items.length} listed in this queue (${queue.matching} match, cap ${queue.cap}).`,
      });
    }
  }
  if (target === -1) target = nextWithWork(queue, -1) ?? (queue.items.length > 0 ? 0 : -1);
  if (target !== -1) await openAt(target);
}

/** The same queue again (counts, decided, fast flags), keeping the card on screen. */
async function refreshQueueCounts(): Promise<void> {
  const owner = lane.token();
  const { filters, card } = get();
  if (filters.dataset === null) return;
  const queue = await bridge().call('review.queue', {
    queue: filters.queue,
    dataset: filters.dataset,
    ...panel(filters),
    ...(filters.errorType ? { errorType: filters.errorType } : {}),
    cap: filters.cap,
    reviewer: reviewer(),
  });
  if (!lane.isCurrent(owner)) return;
  const position = card ? queue.items.findIndex((item) => item.key === card.key) : -1;
  set({ queue, status: 'ready', position: position === -1 ? null : position });
  if (!card || position === -1) {
    const start = nextWithWork(queue, -1) ?? (queue.items.length > 0 ? 0 : -1);
    if (start !== -1) await openAt(start);
    else set({ card: null, reveal: null });
  }
}

/** Changes filters and reloads the queue; the undo stack belongs to the old queue and is cleared. */
export function setFilters(change: Partial<ReviewFilters>): Promise<void> {
  const filters = { ...get().filters, ...change };
  if (filters.judges !== null && filters.judges.length === 0) filters.judges = null;
  set({ filters, past: [], future: [], notice: null });
  return loadQueue();
}

async function openAt(position: number, unitId?: number): Promise<void> {
  const item = get().queue?.items[position];
  if (!item) return;
  await openKey(item.key, unitId);
}

async function openKey(key: number, unitId?: number): Promise<void> {
  const owner = lane.token();
  const { filters } = get();
  const card = await bridge().call('review.card', {
    key,
    queue: filters.queue,
    reviewer: reviewer(),
    ...panel(filters),
  });
  if (!lane.isCurrent(owner)) return;
  const byId = unitId === undefined ? -1 : card.units.findIndex((unit) => unit.id === unitId);
  const position = get().queue?.items.findIndex((item) => item.key === key) ?? -1;
  const decidedBefore = new Set(get().decidedBefore);
  for (const unit of card.units) if (isDecided(unit)) decidedBefore.add(unit.id);
  set({
    card,
    decidedBefore: [...decidedBefore],
    position: position === -1 ? null : position,
    unitPosition: byId === -1 ? startPosition(card) : byId,
    unitSince: now(),
    lastDecidedId: null,
    revising: null,
    reveal: null,
    error: null,
  });
  // Only sentences already decided by this reviewer are revealed; none decided: no call at all.
  if (card.units.some((unit) => unit.marked && isDecided(unit))) await fetchReveal();
}

/** Reveal for every decided sentence of the card on screen (also after a names toggle). */
async function fetchReveal(): Promise<void> {
  const owner = lane.token();
  const { card, filters } = get();
  if (!card || !card.units.some((unit) => unit.marked && isDecided(unit))) return;
  const reveal = await bridge().call('review.reveal', {
    key: card.key,
    queue: filters.queue,
    reviewer: reviewer(),
    ...panel(filters),
    ...anonymity(),
  });
  if (!lane.isCurrent(owner) || get().card?.key !== card.key) return;
  set({ reveal: revealFrom(reveal, null) });
}

function revealFrom(reveal: ReviewReveal, previous: CardReveal | null): CardReveal {
  const sentences = previous && previous.key === reveal.key ? { ...previous.sentences } : {};
  for (const sentence of reveal.sentences) sentences[sentence.unitId] = sentence;
  return { key: reveal.key, globalLabel: reveal.globalLabel, globalLabelHidden: reveal.globalLabelHidden, sentences };
}

export function openCard(position: number): Promise<void> {
  return enqueue(() => openAt(position));
}

/** Enter / N: the next card with an undecided sentence (wrapping), else simply the next one. */
export function nextCard(): Promise<void> {
  return enqueue(async () => {
    const { queue, position } = get();
    if (!queue) return;
    const from = position ?? -1;
    const target = nextWithWork(queue, from) ?? (from + 1 < queue.items.length ? from + 1 : null);
    if (target !== null && target !== position) await openAt(target);
  });
}

export function previousCard(): Promise<void> {
  return enqueue(async () => {
    const { position } = get();
    if (position !== null && position > 0) await openAt(position - 1);
  });
}

export function nextWithWork(queue: ReviewQueue, from: number): number | null {
  const hasWork = (index: number) => {
    const item = queue.items[index];
    return item !== undefined && !item.documentMissing && item.decided.length < item.marked.length;
  };
  for (let i = from + 1; i < queue.items.length; i += 1) if (hasWork(i)) return i;
  for (let i = 0; i < from; i += 1) if (hasWork(i)) return i;
  return null;
}

// ---------------------------------------------------------------------------------------------
// Moving between the marked sentences (context sentences are never current)

export function moveUnit(delta: 1 | -1): Promise<void> {
  return enqueue(() => {
    const { card, unitPosition } = get();
    if (!card) return;
    const marked = markedPositions(card);
    const target =
      delta > 0 ? marked.find((p) => p > unitPosition) : [...marked].reverse().find((p) => p < unitPosition);
    if (target !== undefined) selectPosition(target);
  });
}

/** A click on a sentence: only marked sentences can become current. */
export function selectUnit(position: number): Promise<void> {
  return enqueue(() => selectPosition(position));
}

function selectPosition(position: number): void {
  const { card, unitPosition } = get();
  if (!card || position === unitPosition || !card.units[position]?.marked) return;
  set({ unitPosition: position, unitSince: now(), lastDecidedId: null, revising: null });
}

// ---------------------------------------------------------------------------------------------
// Writing

type Cause = ReviewRecordInput['cause'];

/**
 * Stores a decision, then reflects what the core stored: the decision, the card's progress, the
 * queue item's decided/fast sentences and the reveal the answer carries (after the commit).
 */
async function store(
  unitId: number,
  state: UnitLabelState,
  cause: Cause,
  timeSpentMs: number | null,
  advance: boolean,
): Promise<UnitLabelState | null> {
  const owner = lane.token();
  const { filters, card } = get();
  if (!card) return null;
  const result = await bridge().call('review.record', {
    unitId,
    queue: filters.queue,
    reviewer: reviewer(),
    ...panel(filters),
    state,
    timeSpentMs,
    cause,
    ...anonymity(),
  });
  if (!lane.isCurrent(owner)) return null;
  const current = get();
  if (!current.card || current.card.key !== card.key) return result.state;
  const units = current.card.units.map((unit) => (unit.id === unitId ? { ...unit, decision: result.state } : unit));
  const updated: ReviewCard = { ...current.card, units, progress: result.progress };
  const unit = units.find((u) => u.id === unitId)!;
  const decided = result.state.label !== null;

  let reveal = current.reveal && current.reveal.key === card.key ? current.reveal : null;
  if (result.reveal) reveal = revealFrom(result.reveal, reveal);
  else if (!decided && reveal) {
    // Undecided again: nothing of it is shown (the backend refuses its reveal too).
    const sentences = { ...reveal.sentences };
    delete sentences[unitId];
    reveal = { ...reveal, sentences, globalLabel: null, globalLabelHidden: true };
  }

  const firstDecision = decided && !current.decidedBefore.includes(unitId);
  const queue = current.queue
    ? withItemDecision(
        current.queue,
        card.key,
        unit.index,
        decided,
        firstDecision && cause === 'label' && timeSpentMs !== null && timeSpentMs < current.queue.fastMs,
      )
    : null;
  const target = advance ? nextUndecided(updated, current.unitPosition) : null;
  set({
    card: updated,
    queue,
    reveal,
    revising: null,
    decidedBefore:
      decided && !current.decidedBefore.includes(unitId) ? [...current.decidedBefore, unitId] : current.decidedBefore,
    ...(advance ? { lastDecidedId: unitId } : {}),
    ...(target !== null && target !== current.unitPosition ? { unitPosition: target, unitSince: now() } : {}),
    error: null,
  });
  return result.state;
}

/** The queue item's decided (and fast) sentence lists after one decision; already-known fast flags stay. */
function withItemDecision(
  queue: ReviewQueue,
  key: number,
  index: number,
  decided: boolean,
  fast: boolean,
): ReviewQueue {
  const position = queue.items.findIndex((item) => item.key === key);
  const item = queue.items[position];
  if (!item) return queue;
  const had = item.decided.includes(index);
  const decidedList = decided
    ? had
      ? item.decided
      : [...item.decided, index].sort((a, b) => a - b)
    : item.decided.filter((i) => i !== index);
  const fastList = fast && !item.fast.includes(index) ? [...item.fast, index].sort((a, b) => a - b) : item.fast;
  const items = queue.items.slice();
  items[position] = { ...item, decided: decidedList, fast: fastList };
  return { ...queue, items };
}

function pushChange(entry: UndoEntry): void {
  const { past } = get();
  set({ past: [...past.slice(-(MAX_UNDO - 1)), entry], future: [] });
}

/**
 * F/U/C on the current sentence: a blind decision (the sentence has none yet). On a decided
 * sentence nothing happens but a hint: R opens the choice again.
 */
export function decideCurrent(label: HumanLabel, pressedAt: number = now()): Promise<void> {
  return enqueue(async () => {
    const state = get();
    const unit = currentUnit(state);
    if (!unit || !state.card || !unit.marked || !canDecide(state.card)) return;
    if (isDecided(unit)) {
      set({ notice: `Sentence ${unit.index + 1} is decided: press R to revise it.` });
      return;
    }
    const before = unit.decision;
    const after: UnitLabelState = {
      label,
      errorType: label === 'unfaithful' ? before.errorType : null,
      note: before.note,
    };
    const timeSpentMs = timeSpent(pressedAt, state.unitSince);
    set({ notice: null });
    const stored = await store(unit.id, after, 'label', timeSpentMs, true);
    if (stored) pushChange({ key: state.card.key, unitId: unit.id, before, after: stored });
  });
}

/** R: opens the F/U/C choice again on the current decided sentence. */
export function startRevision(): Promise<void> {
  return enqueue(() => {
    const state = get();
    const unit = currentUnit(state);
    if (!unit || !state.card || !unit.marked || !isDecided(unit) || !canDecide(state.card)) return;
    set({ revising: { unitId: unit.id, since: now() }, notice: null });
  });
}

export function cancelRevision(): void {
  set({ revising: null });
}

/**
 * The revised decision: a new event; the cursor stays on the sentence. The choice closes at once
 * (the keys after it act on the card); the sentence it revises is the one it was opened on.
 */
export function revise(label: HumanLabel, pressedAt: number = now()): Promise<void> {
  const revising = get().revising;
  set({ revising: null });
  return enqueue(async () => {
    const state = get();
    const unit = state.card?.units.find((u) => u.id === revising?.unitId);
    if (!revising || !unit || !state.card) return;
    const before = unit.decision;
    if (before.label === label) return;
    const after: UnitLabelState = {
      label,
      errorType: label === 'unfaithful' ? before.errorType : null,
      note: before.note,
    };
    const timeSpentMs = timeSpent(pressedAt, revising.since);
    const stored = await store(unit.id, after, 'label', timeSpentMs, false);
    if (stored) pushChange({ key: state.card.key, unitId: unit.id, before, after: stored });
  });
}

/** Which sentence E acts on: the current one if decided unfaithful, else the one just decided unfaithful. */
export function errorTypeTarget(state: ReviewState = get()): number | null {
  const { card, unitPosition, lastDecidedId } = state;
  if (!card || !canDecide(card)) return null;
  if (card.units[unitPosition]?.decision.label === 'unfaithful') return unitPosition;
  const last = card.units.findIndex((u) => u.id === lastDecidedId);
  if (last !== -1 && card.units[last]!.decision.label === 'unfaithful') return last;
  return null;
}

async function changeUnit(
  position: number,
  cause: Cause,
  change: (state: UnitLabelState) => UnitLabelState | null,
): Promise<void> {
  const state = get();
  const unit = state.card?.units[position];
  if (!unit || !state.card || !unit.marked || !isDecided(unit) || !canDecide(state.card)) return;
  const after = change(unit.decision);
  if (!after) return;
  const stored = await store(unit.id, after, cause, null, false);
  if (stored) pushChange({ key: state.card.key, unitId: unit.id, before: unit.decision, after: stored });
}

export function setErrorType(position: number, errorType: ErrorType | null): Promise<void> {
  return enqueue(() =>
    changeUnit(position, 'error_type', (state) =>
      state.label === 'unfaithful' && state.errorType !== errorType ? { ...state, errorType } : null,
    ),
  );
}

/** A note on a decided sentence (one more event). */
export function saveNote(position: number, text: string): Promise<void> {
  const note = noteFromText(text);
  return enqueue(() => changeUnit(position, 'note', (state) => (state.note === note ? null : { ...state, note })));
}

/** Re-stores one side of an undo entry and shows that sentence (its card is in the current queue). */
async function replay(entry: UndoEntry, cause: 'undo' | 'redo'): Promise<boolean> {
  if (get().card?.key !== entry.key) await openKey(entry.key, entry.unitId);
  const card = get().card;
  if (!card || card.key !== entry.key) return false;
  const state = cause === 'undo' ? entry.before : entry.after;
  const stored = await store(entry.unitId, state, cause, null, false);
  if (!stored) return false;
  const position = get().card?.units.findIndex((unit) => unit.id === entry.unitId) ?? -1;
  if (position !== -1) selectPosition(position);
  return true;
}

export function undo(): Promise<void> {
  return enqueue(async () => {
    const entry = get().past.at(-1);
    if (!entry || !(await replay(entry, 'undo'))) return;
    const { past, future } = get();
    set({ past: past.slice(0, -1), future: [...future, entry] });
  });
}

export function redo(): Promise<void> {
  return enqueue(async () => {
    const entry = get().future.at(-1);
    if (!entry || !(await replay(entry, 'redo'))) return;
    const { past, future } = get();
    set({ past: [...past, entry], future: future.slice(0, -1) });
  });
}

/** Anonymised names by default; a toggle asks the backend for names (the reveal is fetched again). */
export function setShowNames(change: { judges?: boolean; annotators?: boolean }): Promise<void> {
  set({
    ...(change.judges !== undefined ? { showJudgeNames: change.judges } : {}),
    ...(change.annotators !== undefined ? { showAnnotatorNames: change.annotators } : {}),
  });
  return enqueue(fetchReveal);
}

/** A missing document pasted in (annotation's call: it attaches it to every summary of that document). */
export function attachDocument(text: string): Promise<void> {
  return enqueue(async () => {
    const { card } = get();
    if (!card || !text.trim()) return;
    const owner = lane.token();
    await bridge().call('annotation.attachDocument', { key: card.key, text });
    if (!lane.isCurrent(owner)) return;
    await refreshQueueCounts();
    await openKey(card.key);
  });
}

export function dismissError(): void {
  set({ error: null });
}

export function dismissNotice(): void {
  set({ notice: null });
}

// ---------------------------------------------------------------------------------------------
// Results: Table 4 and the corrected global labels (audit views; never loaded on the card)

export function showTab(tab: ReviewState['tab']): Promise<void> {
  set({ tab, revising: null });
  return tab === 'results' ? loadResults() : Promise.resolve();
}

export function dismissResultsError(): void {
  set({ results: { ...get().results, error: null } });
}

export async function loadResults(): Promise<void> {
  const owner = lane.token();
  const { filters } = get();
  set({ results: { ...get().results, status: 'loading', error: null } });
  try {
    const [tables, corrections] = await Promise.all([
      bridge().call('review.table', { ...panel(filters), cap: filters.cap }),
      bridge().call('review.corrections', {}),
    ]);
    if (!lane.isCurrent(owner)) return;
    set({ results: { status: 'ready', tables, corrections, error: null } });
  } catch (err) {
    if (!lane.isCurrent(owner)) return;
    set({ results: { ...get().results, status: 'ready', error: errorMessage(err) } });
  }
}
