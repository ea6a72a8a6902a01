/**
 * Scaffold mode of Annotate (issue 12 item 2): the summary's document scaffold (facts with their
 * tier, key questions, entity attributes) with this annotator's own alignments (scaffold.load is
 * blind), and every command on them.
 *
 * Everything runs in the annotation session's command lane and writes in its write lane
 * (state/annotation.ts sessionLanes), so scaffold keys keep one order with every other key of the
 * view. An alignment key paints at once ("saving"), advances, and writes in order; a failed write
 * rolls its item back to what is stored, marks it "not saved", brings the view back to it and says
 * so. The sentence picker (E), clear (X) and an edit (W) wait for the writes before them.
 *
 * Undo / redo (Ctrl+Z, Ctrl+Shift+Z / Ctrl+Y) act on this annotator's own stored alignment changes
 * (value and Fact Focus sentences), as new events (cause 'undo' / 'redo'), after the writes before
 * them; the history is kept in this tab's sessionStorage (storedHistory), so a reload keeps it.
 */
import { create } from 'zustand';
import { z } from 'zod';
import type { AlignmentState, AlignmentValueInput, ScaffoldAnnotation, ScaffoldAnnotationItem, ScaffoldEditInput } from '../../shared/contract/scaffold';
import { ALIGNMENT_VALUES, AlignmentStateSchema } from '../../shared/contract/scaffold';
import type { HumanLabel } from '../../shared/domain';
import { errorMessage } from '../api/errors';
import { canLabel, sessionLanes, useAnnotation } from './annotation';
import { useAccuracy } from './accuracy';
import { bridge, useSession } from './session';
import { MAX_HISTORY_ENTRIES, storedHistory } from './storedHistory';

/** What a scaffold key means, whatever the item's kind; the kind decides the stored value. */
export type AlignKey = HumanLabel | 'misrepresented';

/**
 * The label keys keep their places: F/1 kept (preserved / answered), U/2 not kept (missing /
 * unanswered), C/3 partial (facts only); R/4 misrepresented (facts and attributes).
 */
export const ALIGN_VALUE_FOR_KEY: Record<ScaffoldAnnotationItem['kind'], Record<AlignKey, AlignmentValueInput | null>> = {
  fact: { faithful: 'preserved', unfaithful: 'missing', unclear: 'partial', misrepresented: 'misrepresented' },
  question: { faithful: 'answered', unfaithful: 'unanswered', unclear: null, misrepresented: null },
  attribute: { faithful: 'preserved', unfaithful: 'missing', unclear: null, misrepresented: 'misrepresented' },
};

export const ALIGNMENT_NAME: Record<AlignmentValueInput, string> = {
  preserved: 'Preserved',
  partial: 'Partial',
  missing: 'Missing',
  misrepresented: 'Misrepresented',
  answered: 'Answered',
  unanswered: 'Unanswered',
};

export const ITEM_NOUN: Record<ScaffoldAnnotationItem['kind'], string> = { fact: 'fact', question: 'question', attribute: 'entity attribute' };

/** "Your 5 alignments stay on version 1": said after an edit made a new version. */
export interface KeptAlignments {
  key: number;
  fromVersion: number | null;
  toVersion: number;
  aligned: number;
}

export interface ScaffoldState {
  scaffold: ScaffoldAnnotation | null;
  position: number;
  itemSince: number;
  /** The item the last alignment key acted on (for "F then E"). */
  lastAligned: number | null;
  saving: ReadonlyMap<number, number>;
  failed: ReadonlySet<number>;
  kept: KeptAlignments | null;
  notice: string | null;
  error: string | null;
  /** Undo / redo depth of this annotator's alignment changes. */
  undoDepth: number;
  redoDepth: number;
}

const initialState: ScaffoldState = { scaffold: null, position: 0, itemSince: 0, lastAligned: null, saving: new Map(), failed: new Set(), kept: null, notice: null, error: null, undoDepth: 0, redoDepth: 0 };

export const useScaffold = create<ScaffoldState>(() => ({ ...initialState }));

const get = (): ScaffoldState => useScaffold.getState();
const set = (partial: Partial<ScaffoldState>): void => useScaffold.setState(partial);
const now = (): number => performance.now();
const MAX_TIME_MS = 86_400_000;
const EMPTY: AlignmentState = { value: null, sentences: [] };

/** The stored state of items with writes in flight (a rollback returns to it) and their newest pressed state. */
const committed = new Map<number, AlignmentState>();
const pendingStateOf = new Map<number, AlignmentState>();

/** One stored alignment change of one item of one summary's scaffold. */
const ChangeSchema = z.object({ key: z.number().int(), itemId: z.number().int(), before: AlignmentStateSchema, after: AlignmentStateSchema });
type Change = z.infer<typeof ChangeSchema>;
let past: Change[] = [];
let future: Change[] = [];
/** Kept in this tab's sessionStorage under the annotation owner, as the sentence and claim histories are. */
const storedChanges = storedHistory<Change>('loupe.scaffold-undo:', ChangeSchema);

function saveChanges(): void {
  storedChanges.save({ past, future });
  set({ undoDepth: past.length, redoDepth: future.length });
}

const sameState = (a: AlignmentState, b: AlignmentState): boolean => a.value === b.value && a.sentences.join(',') === b.sentences.join(',');

function pushChange(change: Change): void {
  if (sameState(change.before, change.after)) return;
  past = [...past.slice(-(MAX_HISTORY_ENTRIES - 1)), change];
  future = [];
  saveChanges();
}

/** The owner (project + annotator): this tab's scaffold history of it before a reload, else empty. */
function restoreChanges(owner: string | null): void {
  const restored = owner === null ? { past: [], future: [] } : storedChanges.restore(owner);
  past = restored.past;
  future = restored.future;
  set({ undoDepth: past.length, redoDepth: future.length });
}

export function resetScaffold(): void {
  committed.clear();
  pendingStateOf.clear();
  past = [];
  future = [];
  storedChanges.forget();
  useScaffold.setState({ ...initialState, saving: new Map(), failed: new Set() });
}

function annotatorName(): string {
  const name = useSession.getState().annotator;
  if (!name) throw new Error('Choose an annotator first.');
  return name;
}

const inScaffoldMode = (): boolean => useAccuracy.getState().mode === 'scaffold';

function withItemState(scaffold: ScaffoldAnnotation, itemId: number, state: AlignmentState): ScaffoldAnnotation {
  return { ...scaffold, items: scaffold.items.map((i) => (i.id === itemId ? { ...i, state } : i)) };
}

function showState(key: number, itemId: number, state: AlignmentState): void {
  const shown = get().scaffold;
  if (shown?.key === key) set({ scaffold: withItemState(shown, itemId, state) });
}

/** Loads the shown summary's scaffold when scaffold mode is on and it is not on screen (or `force`). */
async function ensureLoaded(force = false): Promise<void> {
  const summary = useAnnotation.getState().summary;
  if (!summary || !inScaffoldMode()) return;
  if (!force && get().scaffold?.key === summary.key) return;
  const owner = sessionLanes.token();
  try {
    let loaded = await bridge().call('scaffold.load', { key: summary.key, annotator: annotatorName() });
    if (!sessionLanes.isCurrent(owner)) return;
    // A load answered before an alignment still being written: show what was pressed.
    for (const item of loaded.items) {
      const pending = pendingStateOf.get(item.id);
      if (pending) loaded = withItemState(loaded, item.id, pending);
    }
    const keep = force && get().scaffold?.key === loaded.key ? Math.min(get().position, Math.max(0, loaded.items.length - 1)) : -1;
    const firstOpen = loaded.items.findIndex((i) => i.state.value === null);
    set({ scaffold: loaded, position: keep !== -1 ? keep : Math.max(0, firstOpen), itemSince: now(), lastAligned: null });
  } catch (err) {
    if (sessionLanes.isCurrent(owner)) set({ error: `The scaffold could not be loaded: ${errorMessage(err)}` });
  }
}

export function showScaffold(): Promise<void> {
  return sessionLanes.enqueue(() => ensureLoaded());
}

// Scaffold mode switched on, or another summary on screen while it is on: load (in the lane, after what is queued).
useAccuracy.subscribe((state, previous) => {
  if (state.mode === 'scaffold' && previous.mode !== 'scaffold') void sessionLanes.enqueue(() => ensureLoaded());
});
useAnnotation.subscribe((state, previous) => {
  if (state.owner !== previous.owner) {
    resetScaffold();
    restoreChanges(state.owner);
  }
  else if (state.summary?.key !== previous.summary?.key && inScaffoldMode()) void sessionLanes.enqueue(() => ensureLoaded());
});

export function moveScaffoldItem(delta: number): Promise<void> {
  return sessionLanes.enqueue(async () => {
    await ensureLoaded();
    const { scaffold, position } = get();
    const count = scaffold?.items.length ?? 0;
    const next = Math.min(count - 1, Math.max(0, position + delta));
    if (count > 0 && next !== position) set({ position: next, itemSince: now(), lastAligned: null });
  });
}

export function selectScaffoldItem(at: number): Promise<void> {
  return sessionLanes.enqueue(() => {
    if (at >= 0 && at < (get().scaffold?.items.length ?? 0) && at !== get().position) set({ position: at, itemSince: now(), lastAligned: null });
  });
}

function why(item: ScaffoldAnnotationItem, key: AlignKey): string {
  const allowed = ALIGNMENT_VALUES[item.kind].map((v) => ALIGNMENT_NAME[v]).join(' / ');
  return `A ${ITEM_NOUN[item.kind]} is ${allowed}: ${key === 'misrepresented' ? 'R / 4' : 'C / 3'} does not apply to it.`;
}

/** An alignment key on the current item: paint, advance, write in order. */
export function alignCurrent(key: AlignKey, pressedAt: number): Promise<void> {
  return sessionLanes.enqueue(async () => {
    await ensureLoaded();
    const summary = useAnnotation.getState().summary;
    if (!summary || !canLabel(summary)) return set({ notice: 'This summary cannot be aligned (its document is missing).' });
    const state = get();
    const scaffold = state.scaffold;
    const item = scaffold?.items[state.position];
    if (!scaffold || !item || scaffold.key !== summary.key) return set({ notice: 'No scaffold items to align here yet.' });
    const value = ALIGN_VALUE_FOR_KEY[item.kind][key];
    if (value === null) return set({ notice: why(item, key) });
    const before = item.state;
    // Sentences convey a fact that is kept, wholly or partly.
    const after: AlignmentState = { value, sentences: value === 'preserved' || value === 'partial' ? before.sentences : [] };
    const timeSpentMs = Math.min(MAX_TIME_MS, Math.max(0, Math.round(pressedAt - state.itemSince)));
    if (!committed.has(item.id)) committed.set(item.id, before);
    pendingStateOf.set(item.id, after);
    showState(scaffold.key, item.id, after);
    const advance = state.position + 1 < scaffold.items.length ? { position: state.position + 1, itemSince: now() } : {};
    set({ ...advance, saving: new Map(state.saving).set(item.id, (state.saving.get(item.id) ?? 0) + 1), failed: withoutItem(state.failed, item.id), lastAligned: item.id, notice: null });
    const owner = sessionLanes.token();
    const input = { key: scaffold.key, annotator: annotatorName(), itemId: item.id, value, sentences: after.sentences, timeSpentMs, cause: 'label' as const };
    sessionLanes.write(
      () => bridge().call('scaffold.record', input),
      (result) => settle(owner, scaffold.key, item.id, before, result.state),
      (err) => rollBack(owner, scaffold.key, item, err),
    );
  });
}

function withoutItem(items: ReadonlySet<number>, id: number): ReadonlySet<number> {
  if (!items.has(id)) return items;
  const copy = new Set(items);
  copy.delete(id);
  return copy;
}

function savingWithout(saving: ReadonlyMap<number, number>, id: number): { saving: ReadonlyMap<number, number>; last: boolean } {
  const left = (saving.get(id) ?? 1) - 1;
  const copy = new Map(saving);
  if (left > 0) copy.set(id, left);
  else copy.delete(id);
  return { saving: copy, last: left <= 0 };
}

function settle(owner: number, key: number, itemId: number, before: AlignmentState, stored: AlignmentState): void {
  if (!sessionLanes.isCurrent(owner)) return;
  // Writes settle in the order they were pressed, so the history keeps that order.
  pushChange({ key, itemId, before, after: stored });
  const { saving, last } = savingWithout(get().saving, itemId);
  if (last) {
    committed.delete(itemId);
    pendingStateOf.delete(itemId);
  } else committed.set(itemId, stored);
  set({ saving });
}

function rollBack(owner: number, key: number, item: ScaffoldAnnotationItem, err: unknown): void {
  if (!sessionLanes.isCurrent(owner)) return;
  const state = get();
  const { saving, last } = savingWithout(state.saving, item.id);
  if (last) {
    showState(key, item.id, committed.get(item.id) ?? item.state);
    committed.delete(item.id);
    pendingStateOf.delete(item.id);
  }
  const firstFailure = state.failed.size === 0;
  const failed = new Set(state.failed).add(item.id);
  const at = state.scaffold?.key === key ? state.scaffold.items.findIndex((i) => i.id === item.id) : -1;
  set({
    saving,
    failed,
    ...(firstFailure && at !== -1 ? { position: at, itemSince: now(), lastAligned: null } : {}),
    error:
      `The alignment of ${ITEM_NOUN[item.kind]} ${item.itemKey} was not saved: ${errorMessage(err)}. ` +
      `${failed.size > 1 ? `${failed.size} items are marked "not saved". ` : ''}The view is back on it; keys pressed after it were kept.`,
  });
}

/** The fact E acts on: the current one if kept (preserved / partial), else the one just aligned so. */
export function sentencesTarget(state: ScaffoldState = get()): ScaffoldAnnotationItem | null {
  const items = state.scaffold?.items ?? [];
  const kept = (i: ScaffoldAnnotationItem | undefined) => i?.kind === 'fact' && (i.state.value === 'preserved' || i.state.value === 'partial');
  const current = items[state.position];
  if (kept(current)) return current!;
  const previous = items[state.position - 1];
  if (previous && state.lastAligned === previous.id && kept(previous)) return previous;
  return null;
}

/** Runs `step` (opening a picker or the editor) after the commands and writes already queued. */
export function afterScaffoldPending(step: () => void): Promise<void> {
  return sessionLanes.enqueue(async () => {
    const owner = sessionLanes.token();
    await sessionLanes.settled();
    if (sessionLanes.isCurrent(owner)) step();
  });
}

async function storeShown(itemId: number, change: (state: AlignmentState) => AlignmentState | null, cause: 'sentences' | 'clear'): Promise<void> {
  const owner = sessionLanes.token();
  await sessionLanes.settled();
  const scaffold = get().scaffold;
  const item = scaffold?.items.find((i) => i.id === itemId);
  if (!sessionLanes.isCurrent(owner) || !scaffold || !item) return;
  const after = change(item.state);
  if (!after) return;
  try {
    const stored = await bridge().call('scaffold.record', { key: scaffold.key, annotator: annotatorName(), itemId, value: after.value, sentences: after.sentences, timeSpentMs: null, cause });
    if (!sessionLanes.isCurrent(owner)) return;
    showState(scaffold.key, itemId, stored.state);
    set({ failed: withoutItem(get().failed, itemId) });
    pushChange({ key: scaffold.key, itemId, before: item.state, after: stored.state });
  } catch (err) {
    set({ error: `The ${cause === 'clear' ? 'clear' : 'sentences'} of ${ITEM_NOUN[item.kind]} ${item.itemKey} was not saved: ${errorMessage(err)}` });
  }
}

/** Fact Focus: the summary sentences (0-based indexes) that convey a kept fact. */
export function setFactSentences(itemId: number, sentences: number[]): Promise<void> {
  return sessionLanes.enqueue(() =>
    storeShown(itemId, (s) => (s.value === 'preserved' || s.value === 'partial' ? { ...s, sentences: [...new Set(sentences)].sort((a, b) => a - b) } : null), 'sentences'),
  );
}

/** X: remove the current item's alignment (and its sentences). */
export function clearScaffoldItem(): Promise<void> {
  return sessionLanes.enqueue(async () => {
    await ensureLoaded();
    const item = get().scaffold?.items[get().position];
    if (item) await storeShown(item.id, (s) => (s.value === null ? null : EMPTY), 'clear');
  });
}

/** W saved: a new version of the document's scaffold; this annotator's alignments stay on the old one. */
export function saveScaffoldEdit(content: Pick<ScaffoldEditInput, 'facts' | 'questions' | 'entities'>, note?: string): Promise<void> {
  return sessionLanes.enqueue(async () => {
    const owner = sessionLanes.token();
    await sessionLanes.settled();
    const shown = get().scaffold;
    if (!sessionLanes.isCurrent(owner) || !shown) return;
    const aligned = shown.items.filter((i) => i.state.value !== null).length;
    try {
      const edited = await bridge().call('scaffold.edit', { documentKey: shown.documentKey, annotator: annotatorName(), basedOnVersion: shown.version, ...content, ...(note ? { note } : {}) });
      if (!sessionLanes.isCurrent(owner)) return;
      set({ kept: { key: shown.key, fromVersion: shown.version, toVersion: edited.version, aligned }, error: null });
      await ensureLoaded(true);
      set({ position: 0 });
    } catch (err) {
      set({ error: `The scaffold was not changed: ${errorMessage(err)}` });
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Undo / redo of this annotator's alignments

/** Stores `change`'s before (undo) or after (redo) state as a new event; true: stored. */
async function replay(change: Change, cause: 'undo' | 'redo'): Promise<boolean> {
  const owner = sessionLanes.token();
  const state = cause === 'undo' ? change.before : change.after;
  try {
    const stored = await bridge().call('scaffold.record', { key: change.key, annotator: annotatorName(), itemId: change.itemId, value: state.value, sentences: state.sentences, timeSpentMs: null, cause });
    if (!sessionLanes.isCurrent(owner)) return false;
    showState(change.key, change.itemId, stored.state);
    const shown = get().scaffold;
    const at = shown?.key === change.key ? shown.items.findIndex((i) => i.id === change.itemId) : -1;
    set({ ...(at !== -1 ? { position: at, itemSince: now() } : {}), lastAligned: null, failed: withoutItem(get().failed, change.itemId), notice: at === -1 ? `${cause === 'undo' ? 'Undone' : 'Redone'} on summary ${change.key} (not on screen).` : null });
    return true;
  } catch (err) {
    if (sessionLanes.isCurrent(owner)) set({ error: `The ${cause} was not saved: ${errorMessage(err)}` });
    return false;
  }
}

export function undoScaffold(): Promise<void> {
  return sessionLanes.enqueue(async () => {
    const owner = sessionLanes.token();
    await sessionLanes.settled();
    if (!sessionLanes.isCurrent(owner)) return;
    const change = past.at(-1);
    if (!change) return set({ notice: 'Nothing to undo among your scaffold alignments.' });
    if (await replay(change, 'undo')) {
      past = past.slice(0, -1);
      future = [...future, change];
      saveChanges();
    }
  });
}

export function redoScaffold(): Promise<void> {
  return sessionLanes.enqueue(async () => {
    const owner = sessionLanes.token();
    await sessionLanes.settled();
    if (!sessionLanes.isCurrent(owner)) return;
    const change = future.at(-1);
    if (!change) return set({ notice: 'Nothing to redo among your scaffold alignments.' });
    if (await replay(change, 'redo')) {
      future = future.slice(0, -1);
      past = [...past, change];
      saveChanges();
    }
  });
}

export function setScaffoldNotice(notice: string | null): void {
  set({ notice });
}

export function dismissScaffoldError(): void {
  set({ error: null });
}

export const EMPTY_ALIGNMENT = EMPTY;
