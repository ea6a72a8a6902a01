/**
 * The annotation session: the annotator's queue, the summary on screen, the current unit and
 * every command that changes them.
 *
 * Durability rule (ARCHITECTURE.md rule 2): a label is shown only after `annotation.record`
 * returned it, and the cursor moves on only then. All commands run through one serial queue,
 * so keys pressed during a write apply, in order, to the state that write produced.
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
import { clearUndo, commitRedo, commitUndo, peekRedo, peekUndo, pushChange, type UndoEntry } from './undo';
import { createCommandLane } from './serial';

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
  /** Commands queued or running (a label being written, a summary loading). */
  busy: number;
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

/** Forget everything: another annotator or project. Pending commands become no-ops. */
export function resetAnnotation(): void {
  lane.reset();
  clearUndo();
  useAnnotation.setState({ ...initialState });
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
  set({ owner });
  return loadQueue();
}

function refreshQueue(): Promise<void> {
  return enqueue(async () => {
    const owner = lane.token();
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
  const summary = await bridge().call('annotation.load', { key, annotator: annotatorName() });
  if (!lane.isCurrent(owner)) return;
  const byId = unitId === undefined ? -1 : summary.units.findIndex((unit) => unit.id === unitId);
  const labeled = summary.units.filter((unit) => unit.state.label !== null).length;
  const position = get().queue.findIndex((item) => item.key === key);
  set({
    summary,
    position: position === -1 ? null : position,
    unitPosition: byId === -1 ? firstUnlabeledPosition(summary) : byId,
    unitSince: now(),
    queue: position === -1 ? get().queue : replaceItem(get().queue, position, { labeled }),
    error: null,
  });
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
 * Stores `state` for `unitId`, then reflects what the core stored (and only that).
 * `previous` is the state being replaced, for the summary's done count in the queue.
 */
async function store(
  key: number,
  unitId: number,
  previous: UnitLabelState,
  state: UnitLabelState,
  cause: Cause,
  timeSpentMs: number | null,
  /** A label keypress: remember the unit for E and move to this unit, in the same state update (one render per keypress). */
  advanceTo?: number,
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
  const { summary, queue } = get();
  const position = queue.findIndex((item) => item.key === key);
  const item = queue[position];
  const delta = Number(result.state.label !== null) - Number(previous.label !== null);
  const advance = advanceTo !== undefined && summary?.key === key && advanceTo < summary.units.length;
  set({
    ...(advance ? { unitPosition: advanceTo, unitSince: now() } : {}),
    ...(advanceTo !== undefined ? { lastLabeledId: unitId } : {}),
    progress: result.progress,
    summary: summary && summary.key === key ? withUnitState(summary, unitId, result.state) : summary,
    queue: item ? replaceItem(queue, position, { labeled: Math.max(0, Math.min(item.units, item.labeled + delta)) }) : queue,
    error: null,
  });
  return result.state;
}

function withUnitState(summary: AnnotationSummary, unitId: number, state: UnitLabelState): AnnotationSummary {
  return { ...summary, units: summary.units.map((unit) => (unit.id === unitId ? { ...unit, state } : unit)) };
}

const MAX_TIME_MS = 86_400_000;

/** F/U/C: store the label with the time spent, then advance (after the last unit: stay). */
export function labelCurrent(label: HumanLabel, pressedAt: number = now()): Promise<void> {
  return enqueue(async () => {
    const state = get();
    const unit = currentUnit(state);
    if (!unit || !state.summary || !canLabel(state.summary)) return;
    const key = state.summary.key;
    const before = unit.state;
    const after: UnitLabelState = {
      label,
      // An error type describes an unfaithful unit; it would be misleading on any other label.
      errorType: label === 'unfaithful' ? before.errorType : null,
      note: before.note,
    };
    const timeSpentMs = Math.min(MAX_TIME_MS, Math.max(0, Math.round(pressedAt - state.unitSince)));
    const stored = await store(key, unit.id, before, after, 'label', timeSpentMs, state.unitPosition + 1);
    if (!stored) return;
    pushChange({ key, unitId: unit.id, before, after: stored });
  });
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
    const entry = peekUndo();
    if (entry && (await replay(entry, 'undo'))) commitUndo();
  });
}

export function redo(): Promise<void> {
  return enqueue(async () => {
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
