/**
 * Schema 4 (teams without a server): merging annotators' copies of a project.
 *
 * - `merges`: one row per merged file (when, from which file and project id, what it added).
 * - `label_events.origin_project` / `origin_event`: where a merged event was first recorded (the
 *   project id of that project and the event's id there). An event merged from a project that
 *   had itself merged it keeps the ORIGINAL origin, so A→B→C chains say where a label was made.
 *   NULL on events recorded in this project. `merge_id` names the merge that brought it.
 * - "Current label" is the latest event of (unit, annotator, phase) by (created_at, id): merged
 *   events get new ids here, so the id alone no longer says which event is newer. The two indexes
 *   serve that order.
 *
 * Idempotence does not rest on (origin_project, origin_event), which is deliberately not UNIQUE:
 * a project copied as a file carries its project id, so two copies number their new events alike.
 * An event is recognised by its content instead (unit, annotator, phase, label, error type, note,
 * time spent, cause, created_at; and its import key for imported labels): see db/mergeRepository.ts.
 */
export const migration004 = `
CREATE TABLE merges (
  id                INTEGER PRIMARY KEY,
  source            TEXT NOT NULL,
  source_project    TEXT NOT NULL,
  events_added      INTEGER NOT NULL,
  events_present    INTEGER NOT NULL,
  annotators_added  INTEGER NOT NULL,
  created_at        TEXT NOT NULL
);

ALTER TABLE label_events ADD COLUMN origin_project TEXT;
ALTER TABLE label_events ADD COLUMN origin_event INTEGER;
ALTER TABLE label_events ADD COLUMN merge_id INTEGER REFERENCES merges(id);

CREATE INDEX label_events_origin ON label_events(origin_project, origin_event);
CREATE INDEX label_events_latest ON label_events(unit_id, annotator_id, phase, created_at, id);
CREATE INDEX label_events_annotator_latest ON label_events(annotator_id, phase, unit_id, created_at, id);
`;
