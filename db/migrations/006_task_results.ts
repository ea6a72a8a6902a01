/**
 * Schema 6 (one task engine): results of every JSON-output task kind (claim
 * decomposition, key-fact extraction and alignment, scaffolds, generated summaries, …) in one
 * table, so a new kind needs no new table. Sentence verdicts keep `judge_predictions`.
 *
 * - One row per (kind, kind version, config hash, item). `item` is the kind's own key for what it
 *   was run on, e.g. `unit:12` or `document:7`; `config_hash` covers the model configuration and
 *   the template (the kind's configHash).
 * - `output`: the answer as JSON, validated by the kind's schema when written and when read;
 *   NULL when the call failed. A failure is stored with `error_kind` and its redacted message
 *   (an answer that does not match the schema: `parse_error`, with the raw text) and is sent
 *   again by the next run. A stored output is never overwritten.
 * - `cache_key`: the content key (kind tag, config hash, input): another item with the same
 *   content reuses the output without a request (`source = 'cache'`).
 * No column ever holds an API key: raw answers and messages are redacted before they are written.
 */
export const migration006 = `
CREATE TABLE task_results (
  id             INTEGER PRIMARY KEY,
  kind           TEXT NOT NULL,
  kind_version   INTEGER NOT NULL,
  config_hash    TEXT NOT NULL,
  item           TEXT NOT NULL,
  output         TEXT,
  raw            TEXT,
  error_kind     TEXT,
  error_message  TEXT,
  tokens_in      INTEGER,
  tokens_out     INTEGER,
  latency_ms     INTEGER,
  cache_key      TEXT NOT NULL,
  source         TEXT NOT NULL CHECK (source IN ('run', 'cache', 'import')),
  created_at     TEXT NOT NULL,
  CHECK ((output IS NULL) <> (error_kind IS NULL)),
  UNIQUE (kind, kind_version, config_hash, item)
);
CREATE INDEX task_results_cache ON task_results(cache_key);
`;
