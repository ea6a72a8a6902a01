/**
 * Schema 9 (Semantic Scaffold): scaffolds per document and alignments of summaries to them.
 *
 * - A **scaffold** is a version (1, 2, …) of one document's facts, key questions and entity
 *   attributes, with its source (model | imported | person), its extractor and the extractor's
 *   version. Versions are never edited in place: an edit (add, drop, retier, reword) writes a new
 *   version whose items name the item of the previous version they came from (`from_item_id`);
 *   the current scaffold is the highest version. Items get new ids per version, so an alignment
 *   given on version 1 stays on version 1.
 * - `scaffold_items`: kind fact | question | attribute, the id the file or extractor gave it
 *   (`item_key`, unique per scaffold and kind), tier main | supporting (facts and questions;
 *   attributes have none), a question's expected answer, an attribute's entity.
 * - `scaffold_alignment_events`: append-only, one event per (item, summary, source) decision; the
 *   current one is the latest by created_at, then id (db/latest.ts). The source is a person or
 *   imported label set (`annotator_id`, with schema 7's imported read-only and blind-after-reveal
 *   triggers) or a judge (`judge_id` and the task config hash of its run, or "imported").
 *   `sentences`: JSON array of 0-based summary sentence indexes that convey a fact (Fact Focus).
 *   A value must fit its item's kind (a trigger checks it).
 */
export const migration009 = `
CREATE TABLE scaffolds (
  id                 INTEGER PRIMARY KEY,
  document_id        INTEGER NOT NULL REFERENCES documents(id),
  version            INTEGER NOT NULL CHECK (version >= 1),
  source             TEXT NOT NULL CHECK (source IN ('model', 'imported', 'person')),
  extractor          TEXT NOT NULL,
  extractor_version  TEXT NOT NULL,
  based_on_id        INTEGER REFERENCES scaffolds(id),
  created_by         INTEGER REFERENCES annotators(id),
  note               TEXT,
  import_key         TEXT UNIQUE,
  import_id          INTEGER REFERENCES imports(id),
  created_at         TEXT NOT NULL,
  UNIQUE (document_id, version)
);

CREATE TABLE scaffold_items (
  id            INTEGER PRIMARY KEY,
  scaffold_id   INTEGER NOT NULL REFERENCES scaffolds(id),
  kind          TEXT NOT NULL CHECK (kind IN ('fact', 'question', 'attribute')),
  item_key      TEXT NOT NULL,
  idx           INTEGER NOT NULL,
  text          TEXT NOT NULL,
  tier          TEXT CHECK (tier IN ('main', 'supporting')),
  answer        TEXT,
  entity        TEXT,
  from_item_id  INTEGER REFERENCES scaffold_items(id),
  CHECK ((kind = 'attribute') = (tier IS NULL)),
  CHECK ((kind = 'attribute') = (entity IS NOT NULL)),
  CHECK (kind = 'question' OR answer IS NULL),
  UNIQUE (scaffold_id, kind, item_key),
  UNIQUE (scaffold_id, kind, idx)
);

CREATE TABLE scaffold_alignment_events (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  item_id       INTEGER NOT NULL REFERENCES scaffold_items(id),
  summary_id    INTEGER NOT NULL REFERENCES summaries(id),
  annotator_id  INTEGER REFERENCES annotators(id),
  judge_id      INTEGER REFERENCES judges(id) ON DELETE CASCADE,
  config_hash   TEXT,
  value         TEXT CHECK (value IN ('preserved', 'partial', 'missing', 'misrepresented', 'answered', 'unanswered')),
  sentences     TEXT NOT NULL DEFAULT '[]',
  time_spent_ms INTEGER,
  cause         TEXT NOT NULL,
  created_at    TEXT NOT NULL,
  blind         INTEGER NOT NULL DEFAULT 1 CHECK (blind IN (0, 1)),
  import_key    TEXT UNIQUE,
  import_id     INTEGER REFERENCES imports(id),
  CHECK ((annotator_id IS NULL) <> (judge_id IS NULL)),
  CHECK ((judge_id IS NULL) = (config_hash IS NULL))
);
CREATE INDEX scaffold_alignment_events_current ON scaffold_alignment_events(summary_id, item_id, annotator_id, judge_id, id);

CREATE TRIGGER scaffold_alignment_value_fits_kind BEFORE INSERT ON scaffold_alignment_events
  WHEN NEW.value IS NOT NULL AND NOT (
    CASE (SELECT kind FROM scaffold_items WHERE id = NEW.item_id)
      WHEN 'fact' THEN NEW.value IN ('preserved', 'partial', 'missing', 'misrepresented')
      WHEN 'question' THEN NEW.value IN ('answered', 'unanswered')
      WHEN 'attribute' THEN NEW.value IN ('preserved', 'missing', 'misrepresented')
      ELSE 0 END)
BEGIN
  SELECT RAISE(ABORT, 'loupe: an alignment value that does not fit its scaffold item');
END;

CREATE TRIGGER scaffold_alignment_events_imported_read_only BEFORE INSERT ON scaffold_alignment_events
  WHEN NEW.import_key IS NULL AND NEW.annotator_id IS NOT NULL
   AND (SELECT kind FROM annotators WHERE id = NEW.annotator_id) = 'imported'
BEGIN
  SELECT RAISE(ABORT, 'loupe: an imported label set is read-only');
END;

CREATE TRIGGER scaffold_alignment_events_after_reveal AFTER INSERT ON scaffold_alignment_events
  WHEN NEW.import_key IS NULL AND NEW.annotator_id IS NOT NULL
   AND EXISTS (SELECT 1 FROM reveals r WHERE r.summary_id = NEW.summary_id AND r.annotator_id = NEW.annotator_id AND r.created_at <= NEW.created_at)
BEGIN
  UPDATE scaffold_alignment_events SET blind = 0 WHERE id = NEW.id;
END;
`;
