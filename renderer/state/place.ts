/**
 * Where this tab is in Annotate: the unit mode, the summary, its sentence and the mode's current
 * item. Kept in this tab's sessionStorage under the session's owner (project + annotator), as the
 * undo history is, so a reload comes back to the same place; another tab starts at the first
 * summary with work left.
 */
import { z } from 'zod';

export const UNIT_MODES = ['sentences', 'claims', 'keyfacts', 'scaffold'] as const;
export type UnitMode = (typeof UNIT_MODES)[number];

const PlaceSchema = z.object({
  mode: z.enum(UNIT_MODES),
  /** The summary's queue key. */
  key: z.number().int(),
  /** The current sentence's unit id. */
  unitId: z.number().int().nullable(),
  /** The current claim, key fact or scaffold item of the mode (its id), if the mode has one. */
  item: z.number().int().nullable(),
});
export type Place = z.infer<typeof PlaceSchema>;

const PREFIX = 'loupe.place:';

export function savePlace(owner: string, place: Place): void {
  try {
    window.sessionStorage.setItem(PREFIX + owner, JSON.stringify(place));
  } catch {
    // Storage full or refused: a reload starts at the first summary with work.
  }
}

/** What this tab kept for `owner`; anything that fails the schema is no place. */
export function restorePlace(owner: string | null): Place | null {
  if (owner === null) return null;
  try {
    const text = window.sessionStorage.getItem(PREFIX + owner);
    const parsed = text === null ? null : PlaceSchema.safeParse(JSON.parse(text));
    return parsed?.success ? parsed.data : null;
  } catch {
    return null;
  }
}
