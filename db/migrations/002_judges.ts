/**
 * Schema 2: judges, their versions (one per hash of the answer-affecting configuration) and their
 * per-sentence predictions. The predictions of schema 1 (`imported_predictions`, kept from
 * benchmark files) move into these tables as "imported" judges, and that table goes.
 *
 * No column ever holds an API key: `judges.config` is the configuration without one and
 * `api_key_env` is the NAME of an environment variable.
 */
export const migration002 = `
CREATE TABLE judges (
  id                  INTEGER PRIMARY KEY,
  name                TEXT NOT NULL UNIQUE,
  -- endpoint: an OpenAI-compatible server; baseline: the offline rule; imported: predictions from a file.
  kind                TEXT NOT NULL CHECK (kind IN ('endpoint', 'baseline', 'imported')),
  config              TEXT,
  api_key_env         TEXT,
  current_version_id  INTEGER REFERENCES judge_versions(id),
  created_at          TEXT NOT NULL,
  updated_at          TEXT NOT NULL
);

CREATE TABLE judge_versions (
  id           INTEGER PRIMARY KEY,
  judge_id     INTEGER NOT NULL REFERENCES judges(id) ON DELETE CASCADE,
  -- sha256 of the fields that change answers; 'imported' when a file did not say.
  config_hash  TEXT NOT NULL,
  config       TEXT NOT NULL,
  created_at   TEXT NOT NULL,
  UNIQUE (judge_id, config_hash)
);

CREATE TABLE judge_predictions (
  id                INTEGER PRIMARY KEY,
  unit_id           INTEGER NOT NULL REFERENCES units(id),
  judge_version_id  INTEGER NOT NULL REFERENCES judge_versions(id) ON DELETE CASCADE,
  hard              INTEGER CHECK (hard IN (0, 1)),
  soft              REAL CHECK (soft IS NULL OR (soft >= 0 AND soft <= 1)),
  -- The answer as received (endpoint), the rule's rationale (baseline) or the file's raw field.
  raw               TEXT,
  parse_error       TEXT,
  -- A call that failed after its retries (kind and redacted message); retried by the next run.
  error_kind        TEXT,
  error_message     TEXT,
  tokens_in         INTEGER,
  tokens_out        INTEGER,
  latency_ms        INTEGER,
  -- sha256(config hash, document, sentence): a second unit with the same content reuses the answer.
  cache_key         TEXT,
  source            TEXT NOT NULL CHECK (source IN ('run', 'cache', 'import')),
  import_id         INTEGER REFERENCES imports(id),
  created_at        TEXT NOT NULL,
  UNIQUE (unit_id, judge_version_id)
);
CREATE INDEX judge_predictions_cache ON judge_predictions(cache_key);
CREATE INDEX judge_predictions_version ON judge_predictions(judge_version_id, unit_id);

INSERT INTO judges (name, kind, config, api_key_env, created_at, updated_at)
  SELECT judge, 'imported', NULL, NULL, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
  FROM (SELECT DISTINCT judge FROM imported_predictions) ORDER BY judge;
INSERT INTO judge_versions (judge_id, config_hash, config, created_at)
  SELECT id, 'imported', '{"kind":"imported"}', created_at FROM judges;
UPDATE judges SET current_version_id = (SELECT v.id FROM judge_versions v WHERE v.judge_id = judges.id);
INSERT INTO judge_predictions (unit_id, judge_version_id, hard, soft, raw, source, import_id, created_at)
  SELECT p.unit_id, v.id, p.hard, p.soft, p.raw, 'import', p.import_id,
         coalesce((SELECT i.created_at FROM imports i WHERE i.id = p.import_id), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
  FROM imported_predictions p JOIN judges j ON j.name = p.judge JOIN judge_versions v ON v.judge_id = j.id
  ORDER BY p.id;
DROP TABLE imported_predictions;
`;
