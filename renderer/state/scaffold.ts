/**
 * Scaffold mode of Annotate: the summary's document scaffold (facts with their tier, key
 * questions, entity attributes) with this annotator's own alignments (scaffold.load is blind), and
 * every command on them.
 *
 * Commands run in the session's command lane and alignments are written through the write engine
 * (state/writeEngine.ts), so scaffold keys keep one order with every other key of the view: an
 * alignment key paints at once ("saving"), advances, and writes in order; a failed write rolls its
 * item back, marks it "not saved", brings the view back to it and says so. The sentence picker
 * (E), a note (/ or M), clear (X) and an edit (W) wait for the writes before them. Undo / redo act
 * on this annotator's own changes of an item (value, Fact Focus sentences and note), as new events.
 * The note is part of the item's state: every write carries it, so a value keeps it, and X clears
 * the value and keeps the note (as for claims and key facts).
 */
import { create } from 'zustand';
import { z } from 'zod';
import type {
  AlignmentState,
  AlignmentValueInput,
  ScaffoldAnnotation,
  ScaffoldAnnotationItem,
  ScaffoldEditInput,
} from '../../shared/contract/scaffold';
import { ALIGNMENT_VALUES, AlignmentStateSchema } from '../../shared/contract/scaffold';
import { noteFromText, type HumanLabel } from '../../shared/domain';
import { errorMessage } from '../api/errors';
import { sessionLanes } from './annotateLanes';
import { canLabel, useAnnotation } from './annotation';
import { restorePlace } from './place';
import { pendingProposalFor } from './proposals';
import { bridge, useSession } from './session';
import { timeSpent } from './timeSpent';
import { useUnitMode } from './unitMode';
import { createWriteEngine } from './writeEngine';

/** What a scaffold key means, whatever the item's kind; the kind decides the stored value. */
export type AlignKey = HumanLabel | 'misrepresented';

/**
 * The label keys keep their places: F/1 kept (preserved / answered), U/2 not kept (missing /
 * unanswered), C/3 partial (facts only); R/4 misrepresented (facts and attributes).
 */
export const ALIGN_VALUE_FOR_KEY: Record<
  ScaffoldAnnotationItem['kind'],
  Record<AlignKey, AlignmentValueInput | null>
> = {
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

export const ITEM_NOUN: Record<ScaffoldAnnotationItem['kind'], string> = {
  fact: 'fact',
  question: 'question',
  attribute: 'entity attribute',
};

/** "Your 5 alignments stay on version 1": said after an edit made a new version. */
export interface KeptAlignments {
  key: number;
  fromVersion: number | null;
  toVersion: number;
  aligned: number;
  /** The edit was stored as this proposal for the lead (an annotator link's): no version was made. */
  proposal: number | null;
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

const initialState: ScaffoldState = {
  scaffold: null,
  position: 0,
  itemSince: 0,
  lastAligned: null,
  saving: new Map(),
  failed: new Set(),
  kept: null,
  notice: null,
  error: null,
  undoDepth: 0,
  redoDepth: 0,
};

export const useScaffold = create<ScaffoldState>(() => ({ ...initialState }));

const get = (): ScaffoldState => useScaffold.getState();
const set = (partial: Partial<ScaffoldState>): void => useScaffold.setState(partial);
const now = (): number => performance.now();
const enqueue = sessionLanes.enqueue;
const EMPTY: AlignmentState = { value: null, sentences: [], note: null };

/** One item of one summary's scaffold. */
interface ScaffoldRef {
  key: number;
  itemId: number;
}
type ScaffoldCause = 'sentences' | 'clear' | 'note';

/** What a failure message names about an item written. */
const itemWhat = new Map<number, string>();
/** After a reload: the item to focus once the summary's scaffold is loaded. */
let focusAfterLoad: ScaffoldRef | null = null;

/** The item's note; a state without one (a history stored before notes) has none. */
const noteOf = (state: AlignmentState): string | null => state.note ?? null;

const sameState = (a: AlignmentState, b: AlignmentState): boolean =>
  a.value === b.value && a.sentences.join(',') === b.sentences.join(',') && noteOf(a) === noteOf(b);

const alignments = createWriteEngine<ScaffoldRef, AlignmentState, number, ScaffoldCause>({
  lanes: sessionLanes,
  keyOf: (ref) => ref.itemId,
  async record(ref, state, cause, timeSpentMs) {
    const result = await bridge().call('scaffold.record', {
      key: ref.key,
      annotator: annotatorName(),
      itemId: ref.itemId,
      value: state.value,
      sentences: state.sentences,
      note: noteOf(state),
      timeSpentMs,
      cause,
    });
    return result.state;
  },
  shown: (ref) => {
    const shown = get().scaffold;
    return shown?.key === ref.key ? shown.items.find((i) => i.id === ref.itemId)?.state : undefined;
  },
  show(ref, state) {
    const shown = get().scaffold;
    if (shown?.key === ref.key) set({ scaffold: withItemState(shown, ref.itemId, state) });
  },
  marks: () => get(),
  setMarks: (marks) => set(marks),
  focus(ref, why) {
    const shown = get().scaffold;
    const at = shown?.key === ref.key ? shown.items.findIndex((i) => i.id === ref.itemId) : -1;
    if (why === 'failed') {
      if (at !== -1) set({ position: at, itemSince: now(), lastAligned: null });
      return;
    }
    set({
      ...(at !== -1 ? { position: at, itemSince: now() } : {}),
      lastAligned: null,
      notice: at === -1 ? `${why === 'undo' ? 'Undone' : 'Redone'} on summary ${ref.key} (not on screen).` : null,
    });
  },
  failed(ref, err, count) {
    set({
      error:
        `The alignment of ${itemWhat.get(ref.itemId) ?? 'an item'} was not saved: ${errorMessage(err)}. ` +
        `${count > 1 ? `${count} items are marked "not saved". ` : ''}The view is back on it; keys pressed after it were kept.`,
    });
  },
  nothingTo: (what) => set({ notice: `Nothing to ${what} among your scaffold alignments.` }),
  changeFailed(cause, ref, err) {
    const what = cause === 'undo' || cause === 'redo' ? cause : `${cause} of ${itemWhat.get(ref.itemId) ?? 'the item'}`;
    set({ error: `The ${what} was not saved: ${errorMessage(err)}` });
  },
  history: {
    prefix: 'loupe.scaffold-undo:',
    schema: z.object({
      ref: z.object({ key: z.number().int(), itemId: z.number().int() }),
      before: AlignmentStateSchema,
      after: AlignmentStateSchema,
    }),
  },
  depths: (undoDepth, redoDepth) => set({ undoDepth, redoDepth }),
  same: sameState,
});

export function resetScaffold(): void {
  alignments.reset();
  itemWhat.clear();
  focusAfterLoad = null;
  useScaffold.setState({ ...initialState, saving: new Map(), failed: new Set() });
}

function annotatorName(): string {
  const name = useSession.getState().annotator;
  if (!name) throw new Error('Choose an annotator first.');
  return name;
}

const inScaffoldMode = (): boolean => useUnitMode.getState().mode === 'scaffold';

function withItemState(scaffold: ScaffoldAnnotation, itemId: number, state: AlignmentState): ScaffoldAnnotation {
  return { ...scaffold, items: scaffold.items.map((i) => (i.id === itemId ? { ...i, state } : i)) };
}

const nameOf = (item: ScaffoldAnnotationItem): string => `${ITEM_NOUN[item.kind]} ${item.itemKey}`;

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
      itemWhat.set(item.id, nameOf(item));
      const pressed = alignments.pressed({ key: loaded.key, itemId: item.id });
      if (pressed) loaded = withItemState(loaded, item.id, pressed);
    }
    const keep =
      force && get().scaffold?.key === loaded.key ? Math.min(get().position, Math.max(0, loaded.items.length - 1)) : -1;
    const focused =
      focusAfterLoad?.key === loaded.key ? loaded.items.findIndex((i) => i.id === focusAfterLoad?.itemId) : -1;
    if (focusAfterLoad?.key === loaded.key) focusAfterLoad = null;
    const firstOpen = loaded.items.findIndex((i) => i.state.value === null);
    set({
      scaffold: loaded,
      position: focused !== -1 ? focused : keep !== -1 ? keep : Math.max(0, firstOpen),
      itemSince: now(),
      lastAligned: null,
    });
    void showPending(loaded);
  } catch (err) {
    if (sessionLanes.isCurrent(owner)) set({ error: `The scaffold could not be loaded: ${errorMessage(err)}` });
  }
}

export function showScaffold(): Promise<void> {
  return enqueue(() => ensureLoaded());
}

/** The shown summary's scaffold changed in the core (an import, a run): load it again. */
export function reloadScaffold(): Promise<void> {
  return enqueue(() => ensureLoaded(true));
}

// Scaffold mode switched on, or another summary on screen while it is on: load (in the lane, after what is queued).
useUnitMode.subscribe((state, previous) => {
  if (state.mode === 'scaffold' && previous.mode !== 'scaffold') void enqueue(() => ensureLoaded());
});
useAnnotation.subscribe((state, previous) => {
  if (state.owner !== previous.owner) {
    resetScaffold();
    alignments.restore(state.owner);
    // A reload in scaffold mode comes back to the item it was on.
    const place = restorePlace(state.owner);
    if (place?.mode === 'scaffold' && place.item !== null) focusAfterLoad = { key: place.key, itemId: place.item };
  } else if (state.summary?.key !== previous.summary?.key && inScaffoldMode()) void enqueue(() => ensureLoaded());
});

export function moveScaffoldItem(delta: number): Promise<void> {
  return enqueue(async () => {
    await ensureLoaded();
    const { scaffold, position } = get();
    const count = scaffold?.items.length ?? 0;
    const next = Math.min(count - 1, Math.max(0, position + delta));
    if (count > 0 && next !== position) set({ position: next, itemSince: now(), lastAligned: null });
  });
}

export function selectScaffoldItem(at: number): Promise<void> {
  return enqueue(() => {
    if (at >= 0 && at < (get().scaffold?.items.length ?? 0) && at !== get().position)
      set({ position: at, itemSince: now(), lastAligned: null });
  });
}

function why(item: ScaffoldAnnotationItem, key: AlignKey): string {
  const allowed = ALIGNMENT_VALUES[item.kind].map((v) => ALIGNMENT_NAME[v]).join(' / ');
  return `A ${ITEM_NOUN[item.kind]} is ${allowed}: ${key === 'misrepresented' ? 'R / 4' : 'C / 3'} does not apply to it.`;
}

/** An alignment key on the current item: paint, advance, write in order. */
export function alignCurrent(key: AlignKey, pressedAt: number): Promise<void> {
  return enqueue(async () => {
    await ensureLoaded();
    const summary = useAnnotation.getState().summary;
    if (!summary || !canLabel(summary))
      return set({ notice: 'This summary cannot be aligned (its document is missing).' });
    const state = get();
    const scaffold = state.scaffold;
    const item = scaffold?.items[state.position];
    if (!scaffold || !item || scaffold.key !== summary.key)
      return set({ notice: 'No scaffold items to align here yet.' });
    const value = ALIGN_VALUE_FOR_KEY[item.kind][key];
    if (value === null) return set({ notice: why(item, key) });
    const before = item.state;
    // Sentences convey a fact that is kept, wholly or partly.
    const after: AlignmentState = {
      value,
      sentences: value === 'preserved' || value === 'partial' ? before.sentences : [],
      note: noteOf(before),
    };
    itemWhat.set(item.id, nameOf(item));
    alignments.write({ key: scaffold.key, itemId: item.id }, before, after, timeSpent(pressedAt, state.itemSince));
    set({
      ...(state.position + 1 < scaffold.items.length ? { position: state.position + 1, itemSince: now() } : {}),
      lastAligned: item.id,
      notice: null,
    });
  });
}

/** The fact E acts on: the current one if kept (preserved / partial), else the one just aligned so. */
export function sentencesTarget(state: ScaffoldState = get()): ScaffoldAnnotationItem | null {
  const items = state.scaffold?.items ?? [];
  const kept = (i: ScaffoldAnnotationItem | undefined) =>
    i?.kind === 'fact' && (i.state.value === 'preserved' || i.state.value === 'partial');
  const current = items[state.position];
  if (kept(current)) return current!;
  const previous = items[state.position - 1];
  if (previous && state.lastAligned === previous.id && kept(previous)) return previous;
  return null;
}

function changeShown(
  itemId: number,
  cause: ScaffoldCause,
  change: (state: AlignmentState) => AlignmentState | null,
): Promise<void> {
  const scaffold = get().scaffold;
  if (!scaffold) return Promise.resolve();
  return alignments.change({ key: scaffold.key, itemId }, cause, change);
}

/** Fact Focus: the summary sentences (0-based indexes) that convey a kept fact. */
export function setFactSentences(itemId: number, sentences: number[]): Promise<void> {
  return enqueue(() =>
    changeShown(itemId, 'sentences', (s) =>
      s.value === 'preserved' || s.value === 'partial'
        ? { ...s, sentences: [...new Set(sentences)].sort((a, b) => a - b) }
        : null,
    ),
  );
}

/** X: remove the current item's alignment (and its sentences); the note stays. */
export function clearScaffoldItem(): Promise<void> {
  return enqueue(async () => {
    await ensureLoaded();
    const item = get().scaffold?.items[get().position];
    if (item) await changeShown(item.id, 'clear', (s) => (s.value === null ? null : { ...EMPTY, note: noteOf(s) }));
  });
}

/** What / or M writes a note on: the current item, as the note editor shows it; null when there is none. */
export function scaffoldNoteTarget(state: ScaffoldState = get()): ScaffoldNoteTarget | null {
  const item = state.scaffold?.items[state.position];
  return item
    ? {
        itemId: item.id,
        index: state.position,
        text: item.text,
        note: noteOf(item.state),
        heading: `Note on ${nameOf(item)}`,
      }
    : null;
}

export interface ScaffoldNoteTarget {
  itemId: number;
  /** The item's place in the shown scaffold. */
  index: number;
  text: string;
  note: string | null;
  heading: string;
}

/** Saves the note of an item for the shown summary (blank removes it) as one event, cause 'note'; undoable like an alignment. */
export function saveScaffoldNote(itemId: number, text: string): Promise<void> {
  const note = noteFromText(text);
  return enqueue(() => changeShown(itemId, 'note', (s) => (noteOf(s) === note ? null : { ...s, note })));
}

/** An earlier edit of this scaffold by this link still waits for the lead: the pane says so (unless it already says something of it). */
async function showPending(loaded: ScaffoldAnnotation): Promise<void> {
  if (loaded.version === null) return;
  const proposal = await pendingProposalFor(annotatorName(), 'scaffold', { documentKey: loaded.documentKey });
  const shown = get().scaffold;
  if (
    proposal === null ||
    shown?.key !== loaded.key ||
    shown.version !== loaded.version ||
    get().kept?.key === loaded.key
  )
    return;
  set({ kept: { key: loaded.key, fromVersion: loaded.version, toVersion: loaded.version, aligned: 0, proposal } });
}

/** W saved: a new version of the document's scaffold; this annotator's alignments stay on the old one. */
export function saveScaffoldEdit(
  content: Pick<ScaffoldEditInput, 'facts' | 'questions' | 'entities'>,
  note?: string,
): Promise<void> {
  return enqueue(async () => {
    const owner = sessionLanes.token();
    await sessionLanes.settled();
    const shown = get().scaffold;
    if (!sessionLanes.isCurrent(owner) || !shown) return;
    const aligned = shown.items.filter((i) => i.state.value !== null).length;
    try {
      const edited = await bridge().call('scaffold.edit', {
        documentKey: shown.documentKey,
        annotator: annotatorName(),
        basedOnVersion: shown.version,
        ...content,
        ...(note ? { note } : {}),
      });
      if (!sessionLanes.isCurrent(owner)) return;
      const proposal = edited.proposal?.id ?? null;
      set({
        kept: { key: shown.key, fromVersion: shown.version, toVersion: edited.version, aligned, proposal },
        error: null,
      });
      if (proposal !== null) return;
      await ensureLoaded(true);
      set({ position: 0 });
    } catch (err) {
      set({ error: `The scaffold was not changed: ${errorMessage(err)}` });
    }
  });
}

/** Ctrl+Z / Ctrl+Y on this annotator's alignments. */
export const undoScaffold = (): Promise<void> => alignments.undo();
export const redoScaffold = (): Promise<void> => alignments.redo();

export function setScaffoldNotice(notice: string | null): void {
  set({ notice });
}

export function dismissScaffoldError(): void {
  set({ error: null });
}
