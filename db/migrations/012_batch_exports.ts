/**
 * Schema 12 (request files remember what they asked): every batch request file written is an
 * **export**, whose id each of its custom_ids carries, so an answer file is checked against the
 * requests of the file it answers whatever selection its import names.
 *
 * - `batch_exports`: the id (16 hex digits, in every custom_id of the file), the task kind and
 *   configuration version it was written for, what it was written for in words (`target`: the
 *   judge, or the task and model), the selection (`dataset` by name, null: every dataset;
 *   `only_sampled`), when it was written, and how many requests it holds (null while it is
 *   being written; an export that never completed is removed).
 * - `batch_export_items`: the item keys of its requests (one per request line).
 */
export const migration012 = `
CREATE TABLE batch_exports (
  id            TEXT PRIMARY KEY CHECK (length(id) = 16),
  kind          TEXT NOT NULL,
  config_hash   TEXT NOT NULL,
  target        TEXT NOT NULL,
  dataset       TEXT,
  only_sampled  INTEGER NOT NULL CHECK (only_sampled IN (0, 1)),
  requests      INTEGER CHECK (requests >= 0),
  created_at    TEXT NOT NULL
);
CREATE TABLE batch_export_items (
  export_id  TEXT NOT NULL REFERENCES batch_exports(id) ON DELETE CASCADE,
  item_key   TEXT NOT NULL,
  PRIMARY KEY (export_id, item_key)
) WITHOUT ROWID;
`;
