/**
 * An undo/redo history kept in this tab's sessionStorage under its owner (project + annotator),
 * so a reload of the tab keeps it; another tab or a closed window starts empty. Used by the
 * sentence history (undo.ts) and the claim / key-fact history (accuracy.ts): one storage rule.
 */
import { z } from 'zod';

export interface History<T> {
  past: T[];
  future: T[];
}

/** Enough for a long session; older entries fall off the bottom. */
export const MAX_HISTORY_ENTRIES = 500;

export interface StoredHistory<T> {
  /** Writes `history` under the current owner (no owner: nothing is written). */
  save(history: History<T>): void;
  /** Binds the store to `owner` and reads what this tab kept for it: anything that fails the schema is an empty history. */
  restore(owner: string): History<T>;
  /** Unbinds (the stored copy of the owner stays for a reload). */
  forget(): void;
}

export function storedHistory<T>(prefix: string, entry: z.ZodType<T, unknown>): StoredHistory<T> {
  const schema = z.object({
    past: z.array(entry).max(MAX_HISTORY_ENTRIES),
    future: z.array(entry).max(MAX_HISTORY_ENTRIES),
  });
  let storageKey: string | null = null;
  return {
    save(history) {
      if (storageKey === null) return;
      try {
        window.sessionStorage.setItem(storageKey, JSON.stringify({ past: history.past, future: history.future }));
      } catch {
        // Storage full or refused: the history still holds until this page is closed.
      }
    },
    restore(owner) {
      storageKey = `${prefix}${owner}`;
      try {
        const text = window.sessionStorage.getItem(storageKey);
        const parsed = text === null ? null : schema.safeParse(JSON.parse(text));
        if (parsed?.success) return { past: parsed.data.past, future: parsed.data.future };
      } catch {
        // Unreadable storage: start empty.
      }
      return { past: [], future: [] };
    },
    forget() {
      storageKey = null;
    },
  };
}
