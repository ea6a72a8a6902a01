/** The review-results export and the dataset card (`export.build {review: true}` / `{card: true}`). */
import type { ExportInput } from '../../../shared/api';
import type { Repository } from '../../../db/repository';
import { buildCard, REVIEW_EXPORT_COLUMNS, reviewRecords } from '../review/export';
import { fileStem, writeRecords, type ExportFile } from './files';

/** Review results: one row per current review decision (sentence × adjudicator). */
export function buildReviewExport(
  repo: Repository,
  input: Pick<ExportInput, 'format' | 'dataset' | 'rawCsv'>,
  projectName: string,
): ExportFile {
  return writeRecords(
    fileStem(projectName, input.dataset, 'review'),
    input,
    reviewRecords(repo, input.dataset ?? null),
    REVIEW_EXPORT_COLUMNS,
  );
}

/**
 * The dataset card: one JSON document beside the rows (not a line inside them, so
 * JSONL and CSV readers see rows only). Never a key, a key's source or an environment value.
 */
export function buildCardExport(
  repo: Repository,
  input: Pick<ExportInput, 'dataset'>,
  projectName: string,
): ExportFile {
  const card = buildCard(repo, input.dataset ?? null, projectName);
  return {
    fileName: `${fileStem(projectName, input.dataset, 'card')}.json`,
    mime: 'application/json',
    content: `${JSON.stringify(card, null, 2)}\n`,
    rows: 1,
  };
}
