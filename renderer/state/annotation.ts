/**
 * The annotation session: the annotator's queue, the summary on screen, the current unit and
 * every command that changes them.
 *
 * Commands run through one serial lane (keys apply in the order pressed). A label key (F/U/C)
 * paints at once: the label shows on its sentence marked "saving" and the cursor advances, while
 * its write goes to an ordered write lane (issue 9 item 5). Durability is unchanged: nothing is
 * counted as stored until `annotation.record` returned it ("saving" stays until then, and
 * closing the page while writes are in flight asks first). A failed write rolls its sentence
 * back to the stored state, marks it "not saved", brings the view back to it and says so; keys
 * pressed meanwhile are kept: each label key is a write for the sentence it was pressed on, so
 * they are still written in order, and moves apply as pressed. Commands that need the stored
 * state (E's choice, note, X, undo, redo, attach) wait for the write lane first.
 */
import { create } from 'zustand';
import type {
  AnnotationSummary,
  AnnotationUnit,
  Progress,
  QueueItem,
  RecordInput,
  UnitLabelState,
} from '../../shared/api';
import type { ErrorType, HumanLabel } from '../../shared/domain';
import { errorMessage } from '../api/errors';
import { bridge, useSession } from './session';
import { clearUndo, commitRedo, commitUndo, peekRedo, peekUndo, pushChange, restoreUndo, type UndoEntry } from './undo';
import { createCommandLane, createWriteLane } from './serial';

export interface AnnotationState {
  /** Whose session this is ("project path + annotator"); another owner starts from scratch. */
  owner: string | null;
  status: 'idle' | 'loading' | 'ready';
  queue: QueueItem[];
  progress: Progress | null;
  /** Index into `queue` of the summary on screen. */
  position: number | null;
  summary: AnnotationSummary | null;
  /** Index into `summary.units` of the current unit. */
  unitPosition: number;
  /** performance.now() when the current unit became current: the start of its time spent. */
  unitSince: number;
  /** The unit labeled by the last label key, if the cursor only auto-advanced since (for E). */
  lastLabeledId: number | null;
  /** Commands queued or running (a summary loading, a write being waited for). */
  busy: number;
  /** Label writes not yet returned by the core, per unit id: those sentences show "saving". */
  saving: ReadonlyMap<number, number>;
  /** Units whose label write failed (rolled back): shown "not saved" until labeled again. */
  failed: ReadonlySet<number>;
  /** Summaries whose judge output was revealed to this annotator: labels on them are not blind. */
  revealed: ReadonlySet<number>;
  /** Why a key did nothing (E on a sentence that is not Unfaithful), until the next key. */
  notice: string | null;
  error: string | null;
}

const initialState: AnnotationState = {
  owner: null,
  status: 'idle',
  queue: [],
  progress: null,
  position: null,
  summary: null,
  unitPosition: 0,
  unitSince: 0,
  lastLabeledId: null,
  busy: 0,
  saving: new Map(),
  failed: new Set(),
  revealed: new Set(),
  notice: null,
  error: null,
};

export const useAnnotation = create<AnnotationState>(() => ({ ...initialState }));

const now = (): number => performance.now();
const set = (partial: Partial<AnnotationState>): void => useAnnotation.setState(partial);
const get = (): AnnotationState => useAnnotation.getState();

/**
 * Runs a UI step (opening the error-type picker, the note editor) after the commands already
 * queued, so "U E" opens the picker on the unit U has just been stored for.
 */
export function afterPending(step: () => void): Promise<void> {
  return enqueue(step);
}

/** Bumped on reset: a command from a previous annotator or project must not touch the state. */
const lane = createCommandLane({ error: (err) => set({ error: errorMessage(err) }), busy: (size) => set({ busy: size }) });
const enqueue = lane.enqueue;

/**
 * The label writes, in the order their keys were pressed. Never dropped: a failure rolls back its
 * own sentence only. A reset starts a new lane: writes of the earlier session still complete
 * (they are someone's labels) on theirs, but no longer touch the state.
 */
let writes = createWriteLane();
/** Label writes of every session not yet returned (what closing the page would lose). */
let inFlight = 0;

/** The stored state of each unit with writes in flight (what a rollback returns to). */
const committed = new Map<number, UnitLabelState>();
/** The newest pressed state of each unit with writes in flight (for summaries reloaded meanwhile). */
const pendingStateOf = new Map<number, UnitLabelState>();

/** Forget everything: another annotator or project. Pending commands become no-ops. */
export function resetAnnotation(): void {
  lane.reset();
  writes = createWriteLane();
  clearUndo();
  committed.clear();
  pendingStateOf.clear();
  useAnnotation.setState({ ...initialState, saving: new Map(), failed: new Set(), revealed: new Set() });
}

/** Label writes still on their way to the core (the page asks before closing while any are). */
export function writesInFlight(): number {
  return inFlight;
}

/**
 * This session's two lanes, for the claim and key-fact labels of the same view
 * (renderer/state/accuracy.ts): every key of Annotate runs in one order, and their writes count
 * as in flight (closing the page asks) like the sentences'.
 */
export const sessionLanes = {
  enqueue: (command: () => Promise<void> | void): Promise<void> => enqueue(command),
  token: (): number => lane.token(),
  isCurrent: (token: number): boolean => lane.isCurrent(token),
  settled: (): Promise<void> => writes.settled(),
  write<T>(write: () => Promise<T>, stored: (result: T) => void, failed: (err: unknown) => void): void {
    inFlight += 1;
    void writes.run(write, (result) => { inFlight -= 1; stored(result); }, (err) => { inFlight -= 1; failed(err); });
  },
};

/** Resolves when every label write pressed so far has returned (stored or failed). */
export function writesSettled(): Promise<void> {
  return writes.settled();
}

function annotatorName(): string {
  const name = useSession.getState().annotator;
  if (!name) throw new Error('Choose an annotator first.');
  return name;
}

export function currentUnit(state: AnnotationState = get()): AnnotationUnit | undefined {
  return state.summary?.units[state.unitPosition];
}

export function firstUnlabeledPosition(summary: AnnotationSummary): number {
  const position = summary.units.findIndex((unit) => unit.state.label === null);
  return position === -1 ? 0 : position;
}

/** A summary whose document is missing cannot be labeled: the evidence is not on screen. */
export function canLabel(summary: AnnotationSummary | null): boolean {
  return summary !== null && summary.document !== null && summary.units.length > 0;
}

// ---------------------------------------------------------------------------------------------
// Loading

/**
 * Entering the Annotate view. For a new owner: a fresh session (undo stack included) resuming at
 * the first unlabeled sentence. For the same owner: keep the summary and undo stack, but refresh
 * the queue, since a sample may have been drawn in the meantime.
 */
export function startSession(owner: string): Promise<void> {
  if (get().owner === owner) return refreshQueue();
  resetAnnotation();
  restoreUndo(owner);
  set({ owner });
  return loadQueue();
}

function refreshQueue(): Promise<void> {
  return enqueue(async () => {
    const owner = lane.token();
    // The core's counts include the labels still being written only once they are stored.
    await writes.settled();
    if (!lane.isCurrent(owner)) return;
    const queue = await bridge().call('annotation.queue', { annotator: annotatorName() });
    if (!lane.isCurrent(owner)) return;
    const { summary } = get();
    const position = summary ? queue.items.findIndex((item) => item.key === summary.key) : -1;
    set({ queue: queue.items, progress: queue.progress, status: 'ready', position: position === -1 ? null : position });
    if (!summary || position === -1) {
      const start = queue.resumeAt ?? (queue.items.length > 0 ? 0 : null);
      if (start !== null) await openAt(start);
      else set({ summary: null });
    }
  });
}

export function loadQueue(): Promise<void> {
  set({ status: 'loading', error: null });
  return enqueue(async () => {
    const owner = lane.token();
    const queue = await bridge().call('annotation.queue', { annotator: annotatorName() });
    if (!lane.isCurrent(owner)) return;
    set({ queue: queue.items, progress: queue.progress, status: 'ready' });
    const start = queue.resumeAt ?? (queue.items.length > 0 ? 0 : null);
    if (start !== null) await openAt(start);
  });
}

/** Shows the summary at `position`; focuses `unitId` if given, else its first unlabeled unit. */
async function openAt(position: number, unitId?: number): Promise<void> {
  const item = get().queue[position];
  if (!item) return;
  await openKey(item.key, unitId);
}

async function openKey(key: number, unitId?: number): Promise<void> {
  const owner = lane.token();
  const loaded = await bridge().call('annotation.load', { key, annotator: annotatorName() });
  if (!lane.isCurrent(owner)) return;
  // The load may have been answered before a label of this summary still being written.
  const summary = withPendingLabels(loaded);
  const revealed = isRevealedSummary(loaded) && !get().revealed.has(key) ? new Set(get().revealed).add(key) : get().revealed;
  const byId = unitId === undefined ? -1 : summary.units.findIndex((unit) => unit.id === unitId);
  const labeled = summary.units.filter((unit) => unit.state.label !== null).length;
  const position = get().queue.findIndex((item) => item.key === key);
  set({
    summary,
    position: position === -1 ? null : position,
    unitPosition: byId === -1 ? firstUnlabeledPosition(summary) : byId,
    unitSince: now(),
    queue: position === -1 ? get().queue : replaceItem(get().queue, position, { labeled }),
    revealed,
  });
}

/** The loaded summary with the labels shown on screen while their writes are in flight. */
function withPendingLabels(summary: AnnotationSummary): AnnotationSummary {
  const { saving, summary: shown } = get();
  if (saving.size === 0) return summary;
  const showing = new Map((shown?.key === summary.key ? shown.units : []).map((unit) => [unit.id, unit.state]));
  return {
    ...summary,
    units: summary.units.map((unit) => {
      if (!saving.has(unit.id)) return unit;
      const state = showing.get(unit.id) ?? pendingStateOf.get(unit.id);
      return state ? { ...unit, state } : unit;
    }),
  };
}


/** annotation.load may say the summary was revealed (issue 9); older cores do not. */
function isRevealedSummary(summary: AnnotationSummary): boolean {
  return 'revealed' in summary && (summary as { revealed?: unknown }).revealed === true;
}

/**
 * After the annotator opened a revealing view: every summary of the queue with work left was
 * revealed (what annotation.reveal records), so their labels from now on are not blind.
 */
export function markRevealed(): void {
  const { queue, revealed } = get();
  const next = new Set(revealed);
  for (const item of queue) if (item.labeled < item.units) next.add(item.key);
  set({ revealed: next });
}

function replaceItem(queue: QueueItem[], position: number, change: Partial<QueueItem>): QueueItem[] {
  const item = queue[position];
  if (!item) return queue;
  const copy = queue.slice();
  copy[position] = { ...item, ...change };
  return copy;
}

export function openSummary(position: number): Promise<void> {
  return enqueue(() => openAt(position));
}

/** Enter / N: the next summary that still has work, else simply the next one. */
export function nextSummary(): Promise<void> {
  return enqueue(async () => {
    const { queue, position } = get();
    const target = nextWithWork(queue, position ?? -1) ?? ((position ?? -1) + 1 < queue.length ? (position ?? -1) + 1 : null);
    if (target !== null && target !== position) await openAt(target);
  });
}

/** Searches forward, then from the top; summaries without a document cannot be worked on. */
export function nextWithWork(queue: readonly QueueItem[], from: number): number | null {
  const hasWork = (item: QueueItem | undefined): boolean =>
    item !== undefined && !item.documentMissing && item.labeled < item.units;
  for (let i = from + 1; i < queue.length; i += 1) if (hasWork(queue[i])) return i;
  for (let i = 0; i < from; i += 1) if (hasWork(queue[i])) return i;
  return null;
}

export function previousSummary(): Promise<void> {
  return enqueue(async () => {
    const { position } = get();
    if (position !== null && position > 0) await openAt(position - 1);
  });
}

// ---------------------------------------------------------------------------------------------
// Moving between units

export function moveUnit(delta: number): Promise<void> {
  return enqueue(() => {
    const { summary, unitPosition } = get();
    if (!summary) return;
    selectPosition(Math.min(summary.units.length - 1, Math.max(0, unitPosition + delta)));
  });
}

export function selectUnit(position: number): Promise<void> {
  return enqueue(() => selectPosition(position));
}

function selectPosition(position: number): void {
  const { summary, unitPosition } = get();
  if (!summary || position === unitPosition || position < 0 || position >= summary.units.length) return;
  set({ unitPosition: position, unitSince: now(), lastLabeledId: null });
}

// ---------------------------------------------------------------------------------------------
// Writing

type Cause = RecordInput['cause'];

/**
 * Stores `state` for `unitId` and waits for it, then reflects what the core stored (and only
 * that): the path of everything but the label keys. `previous` is the state being replaced, for
 * the summary's done count in the queue.
 */
async function store(
  key: number,
  unitId: number,
  previous: UnitLabelState,
  state: UnitLabelState,
  cause: Cause,
  timeSpentMs: number | null,
): Promise<UnitLabelState | null> {
  const owner = lane.token();
  const result = await bridge().call('annotation.record', {
    unitId,
    annotator: annotatorName(),
    state,
    timeSpentMs,
    cause,
  });
  if (!lane.isCurrent(owner)) return null;
  const current = get();
  const { summary } = current;
  const counts = withLabeledDelta(current, key, countChange(previous, result.state));
  set({
    queue: counts.queue,
    progress: result.progress,
    summary: summary && summary.key === key ? withUnitState(summary, unitId, result.state) : summary,
    failed: current.failed.has(unitId) ? withoutId(current.failed, unitId) : current.failed,
    error: null,
  });
  return result.state;
}

function withUnitState(summary: AnnotationSummary, unitId: number, state: UnitLabelState): AnnotationSummary {
  return { ...summary, units: summary.units.map((unit) => (unit.id === unitId ? { ...unit, state } : unit)) };
}

const MAX_TIME_MS = 86_400_000;

/**
 * F/U/C: shows the label on the sentence ("saving") and advances at once (after the last unit:
 * stay), then writes it in order with the others. See the file comment for a failed write.
 */
export function labelCurrent(label: HumanLabel, pressedAt: number = now()): Promise<void> {
  return enqueue(() => {
    const state = get();
    const unit = currentUnit(state);
    if (!unit || !state.summary || !canLabel(state.summary)) return;
    const before = unit.state;
    const after: UnitLabelState = {
      label,
      // An error type describes an unfaithful unit; it would be misleading on any other label.
      errorType: label === 'unfaithful' ? before.errorType : null,
      note: before.note,
    };
    const timeSpentMs = Math.min(MAX_TIME_MS, Math.max(0, Math.round(pressedAt - state.unitSince)));
    const write: PendingWrite = {
      owner: lane.token(),
      key: state.summary.key,
      summaryId: state.summary.summaryId,
      unitId: unit.id,
      index: unit.index,
      before,
      after,
      input: { unitId: unit.id, annotator: annotatorName(), state: after, timeSpentMs, cause: 'label' },
    };
    showPressed(write, state.unitPosition + 1);
    inFlight += 1;
    void writes.run(
      () => bridge().call('annotation.record', write.input),
      (result) => {
        inFlight -= 1;
        settleStored(write, result.state, result.progress);
      },
      (err) => {
        inFlight -= 1;
        rollBack(write, err);
      },
    );
  });
}

interface PendingWrite {
  owner: number;
  key: number;
  summaryId: string;
  unitId: number;
  index: number;
  before: UnitLabelState;
  after: UnitLabelState;
  input: RecordInput;
}

function countChange(previous: UnitLabelState, next: UnitLabelState): number {
  return Number(next.label !== null) - Number(previous.label !== null);
}

/** Moves a summary's done count (and the header's progress) by `delta` labeled units. */
function withLabeledDelta(state: AnnotationState, key: number, delta: number): Pick<AnnotationState, 'queue' | 'progress'> {
  if (delta === 0) return { queue: state.queue, progress: state.progress };
  const position = state.queue.findIndex((item) => item.key === key);
  const item = state.queue[position];
  if (!item) return { queue: state.queue, progress: state.progress };
  const labeled = Math.max(0, Math.min(item.units, item.labeled + delta));
  const progress = state.progress && {
    ...state.progress,
    unitsDone: Math.max(0, state.progress.unitsDone + (labeled - item.labeled)),
    summariesDone: state.progress.summariesDone + Number(labeled === item.units) - Number(item.labeled === item.units),
  };
  return { queue: replaceItem(state.queue, position, { labeled }), progress };
}

/** The keypress's one state update: label shown "saving", cursor advanced, counts moved. */
function showPressed(write: PendingWrite, advanceTo: number): void {
  const state = get();
  const { summary } = state;
  if (!summary) return;
  if (!committed.has(write.unitId)) committed.set(write.unitId, write.before);
  pendingStateOf.set(write.unitId, write.after);
  const saving = new Map(state.saving).set(write.unitId, (state.saving.get(write.unitId) ?? 0) + 1);
  const failed = state.failed.has(write.unitId) ? withoutId(state.failed, write.unitId) : state.failed;
  const advance = advanceTo < summary.units.length;
  set({
    ...(advance ? { unitPosition: advanceTo, unitSince: now() } : {}),
    lastLabeledId: write.unitId,
    summary: withUnitState(summary, write.unitId, write.after),
    ...withLabeledDelta(state, write.key, countChange(write.before, write.after)),
    saving,
    failed,
    notice: null,
  });
}

function withoutId<T>(set: ReadonlySet<T>, id: T): ReadonlySet<T> {
  const copy = new Set(set);
  copy.delete(id);
  return copy;
}

/** One fewer write in flight for `unitId`; the last one clears its "saving". */
function savingWithout(saving: ReadonlyMap<number, number>, unitId: number): { saving: ReadonlyMap<number, number>; last: boolean } {
  const left = (saving.get(unitId) ?? 1) - 1;
  const copy = new Map(saving);
  if (left > 0) copy.set(unitId, left);
  else copy.delete(unitId);
  return { saving: copy, last: left <= 0 };
}

/** The core stored the label: it becomes undoable, and the core's counts are used once nothing else is in flight. */
function settleStored(write: PendingWrite, stored: UnitLabelState, progress: Progress): void {
  if (!lane.isCurrent(write.owner)) return;
  const state = get();
  const { saving, last } = savingWithout(state.saving, write.unitId);
  if (last) {
    committed.delete(write.unitId);
    pendingStateOf.delete(write.unitId);
  } else {
    committed.set(write.unitId, stored);
  }
  pushChange({ key: write.key, unitId: write.unitId, before: write.before, after: stored });
  set({ saving, ...(saving.size === 0 ? { progress } : {}) });
}

/**
 * The write failed: the sentence goes back to what is stored (unless a later key for it is still
 * being written), is marked "not saved", and the view returns to it (the first such sentence of
 * a burst of failures); the counts move back. Later keys are untouched.
 */
function rollBack(write: PendingWrite, err: unknown): void {
  if (!lane.isCurrent(write.owner)) return;
  const state = get();
  const { saving, last } = savingWithout(state.saving, write.unitId);
  const storedState = committed.get(write.unitId) ?? write.before;
  if (last) {
    committed.delete(write.unitId);
    pendingStateOf.delete(write.unitId);
  }
  const shown = state.summary?.key === write.key ? state.summary : null;
  const shownState = shown?.units.find((unit) => unit.id === write.unitId)?.state;
  // Only the last write of the unit decides what it shows; the counts follow what is shown.
  const revert = last && shownState !== undefined;
  const counts = revert ? withLabeledDelta(state, write.key, countChange(shownState, storedState)) : last && !shown ? withLabeledDelta(state, write.key, countChange(write.after, storedState)) : {};
  const firstFailure = state.failed.size === 0;
  const failed = new Set(state.failed).add(write.unitId);
  const position = shown ? shown.units.findIndex((unit) => unit.id === write.unitId) : -1;
  const count = failed.size;
  set({
    saving,
    failed,
    ...counts,
    ...(revert && shown ? { summary: withUnitState(shown, write.unitId, storedState) } : {}),
    ...(firstFailure && position !== -1 ? { unitPosition: position, unitSince: now(), lastLabeledId: null } : {}),
    error:
      `The label of sentence ${write.index + 1} of summary ${write.summaryId} was not saved: ${errorMessage(err)}. ` +
      `${count > 1 ? `${count} sentences are marked "not saved". ` : ''}The view is back on it; keys pressed after it were kept.`,
  });
  // Its summary is no longer on screen: bring it back (after the commands already queued).
  if (firstFailure && !shown) void enqueue(() => openKey(write.key, write.unitId));
}

/**
 * Which unit E acts on: the current one if it is unfaithful, else the one just labeled
 * unfaithful (after U the cursor has already moved on, and "U then E" is the natural gesture).
 */
export function errorTypeTarget(state: AnnotationState = get()): number | null {
  const { summary, unitPosition, lastLabeledId } = state;
  if (!summary || !canLabel(summary)) return null;
  if (summary.units[unitPosition]?.state.label === 'unfaithful') return unitPosition;
  const previous = summary.units[unitPosition - 1];
  if (previous && previous.id === lastLabeledId && previous.state.label === 'unfaithful') return unitPosition - 1;
  return null;
}

async function changeUnit(
  position: number,
  cause: Cause,
  change: (state: UnitLabelState) => UnitLabelState | null,
): Promise<void> {
  // After the labels pressed before it are stored (or rolled back): it changes what they left.
  const owner = lane.token();
  await writes.settled();
  if (!lane.isCurrent(owner)) return;
  const state = get();
  const unit = state.summary?.units[position];
  if (!unit || !state.summary || !canLabel(state.summary)) return;
  const after = change(unit.state);
  if (!after) return;
  const stored = await store(state.summary.key, unit.id, unit.state, after, cause, null);
  if (stored) pushChange({ key: state.summary.key, unitId: unit.id, before: unit.state, after: stored });
}

/** Only an unfaithful unit carries an error type; null removes it. */
export function setErrorType(position: number, errorType: ErrorType | null): Promise<void> {
  return enqueue(() =>
    changeUnit(position, 'error_type', (state) =>
      state.label === 'unfaithful' && state.errorType !== errorType ? { ...state, errorType } : null,
    ),
  );
}

export function saveNote(position: number, text: string): Promise<void> {
  const note = text.trim() === '' ? null : text;
  return enqueue(() => changeUnit(position, 'note', (state) => (state.note === note ? null : { ...state, note })));
}

/** X: remove the label (and its error type); the note stays. */
export function clearCurrent(): Promise<void> {
  return enqueue(() =>
    changeUnit(get().unitPosition, 'clear', (state) => (state.label === null ? null : { ...state, label: null, errorType: null })),
  );
}

// ---------------------------------------------------------------------------------------------
// Undo / redo across summaries

/** Re-stores one side of an undo entry and shows that unit, loading its summary if needed. */
async function replay(entry: UndoEntry, cause: 'undo' | 'redo'): Promise<boolean> {
  const [previous, state] = cause === 'undo' ? [entry.after, entry.before] : [entry.before, entry.after];
  const stored = await store(entry.key, entry.unitId, previous, state, cause, null);
  if (!stored) return false;
  const { summary } = get();
  if (summary && summary.key === entry.key) {
    const position = summary.units.findIndex((unit) => unit.id === entry.unitId);
    if (position !== -1) selectPosition(position);
  } else {
    await openKey(entry.key, entry.unitId);
  }
  return true;
}

export function undo(): Promise<void> {
  return enqueue(async () => {
    // The labels pressed before Ctrl+Z are the ones it undoes: wait until they are stored.
    const owner = lane.token();
    await writes.settled();
    if (!lane.isCurrent(owner)) return;
    const entry = peekUndo();
    if (entry && (await replay(entry, 'undo'))) commitUndo();
  });
}

export function redo(): Promise<void> {
  return enqueue(async () => {
    const owner = lane.token();
    await writes.settled();
    if (!lane.isCurrent(owner)) return;
    const entry = peekRedo();
    if (entry && (await replay(entry, 'redo'))) commitRedo();
  });
}

// ---------------------------------------------------------------------------------------------
// Missing documents

/** Attaches the pasted text to the summary's document, then reloads queue and summary. */
export function attachDocument(text: string): Promise<void> {
  return enqueue(async () => {
    const { summary } = get();
    if (!summary || !text.trim()) return;
    const owner = lane.token();
    await writes.settled();
    if (!lane.isCurrent(owner)) return;
    await bridge().call('annotation.attachDocument', { key: summary.key, text });
    if (!lane.isCurrent(owner)) return;
    // Every summary of that document got it: refresh the "document missing" flags too.
    const queue = await bridge().call('annotation.queue', { annotator: annotatorName() });
    if (!lane.isCurrent(owner)) return;
    set({ queue: queue.items, progress: queue.progress });
    await openKey(summary.key);
  });
}

export function dismissError(): void {
  set({ error: null });
}

/** Says why a key did nothing (cleared by the next label, or by `null`). */
export function setAnnotationNotice(notice: string | null): void {
  set({ notice });
}
