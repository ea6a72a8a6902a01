/**
 * The annotation session: the annotator's queue, the summary on screen, the current sentence and
 * every command on sentences.
 *
 * Commands run through the session's command lane (keys apply in the order pressed, state/
 * annotateLanes.ts); label writes go through the write engine (state/writeEngine.ts): F/U/C paints
 * at once ("saving"), advances, and is written in order; a failed write rolls its sentence back,
 * marks it "not saved", brings the view back to it and says so, keeping the keys pressed after it.
 * Commands that need the stored state (E's choice, note, X, undo, redo, attach) wait for the
 * writes before them.
 */
import { z } from 'zod';
import { create } from 'zustand';
import {
  hasWorkLeft,
  UnitLabelStateSchema,
  type AnnotationSummary,
  type AnnotationUnit,
  type Progress,
  type Queue,
  type QueueInput,
  type QueueItem,
  type RecordInput,
  type UnitLabelState,
} from '../../shared/api';
import { noteFromText, type ErrorType, type HumanLabel } from '../../shared/domain';
import { LIMITS } from '../../shared/limits';
import { errorMessage } from '../api/errors';
import { reportLanesTo, resetLanes, sessionLanes } from './annotateLanes';
import { restorePlace } from './place';
import { bridge, useSession } from './session';
import { timeSpent } from './timeSpent';
import { createWriteEngine } from './writeEngine';

export interface AnnotationState {
  /** Whose session this is ("project path + annotator"); another owner starts from scratch. */
  owner: string | null;
  status: 'idle' | 'loading' | 'ready';
  /**
   * The loaded stretch of the annotator's queue (annotation.queue answers it a page at a time):
   * the summaries at positions queueStart … queueStart + queue.length - 1 of queueTotal.
   */
  queue: QueueItem[];
  queueStart: number;
  queueTotal: number;
  /**
   * A page the queue list scrolled to away from the loaded stretch (shown there only: the keys
   * keep working on the stretch around the summary on screen).
   */
  listed: { start: number; items: QueueItem[] } | null;
  progress: Progress | null;
  /** Summaries with work left whose document is missing (annotation.queue's `blocked`). */
  blocked: number;
  /** Position in the whole queue (0-based) of the summary on screen. */
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
  queueStart: 0,
  queueTotal: 0,
  listed: null,
  progress: null,
  blocked: 0,
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
const enqueue = sessionLanes.enqueue;
const lane = sessionLanes;

reportLanesTo({ error: (message) => set({ error: message }), busy: (size) => set({ busy: size }) });

/** A sentence of a summary: its summary's queue key and its unit id. */
interface SentenceRef {
  key: number;
  unitId: number;
}

type SentenceCause = 'error_type' | 'note' | 'clear';

/** The progress the core returned with the last stored label (shown once nothing else is in flight). */
let lastProgress: Progress | null = null;

const sentences = createWriteEngine<SentenceRef, UnitLabelState, number, SentenceCause>({
  lanes: sessionLanes,
  keyOf: (ref) => ref.unitId,
  async record(ref, state, cause, timeSpentMs) {
    const input: RecordInput = { unitId: ref.unitId, annotator: annotatorName(), state, timeSpentMs, cause };
    const result = await bridge().call('annotation.record', input);
    lastProgress = result.progress;
    return result.state;
  },
  shown: (ref) => {
    const { summary } = get();
    return summary?.key === ref.key ? summary.units.find((unit) => unit.id === ref.unitId)?.state : undefined;
  },
  show(ref, state, from) {
    const current = get();
    const { summary } = current;
    set({
      ...withLabeledDelta(current, ref.key, countChange(from, state)),
      summary: summary && summary.key === ref.key ? withUnitState(summary, ref.unitId, state) : summary,
    });
  },
  marks: () => get(),
  setMarks: (marks) => set(marks),
  focus(ref, why) {
    const { summary } = get();
    const position = summary?.key === ref.key ? summary.units.findIndex((unit) => unit.id === ref.unitId) : -1;
    if (position !== -1) {
      if (why === 'failed') set({ unitPosition: position, unitSince: now(), lastLabeledId: null });
      else selectPosition(position);
      return;
    }
    // Its summary is no longer on screen: bring it back (a failure: after the commands already queued).
    if (why === 'failed') void enqueue(() => openKey(ref.key, ref.unitId));
    else return openKey(ref.key, ref.unitId);
  },
  failed(ref, err, count) {
    const unit = sentenceInfo.get(ref.unitId);
    set({
      error:
        `The label of sentence ${(unit?.index ?? 0) + 1} of summary ${unit?.summaryId ?? ref.key} was not saved: ${errorMessage(err)}. ` +
        `${count > 1 ? `${count} sentences are marked "not saved". ` : ''}The view is back on it; keys pressed after it were kept.`,
    });
  },
  stored(_ref, _state, idle) {
    if (idle && lastProgress) set({ progress: lastProgress });
  },
  history: {
    prefix: 'loupe.undo:',
    schema: z.object({
      ref: z.object({ key: z.number().int(), unitId: z.number().int() }),
      before: UnitLabelStateSchema,
      after: UnitLabelStateSchema,
    }),
  },
});

/** What a failure message names about a sentence written (it may be off screen by then). */
const sentenceInfo = new Map<number, { index: number; summaryId: string }>();

/** Forget everything: another annotator or project. Pending commands become no-ops. */
export function resetAnnotation(): void {
  resetLanes();
  sentences.reset();
  sentenceInfo.clear();
  lastProgress = null;
  useAnnotation.setState({ ...initialState, saving: new Map(), failed: new Set(), revealed: new Set() });
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
  sentences.restore(owner);
  set({ owner });
  return loadQueue();
}

function refreshQueue(): Promise<void> {
  return enqueue(async () => {
    const owner = lane.token();
    // The core's counts include the labels still being written only once they are stored.
    await lane.settled();
    if (!lane.isCurrent(owner)) return;
    const { summary } = get();
    const page = await fetchQueue(summary ? { around: summary.key } : {});
    if (!lane.isCurrent(owner)) return;
    showPage(page, 'replace');
    set({ status: 'ready', position: summary ? positionOfKey(summary.key) : null });
    if (!summary || get().position === null) {
      const start = page.resumeAt ?? (page.total > 0 ? 0 : null);
      if (start !== null) await openAt(start);
      else set({ summary: null });
    }
  });
}

export function loadQueue(): Promise<void> {
  set({ status: 'loading', error: null });
  return enqueue(async () => {
    const owner = lane.token();
    const first = await fetchQueue({});
    if (!lane.isCurrent(owner)) return;
    showPage(first, 'replace');
    set({ status: 'ready' });
    // This tab's place before a reload, if its summary is still in the queue; else the first with work.
    const place = restorePlace(get().owner);
    if (place && positionOfKey(place.key) === null && first.total > first.items.length) {
      const around = await fetchQueue({ around: place.key });
      if (!lane.isCurrent(owner)) return;
      if (around.items.some((item) => item.key === place.key)) showPage(around, 'replace');
    }
    if (place && positionOfKey(place.key) !== null) return openKey(place.key, place.unitId ?? undefined);
    const start = first.resumeAt ?? (first.total > 0 ? 0 : null);
    if (start !== null) await openAt(start);
  });
}

// ---------------------------------------------------------------------------------------------
// The loaded stretch of the queue

/** Summaries per page (annotation.queue's default): a screenful of the queue list many times over, cheap for the core. */
const PAGE = LIMITS.lists.limit.default!;
/** At most this many summaries stay loaded: pages far from the latest one are dropped. */
const MAX_LOADED = 2_000;

function fetchQueue(at: Omit<QueueInput, 'annotator'>): Promise<Queue> {
  return bridge().call('annotation.queue', { annotator: annotatorName(), ...at });
}

/** The summary at queue position `position`, if it is loaded. */
export function queueItemAt(position: number, state: AnnotationState = get()): QueueItem | undefined {
  return state.queue[position - state.queueStart];
}

/** The queue position of a loaded summary, or null when it is not loaded (or not in the queue). */
function positionOfKey(key: number, state: AnnotationState = get()): number | null {
  const index = state.queue.findIndex((item) => item.key === key);
  return index === -1 ? null : state.queueStart + index;
}

/**
 * Takes in a page: its counts, and its summaries joined to the loaded stretch when they touch it
 * ('merge'), else in its place. The summary on screen keeps its own labeled count (its labels may
 * still be being written).
 */
function showPage(page: Queue, how: 'merge' | 'replace'): void {
  const state = get();
  const { summary } = state;
  const items = summary
    ? page.items.map((item) =>
        item.key === summary.key
          ? { ...item, labeled: summary.units.filter((unit) => unit.state.label !== null).length }
          : item,
      )
    : page.items;
  const end = state.queueStart + state.queue.length;
  const touches = page.start <= end && page.start + items.length >= state.queueStart && state.queue.length > 0;
  let queue = items;
  let queueStart = page.start;
  if (how === 'merge' && touches) {
    const before = state.queue.slice(0, Math.max(0, page.start - state.queueStart));
    const after = state.queue.slice(Math.max(0, page.start + items.length - state.queueStart));
    queue = [...before, ...items, ...after];
    queueStart = Math.min(state.queueStart, page.start);
    if (queue.length > MAX_LOADED) {
      // Keep the stretch nearest the page just loaded.
      const from = Math.max(
        0,
        Math.min(page.start - queueStart - (MAX_LOADED - items.length) / 2, queue.length - MAX_LOADED),
      );
      queue = queue.slice(Math.floor(from), Math.floor(from) + MAX_LOADED);
      queueStart += Math.floor(from);
    }
  }
  set({
    queue,
    queueStart,
    queueTotal: page.total,
    // Labels still being written are in the counts on screen, not yet in the core's.
    progress: state.saving.size > 0 && state.progress ? state.progress : page.progress,
    blocked: page.blocked,
    ...(how === 'replace' ? { listed: null } : {}),
  });
}

/** The page holding queue position `position` is loaded (fetched when it is not). */
async function ensureLoaded(position: number): Promise<void> {
  if (queueItemAt(position) || position < 0 || position >= get().queueTotal) return;
  const owner = lane.token();
  const page = await fetchQueue({ position: Math.max(0, position - PAGE / 2) });
  if (lane.isCurrent(owner)) showPage(page, 'merge');
}

/** The summary at `position` as the queue list shows it: from the loaded stretch, else the listed page. */
export function listedItemAt(position: number, state: AnnotationState = get()): QueueItem | undefined {
  const { listed } = state;
  return queueItemAt(position, state) ?? listed?.items[position - listed.start];
}

/** The list's page holding `position` is loaded: joined to the stretch when it touches it, else kept aside. */
async function ensureListed(position: number): Promise<void> {
  if (listedItemAt(position) || position < 0 || position >= get().queueTotal) return;
  const owner = lane.token();
  const page = await fetchQueue({ position: Math.max(0, position - PAGE / 2) });
  if (!lane.isCurrent(owner)) return;
  const { queue, queueStart } = get();
  const touches = page.start <= queueStart + queue.length && page.start + page.items.length >= queueStart;
  if (touches || get().position === null) showPage(page, 'merge');
  else set({ listed: { start: page.start, items: page.items } });
}

let listWanted: number | null = null;
let listLoading = false;

/**
 * The queue list scrolled to summaries not loaded: loads the page there (outside the command
 * lane, so keys are not kept waiting; only the last position asked for while a page loads is fetched next).
 */
export function showQueueAt(position: number): void {
  listWanted = position;
  if (listLoading) return;
  listLoading = true;
  void (async () => {
    try {
      while (listWanted !== null) {
        const wanted = listWanted;
        listWanted = null;
        await ensureListed(wanted);
      }
    } catch (err) {
      set({ error: errorMessage(err) });
    } finally {
      listLoading = false;
    }
  })();
}

/** Shows the summary at queue position `position`; focuses `unitId` if given, else its first unlabeled unit. */
async function openAt(position: number, unitId?: number): Promise<void> {
  await ensureLoaded(position);
  const item = queueItemAt(position);
  if (!item) return;
  await openKey(item.key, unitId);
}

async function openKey(key: number, unitId?: number): Promise<void> {
  const owner = lane.token();
  if (positionOfKey(key) === null && get().queueTotal > get().queue.length) {
    const page = await fetchQueue({ around: key });
    if (!lane.isCurrent(owner)) return;
    showPage(page, 'merge');
  }
  const loaded = await bridge().call('annotation.load', { key, annotator: annotatorName() });
  if (!lane.isCurrent(owner)) return;
  // The load may have been answered before a label of this summary still being written.
  const summary = withPendingLabels(loaded);
  const revealed =
    isRevealedSummary(loaded) && !get().revealed.has(key) ? new Set(get().revealed).add(key) : get().revealed;
  const byId = unitId === undefined ? -1 : summary.units.findIndex((unit) => unit.id === unitId);
  const labeled = summary.units.filter((unit) => unit.state.label !== null).length;
  const position = positionOfKey(key);
  const { queue, queueStart } = get();
  set({
    summary,
    position,
    unitPosition: byId === -1 ? firstUnlabeledPosition(summary) : byId,
    unitSince: now(),
    queue: position === null ? queue : replaceItem(queue, position - queueStart, { labeled }),
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
      const state = showing.get(unit.id) ?? sentences.pressed({ key: summary.key, unitId: unit.id });
      return state ? { ...unit, state } : unit;
    }),
  };
}

/** annotation.load may say the summary was revealed; older cores do not. */
function isRevealedSummary(summary: AnnotationSummary): boolean {
  return 'revealed' in summary && (summary as { revealed?: unknown }).revealed === true;
}

/**
 * After the annotator opened a revealing view: every summary of the queue with work left was
 * revealed (what annotation.reveal records), so their labels from now on are not blind.
 */
export function markRevealed(): void {
  const { queue, revealed, summary } = get();
  const next = new Set(revealed);
  for (const item of queue) if (item.labeled < item.units) next.add(item.key);
  // Summaries not loaded say so when they are opened (annotation.load's `revealed`).
  if (summary && summary.units.some((unit) => unit.state.label === null)) next.add(summary.key);
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

/** Shows the summary of queue key `key` (loading its page of the queue if needed). */
export function openSummaryKey(key: number): Promise<void> {
  return enqueue(() => openKey(key));
}

/**
 * Enter / N: the next summary that still has work (from the top after the end), else simply the
 * next one. Looked up in the loaded stretch when that answers it (its counts include labels still
 * being written); else the core searches the whole queue once the writes are stored.
 */
export function nextSummary(): Promise<void> {
  return enqueue(async () => {
    const owner = lane.token();
    const { queue, queueStart, queueTotal, position, summary } = get();
    const here = (position ?? -1) - queueStart;
    const whole = queueStart === 0 && queue.length === queueTotal;
    const local = whole ? nextWithWork(queue, here) : laterWithWork(queue, here);
    if (local !== null) return openAt(queueStart + local);
    if (!whole) {
      await lane.settled();
      if (!lane.isCurrent(owner)) return;
      const found = await bridge().call('annotation.next', { annotator: annotatorName(), after: summary?.key ?? null });
      if (!lane.isCurrent(owner)) return;
      if (found) return openKey(found.item.key);
    }
    const following = (position ?? -1) + 1;
    if (following < queueTotal && following !== position) await openAt(following);
  });
}

const hasWork = (item: QueueItem | undefined): boolean =>
  item !== undefined && !item.documentMissing && item.labeled < item.units;

/** Searches forward, then from the top; summaries without a document cannot be worked on. */
export function nextWithWork(queue: readonly QueueItem[], from: number): number | null {
  const later = laterWithWork(queue, from);
  if (later !== null) return later;
  for (let i = 0; i < from; i += 1) if (hasWork(queue[i])) return i;
  return null;
}

/** The first index after `from` with work, or null. */
function laterWithWork(queue: readonly QueueItem[], from: number): number | null {
  for (let i = Math.max(0, from + 1); i < queue.length; i += 1) if (hasWork(queue[i])) return i;
  return null;
}

/** Every summary of the queue that can be labeled is labeled (the rest wait for a document). */
export function sampleComplete(state: AnnotationState = get()): boolean {
  return state.progress !== null && !hasWorkLeft(state.progress, state.blocked);
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

function withUnitState(summary: AnnotationSummary, unitId: number, state: UnitLabelState): AnnotationSummary {
  return { ...summary, units: summary.units.map((unit) => (unit.id === unitId ? { ...unit, state } : unit)) };
}

function countChange(previous: UnitLabelState, next: UnitLabelState): number {
  return Number(next.label !== null) - Number(previous.label !== null);
}

/** Moves a summary's done count (and the header's progress) by `delta` labeled units. */
function withLabeledDelta(
  state: AnnotationState,
  key: number,
  delta: number,
): Pick<AnnotationState, 'queue' | 'progress'> {
  if (delta === 0) return { queue: state.queue, progress: state.progress };
  const index = state.queue.findIndex((item) => item.key === key);
  const item = state.queue[index];
  // Not loaded (the list scrolled elsewhere): the summary on screen has the counts.
  const shown = state.summary?.key === key ? state.summary : null;
  const counts = item
    ? { labeled: item.labeled, units: item.units }
    : shown && { labeled: shown.units.filter((unit) => unit.state.label !== null).length, units: shown.units.length };
  if (!counts) return { queue: state.queue, progress: state.progress };
  const labeled = Math.max(0, Math.min(counts.units, counts.labeled + delta));
  const progress = state.progress && {
    ...state.progress,
    unitsDone: Math.max(0, state.progress.unitsDone + (labeled - counts.labeled)),
    summariesDone:
      state.progress.summariesDone + Number(labeled === counts.units) - Number(counts.labeled === counts.units),
  };
  return { queue: item ? replaceItem(state.queue, index, { labeled }) : state.queue, progress };
}

/**
 * F/U/C: shows the label on the sentence ("saving") and advances at once (after the last unit:
 * stay), then writes it in order with the others (state/writeEngine.ts).
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
    sentenceInfo.set(unit.id, { index: unit.index, summaryId: state.summary.summaryId });
    const advanceTo = state.unitPosition + 1;
    sentences.write({ key: state.summary.key, unitId: unit.id }, before, after, timeSpent(pressedAt, state.unitSince));
    set({
      ...(advanceTo < state.summary.units.length ? { unitPosition: advanceTo, unitSince: now() } : {}),
      lastLabeledId: unit.id,
      notice: null,
    });
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

/** A change of the sentence at `position` of the summary on screen, after the writes before it. */
function changeUnit(
  position: number,
  cause: SentenceCause,
  change: (state: UnitLabelState) => UnitLabelState | null,
): Promise<void> {
  const { summary } = get();
  const unit = summary?.units[position];
  if (!summary || !unit || !canLabel(summary)) return Promise.resolve();
  return sentences.change({ key: summary.key, unitId: unit.id }, cause, change);
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
  const note = noteFromText(text);
  return enqueue(() => changeUnit(position, 'note', (state) => (state.note === note ? null : { ...state, note })));
}

/** X: remove the label (and its error type); the note stays. */
export function clearCurrent(): Promise<void> {
  return enqueue(() =>
    changeUnit(get().unitPosition, 'clear', (state) =>
      state.label === null ? null : { ...state, label: null, errorType: null },
    ),
  );
}

/** Undo and redo across summaries, as new events (cause 'undo' / 'redo'). */
export const undo = (): Promise<void> => sentences.undo();
export const redo = (): Promise<void> => sentences.redo();

// ---------------------------------------------------------------------------------------------
// Missing documents

/** Attaches the pasted text to the summary's document, then reloads queue and summary. */
export function attachDocument(text: string): Promise<void> {
  return enqueue(async () => {
    const { summary } = get();
    if (!summary || !text.trim()) return;
    const owner = lane.token();
    await lane.settled();
    if (!lane.isCurrent(owner)) return;
    await bridge().call('annotation.attachDocument', { key: summary.key, text });
    if (!lane.isCurrent(owner)) return;
    // Every summary of that document got it: refresh the "document missing" flags too.
    const page = await fetchQueue({ around: summary.key });
    if (!lane.isCurrent(owner)) return;
    showPage(page, 'replace');
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
