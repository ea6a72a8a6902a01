/**
 * Undo and redo of label changes, across summaries: the stack lives outside the summary being
 * shown and is only cleared when the annotator or the project changes. Undo is not a deletion:
 * it records the `before` state as a new event (cause 'undo'), so the audit trail survives.
 *
 * The stack is kept in this tab's sessionStorage under its owner (storedHistory.ts), so a reload
 * of the tab keeps it; another tab or a closed window starts empty.
 */
import { z } from 'zod';
import { create } from 'zustand';
import { UnitLabelStateSchema, type UnitLabelState } from '../../shared/api';
import { MAX_HISTORY_ENTRIES, storedHistory } from './storedHistory';

export interface UndoEntry {
  /** The queue key of the summary the unit belongs to. */
  key: number;
  unitId: number;
  before: UnitLabelState;
  after: UnitLabelState;
}

const MAX_ENTRIES = MAX_HISTORY_ENTRIES;

const EntrySchema = z.object({ key: z.number().int(), unitId: z.number().int(), before: UnitLabelStateSchema, after: UnitLabelStateSchema });
/** What a reload reads back: anything else (an older shape, a hand edit) is an empty history. */
const stored = storedHistory<UndoEntry>('loupe.undo:', EntrySchema);

interface UndoState {
  past: UndoEntry[];
  future: UndoEntry[];
}

export const useUndo = create<UndoState>(() => ({ past: [], future: [] }));

function save(): void {
  stored.save(useUndo.getState());
}

/** A fresh change: it becomes the next undo and makes the redo branch meaningless. */
export function pushChange(entry: UndoEntry): void {
  const { past } = useUndo.getState();
  useUndo.setState({ past: [...past.slice(-(MAX_ENTRIES - 1)), entry], future: [] });
  save();
}

export function peekUndo(): UndoEntry | undefined {
  return useUndo.getState().past.at(-1);
}

export function peekRedo(): UndoEntry | undefined {
  return useUndo.getState().future.at(-1);
}

/** Call after the undo was stored: moves the top entry from past to future. */
export function commitUndo(): void {
  const { past, future } = useUndo.getState();
  const entry = past.at(-1);
  if (!entry) return;
  useUndo.setState({ past: past.slice(0, -1), future: [...future, entry] });
  save();
}

/** Call after the redo was stored: moves the top entry from future back to past. */
export function commitRedo(): void {
  const { past, future } = useUndo.getState();
  const entry = future.at(-1);
  if (!entry) return;
  useUndo.setState({ past: [...past, entry], future: future.slice(0, -1) });
  save();
}

/** Forgets the history in memory (the stored copy of its owner stays for a reload). */
export function clearUndo(): void {
  stored.forget();
  useUndo.setState({ past: [], future: [] });
}

/** Starts the history of `owner`: what this tab kept for it before a reload, else empty. */
export function restoreUndo(owner: string): void {
  useUndo.setState(stored.restore(owner));
}
