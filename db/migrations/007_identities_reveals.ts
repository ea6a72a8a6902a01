/**
 * Schema 7 (blind by construction; one identity per annotator):
 *
 * - `annotators.kind`: 'person' (someone of the project, who labels in Loupe) or 'imported' (a
 *   label set brought by an import, e.g. FRANK's `frank-0`, `faithbench:…`, `tofueval-expert`).
 *   A name has one kind (names stay UNIQUE), so a person can never take an imported set's name
 *   nor the other way round. Existing files: an annotator with events, all of them imported
 *   (`cause = 'import'`), is imported; everyone else is a person.
 * - `reveals`: an annotator chose to see judge outputs or benchmark labels (`view`) while this
 *   summary of their sample was unfinished. One row per (annotator, summary): the first reveal.
 * - `label_events.blind`: 0 when the event's annotator had revealed its summary before the
 *   event. Events already stored were made before any reveal existed: 1.
 *
 * Two triggers make both rules hold for every write path (annotation, review, any later one):
 * a label recorded in Loupe (neither imported nor merged) under an imported name is refused, and
 * gets blind = 0 when its summary was revealed to its annotator. Imported and merged events
 * (`import_key` / `origin_project` set) keep what they carry.
 */
export const migration007 = `
ALTER TABLE annotators ADD COLUMN kind TEXT NOT NULL DEFAULT 'person' CHECK (kind IN ('person', 'imported'));
UPDATE annotators SET kind = 'imported'
  WHERE EXISTS (SELECT 1 FROM label_events e WHERE e.annotator_id = annotators.id)
    AND NOT EXISTS (SELECT 1 FROM label_events e WHERE e.annotator_id = annotators.id AND e.cause <> 'import');

CREATE TABLE reveals (
  annotator_id  INTEGER NOT NULL REFERENCES annotators(id),
  summary_id    INTEGER NOT NULL REFERENCES summaries(id),
  view          TEXT NOT NULL,
  created_at    TEXT NOT NULL,
  PRIMARY KEY (annotator_id, summary_id)
) WITHOUT ROWID;

ALTER TABLE label_events ADD COLUMN blind INTEGER NOT NULL DEFAULT 1 CHECK (blind IN (0, 1));

CREATE TRIGGER label_events_imported_read_only BEFORE INSERT ON label_events
  WHEN NEW.import_key IS NULL AND NEW.origin_project IS NULL
   AND (SELECT kind FROM annotators WHERE id = NEW.annotator_id) = 'imported'
BEGIN
  SELECT RAISE(ABORT, 'loupe: an imported label set is read-only');
END;

CREATE TRIGGER label_events_after_reveal AFTER INSERT ON label_events
  WHEN NEW.import_key IS NULL AND NEW.origin_project IS NULL
   AND EXISTS (SELECT 1 FROM reveals r JOIN units u ON u.summary_id = r.summary_id
               WHERE u.id = NEW.unit_id AND r.annotator_id = NEW.annotator_id AND r.created_at <= NEW.created_at)
BEGIN
  UPDATE label_events SET blind = 0 WHERE id = NEW.id;
END;
`;
