/**
 * Schema 10 (shared objects have owners): an annotator link's edit of a claim set, key-fact set or
 * scaffold is a **proposal**, current for nobody until the lead accepts it.
 *
 * - `proposals`: the author (a person), the target (kind claims: a summary's claim set; keyfacts
 *   and scaffold: a document's set; `document_id` is always the document, `summary_id` only for
 *   claims), the version it was made on (`base_version`, null: the target had none), the proposed
 *   content (JSON: the edit's items, as claims.edit / keyfacts.edit / scaffold.edit take them) and
 *   its note, the status (pending, then accepted or declined once, by the lead), when it was made
 *   and decided, and the version accepting it created (`result_version`).
 */
export const migration010 = `
CREATE TABLE proposals (
  id              INTEGER PRIMARY KEY,
  kind            TEXT NOT NULL CHECK (kind IN ('claims', 'keyfacts', 'scaffold')),
  document_id     INTEGER NOT NULL REFERENCES documents(id),
  summary_id      INTEGER REFERENCES summaries(id),
  base_version    INTEGER CHECK (base_version >= 1),
  author_id       INTEGER NOT NULL REFERENCES annotators(id),
  content         TEXT NOT NULL,
  note            TEXT,
  status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'declined')),
  created_at      TEXT NOT NULL,
  decided_at      TEXT,
  decision_note   TEXT,
  result_version  INTEGER,
  CHECK ((kind = 'claims') = (summary_id IS NOT NULL)),
  CHECK ((status = 'pending') = (decided_at IS NULL)),
  CHECK ((status = 'accepted') = (result_version IS NOT NULL))
);
CREATE INDEX proposals_author ON proposals(author_id, status);
CREATE INDEX proposals_status ON proposals(status, id);
`;
