/**
 * Claims and key facts in the Annotate view (issue 11 item 3): which unit the keys act on
 * (sentences, claims, key facts), the summary's claims and its document's key facts with this
 * annotator's own labels (claims.load / keyfacts.load are blind), and every command on them.
 *
 * Commands run in the annotation session's command lane and label writes in its write lane
 * (state/annotation.ts sessionLanes): one order for every key of the view, whatever the unit. A
 * label key paints at once ("saving"), advances, and writes in order; a failed write rolls its
 * item back to what is stored, marks it "not saved", brings the view back to it and says so; keys
 * pressed meanwhile are kept (the rules of the sentences, file comment of annotation.ts). Error
 * type, conveyed-by, clear, undo and redo wait for the writes before them and show what the core
 * stored. Undo and redo here act on claim and key-fact labels, across summaries, as new events.
 */
import { z } from 'zod';
import { create } from 'zustand';
import { ClaimLabelStateSchema, type AnnotationClaim, type ClaimAnnotation, type ClaimLabelState } from '../../shared/contract/claims';
import { KeyFactLabelStateSchema, type ConveyedBy, type KeyFactAnnotation, type KeyFactLabelState } from '../../shared/contract/keyfacts';
import type { ClaimErrorType, ClaimLabel, KeyFactLabel } from '../../shared/accuracy/domain';
import type { HumanLabel } from '../../shared/domain';
import { errorMessage } from '../api/errors';
import { canLabel, openSummary, sessionLanes, useAnnotation } from './annotation';
import { bridge, useSession } from './session';
import { MAX_HISTORY_ENTRIES, storedHistory } from './storedHistory';

/** scaffold: the document's Semantic Scaffold, aligned per summary (renderer/state/scaffold.ts). */
export const UNIT_MODES = ['sentences', 'claims', 'keyfacts', 'scaffold'] as const;
export type UnitMode = (typeof UNIT_MODES)[number];
export const UNIT_MODE_NAME: Record<UnitMode, string> = { sentences: 'Sentences', claims: 'Claims', keyfacts: 'Key facts', scaffold: 'Scaffold' };

/** The label keys keep their places: F/1 yes, U/2 no, C/3 cannot tell. */
export const CLAIM_LABEL_FOR_KEY: Record<HumanLabel, ClaimLabel> = { faithful: 'supported', unfaithful: 'unsupported', unclear: 'unclear' };
export const FACT_LABEL_FOR_KEY: Record<HumanLabel, KeyFactLabel | null> = { faithful: 'covered', unfaithful: 'not_covered', unclear: null };
export const CLAIM_LABEL_NAME: Record<ClaimLabel, string> = { supported: 'Supported', unsupported: 'Unsupported', unclear: 'Unclear' };
export const FACT_LABEL_NAME: Record<KeyFactLabel, string> = { covered: 'Covered', not_covered: 'Not covered' };

/** One claim in reading order, with its sentence. */
export interface ClaimRow {
  claim: AnnotationClaim;
  sentence: { unitId: number; index: number; text: string };
}

/** "3 labels stay on version 1": said after an edit made a new version. */
export interface KeptLabels {
  what: 'claims' | 'keyfacts';
  key: number;
  fromVersion: number | null;
  toVersion: number;
  labeled: number;
}

export interface AccuracyState {
  mode: UnitMode;
  claims: ClaimAnnotation | null;
  claimPosition: number;
  facts: KeyFactAnnotation | null;
  factPosition: number;
  /** performance.now() when the current item became current (its time spent). */
  itemSince: number;
  /** The item labeled by the last label key (for "U then E"). */
  lastLabeled: string | null;
  saving: ReadonlyMap<string, number>;
  failed: ReadonlySet<string>;
  kept: KeptLabels | null;
  /** Undo / redo depth, for the legend. */
  undoDepth: number;
  redoDepth: number;
  notice: string | null;
  error: string | null;
}

const initialState: AccuracyState = {
  mode: 'sentences',
  claims: null,
  claimPosition: 0,
  facts: null,
  factPosition: 0,
  itemSince: 0,
  lastLabeled: null,
  saving: new Map(),
  failed: new Set(),
  kept: null,
  undoDepth: 0,
  redoDepth: 0,
  notice: null,
  error: null,
};

export const useAccuracy = create<AccuracyState>(() => ({ ...initialState }));

const get = (): AccuracyState => useAccuracy.getState();
const set = (partial: Partial<AccuracyState>): void => useAccuracy.setState(partial);
const now = (): number => performance.now();
const MAX_TIME_MS = 86_400_000;

// ---------------------------------------------------------------------------------------------
// Items, their keys and their states

type ItemState = ClaimLabelState | KeyFactLabelState;
type ItemRef = { kind: 'claim'; key: number; id: number } | { kind: 'fact'; key: number; id: number };

export const claimItem = (id: number): string => `c${id}`;
export const factItem = (key: number, id: number): string => `k${key}:${id}`;
const itemKeyOf = (ref: ItemRef): string => (ref.kind === 'claim' ? claimItem(ref.id) : factItem(ref.key, ref.id));

export function claimRows(claims: ClaimAnnotation | null): ClaimRow[] {
  if (!claims) return [];
  return claims.sentences.flatMap((sentence) => sentence.claims.map((claim) => ({ claim, sentence: { unitId: sentence.unitId, index: sentence.index, text: sentence.text } })));
}

/** The stored state of each item with writes in flight (a rollback returns to it) and its newest pressed state. */
const committed = new Map<string, ItemState>();
const pendingStateOf = new Map<string, ItemState>();
/** After a rollback on another summary: the item to focus once its summary's items are loaded. */
let focusAfterLoad: string | null = null;

type Change = { ref: ItemRef; before: ItemState; after: ItemState };
let past: Change[] = [];
let future: Change[] = [];

const Ref = <K extends ItemRef['kind']>(kind: K) => z.object({ kind: z.literal(kind), key: z.number().int(), id: z.number().int() });
/** A claim change holds claim states and a key-fact change key-fact states; a reload reads back only what fits. */
const ChangeSchema = z.union([
  z.object({ ref: Ref('claim'), before: ClaimLabelStateSchema, after: ClaimLabelStateSchema }),
  z.object({ ref: Ref('fact'), before: KeyFactLabelStateSchema, after: KeyFactLabelStateSchema }),
]);
/** Kept in this tab's sessionStorage under the annotation owner, as the sentence history is: a reload keeps it. */
const storedChanges = storedHistory<Change>('loupe.accuracy-undo:', ChangeSchema);

function setDepths(): void {
  storedChanges.save({ past, future });
  set({ undoDepth: past.length, redoDepth: future.length });
}

function pushChange(change: Change): void {
  past = [...past.slice(-(MAX_HISTORY_ENTRIES - 1)), change];
  future = [];
  setDepths();
}

/** The owner (project + annotator) of the session: this tab's history of it before a reload, else empty. */
function restoreChanges(owner: string | null): void {
  const restored = owner === null ? { past: [], future: [] } : storedChanges.restore(owner);
  past = restored.past;
  future = restored.future;
  set({ undoDepth: past.length, redoDepth: future.length });
}

/** Another annotator or project: forget everything (writes of the old session still complete). */
export function resetAccuracy(): void {
  committed.clear();
  pendingStateOf.clear();
  focusAfterLoad = null;
  storedChanges.forget();
  past = [];
  future = [];
  useAccuracy.setState({ ...initialState, saving: new Map(), failed: new Set() });
}

function annotatorName(): string {
  const name = useSession.getState().annotator;
  if (!name) throw new Error('Choose an annotator first.');
  return name;
}

function shownSummary() {
  return useAnnotation.getState().summary;
}

function withClaimState(claims: ClaimAnnotation, id: number, state: ClaimLabelState): ClaimAnnotation {
  return {
    ...claims,
    sentences: claims.sentences.map((s) => (s.claims.some((c) => c.id === id) ? { ...s, claims: s.claims.map((c) => (c.id === id ? { ...c, state } : c)) } : s)),
  };
}

function withFactState(facts: KeyFactAnnotation, id: number, state: KeyFactLabelState): KeyFactAnnotation {
  return { ...facts, facts: facts.facts.map((f) => (f.id === id ? { ...f, state } : f)) };
}

/** Shows `state` on the item if its summary's items are on screen. */
function showState(ref: ItemRef, state: ItemState): void {
  const { claims, facts } = get();
  if (ref.kind === 'claim' && claims?.key === ref.key) set({ claims: withClaimState(claims, ref.id, state as ClaimLabelState) });
  if (ref.kind === 'fact' && facts?.key === ref.key) set({ facts: withFactState(facts, ref.id, state as KeyFactLabelState) });
}

function shownStateOf(ref: ItemRef): ItemState | undefined {
  const { claims, facts } = get();
  if (ref.kind === 'claim') return claims?.key === ref.key ? claimRows(claims).find((r) => r.claim.id === ref.id)?.claim.state : undefined;
  return facts?.key === ref.key ? facts.facts.find((f) => f.id === ref.id)?.state : undefined;
}

// ---------------------------------------------------------------------------------------------
// Loading

/** Loads the shown summary's claims or key facts if the mode needs them and they are not on screen. */
async function ensureLoaded(force = false): Promise<void> {
  const summary = shownSummary();
  const { mode } = get();
  if (!summary || mode === 'sentences') return;
  const owner = sessionLanes.token();
  if (mode === 'claims' && (force || get().claims?.key !== summary.key)) {
    const loaded = await bridge().call('claims.load', { key: summary.key, annotator: annotatorName() });
    if (!sessionLanes.isCurrent(owner)) return;
    const claims = withPendingClaims(loaded);
    const rows = claimRows(claims);
    const focused = focusAfterLoad === null ? -1 : rows.findIndex((r) => claimItem(r.claim.id) === focusAfterLoad);
    if (focused !== -1) focusAfterLoad = null;
    const keepPosition = force && get().claims?.key === loaded.key ? Math.min(get().claimPosition, Math.max(0, rows.length - 1)) : -1;
    set({ claims, claimPosition: focused !== -1 ? focused : keepPosition !== -1 ? keepPosition : firstUnlabeled(rows.map((r) => r.claim.state.label)), itemSince: now(), lastLabeled: null });
  }
  if (mode === 'keyfacts' && (force || get().facts?.key !== summary.key)) {
    const loaded = await bridge().call('keyfacts.load', { key: summary.key, annotator: annotatorName() });
    if (!sessionLanes.isCurrent(owner)) return;
    const facts = withPendingFacts(loaded);
    const focused = focusAfterLoad === null ? -1 : facts.facts.findIndex((f) => factItem(facts.key, f.id) === focusAfterLoad);
    if (focused !== -1) focusAfterLoad = null;
    const keepPosition = force && get().facts?.key === loaded.key ? Math.min(get().factPosition, Math.max(0, facts.facts.length - 1)) : -1;
    set({ facts, factPosition: focused !== -1 ? focused : keepPosition !== -1 ? keepPosition : firstUnlabeled(facts.facts.map((f) => f.state.label)), itemSince: now(), lastLabeled: null });
  }
}

function firstUnlabeled(labels: ReadonlyArray<string | null>): number {
  const at = labels.indexOf(null);
  return at === -1 ? 0 : at;
}

/** A load answered before a label still being written: show what was pressed. */
function withPendingClaims(claims: ClaimAnnotation): ClaimAnnotation {
  let out = claims;
  for (const row of claimRows(claims)) {
    const pending = pendingStateOf.get(claimItem(row.claim.id));
    if (pending) out = withClaimState(out, row.claim.id, pending as ClaimLabelState);
  }
  return out;
}

function withPendingFacts(facts: KeyFactAnnotation): KeyFactAnnotation {
  let out = facts;
  for (const fact of facts.facts) {
    const pending = pendingStateOf.get(factItem(facts.key, fact.id));
    if (pending) out = withFactState(out, fact.id, pending as KeyFactLabelState);
  }
  return out;
}

/** T: sentences → claims → key facts → scaffold → sentences. */
export function nextUnitMode(): Promise<void> {
  // Decided at its turn: "T T" pressed quickly moves two steps.
  return sessionLanes.enqueue(() => switchTo(UNIT_MODES[(UNIT_MODES.indexOf(get().mode) + 1) % UNIT_MODES.length]!));
}

export function setUnitMode(mode: UnitMode): Promise<void> {
  return sessionLanes.enqueue(() => switchTo(mode));
}

async function switchTo(mode: UnitMode): Promise<void> {
  if (get().mode === mode) return;
  set({ mode, notice: null, itemSince: now(), lastLabeled: null });
  await ensureLoaded();
}

/** Reloads what the mode shows (after an edit, a decomposition run). */
export function reloadItems(): Promise<void> {
  return sessionLanes.enqueue(() => ensureLoaded(true));
}

/** A run made claims or key facts: what is on screen is stale; the next look loads it again. */
export function reloadItemsLater(): void {
  set({ claims: null, facts: null });
  if (get().mode !== 'sentences') void sessionLanes.enqueue(() => ensureLoaded());
}

/** Annotate opened: load what the mode shows, if it is not on screen. */
export function showItems(): Promise<void> {
  return sessionLanes.enqueue(() => ensureLoaded());
}

// A new summary on screen: load its items (after the commands already queued, which load them themselves if they need them).
useAnnotation.subscribe((state, previous) => {
  if (state.owner !== previous.owner) {
    resetAccuracy();
    restoreChanges(state.owner);
  }
  else if (state.summary?.key !== previous.summary?.key && get().mode !== 'sentences') void sessionLanes.enqueue(() => ensureLoaded());
});

// ---------------------------------------------------------------------------------------------
// Moving

export function moveItem(delta: number): Promise<void> {
  return sessionLanes.enqueue(async () => {
    await ensureLoaded();
    const { mode, claims, facts, claimPosition, factPosition } = get();
    if (mode === 'claims') {
      const count = claimRows(claims).length;
      const next = Math.min(count - 1, Math.max(0, claimPosition + delta));
      if (count > 0 && next !== claimPosition) set({ claimPosition: next, itemSince: now(), lastLabeled: null });
    } else if (mode === 'keyfacts') {
      const count = facts?.facts.length ?? 0;
      const next = Math.min(count - 1, Math.max(0, factPosition + delta));
      if (count > 0 && next !== factPosition) set({ factPosition: next, itemSince: now(), lastLabeled: null });
    }
  });
}

export function selectClaim(position: number): Promise<void> {
  return sessionLanes.enqueue(() => {
    if (position >= 0 && position < claimRows(get().claims).length && position !== get().claimPosition) set({ claimPosition: position, itemSince: now(), lastLabeled: null });
  });
}

export function selectFact(position: number): Promise<void> {
  return sessionLanes.enqueue(() => {
    if (position >= 0 && position < (get().facts?.facts.length ?? 0) && position !== get().factPosition) set({ factPosition: position, itemSince: now(), lastLabeled: null });
  });
}

// ---------------------------------------------------------------------------------------------
// Label keys: paint, advance, write in order

/** Why the label keys do nothing here, or null when they work. */
function cannotLabel(): string | null {
  const summary = shownSummary();
  if (!summary || !canLabel(summary)) return 'This summary cannot be labeled (its document is missing).';
  return null;
}

interface PendingWrite {
  owner: number;
  ref: ItemRef;
  itemKey: string;
  /** "claim 2 of sentence 1 of summary s3", for messages. */
  what: string;
  before: ItemState;
  after: ItemState;
}

/** F/U/C on the current claim or key fact. */
export function labelItem(key: HumanLabel, pressedAt: number = now()): Promise<void> {
  return sessionLanes.enqueue(async () => {
    await ensureLoaded();
    const why = cannotLabel();
    if (why) return set({ notice: why });
    const state = get();
    const summary = shownSummary()!;
    const timeSpentMs = Math.min(MAX_TIME_MS, Math.max(0, Math.round(pressedAt - state.itemSince)));
    if (state.mode === 'claims') {
      const rows = claimRows(state.claims);
      const row = rows[state.claimPosition];
      if (!row || state.claims?.key !== summary.key) return set({ notice: 'No claims to label here yet.' });
      const before = row.claim.state;
      const label = CLAIM_LABEL_FOR_KEY[key];
      // An error type describes an unsupported claim only.
      const after: ClaimLabelState = { label, errorType: label === 'unsupported' ? before.errorType : null, note: before.note };
      const write: PendingWrite = {
        owner: sessionLanes.token(),
        ref: { kind: 'claim', key: summary.key, id: row.claim.id },
        itemKey: claimItem(row.claim.id),
        what: `claim ${row.claim.index + 1} of sentence ${row.sentence.index + 1} of summary ${summary.summaryId}`,
        before,
        after,
      };
      paint(write, state.claimPosition + 1 < rows.length ? { claimPosition: state.claimPosition + 1 } : {});
      const input = { claimId: row.claim.id, annotator: annotatorName(), state: after, timeSpentMs, cause: 'label' as const };
      sessionLanes.write(() => bridge().call('claims.record', input), (result) => settleStored(write, result.state), (err) => rollBack(write, err));
    } else if (state.mode === 'keyfacts') {
      const facts = state.facts;
      const fact = facts?.facts[state.factPosition];
      if (!facts || !fact || facts.key !== summary.key) return set({ notice: 'No key facts to label here yet.' });
      const label = FACT_LABEL_FOR_KEY[key];
      if (label === null) return set({ notice: 'A key fact is Covered (F) or Not covered (U): there is no Unclear for key facts.' });
      const before = fact.state;
      // Only a covered fact is conveyed by something.
      const after: KeyFactLabelState = { label, conveyedBy: label === 'covered' ? before.conveyedBy : { claims: [], sentences: [] }, note: before.note };
      const write: PendingWrite = {
        owner: sessionLanes.token(),
        ref: { kind: 'fact', key: summary.key, id: fact.id },
        itemKey: factItem(summary.key, fact.id),
        what: `key fact ${fact.index + 1} of summary ${summary.summaryId}`,
        before,
        after,
      };
      paint(write, state.factPosition + 1 < facts.facts.length ? { factPosition: state.factPosition + 1 } : {});
      const input = { keyFactId: fact.id, key: summary.key, annotator: annotatorName(), state: after, timeSpentMs, cause: 'label' as const };
      sessionLanes.write(() => bridge().call('keyfacts.record', input), (result) => settleStored(write, result.state), (err) => rollBack(write, err));
    }
  });
}

function paint(write: PendingWrite, advance: Partial<AccuracyState>): void {
  const state = get();
  if (!committed.has(write.itemKey)) committed.set(write.itemKey, write.before);
  pendingStateOf.set(write.itemKey, write.after);
  showState(write.ref, write.after);
  const failed = state.failed.has(write.itemKey) ? without(state.failed, write.itemKey) : state.failed;
  set({
    ...advance,
    ...(Object.keys(advance).length > 0 ? { itemSince: now() } : {}),
    saving: new Map(state.saving).set(write.itemKey, (state.saving.get(write.itemKey) ?? 0) + 1),
    failed,
    lastLabeled: write.itemKey,
    notice: null,
  });
}

function without<T>(items: ReadonlySet<T>, item: T): ReadonlySet<T> {
  const copy = new Set(items);
  copy.delete(item);
  return copy;
}

function savingWithout(saving: ReadonlyMap<string, number>, item: string): { saving: ReadonlyMap<string, number>; last: boolean } {
  const left = (saving.get(item) ?? 1) - 1;
  const copy = new Map(saving);
  if (left > 0) copy.set(item, left);
  else copy.delete(item);
  return { saving: copy, last: left <= 0 };
}

function settleStored(write: PendingWrite, stored: ItemState): void {
  if (!sessionLanes.isCurrent(write.owner)) return;
  const { saving, last } = savingWithout(get().saving, write.itemKey);
  if (last) {
    committed.delete(write.itemKey);
    pendingStateOf.delete(write.itemKey);
  } else {
    committed.set(write.itemKey, stored);
  }
  pushChange({ ref: write.ref, before: write.before, after: stored });
  set({ saving });
}

function rollBack(write: PendingWrite, err: unknown): void {
  if (!sessionLanes.isCurrent(write.owner)) return;
  const state = get();
  const { saving, last } = savingWithout(state.saving, write.itemKey);
  const stored = committed.get(write.itemKey) ?? write.before;
  if (last) {
    committed.delete(write.itemKey);
    pendingStateOf.delete(write.itemKey);
    showState(write.ref, stored);
  }
  const firstFailure = state.failed.size === 0;
  const failed = new Set(state.failed).add(write.itemKey);
  const position = positionOf(write.ref);
  set({
    saving,
    failed,
    ...(firstFailure && position ? { ...position, itemSince: now(), lastLabeled: null } : {}),
    error:
      `The label of ${write.what} was not saved: ${errorMessage(err)}. ` +
      `${failed.size > 1 ? `${failed.size} items are marked "not saved". ` : ''}The view is back on it; keys pressed after it were kept.`,
  });
  if (firstFailure && !position) bringBack(write.ref, write.itemKey);
}

/** Where an item is on screen (its summary's items shown), as a position change. */
function positionOf(ref: ItemRef): Partial<AccuracyState> | null {
  const { claims, facts } = get();
  if (ref.kind === 'claim' && claims?.key === ref.key && shownSummary()?.key === ref.key) {
    const at = claimRows(claims).findIndex((r) => r.claim.id === ref.id);
    return at === -1 ? null : { claimPosition: at, mode: 'claims' };
  }
  if (ref.kind === 'fact' && facts?.key === ref.key && shownSummary()?.key === ref.key) {
    const at = facts.facts.findIndex((f) => f.id === ref.id);
    return at === -1 ? null : { factPosition: at, mode: 'keyfacts' };
  }
  return null;
}

/** Its summary is no longer on screen: open it (after the queued commands) and focus the item. */
function bringBack(ref: ItemRef, itemKey: string): void {
  const at = useAnnotation.getState().queue.findIndex((item) => item.key === ref.key);
  if (at === -1) return;
  focusAfterLoad = itemKey;
  set({ mode: ref.kind === 'claim' ? 'claims' : 'keyfacts' });
  void openSummary(at);
}

// ---------------------------------------------------------------------------------------------
// Changes that need the stored state (after the writes before them)

async function storeItem(ref: ItemRef, state: ItemState, cause: 'error_type' | 'conveyed_by' | 'clear' | 'note' | 'undo' | 'redo'): Promise<ItemState | null> {
  const owner = sessionLanes.token();
  const annotator = annotatorName();
  const stored =
    ref.kind === 'claim'
      ? (await bridge().call('claims.record', { claimId: ref.id, annotator, state: state as ClaimLabelState, timeSpentMs: null, cause })).state
      : (await bridge().call('keyfacts.record', { keyFactId: ref.id, key: ref.key, annotator, state: state as KeyFactLabelState, timeSpentMs: null, cause })).state;
  if (!sessionLanes.isCurrent(owner)) return null;
  showState(ref, stored);
  const itemKey = itemKeyOf(ref);
  if (get().failed.has(itemKey)) set({ failed: without(get().failed, itemKey) });
  return stored;
}

async function changeShown(ref: ItemRef, cause: 'error_type' | 'conveyed_by' | 'clear' | 'note', change: (state: ItemState) => ItemState | null): Promise<void> {
  const owner = sessionLanes.token();
  await sessionLanes.settled();
  if (!sessionLanes.isCurrent(owner)) return;
  const before = shownStateOf(ref);
  if (!before) return;
  const after = change(before);
  if (!after) return;
  const stored = await storeItem(ref, after, cause);
  if (stored) pushChange({ ref, before, after: stored });
}

/** The claim E acts on: the current one if Unsupported, else the one U has just labeled. */
export function errorTypeClaimTarget(state: AccuracyState = get()): ClaimRow | null {
  const rows = claimRows(state.claims);
  const current = rows[state.claimPosition];
  if (current?.claim.state.label === 'unsupported') return current;
  const previous = rows[state.claimPosition - 1];
  if (previous && state.lastLabeled === claimItem(previous.claim.id) && previous.claim.state.label === 'unsupported') return previous;
  return null;
}

/** The key fact E acts on: the current one if Covered, else the one F has just labeled. */
export function conveyedByTarget(state: AccuracyState = get()): number | null {
  const facts = state.facts?.facts ?? [];
  if (facts[state.factPosition]?.state.label === 'covered') return state.factPosition;
  const previous = facts[state.factPosition - 1];
  if (previous && state.facts && state.lastLabeled === factItem(state.facts.key, previous.id) && previous.state.label === 'covered') return state.factPosition - 1;
  return null;
}

/** Runs `step` (opening a picker) after the commands and writes already queued. */
export function afterAccuracyPending(step: () => void): Promise<void> {
  return sessionLanes.enqueue(async () => {
    const owner = sessionLanes.token();
    await sessionLanes.settled();
    if (sessionLanes.isCurrent(owner)) step();
  });
}

export function setClaimErrorType(claimId: number, errorType: ClaimErrorType | null): Promise<void> {
  return sessionLanes.enqueue(() => {
    const key = get().claims?.key;
    if (key === undefined) return;
    return changeShown({ kind: 'claim', key, id: claimId }, 'error_type', (state) => {
      const s = state as ClaimLabelState;
      return s.label === 'unsupported' && s.errorType !== errorType ? { ...s, errorType } : null;
    });
  });
}

export function setConveyedBy(factId: number, conveyedBy: ConveyedBy): Promise<void> {
  return sessionLanes.enqueue(() => {
    const key = get().facts?.key;
    if (key === undefined) return;
    return changeShown({ kind: 'fact', key, id: factId }, 'conveyed_by', (state) => {
      const s = state as KeyFactLabelState;
      return s.label === 'covered' ? { ...s, conveyedBy } : null;
    });
  });
}

/** X: remove the current item's label (and its error type or conveyed-by); the note stays. */
export function clearItem(): Promise<void> {
  return sessionLanes.enqueue(async () => {
    await ensureLoaded();
    const { mode, claims, facts, claimPosition, factPosition } = get();
    if (mode === 'claims') {
      const row = claimRows(claims)[claimPosition];
      if (!row || !claims) return;
      return changeShown({ kind: 'claim', key: claims.key, id: row.claim.id }, 'clear', (state) =>
        state.label === null ? null : { ...(state as ClaimLabelState), label: null, errorType: null },
      );
    }
    const fact = facts?.facts[factPosition];
    if (mode === 'keyfacts' && fact && facts) {
      return changeShown({ kind: 'fact', key: facts.key, id: fact.id }, 'clear', (state) =>
        state.label === null ? null : { ...(state as KeyFactLabelState), label: null, conveyedBy: { claims: [], sentences: [] } },
      );
    }
  });
}

/** The item / or M writes a note on: the current claim or key fact, or null when there is none. */
export function noteTarget(state: AccuracyState = get()): { kind: 'claim' | 'fact'; id: number } | null {
  if (state.mode === 'claims') {
    const row = claimRows(state.claims)[state.claimPosition];
    return row ? { kind: 'claim', id: row.claim.id } : null;
  }
  const fact = state.mode === 'keyfacts' ? state.facts?.facts[state.factPosition] : undefined;
  return fact ? { kind: 'fact', id: fact.id } : null;
}

/** Saves a claim's or key fact's note (blank removes it) as one event, cause 'note'; undoable like a label. */
export function saveItemNote(target: { kind: 'claim' | 'fact'; id: number }, text: string): Promise<void> {
  const note = text.trim() === '' ? null : text;
  return sessionLanes.enqueue(() => {
    const key = target.kind === 'claim' ? get().claims?.key : get().facts?.key;
    if (key === undefined) return;
    return changeShown({ kind: target.kind, key, id: target.id }, 'note', (state) => (state.note === note ? null : { ...state, note }));
  });
}

// ---------------------------------------------------------------------------------------------
// Undo / redo of claim and key-fact labels

async function replay(change: Change, cause: 'undo' | 'redo'): Promise<boolean> {
  const state = cause === 'undo' ? change.before : change.after;
  const stored = await storeItem(change.ref, state, cause);
  if (!stored) return false;
  const position = positionOf(change.ref);
  if (position) set({ ...position, itemSince: now(), lastLabeled: null });
  else bringBack(change.ref, itemKeyOf(change.ref));
  return true;
}

export function undoItem(): Promise<void> {
  return sessionLanes.enqueue(async () => {
    const owner = sessionLanes.token();
    await sessionLanes.settled();
    if (!sessionLanes.isCurrent(owner)) return;
    const change = past.at(-1);
    if (!change) return set({ notice: 'Nothing to undo among claim and key-fact labels.' });
    if (await replay(change, 'undo')) {
      past = past.slice(0, -1);
      future = [...future, change];
      setDepths();
    }
  });
}

export function redoItem(): Promise<void> {
  return sessionLanes.enqueue(async () => {
    const owner = sessionLanes.token();
    await sessionLanes.settled();
    if (!sessionLanes.isCurrent(owner)) return;
    const change = future.at(-1);
    if (!change) return set({ notice: 'Nothing to redo among claim and key-fact labels.' });
    if (await replay(change, 'redo')) {
      future = future.slice(0, -1);
      past = [...past, change];
      setDepths();
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Editing a set: a new version; the labels stay on the version they were given on

export interface ClaimDraft {
  sentenceUnitId: number;
  text: string;
  from: number[];
}

export interface FactDraft {
  text: string;
  from: number[];
}

export function saveClaimEdit(claims: ClaimDraft[], note?: string): Promise<void> {
  return sessionLanes.enqueue(async () => {
    const owner = sessionLanes.token();
    await sessionLanes.settled();
    const shown = get().claims;
    if (!sessionLanes.isCurrent(owner) || !shown) return;
    const labeled = claimRows(shown).filter((r) => r.claim.state.label !== null).length;
    try {
      const edited = await bridge().call('claims.edit', { key: shown.key, annotator: annotatorName(), basedOnVersion: shown.version, claims, ...(note ? { note } : {}) });
      if (!sessionLanes.isCurrent(owner)) return;
      // A new set: start at its first unlabeled claim; the key facts' lines (their claims) are stale too.
      set({ kept: { what: 'claims', key: shown.key, fromVersion: shown.version, toVersion: edited.version, labeled }, error: null, claims: null, facts: null });
      await ensureLoaded(true);
    } catch (err) {
      set({ error: `The claims were not changed: ${errorMessage(err)}` });
    }
  });
}

export function saveFactEdit(facts: FactDraft[], note?: string): Promise<void> {
  return sessionLanes.enqueue(async () => {
    const owner = sessionLanes.token();
    await sessionLanes.settled();
    const shown = get().facts;
    if (!sessionLanes.isCurrent(owner) || !shown) return;
    const labeled = shown.facts.filter((f) => f.state.label !== null).length;
    try {
      const edited = await bridge().call('keyfacts.edit', { documentKey: shown.documentKey, annotator: annotatorName(), basedOnVersion: shown.version, facts, ...(note ? { note } : {}) });
      if (!sessionLanes.isCurrent(owner)) return;
      set({ kept: { what: 'keyfacts', key: shown.key, fromVersion: shown.version, toVersion: edited.version, labeled }, error: null, facts: null });
      await ensureLoaded(true);
    } catch (err) {
      set({ error: `The key facts were not changed: ${errorMessage(err)}` });
    }
  });
}

export function setAccuracyNotice(notice: string | null): void {
  set({ notice });
}

export function dismissAccuracyError(): void {
  set({ error: null });
}
