/**
 * Schema 15 (counts by index): the lists that show counts (judges.list, datasets.list) and the
 * suspicious queue's candidates read indexes instead of every prediction's or document's row.
 * - judge_predictions_labels replaces judge_predictions_version (judge_version_id, unit_id): the
 *   same order, now also holding hard and soft, so a version's "answered" and "with a soft label"
 *   counts and its flags (hard 0) are read from the index alone, never the rows with their raw
 *   answers. Replacing rather than adding keeps one index entry per prediction written (a second
 *   index cost 40-60% more per saved prediction when measured).
 * - judge_predictions_failed / _unparsed: the few failed or unparsed predictions of a version.
 * - documents_missing: the few documents without text, counted per dataset.
 */
export const migration015 = `
DROP INDEX judge_predictions_version;
CREATE INDEX judge_predictions_labels ON judge_predictions(judge_version_id, unit_id, hard, soft);
CREATE INDEX judge_predictions_failed ON judge_predictions(judge_version_id) WHERE error_kind IS NOT NULL;
CREATE INDEX judge_predictions_unparsed ON judge_predictions(judge_version_id) WHERE parse_error IS NOT NULL;
CREATE INDEX documents_missing ON documents(dataset_id) WHERE text IS NULL;
`;
