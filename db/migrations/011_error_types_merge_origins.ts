/**
 * Schema 11: judges' error types on sentence predictions, and where merged claim, key-fact and
 * scaffold alignment events come from.
 *
 * - `judge_predictions.error_type`: the taxonomy's type of an unfaithful sentence prediction
 *   (docs/methods.md, "Objects and labels"), e.g. FineSurE's fact-checking category mapped;
 *   `source_error_type` keeps the file's own name for it. NULL on earlier rows and on faithful ones.
 * - `origin_project` / `origin_event` / `merge_id` on `claim_label_events`,
 *   `key_fact_label_events`, `sentence_keyfact_events` and `scaffold_alignment_events`: as schema 4
 *   gives `label_events`: the project and event where a merged event was first recorded (kept
 *   through chains of merges) and the merge that brought it; NULL on events recorded here.
 */
export const migration011 = `
ALTER TABLE judge_predictions ADD COLUMN error_type TEXT
  CHECK (error_type IN ('entity', 'relation', 'number_or_date', 'not_in_source', 'attribution', 'overstatement', 'boilerplate', 'other'));
ALTER TABLE judge_predictions ADD COLUMN source_error_type TEXT;

ALTER TABLE claim_label_events ADD COLUMN origin_project TEXT;
ALTER TABLE claim_label_events ADD COLUMN origin_event INTEGER;
ALTER TABLE claim_label_events ADD COLUMN merge_id INTEGER REFERENCES merges(id);
ALTER TABLE key_fact_label_events ADD COLUMN origin_project TEXT;
ALTER TABLE key_fact_label_events ADD COLUMN origin_event INTEGER;
ALTER TABLE key_fact_label_events ADD COLUMN merge_id INTEGER REFERENCES merges(id);
ALTER TABLE sentence_keyfact_events ADD COLUMN origin_project TEXT;
ALTER TABLE sentence_keyfact_events ADD COLUMN origin_event INTEGER;
ALTER TABLE sentence_keyfact_events ADD COLUMN merge_id INTEGER REFERENCES merges(id);
ALTER TABLE scaffold_alignment_events ADD COLUMN origin_project TEXT;
ALTER TABLE scaffold_alignment_events ADD COLUMN origin_event INTEGER;
ALTER TABLE scaffold_alignment_events ADD COLUMN merge_id INTEGER REFERENCES merges(id);
`;
