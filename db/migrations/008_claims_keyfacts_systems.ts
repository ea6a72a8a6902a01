/**
 * Schema 8 (Summarization Accuracy): claims, key facts, their labels, judge outputs on
 * them, and systems under test.
 *
 * Design (docs/architecture.md, "Units have kinds": labels attach to a unit of a version):
 * - Sentences stay in `units` (kind sentence). A **claim** is a unit of kind `claim` under its
 *   sentence (`claims.sentence_unit_id`) and belongs to one **claim set** of its summary: a
 *   version (1, 2, …) with its source (model | imported | person), its decomposer and the
 *   decomposer's version. A **key fact** (kind `key_fact`) belongs to one **key-fact set** of its
 *   document, versioned the same way. Sets are never edited in place: an edit (edit, split, merge,
 *   drop) writes a new set whose items name the items of the previous version they came from
 *   (`claim_origins` / `key_fact_origins`); the current set is the highest version. Items get new
 *   ids per version, so a label given on version 1 stays on version 1.
 *   (Claims live in their own table rather than in `units`: `units` is UNIQUE (summary_id, idx)
 *   and read by every sentence query; a kind column there would make each of them filter it.)
 * - People's labels are append-only events like `label_events` (the current label of an item and
 *   annotator is its latest event by created_at, then id: db/latest.ts), with the same imported
 *   read-only and blind-after-reveal triggers as schema 7:
 *   `claim_label_events` (supported | unsupported | unclear, error type of the card's five for an
 *   unsupported claim, the source's own error name kept in `source_error_type`);
 *   `key_fact_label_events` per (key fact, summary): covered | not_covered and which claims and
 *   sentences convey it (`conveyed_by` JSON {"claims": [ids], "sentences": [unit ids]});
 *   `sentence_keyfact_events` per (sentence, key-fact set): the sentence conveys at least one key
 *   fact (FineSurE's sentence_labels; for people in Loupe it is derived from `conveyed_by`).
 * - Judge outputs on claims and key facts reference `judges` (imported judges, e.g. RealSumm's
 *   GPT-4 alignment, are `judges` rows of kind imported) and the task config hash of the run that
 *   produced them; the raw answers of runs stay in `task_results` (schema 6).
 * - `systems` are the models under test (endpoint: Loupe asks it; imported: a file's model
 *   field); `system_outputs` has one row per (system, document): the summary it produced, or the
 *   recorded failure (error, refusal, guardrail, empty), which scores 0.0 on all three metrics.
 */
export const migration008 = `
CREATE TABLE claim_sets (
  id                  INTEGER PRIMARY KEY,
  summary_id          INTEGER NOT NULL REFERENCES summaries(id),
  version             INTEGER NOT NULL CHECK (version >= 1),
  source              TEXT NOT NULL CHECK (source IN ('model', 'imported', 'person')),
  decomposer          TEXT NOT NULL,
  decomposer_version  TEXT NOT NULL,
  based_on_set_id     INTEGER REFERENCES claim_sets(id),
  created_by          INTEGER REFERENCES annotators(id),
  note                TEXT,
  import_key          TEXT UNIQUE,
  import_id           INTEGER REFERENCES imports(id),
  created_at          TEXT NOT NULL,
  UNIQUE (summary_id, version)
);

CREATE TABLE claims (
  id                INTEGER PRIMARY KEY,
  set_id            INTEGER NOT NULL REFERENCES claim_sets(id),
  kind              TEXT NOT NULL DEFAULT 'claim' CHECK (kind = 'claim'),
  sentence_unit_id  INTEGER NOT NULL REFERENCES units(id),
  idx               INTEGER NOT NULL,
  text              TEXT NOT NULL,
  UNIQUE (set_id, idx)
);
CREATE INDEX claims_sentence ON claims(sentence_unit_id);

CREATE TABLE claim_origins (
  claim_id   INTEGER NOT NULL REFERENCES claims(id),
  origin_id  INTEGER NOT NULL REFERENCES claims(id),
  PRIMARY KEY (claim_id, origin_id)
) WITHOUT ROWID;

CREATE TABLE key_fact_sets (
  id                 INTEGER PRIMARY KEY,
  document_id        INTEGER NOT NULL REFERENCES documents(id),
  version            INTEGER NOT NULL CHECK (version >= 1),
  source             TEXT NOT NULL CHECK (source IN ('model', 'imported', 'person')),
  extractor          TEXT NOT NULL,
  extractor_version  TEXT NOT NULL,
  based_on_set_id    INTEGER REFERENCES key_fact_sets(id),
  created_by         INTEGER REFERENCES annotators(id),
  note               TEXT,
  import_key         TEXT UNIQUE,
  import_id          INTEGER REFERENCES imports(id),
  created_at         TEXT NOT NULL,
  UNIQUE (document_id, version)
);

CREATE TABLE key_facts (
  id      INTEGER PRIMARY KEY,
  set_id  INTEGER NOT NULL REFERENCES key_fact_sets(id),
  kind    TEXT NOT NULL DEFAULT 'key_fact' CHECK (kind = 'key_fact'),
  idx     INTEGER NOT NULL,
  text    TEXT NOT NULL,
  UNIQUE (set_id, idx)
);

CREATE TABLE key_fact_origins (
  key_fact_id  INTEGER NOT NULL REFERENCES key_facts(id),
  origin_id    INTEGER NOT NULL REFERENCES key_facts(id),
  PRIMARY KEY (key_fact_id, origin_id)
) WITHOUT ROWID;

CREATE TABLE claim_label_events (
  id                 INTEGER PRIMARY KEY AUTOINCREMENT,
  claim_id           INTEGER NOT NULL REFERENCES claims(id),
  annotator_id       INTEGER NOT NULL REFERENCES annotators(id),
  label              TEXT CHECK (label IN ('supported', 'unsupported', 'unclear')),
  error_type         TEXT CHECK (error_type IN ('entity', 'relation', 'number_or_date', 'not_in_source', 'other')),
  source_error_type  TEXT,
  note               TEXT,
  time_spent_ms      INTEGER,
  cause              TEXT NOT NULL,
  created_at         TEXT NOT NULL,
  blind              INTEGER NOT NULL DEFAULT 1 CHECK (blind IN (0, 1)),
  import_key         TEXT UNIQUE,
  import_id          INTEGER REFERENCES imports(id),
  CHECK (error_type IS NULL OR label = 'unsupported')
);
CREATE INDEX claim_label_events_current ON claim_label_events(claim_id, annotator_id, id);

CREATE TABLE key_fact_label_events (
  id             INTEGER PRIMARY KEY AUTOINCREMENT,
  key_fact_id    INTEGER NOT NULL REFERENCES key_facts(id),
  summary_id     INTEGER NOT NULL REFERENCES summaries(id),
  annotator_id   INTEGER NOT NULL REFERENCES annotators(id),
  label          TEXT CHECK (label IN ('covered', 'not_covered')),
  conveyed_by    TEXT NOT NULL DEFAULT '{"claims":[],"sentences":[]}',
  note           TEXT,
  time_spent_ms  INTEGER,
  cause          TEXT NOT NULL,
  created_at     TEXT NOT NULL,
  blind          INTEGER NOT NULL DEFAULT 1 CHECK (blind IN (0, 1)),
  import_key     TEXT UNIQUE,
  import_id      INTEGER REFERENCES imports(id)
);
CREATE INDEX key_fact_label_events_current ON key_fact_label_events(summary_id, key_fact_id, annotator_id, id);

CREATE TABLE sentence_keyfact_events (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  unit_id          INTEGER NOT NULL REFERENCES units(id),
  key_fact_set_id  INTEGER NOT NULL REFERENCES key_fact_sets(id),
  annotator_id     INTEGER NOT NULL REFERENCES annotators(id),
  conveys          INTEGER CHECK (conveys IN (0, 1)),
  cause            TEXT NOT NULL,
  created_at       TEXT NOT NULL,
  import_key       TEXT UNIQUE,
  import_id        INTEGER REFERENCES imports(id)
);
CREATE INDEX sentence_keyfact_events_current ON sentence_keyfact_events(unit_id, key_fact_set_id, annotator_id, id);

CREATE TABLE claim_predictions (
  id                 INTEGER PRIMARY KEY,
  claim_id           INTEGER NOT NULL REFERENCES claims(id),
  judge_id           INTEGER NOT NULL REFERENCES judges(id) ON DELETE CASCADE,
  config_hash        TEXT NOT NULL,
  supported          INTEGER NOT NULL CHECK (supported IN (0, 1)),
  error_type         TEXT CHECK (error_type IN ('entity', 'relation', 'number_or_date', 'not_in_source', 'other')),
  source_error_type  TEXT,
  raw                TEXT,
  source             TEXT NOT NULL CHECK (source IN ('run', 'import')),
  import_id          INTEGER REFERENCES imports(id),
  created_at         TEXT NOT NULL,
  UNIQUE (claim_id, judge_id, config_hash)
);

CREATE TABLE key_fact_predictions (
  id           INTEGER PRIMARY KEY,
  key_fact_id  INTEGER NOT NULL REFERENCES key_facts(id),
  summary_id   INTEGER NOT NULL REFERENCES summaries(id),
  judge_id     INTEGER NOT NULL REFERENCES judges(id) ON DELETE CASCADE,
  config_hash  TEXT NOT NULL,
  covered      INTEGER NOT NULL CHECK (covered IN (0, 1)),
  conveyed_by  TEXT NOT NULL DEFAULT '{"claims":[],"sentences":[]}',
  raw          TEXT,
  source       TEXT NOT NULL CHECK (source IN ('run', 'import')),
  import_id    INTEGER REFERENCES imports(id),
  created_at   TEXT NOT NULL,
  UNIQUE (key_fact_id, summary_id, judge_id, config_hash)
);
CREATE INDEX key_fact_predictions_summary ON key_fact_predictions(summary_id);

CREATE TABLE sentence_keyfact_predictions (
  id               INTEGER PRIMARY KEY,
  unit_id          INTEGER NOT NULL REFERENCES units(id),
  key_fact_set_id  INTEGER NOT NULL REFERENCES key_fact_sets(id),
  judge_id         INTEGER NOT NULL REFERENCES judges(id) ON DELETE CASCADE,
  config_hash      TEXT NOT NULL,
  conveys          INTEGER NOT NULL CHECK (conveys IN (0, 1)),
  source           TEXT NOT NULL CHECK (source IN ('run', 'import')),
  import_id        INTEGER REFERENCES imports(id),
  created_at       TEXT NOT NULL,
  UNIQUE (unit_id, key_fact_set_id, judge_id, config_hash)
);

CREATE TABLE systems (
  id           INTEGER PRIMARY KEY,
  name         TEXT NOT NULL UNIQUE,
  kind         TEXT NOT NULL CHECK (kind IN ('endpoint', 'imported')),
  config       TEXT,
  config_hash  TEXT NOT NULL,
  created_at   TEXT NOT NULL,
  updated_at   TEXT NOT NULL
);

CREATE TABLE system_outputs (
  id               INTEGER PRIMARY KEY,
  system_id        INTEGER NOT NULL REFERENCES systems(id) ON DELETE CASCADE,
  document_id      INTEGER NOT NULL REFERENCES documents(id),
  config_hash      TEXT NOT NULL,
  summary_id       INTEGER REFERENCES summaries(id),
  failure          TEXT CHECK (failure IN ('error', 'refusal', 'guardrail', 'empty')),
  failure_message  TEXT,
  created_at       TEXT NOT NULL,
  CHECK ((summary_id IS NULL) <> (failure IS NULL)),
  UNIQUE (system_id, document_id)
);
CREATE INDEX system_outputs_summary ON system_outputs(summary_id);

CREATE TRIGGER claim_label_events_imported_read_only BEFORE INSERT ON claim_label_events
  WHEN NEW.import_key IS NULL AND (SELECT kind FROM annotators WHERE id = NEW.annotator_id) = 'imported'
BEGIN
  SELECT RAISE(ABORT, 'loupe: an imported label set is read-only');
END;

CREATE TRIGGER key_fact_label_events_imported_read_only BEFORE INSERT ON key_fact_label_events
  WHEN NEW.import_key IS NULL AND (SELECT kind FROM annotators WHERE id = NEW.annotator_id) = 'imported'
BEGIN
  SELECT RAISE(ABORT, 'loupe: an imported label set is read-only');
END;

CREATE TRIGGER claim_label_events_after_reveal AFTER INSERT ON claim_label_events
  WHEN NEW.import_key IS NULL
   AND EXISTS (SELECT 1 FROM reveals r JOIN claim_sets s ON s.summary_id = r.summary_id JOIN claims c ON c.set_id = s.id
               WHERE c.id = NEW.claim_id AND r.annotator_id = NEW.annotator_id AND r.created_at <= NEW.created_at)
BEGIN
  UPDATE claim_label_events SET blind = 0 WHERE id = NEW.id;
END;

CREATE TRIGGER key_fact_label_events_after_reveal AFTER INSERT ON key_fact_label_events
  WHEN NEW.import_key IS NULL
   AND EXISTS (SELECT 1 FROM reveals r WHERE r.summary_id = NEW.summary_id AND r.annotator_id = NEW.annotator_id AND r.created_at <= NEW.created_at)
BEGIN
  UPDATE key_fact_label_events SET blind = 0 WHERE id = NEW.id;
END;
`;
