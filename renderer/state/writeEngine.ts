/**
 * The optimistic write engine of Annotate, one for every unit it labels (sentences, claims and
 * key facts, scaffold items), generic over the item's reference `R` and its label state `S`.
 *
 * A label key paints at once: the state shows on its item marked "saving", and its write goes to
 * the session's ordered write lane. Nothing counts as stored until the core returned it ("saving"
 * stays until then). A failed write rolls its item back to what is stored (unless a later key for
 * it is still being written), marks it "not saved", brings the view back to it (the first of a
 * burst of failures) and says so; keys pressed meanwhile are kept, each a write for the item it
 * was pressed on. Changes that need the stored state (an error type, a note, clear) wait for the
 * writes before them and show what the core stored. Undo and redo replay the stored history as
 * new events (cause 'undo' / 'redo'), across summaries; the history is kept in this tab's
 * sessionStorage under the session's owner, so a reload keeps it.
 */
import type { z } from 'zod';
import type { SessionLanes } from './annotateLanes';
import { MAX_HISTORY_ENTRIES, storedHistory } from './storedHistory';

/** The write marks an item list shows: writes in flight per item, and items whose write failed. */
export interface WriteMarks<K> {
  saving: ReadonlyMap<K, number>;
  failed: ReadonlySet<K>;
}

/** Why a state was written: a label key, a replay, or one of the unit's own changes `C` (error type, note, clear…). */
export type WriteCause<C extends string> = 'label' | 'undo' | 'redo' | C;

/** One stored change of one item: what undo restores and redo replays. */
export interface Change<R, S> {
  ref: R;
  before: S;
  after: S;
}

export interface WriteEngineConfig<R, S, K, C extends string> {
  lanes: SessionLanes;
  /** The item's key in the marks. */
  keyOf(ref: R): K;
  /** Writes `state` for `ref`; resolves with what the core stored. */
  record(ref: R, state: S, cause: WriteCause<C>, timeSpentMs: number | null): Promise<S>;
  /** The state `ref` shows now, or undefined when its summary's items are not on screen. */
  shown(ref: R): S | undefined;
  /** Shows `state` on `ref` if it is on screen; `from` is what it showed (counts follow it). */
  show(ref: R, state: S, from: S): void;
  marks(): WriteMarks<K>;
  setMarks(marks: Partial<WriteMarks<K>>): void;
  /** Puts the view on `ref`, bringing its summary back if needed (a failed write, an undo). */
  focus(ref: R, why: 'failed' | 'undo' | 'redo'): Promise<void> | void;
  /** Says that the write of `ref` failed; `failedCount` items are marked "not saved" now. */
  failed(ref: R, err: unknown, failedCount: number): void;
  /** Every stored write: `idle` when no label write is in flight any more. */
  stored?(ref: R, stored: S, idle: boolean): void;
  /** Undo or redo with nothing to replay. */
  nothingTo?(what: 'undo' | 'redo'): void;
  /** A change or replay the core refused; without it the error goes to the command lane. */
  changeFailed?(cause: WriteCause<C>, ref: R, err: unknown): void;
  /** The history and its stored copy. */
  history: { prefix: string; schema: z.ZodType<Change<R, S>, unknown> };
  /** Undo / redo depths, for a store to show. */
  depths?(undo: number, redo: number): void;
  /** Two states that make no change (left out of the history); default: never. */
  same?(a: S, b: S): boolean;
}

export interface WriteEngine<R, S, C extends string> {
  /** A label key: paints `after` on `ref` at once and writes it in order with the others. */
  write(ref: R, before: S, after: S, timeSpentMs: number | null): void;
  /** The newest pressed state of an item with writes in flight (a load answered before them shows it). */
  pressed(ref: R): S | undefined;
  /** After the writes before it: `change` of the stored state of `ref`, stored as one event (null: no change). */
  change(ref: R, cause: C, change: (state: S) => S | null): Promise<void>;
  undo(): Promise<void>;
  redo(): Promise<void>;
  /** The session's owner: this tab's history of it before a reload, else empty. */
  restore(owner: string | null): void;
  /** Another session: forget the writes' bookkeeping and the history. */
  reset(): void;
}

export function createWriteEngine<R, S, K, C extends string>(
  config: WriteEngineConfig<R, S, K, C>,
): WriteEngine<R, S, C> {
  const { lanes } = config;
  /** The stored state of each item with writes in flight (a rollback returns to it). */
  const committed = new Map<K, S>();
  const pressedState = new Map<K, S>();
  const stored = storedHistory<Change<R, S>>(config.history.prefix, config.history.schema);
  let past: Change<R, S>[] = [];
  let future: Change<R, S>[] = [];

  const saveHistory = () => {
    stored.save({ past, future });
    config.depths?.(past.length, future.length);
  };
  const push = (change: Change<R, S>) => {
    if (config.same?.(change.before, change.after)) return;
    past = [...past.slice(-(MAX_HISTORY_ENTRIES - 1)), change];
    future = [];
    saveHistory();
  };

  /** One fewer write in flight for `key`; the last one clears its "saving". */
  function savingWithout(key: K): { saving: ReadonlyMap<K, number>; last: boolean } {
    const saving = config.marks().saving;
    const left = (saving.get(key) ?? 1) - 1;
    const copy = new Map(saving);
    if (left > 0) copy.set(key, left);
    else copy.delete(key);
    return { saving: copy, last: left <= 0 };
  }

  function unfail(key: K): void {
    const failed = config.marks().failed;
    if (!failed.has(key)) return;
    const copy = new Set(failed);
    copy.delete(key);
    config.setMarks({ failed: copy });
  }

  function settle(owner: number, ref: R, before: S, result: S): void {
    if (!lanes.isCurrent(owner)) return;
    const key = config.keyOf(ref);
    const { saving, last } = savingWithout(key);
    if (last) {
      committed.delete(key);
      pressedState.delete(key);
    } else committed.set(key, result);
    // Writes settle in the order they were pressed, so the history keeps that order.
    push({ ref, before, after: result });
    config.setMarks({ saving });
    config.stored?.(ref, result, saving.size === 0);
  }

  function rollBack(owner: number, ref: R, before: S, after: S, err: unknown): void {
    if (!lanes.isCurrent(owner)) return;
    const key = config.keyOf(ref);
    const { saving, last } = savingWithout(key);
    const storedState = committed.get(key) ?? before;
    if (last) {
      committed.delete(key);
      pressedState.delete(key);
      // Only the last write of the item decides what it shows.
      config.show(ref, storedState, config.shown(ref) ?? after);
    }
    const marks = config.marks();
    const firstFailure = marks.failed.size === 0;
    const failed = new Set(marks.failed).add(key);
    config.setMarks({ saving, failed });
    config.failed(ref, err, failed.size);
    if (firstFailure) void config.focus(ref, 'failed');
  }

  /** Stores `state` as one event and shows what the core stored; null: refused (said) or another session. */
  async function storeNow(ref: R, state: S, from: S, cause: WriteCause<C>): Promise<S | null> {
    const owner = lanes.token();
    let result: S;
    try {
      result = await config.record(ref, state, cause, null);
    } catch (err) {
      if (!config.changeFailed) throw err;
      if (lanes.isCurrent(owner)) config.changeFailed(cause, ref, err);
      return null;
    }
    if (!lanes.isCurrent(owner)) return null;
    config.show(ref, result, from);
    unfail(config.keyOf(ref));
    config.stored?.(ref, result, config.marks().saving.size === 0);
    return result;
  }

  function replay(direction: 'undo' | 'redo'): Promise<void> {
    return lanes.enqueue(async () => {
      // The labels pressed before Ctrl+Z are the ones it undoes: wait until they are stored.
      const owner = lanes.token();
      await lanes.settled();
      if (!lanes.isCurrent(owner)) return;
      const change = (direction === 'undo' ? past : future).at(-1);
      if (!change) return config.nothingTo?.(direction);
      const [from, to] = direction === 'undo' ? [change.after, change.before] : [change.before, change.after];
      if ((await storeNow(change.ref, to, from, direction)) === null) return;
      if (direction === 'undo') {
        past = past.slice(0, -1);
        future = [...future, change];
      } else {
        future = future.slice(0, -1);
        past = [...past, change];
      }
      saveHistory();
      await config.focus(change.ref, direction);
    });
  }

  return {
    write(ref, before, after, timeSpentMs) {
      const key = config.keyOf(ref);
      if (!committed.has(key)) committed.set(key, before);
      pressedState.set(key, after);
      config.show(ref, after, before);
      const marks = config.marks();
      const failed = marks.failed.has(key) ? new Set([...marks.failed].filter((k) => k !== key)) : marks.failed;
      config.setMarks({ saving: new Map(marks.saving).set(key, (marks.saving.get(key) ?? 0) + 1), failed });
      const owner = lanes.token();
      lanes.write(
        () => config.record(ref, after, 'label', timeSpentMs),
        (result) => settle(owner, ref, before, result),
        (err) => rollBack(owner, ref, before, after, err),
      );
    },
    pressed: (ref) => pressedState.get(config.keyOf(ref)),
    async change(ref, cause, change) {
      // After the labels pressed before it are stored (or rolled back): it changes what they left.
      const owner = lanes.token();
      await lanes.settled();
      if (!lanes.isCurrent(owner)) return;
      const before = config.shown(ref);
      if (before === undefined) return;
      const after = change(before);
      if (after === null) return;
      const result = await storeNow(ref, after, before, cause);
      if (result !== null) push({ ref, before, after: result });
    },
    undo: () => replay('undo'),
    redo: () => replay('redo'),
    restore(owner) {
      const restored = owner === null ? { past: [], future: [] } : stored.restore(owner);
      past = restored.past;
      future = restored.future;
      config.depths?.(past.length, future.length);
    },
    reset() {
      committed.clear();
      pressedState.clear();
      stored.forget();
      past = [];
      future = [];
      config.depths?.(0, 0);
    },
  };
}
