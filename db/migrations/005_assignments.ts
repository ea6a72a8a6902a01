/**
 * Schema 5 (assignments with overlap): which annotator labels which summary of a batch.
 *
 * A batch drawn with annotators (`sampling.draw` with `annotators`, `overlap`) gets one row per
 * (summary, annotator): one row for most summaries, two for the overlap ones. A batch without rows
 * here keeps the old rule (assigned to one annotator as a whole, or shared by everyone), so every
 * batch drawn before this schema is unchanged. `overlap` records what was asked for (NULL: a batch
 * drawn without annotators).
 */
export const migration005 = `
CREATE TABLE sample_assignments (
  batch_id     INTEGER NOT NULL REFERENCES sample_batches(id),
  summary_id   INTEGER NOT NULL REFERENCES summaries(id),
  annotator_id INTEGER NOT NULL REFERENCES annotators(id),
  PRIMARY KEY (batch_id, summary_id, annotator_id)
) WITHOUT ROWID;
CREATE INDEX sample_assignments_annotator ON sample_assignments(annotator_id, batch_id);
ALTER TABLE sample_batches ADD COLUMN overlap REAL;
`;
