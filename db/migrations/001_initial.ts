/** Schema 1: documents, summaries, units, annotators, the append-only label history, imports and samples. */
export const migration001 = `
CREATE TABLE datasets (
  id          INTEGER PRIMARY KEY,
  name        TEXT NOT NULL UNIQUE,
  created_at  TEXT NOT NULL
);

CREATE TABLE documents (
  id          INTEGER PRIMARY KEY,
  dataset_id  INTEGER NOT NULL REFERENCES datasets(id),
  doc_id      TEXT NOT NULL,
  -- NULL: the benchmark ships no document text (TofuEval, CoGenSumm): "document missing".
  text        TEXT,
  UNIQUE (dataset_id, doc_id)
);

CREATE TABLE summaries (
  id            INTEGER PRIMARY KEY,
  dataset_id    INTEGER NOT NULL REFERENCES datasets(id),
  document_id   INTEGER NOT NULL REFERENCES documents(id),
  summary_id    TEXT NOT NULL,
  text          TEXT NOT NULL,
  -- Benchmark label: 1 faithful, 0 not, NULL unknown. Never sent to the annotation view.
  global_label  INTEGER CHECK (global_label IN (0, 1)),
  meta          TEXT NOT NULL DEFAULT '{}',
  import_id     INTEGER REFERENCES imports(id),
  UNIQUE (dataset_id, summary_id)
);
CREATE INDEX summaries_document ON summaries(document_id);
CREATE INDEX summaries_by_benchmark_id ON summaries(summary_id);

CREATE TABLE units (
  id                INTEGER PRIMARY KEY,
  summary_id        INTEGER NOT NULL REFERENCES summaries(id),
  idx               INTEGER NOT NULL,
  text              TEXT NOT NULL,
  start             INTEGER NOT NULL,
  end               INTEGER NOT NULL,
  fragment          INTEGER NOT NULL CHECK (fragment IN (0, 1)),
  splitter          TEXT NOT NULL,
  splitter_version  TEXT NOT NULL,
  UNIQUE (summary_id, idx)
);

CREATE TABLE annotators (
  id          INTEGER PRIMARY KEY,
  name        TEXT NOT NULL UNIQUE,
  created_at  TEXT NOT NULL
);

-- Append-only: the current label of (unit, annotator, phase) is its latest event.
CREATE TABLE label_events (
  id             INTEGER PRIMARY KEY AUTOINCREMENT,
  unit_id        INTEGER NOT NULL REFERENCES units(id),
  annotator_id   INTEGER NOT NULL REFERENCES annotators(id),
  phase          TEXT NOT NULL CHECK (phase IN ('annotation', 'review')),
  label          TEXT CHECK (label IN ('faithful', 'unfaithful', 'unclear')),
  error_type     TEXT,
  note           TEXT,
  time_spent_ms  INTEGER,
  cause          TEXT NOT NULL,
  created_at     TEXT NOT NULL,
  -- Imported events carry a key derived from their content, so re-importing is idempotent.
  import_key     TEXT UNIQUE,
  import_id      INTEGER REFERENCES imports(id)
);
CREATE INDEX label_events_current ON label_events(unit_id, annotator_id, phase, id);
CREATE INDEX label_events_annotator ON label_events(annotator_id, phase, unit_id, id);

-- Judge predictions found in benchmark files, kept for the judge audit.
CREATE TABLE imported_predictions (
  id          INTEGER PRIMARY KEY,
  unit_id     INTEGER NOT NULL REFERENCES units(id),
  judge       TEXT NOT NULL,
  hard        INTEGER CHECK (hard IN (0, 1)),
  soft        REAL,
  raw         TEXT,
  import_id   INTEGER REFERENCES imports(id),
  UNIQUE (unit_id, judge)
);

CREATE TABLE imports (
  id          INTEGER PRIMARY KEY,
  kind        TEXT NOT NULL,
  source      TEXT NOT NULL,
  files       TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  summaries   INTEGER NOT NULL,
  labels      INTEGER NOT NULL,
  created_at  TEXT NOT NULL
);

CREATE TABLE sample_batches (
  id           INTEGER PRIMARY KEY,
  dataset_id   INTEGER NOT NULL REFERENCES datasets(id),
  batch        INTEGER NOT NULL,
  seed         INTEGER NOT NULL,
  requested    INTEGER NOT NULL,
  annotator_id INTEGER REFERENCES annotators(id),
  algorithm    TEXT NOT NULL,
  created_at   TEXT NOT NULL,
  UNIQUE (dataset_id, batch)
);

CREATE TABLE sample_items (
  batch_id    INTEGER NOT NULL REFERENCES sample_batches(id),
  summary_id  INTEGER NOT NULL UNIQUE REFERENCES summaries(id),
  position    INTEGER NOT NULL,
  PRIMARY KEY (batch_id, position)
);

CREATE TABLE project_meta (
  key    TEXT PRIMARY KEY,
  value  TEXT NOT NULL
);
`;
