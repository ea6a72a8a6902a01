/**
 * Schema 16 (queue counts): an annotator's queue answered a page at a time (annotation.queue) needs
 * its totals (summaries, sentences) without reading every sample item and unit of the queue.
 *
 * `sample_batch_counts` holds, per batch, how many summaries it sampled and how many units they
 * have; `sample_assignment_counts` the same per (batch, annotator) for a batch drawn with
 * assignments. Triggers keep them as sample items and assignments are inserted (nothing deletes
 * or moves either). A summary's units are inserted with the summary, before it can be sampled, and
 * never change after, so the unit count read when its sample item is inserted stays right.
 *
 * `documents_missing_text` indexes the documents with no text yet (few, usually none): the queue's
 * count of summaries blocked on a missing document reads that index, not every document's row.
 */
export const migration016 = `
CREATE TABLE sample_batch_counts (
  batch_id   INTEGER PRIMARY KEY REFERENCES sample_batches(id),
  summaries  INTEGER NOT NULL,
  units      INTEGER NOT NULL
);
CREATE TABLE sample_assignment_counts (
  batch_id      INTEGER NOT NULL REFERENCES sample_batches(id),
  annotator_id  INTEGER NOT NULL REFERENCES annotators(id),
  summaries     INTEGER NOT NULL,
  units         INTEGER NOT NULL,
  PRIMARY KEY (batch_id, annotator_id)
) WITHOUT ROWID;

INSERT INTO sample_batch_counts (batch_id, summaries, units)
  SELECT si.batch_id, count(DISTINCT si.summary_id), count(u.id)
  FROM sample_items si LEFT JOIN units u ON u.summary_id = si.summary_id GROUP BY si.batch_id;
INSERT INTO sample_assignment_counts (batch_id, annotator_id, summaries, units)
  SELECT sa.batch_id, sa.annotator_id, count(DISTINCT sa.summary_id), count(u.id)
  FROM sample_assignments sa LEFT JOIN units u ON u.summary_id = sa.summary_id GROUP BY sa.batch_id, sa.annotator_id;

CREATE TRIGGER sample_items_counted AFTER INSERT ON sample_items BEGIN
  INSERT INTO sample_batch_counts (batch_id, summaries, units)
    VALUES (NEW.batch_id, 1, (SELECT count(*) FROM units WHERE summary_id = NEW.summary_id))
    ON CONFLICT (batch_id) DO UPDATE SET summaries = summaries + 1, units = units + excluded.units;
END;
CREATE TRIGGER sample_assignments_counted AFTER INSERT ON sample_assignments BEGIN
  INSERT INTO sample_assignment_counts (batch_id, annotator_id, summaries, units)
    VALUES (NEW.batch_id, NEW.annotator_id, 1, (SELECT count(*) FROM units WHERE summary_id = NEW.summary_id))
    ON CONFLICT (batch_id, annotator_id) DO UPDATE SET summaries = summaries + 1, units = units + excluded.units;
END;

CREATE INDEX documents_missing_text ON documents(id) WHERE text IS NULL;
`;
