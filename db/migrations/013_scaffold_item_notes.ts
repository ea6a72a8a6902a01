/**
 * Schema 13 (scaffold item notes): a person's note on a scaffold item's alignment for one summary.
 *
 * The note rides on the alignment event, as a claim label's note rides on its label event (schema
 * 8): `scaffold_alignment_events.note`, and the latest event per (summary, item, annotator) is the
 * item's whole current state, its note included (db/latest.ts; the `_current` index of schema 9
 * keeps serving it). A note on an item not aligned yet (or cleared) is an event with value NULL and
 * the note. NULL on earlier rows and on judges' events: no note.
 */
export const migration013 = `
ALTER TABLE scaffold_alignment_events ADD COLUMN note TEXT;
`;
