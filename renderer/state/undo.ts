/**
 * Undo and redo of label changes, across summaries: the stack lives outside the summary being
 * shown and is only cleared when the annotator or the project changes. Undo is not a deletion:
 * it records the `before` state as a new event (cause 'undo'), so the audit trail survives.
 */
import { create } from 'zustand';
import type { UnitLabelState } from '../../shared/api';

export interface UndoEntry {
  /** The queue key of the summary the unit belongs to. */
  key: number;
  unitId: number;
  before: UnitLabelState;
  after: UnitLabelState;
}

/** Enough for a long session; older entries fall off the bottom. */
const MAX_ENTRIES = 500;

interface UndoState {
  past: UndoEntry[];
  future: UndoEntry[];
}

export const useUndo = create<UndoState>(() => ({ past: [], future: [] }));

/** A fresh change: it becomes the next undo and makes the redo branch meaningless. */
export function pushChange(entry: UndoEntry): void {
  const { past } = useUndo.getState();
  useUndo.setState({ past: [...past.slice(-(MAX_ENTRIES - 1)), entry], future: [] });
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
}

/** Call after the redo was stored: moves the top entry from future back to past. */
export function commitRedo(): void {
  const { past, future } = useUndo.getState();
  const entry = future.at(-1);
  if (!entry) return;
  useUndo.setState({ past: [...past, entry], future: future.slice(0, -1) });
}

export function clearUndo(): void {
  useUndo.setState({ past: [], future: [] });
}
