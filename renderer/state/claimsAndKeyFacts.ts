/**
 * Claims and key facts in the Annotate view: the summary's claims and its document's key facts
 * with this annotator's own labels (claims.load / keyfacts.load are blind), and every command on
 * them. The unit mode (state/unitMode.ts) says which of them the keys act on; each command is
 * given the mode it was pressed in.
 *
 * Commands run in the session's command lane, label writes through the write engine
 * (state/writeEngine.ts): a label paints at once ("saving"), advances and is written in order; a
 * failed write rolls its item back, marks it "not saved", brings the view back to it and says so.
 * Error type, conveyed-by, note and clear wait for the writes before them. Undo and redo act on
 * claim and key-fact labels together, across summaries, as new events.
 */
import { z } from 'zod';
import { create } from 'zustand';
import {
  ClaimLabelStateSchema,
  type AnnotationClaim,
  type ClaimAnnotation,
  type ClaimLabelState,
} from '../../shared/contract/claims';
import {
  KeyFactLabelStateSchema,
  type ConveyedBy,
  type KeyFactAnnotation,
  type KeyFactLabelState,
} from '../../shared/contract/keyfacts';
import type { ClaimErrorType, ClaimLabel, KeyFactLabel } from '../../shared/accuracy/domain';
import { noteFromText, type HumanLabel } from '../../shared/domain';
import { errorMessage } from '../api/errors';
import { sessionLanes } from './annotateLanes';
import { canLabel, openSummaryKey, useAnnotation } from './annotation';
import { restorePlace } from './place';
import { pendingProposalFor } from './proposals';
import { bridge, useSession } from './session';
import { timeSpent } from './timeSpent';
import { setUnitMode, useUnitMode, type UnitMode } from './unitMode';
import { createWriteEngine } from './writeEngine';

/** The two unit modes of this store. */
export type ItemMode = Extract<UnitMode, 'claims' | 'keyfacts'>;

/** The label keys keep their places: F/1 yes, U/2 no, C/3 cannot tell. */
export const CLAIM_LABEL_FOR_KEY: Record<HumanLabel, ClaimLabel> = {
  faithful: 'supported',
  unfaithful: 'unsupported',
  unclear: 'unclear',
};
export const FACT_LABEL_FOR_KEY: Record<HumanLabel, KeyFactLabel | null> = {
  faithful: 'covered',
  unfaithful: 'not_covered',
  unclear: null,
};
export const CLAIM_LABEL_NAME: Record<ClaimLabel, string> = {
  supported: 'Supported',
  unsupported: 'Unsupported',
  unclear: 'Unclear',
};
export const FACT_LABEL_NAME: Record<KeyFactLabel, string> = { covered: 'Covered', not_covered: 'Not covered' };

/** One claim in reading order, with its sentence and its number under it ("2.1": `number` 1 of sentence 2). */
export interface ClaimRow {
  claim: AnnotationClaim;
  sentence: { unitId: number; index: number; text: string };
  /** 1-based place of the claim under its sentence: the one numbering of claims everywhere. */
  number: number;
}

/** "2.1": claim 1 of sentence 2, as the claims and key-fact panes and the pickers show it. */
export function claimNumber(sentenceIndex: number, number: number): string {
  return `${sentenceIndex + 1}.${number}`;
}

/** "3 labels stay on version 1": said after an edit made a new version. */
export interface KeptLabels {
  what: ItemMode;
  key: number;
  fromVersion: number | null;
  toVersion: number;
  labeled: number;
  /** The edit was stored as this proposal for the lead (an annotator link's): no version was made. */
  proposal: number | null;
}

export interface ClaimsAndKeyFactsState {
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
  /** Undo / redo depth of claim and key-fact labels. */
  undoDepth: number;
  redoDepth: number;
  notice: string | null;
  error: string | null;
}

const initialState: ClaimsAndKeyFactsState = {
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

export const useClaimsAndKeyFacts = create<ClaimsAndKeyFactsState>(() => ({ ...initialState }));

const get = (): ClaimsAndKeyFactsState => useClaimsAndKeyFacts.getState();
const set = (partial: Partial<ClaimsAndKeyFactsState>): void => useClaimsAndKeyFacts.setState(partial);
const now = (): number => performance.now();
const enqueue = sessionLanes.enqueue;

// ---------------------------------------------------------------------------------------------
// Items, their keys and their states

type ItemState = ClaimLabelState | KeyFactLabelState;
type ItemRef = { kind: 'claim'; key: number; id: number } | { kind: 'fact'; key: number; id: number };
type ItemCause = 'error_type' | 'conveyed_by' | 'clear' | 'note';

export const claimItem = (id: number): string => `c${id}`;
export const factItem = (key: number, id: number): string => `k${key}:${id}`;
const itemKeyOf = (ref: ItemRef): string => (ref.kind === 'claim' ? claimItem(ref.id) : factItem(ref.key, ref.id));
const modeOf = (ref: ItemRef): ItemMode => (ref.kind === 'claim' ? 'claims' : 'keyfacts');

export function claimRows(claims: ClaimAnnotation | null): ClaimRow[] {
  if (!claims) return [];
  return claims.sentences.flatMap((sentence) =>
    sentence.claims.map((claim, at) => ({
      claim,
      sentence: { unitId: sentence.unitId, index: sentence.index, text: sentence.text },
      number: at + 1,
    })),
  );
}

/** After a rollback or an undo on another summary, or a reload: the item to focus once its summary's items are loaded. */
let focusAfterLoad: string | null = null;
/** What a failure message names about an item written (it may be off screen by then). */
const itemWhat = new Map<string, string>();

const Ref = <K extends ItemRef['kind']>(kind: K) =>
  z.object({ kind: z.literal(kind), key: z.number().int(), id: z.number().int() });

const items = createWriteEngine<ItemRef, ItemState, string, ItemCause>({
  lanes: sessionLanes,
  keyOf: itemKeyOf,
  async record(ref, state, cause, timeSpentMs) {
    const annotator = annotatorName();
    return ref.kind === 'claim'
      ? (
          await bridge().call('claims.record', {
            claimId: ref.id,
            annotator,
            state: state as ClaimLabelState,
            timeSpentMs,
            cause,
          })
        ).state
      : (
          await bridge().call('keyfacts.record', {
            keyFactId: ref.id,
            key: ref.key,
            annotator,
            state: state as KeyFactLabelState,
            timeSpentMs,
            cause,
          })
        ).state;
  },
  shown: shownStateOf,
  show: (ref, state) => showState(ref, state),
  marks: () => get(),
  setMarks: (marks) => set(marks),
  focus(ref) {
    const position = positionOf(ref);
    if (position) {
      setUnitMode(modeOf(ref));
      set({ ...position, itemSince: now(), lastLabeled: null });
    } else bringBack(ref);
  },
  failed(ref, err, count) {
    set({
      error:
        `The label of ${itemWhat.get(itemKeyOf(ref)) ?? 'an item'} was not saved: ${errorMessage(err)}. ` +
        `${count > 1 ? `${count} items are marked "not saved". ` : ''}The view is back on it; keys pressed after it were kept.`,
    });
  },
  nothingTo: (what) => set({ notice: `Nothing to ${what} among claim and key-fact labels.` }),
  // A claim change holds claim states and a key-fact change key-fact states; a reload reads back only what fits.
  history: {
    prefix: 'loupe.accuracy-undo:',
    schema: z.union([
      z.object({ ref: Ref('claim'), before: ClaimLabelStateSchema, after: ClaimLabelStateSchema }),
      z.object({ ref: Ref('fact'), before: KeyFactLabelStateSchema, after: KeyFactLabelStateSchema }),
    ]),
  },
  depths: (undoDepth, redoDepth) => set({ undoDepth, redoDepth }),
});

/** Another annotator or project: forget everything (writes of the old session still complete). */
export function resetClaimsAndKeyFacts(): void {
  items.reset();
  focusAfterLoad = null;
  itemWhat.clear();
  useClaimsAndKeyFacts.setState({ ...initialState, saving: new Map(), failed: new Set() });
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
    sentences: claims.sentences.map((s) =>
      s.claims.some((c) => c.id === id)
        ? { ...s, claims: s.claims.map((c) => (c.id === id ? { ...c, state } : c)) }
        : s,
    ),
  };
}

function withFactState(facts: KeyFactAnnotation, id: number, state: KeyFactLabelState): KeyFactAnnotation {
  return { ...facts, facts: facts.facts.map((f) => (f.id === id ? { ...f, state } : f)) };
}

/** Shows `state` on the item if its summary's items are on screen. */
function showState(ref: ItemRef, state: ItemState): void {
  const { claims, facts } = get();
  if (ref.kind === 'claim' && claims?.key === ref.key)
    set({ claims: withClaimState(claims, ref.id, state as ClaimLabelState) });
  if (ref.kind === 'fact' && facts?.key === ref.key)
    set({ facts: withFactState(facts, ref.id, state as KeyFactLabelState) });
}

function shownStateOf(ref: ItemRef): ItemState | undefined {
  const { claims, facts } = get();
  if (ref.kind === 'claim')
    return claims?.key === ref.key ? claimRows(claims).find((r) => r.claim.id === ref.id)?.claim.state : undefined;
  return facts?.key === ref.key ? facts.facts.find((f) => f.id === ref.id)?.state : undefined;
}

/** Where an item is on screen (its summary's items shown), as a position change. */
function positionOf(ref: ItemRef): Partial<ClaimsAndKeyFactsState> | null {
  const { claims, facts } = get();
  if (ref.kind === 'claim' && claims?.key === ref.key && shownSummary()?.key === ref.key) {
    const at = claimRows(claims).findIndex((r) => r.claim.id === ref.id);
    return at === -1 ? null : { claimPosition: at };
  }
  if (ref.kind === 'fact' && facts?.key === ref.key && shownSummary()?.key === ref.key) {
    const at = facts.facts.findIndex((f) => f.id === ref.id);
    return at === -1 ? null : { factPosition: at };
  }
  return null;
}

/** Its summary is no longer on screen: open it (after the queued commands) and focus the item. */
function bringBack(ref: ItemRef): void {
  focusAfterLoad = itemKeyOf(ref);
  setUnitMode(modeOf(ref));
  void openSummaryKey(ref.key);
}

// ---------------------------------------------------------------------------------------------
// Loading

/** Loads the shown summary's claims or key facts for `mode` if they are not on screen (or `force`). */
async function ensureLoaded(mode: UnitMode, force = false): Promise<void> {
  const summary = shownSummary();
  if (!summary) return;
  const owner = sessionLanes.token();
  if (mode === 'claims' && (force || get().claims?.key !== summary.key)) {
    const loaded = await bridge().call('claims.load', { key: summary.key, annotator: annotatorName() });
    if (!sessionLanes.isCurrent(owner)) return;
    const claims = withPressed(loaded);
    const rows = claimRows(claims);
    const focused = focusAfterLoad === null ? -1 : rows.findIndex((r) => claimItem(r.claim.id) === focusAfterLoad);
    if (focused !== -1) focusAfterLoad = null;
    const keepPosition =
      force && get().claims?.key === loaded.key ? Math.min(get().claimPosition, Math.max(0, rows.length - 1)) : -1;
    set({
      claims,
      claimPosition:
        focused !== -1
          ? focused
          : keepPosition !== -1
            ? keepPosition
            : firstUnlabeled(rows.map((r) => r.claim.state.label)),
      itemSince: now(),
      lastLabeled: null,
    });
    void showPending('claims', loaded.key, loaded.version, { summaryKey: loaded.key });
  }
  if (mode === 'keyfacts' && (force || get().facts?.key !== summary.key)) {
    const loaded = await bridge().call('keyfacts.load', { key: summary.key, annotator: annotatorName() });
    if (!sessionLanes.isCurrent(owner)) return;
    const facts = withPressedFacts(loaded);
    const focused =
      focusAfterLoad === null ? -1 : facts.facts.findIndex((f) => factItem(facts.key, f.id) === focusAfterLoad);
    if (focused !== -1) focusAfterLoad = null;
    const keepPosition =
      force && get().facts?.key === loaded.key ? Math.min(get().factPosition, Math.max(0, facts.facts.length - 1)) : -1;
    set({
      facts,
      factPosition:
        focused !== -1
          ? focused
          : keepPosition !== -1
            ? keepPosition
            : firstUnlabeled(facts.facts.map((f) => f.state.label)),
      itemSince: now(),
      lastLabeled: null,
    });
    void showPending('keyfacts', loaded.key, loaded.version, { documentKey: loaded.documentKey });
  }
}

/** An earlier edit of this set by this link still waits for the lead: the pane says so (unless it already says something of it). */
async function showPending(
  what: ItemMode,
  key: number,
  version: number | null,
  target: { documentKey?: number; summaryKey?: number },
): Promise<void> {
  if (version === null) return;
  const proposal = await pendingProposalFor(annotatorName(), what, target);
  const shown = what === 'claims' ? get().claims : get().facts;
  if (proposal === null || shown?.key !== key || shown.version !== version) return;
  const kept = get().kept;
  if (kept && kept.what === what && kept.key === key) return;
  set({ kept: { what, key, fromVersion: version, toVersion: version, labeled: 0, proposal } });
}

function firstUnlabeled(labels: ReadonlyArray<string | null>): number {
  const at = labels.indexOf(null);
  return at === -1 ? 0 : at;
}

/** A load answered before a label still being written: show what was pressed. */
function withPressed(claims: ClaimAnnotation): ClaimAnnotation {
  let out = claims;
  for (const row of claimRows(claims)) {
    const pressed = items.pressed({ kind: 'claim', key: claims.key, id: row.claim.id });
    if (pressed) out = withClaimState(out, row.claim.id, pressed as ClaimLabelState);
  }
  return out;
}

function withPressedFacts(facts: KeyFactAnnotation): KeyFactAnnotation {
  let out = facts;
  for (const fact of facts.facts) {
    const pressed = items.pressed({ kind: 'fact', key: facts.key, id: fact.id });
    if (pressed) out = withFactState(out, fact.id, pressed as KeyFactLabelState);
  }
  return out;
}

/** A run made claims or key facts: what is on screen is stale; the next look loads it again. */
export function reloadItemsLater(): void {
  set({ claims: null, facts: null });
  const { mode } = useUnitMode.getState();
  if (mode === 'claims' || mode === 'keyfacts') void enqueue(() => ensureLoaded(mode));
}

/** Annotate opened: load what the mode shows, if it is not on screen. */
export function showItems(): Promise<void> {
  return enqueue(() => ensureLoaded(useUnitMode.getState().mode));
}

useAnnotation.subscribe((state, previous) => {
  if (state.owner !== previous.owner) {
    resetClaimsAndKeyFacts();
    items.restore(state.owner);
    // A reload in claims or key-fact mode comes back to the item it was on.
    const place = restorePlace(state.owner);
    if (place?.item != null && place.mode === 'claims') focusAfterLoad = claimItem(place.item);
    if (place?.item != null && place.mode === 'keyfacts') focusAfterLoad = factItem(place.key, place.item);
  }
  // A new summary on screen: load its items (after the commands already queued, which load them themselves if they need them).
  else if (state.summary?.key !== previous.summary?.key) void enqueue(() => ensureLoaded(useUnitMode.getState().mode));
});

// T reached claims or key facts: load them (in the lane, after what is queued), from a fresh start.
useUnitMode.subscribe((state, previous) => {
  if (state.mode === previous.mode) return;
  set({ notice: null, itemSince: now(), lastLabeled: null });
  void enqueue(() => ensureLoaded(state.mode));
});

// ---------------------------------------------------------------------------------------------
// Moving

export function moveItem(mode: ItemMode, delta: number): Promise<void> {
  return enqueue(async () => {
    await ensureLoaded(mode);
    const { claims, facts, claimPosition, factPosition } = get();
    const [count, position] =
      mode === 'claims' ? [claimRows(claims).length, claimPosition] : [facts?.facts.length ?? 0, factPosition];
    const next = Math.min(count - 1, Math.max(0, position + delta));
    if (count > 0 && next !== position)
      set({
        ...(mode === 'claims' ? { claimPosition: next } : { factPosition: next }),
        itemSince: now(),
        lastLabeled: null,
      });
  });
}

export function selectClaim(position: number): Promise<void> {
  return enqueue(() => {
    if (position >= 0 && position < claimRows(get().claims).length && position !== get().claimPosition)
      set({ claimPosition: position, itemSince: now(), lastLabeled: null });
  });
}

export function selectFact(position: number): Promise<void> {
  return enqueue(() => {
    if (position >= 0 && position < (get().facts?.facts.length ?? 0) && position !== get().factPosition)
      set({ factPosition: position, itemSince: now(), lastLabeled: null });
  });
}

// ---------------------------------------------------------------------------------------------
// Label keys: paint, advance, write in order

/** F/U/C on the current claim or key fact of `mode`. */
export function labelItem(mode: ItemMode, key: HumanLabel, pressedAt: number = now()): Promise<void> {
  return enqueue(async () => {
    await ensureLoaded(mode);
    const summary = shownSummary();
    if (!summary || !canLabel(summary))
      return set({ notice: 'This summary cannot be labeled (its document is missing).' });
    const state = get();
    const spent = timeSpent(pressedAt, state.itemSince);
    if (mode === 'claims') {
      const rows = claimRows(state.claims);
      const row = rows[state.claimPosition];
      if (!row || state.claims?.key !== summary.key) return set({ notice: 'No claims to label here yet.' });
      const before = row.claim.state;
      const label = CLAIM_LABEL_FOR_KEY[key];
      // An error type describes an unsupported claim only.
      const after: ClaimLabelState = {
        label,
        errorType: label === 'unsupported' ? before.errorType : null,
        note: before.note,
      };
      itemWhat.set(
        claimItem(row.claim.id),
        `claim ${row.number} of sentence ${row.sentence.index + 1} of summary ${summary.summaryId}`,
      );
      items.write({ kind: 'claim', key: summary.key, id: row.claim.id }, before, after, spent);
      advance(
        state.claimPosition + 1 < rows.length ? { claimPosition: state.claimPosition + 1 } : {},
        claimItem(row.claim.id),
      );
      return;
    }
    const facts = state.facts;
    const fact = facts?.facts[state.factPosition];
    if (!facts || !fact || facts.key !== summary.key) return set({ notice: 'No key facts to label here yet.' });
    const label = FACT_LABEL_FOR_KEY[key];
    if (label === null)
      return set({ notice: 'A key fact is Covered (F) or Not covered (U): there is no Unclear for key facts.' });
    const before = fact.state;
    // Only a covered fact is conveyed by something.
    const after: KeyFactLabelState = {
      label,
      conveyedBy: label === 'covered' ? before.conveyedBy : { claims: [], sentences: [] },
      note: before.note,
    };
    itemWhat.set(factItem(summary.key, fact.id), `key fact ${fact.index + 1} of summary ${summary.summaryId}`);
    items.write({ kind: 'fact', key: summary.key, id: fact.id }, before, after, spent);
    advance(
      state.factPosition + 1 < facts.facts.length ? { factPosition: state.factPosition + 1 } : {},
      factItem(summary.key, fact.id),
    );
  });
}

function advance(position: Partial<ClaimsAndKeyFactsState>, labeled: string): void {
  set({
    ...position,
    ...(Object.keys(position).length > 0 ? { itemSince: now() } : {}),
    lastLabeled: labeled,
    notice: null,
  });
}

// ---------------------------------------------------------------------------------------------
// Changes that need the stored state (after the writes before them)

/** The claim E acts on: the current one if Unsupported, else the one U has just labeled. */
export function errorTypeClaimTarget(state: ClaimsAndKeyFactsState = get()): ClaimRow | null {
  const rows = claimRows(state.claims);
  const current = rows[state.claimPosition];
  if (current?.claim.state.label === 'unsupported') return current;
  const previous = rows[state.claimPosition - 1];
  if (previous && state.lastLabeled === claimItem(previous.claim.id) && previous.claim.state.label === 'unsupported')
    return previous;
  return null;
}

/** The key fact E acts on: the current one if Covered, else the one F has just labeled. */
export function conveyedByTarget(state: ClaimsAndKeyFactsState = get()): number | null {
  const facts = state.facts?.facts ?? [];
  if (facts[state.factPosition]?.state.label === 'covered') return state.factPosition;
  const previous = facts[state.factPosition - 1];
  if (
    previous &&
    state.facts &&
    state.lastLabeled === factItem(state.facts.key, previous.id) &&
    previous.state.label === 'covered'
  )
    return state.factPosition - 1;
  return null;
}

export function setClaimErrorType(claimId: number, errorType: ClaimErrorType | null): Promise<void> {
  return enqueue(() => {
    const key = get().claims?.key;
    if (key === undefined) return;
    return items.change({ kind: 'claim', key, id: claimId }, 'error_type', (state) => {
      const s = state as ClaimLabelState;
      return s.label === 'unsupported' && s.errorType !== errorType ? { ...s, errorType } : null;
    });
  });
}

export function setConveyedBy(factId: number, conveyedBy: ConveyedBy): Promise<void> {
  return enqueue(() => {
    const key = get().facts?.key;
    if (key === undefined) return;
    return items.change({ kind: 'fact', key, id: factId }, 'conveyed_by', (state) => {
      const s = state as KeyFactLabelState;
      return s.label === 'covered' ? { ...s, conveyedBy } : null;
    });
  });
}

/** X: remove the current item's label (and its error type or conveyed-by); the note stays. */
export function clearItem(mode: ItemMode): Promise<void> {
  return enqueue(async () => {
    await ensureLoaded(mode);
    const { claims, facts, claimPosition, factPosition } = get();
    if (mode === 'claims') {
      const row = claimRows(claims)[claimPosition];
      if (!row || !claims) return;
      return items.change({ kind: 'claim', key: claims.key, id: row.claim.id }, 'clear', (state) =>
        state.label === null ? null : { ...(state as ClaimLabelState), label: null, errorType: null },
      );
    }
    const fact = facts?.facts[factPosition];
    if (!fact || !facts) return;
    return items.change({ kind: 'fact', key: facts.key, id: fact.id }, 'clear', (state) =>
      state.label === null
        ? null
        : { ...(state as KeyFactLabelState), label: null, conveyedBy: { claims: [], sentences: [] } },
    );
  });
}

/** The item / or M writes a note on in `mode`, as the note editor shows it; null when there is none. */
export function noteTarget(mode: ItemMode, state: ClaimsAndKeyFactsState = get()): NoteTarget | null {
  if (mode === 'claims') {
    const row = claimRows(state.claims)[state.claimPosition];
    return row
      ? {
          kind: 'claim',
          id: row.claim.id,
          index: row.claim.index,
          text: row.claim.text,
          note: row.claim.state.note,
          heading: `Note on claim ${row.number} of sentence ${row.sentence.index + 1}`,
        }
      : null;
  }
  const fact = state.facts?.facts[state.factPosition];
  return fact
    ? {
        kind: 'fact',
        id: fact.id,
        index: fact.index,
        text: fact.text,
        note: fact.state.note,
        heading: `Note on key fact ${fact.index + 1}`,
      }
    : null;
}

export interface NoteTarget {
  kind: 'claim' | 'fact';
  id: number;
  index: number;
  text: string;
  note: string | null;
  heading: string;
}

/** Saves a claim's or key fact's note (blank removes it) as one event, cause 'note'; undoable like a label. */
export function saveItemNote(target: { kind: 'claim' | 'fact'; id: number }, text: string): Promise<void> {
  const note = noteFromText(text);
  return enqueue(() => {
    const key = target.kind === 'claim' ? get().claims?.key : get().facts?.key;
    if (key === undefined) return;
    return items.change({ kind: target.kind, key, id: target.id }, 'note', (state) =>
      state.note === note ? null : { ...state, note },
    );
  });
}

/** Ctrl+Z / Ctrl+Y on claim and key-fact labels. */
export const undoItem = (): Promise<void> => items.undo();
export const redoItem = (): Promise<void> => items.redo();

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
  return enqueue(async () => {
    const owner = sessionLanes.token();
    await sessionLanes.settled();
    const shown = get().claims;
    if (!sessionLanes.isCurrent(owner) || !shown) return;
    const labeled = claimRows(shown).filter((r) => r.claim.state.label !== null).length;
    try {
      const edited = await bridge().call('claims.edit', {
        key: shown.key,
        annotator: annotatorName(),
        basedOnVersion: shown.version,
        claims,
        ...(note ? { note } : {}),
      });
      if (!sessionLanes.isCurrent(owner)) return;
      // A new set: start at its first unlabeled claim; the key facts' lines (their claims) are stale too.
      const proposal = edited.proposal?.id ?? null;
      set({
        kept: {
          what: 'claims',
          key: shown.key,
          fromVersion: shown.version,
          toVersion: edited.version,
          labeled,
          proposal,
        },
        error: null,
      });
      if (proposal !== null) return;
      set({ claims: null, facts: null });
      await ensureLoaded('claims', true);
    } catch (err) {
      set({ error: `The claims were not changed: ${errorMessage(err)}` });
    }
  });
}

export function saveFactEdit(facts: FactDraft[], note?: string): Promise<void> {
  return enqueue(async () => {
    const owner = sessionLanes.token();
    await sessionLanes.settled();
    const shown = get().facts;
    if (!sessionLanes.isCurrent(owner) || !shown) return;
    const labeled = shown.facts.filter((f) => f.state.label !== null).length;
    try {
      const edited = await bridge().call('keyfacts.edit', {
        documentKey: shown.documentKey,
        annotator: annotatorName(),
        basedOnVersion: shown.version,
        facts,
        ...(note ? { note } : {}),
      });
      if (!sessionLanes.isCurrent(owner)) return;
      const proposal = edited.proposal?.id ?? null;
      set({
        kept: {
          what: 'keyfacts',
          key: shown.key,
          fromVersion: shown.version,
          toVersion: edited.version,
          labeled,
          proposal,
        },
        error: null,
      });
      if (proposal !== null) return;
      set({ facts: null });
      await ensureLoaded('keyfacts', true);
    } catch (err) {
      set({ error: `The key facts were not changed: ${errorMessage(err)}` });
    }
  });
}

export function setItemsNotice(notice: string | null): void {
  set({ notice });
}

export function dismissItemsError(): void {
  set({ error: null });
}
