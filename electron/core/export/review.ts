/** The review-results export and the dataset card (`export.build {review: true}` / `{card: true}`). */
import type { ExportInput } from '../../../shared/api';
import type { Repository } from '../../../db/repository';
import { buildCard, REVIEW_EXPORT_COLUMNS, reviewRecords } from '../review/export';
import { recordsPlan, textPlan, type ExportPlan } from './files';
import { exportFileStem } from '../../../shared/contract/export';

/** Review results: one row per current review decision (sentence × adjudicator). */
export function reviewExportPlan(
  repo: Repository,
  input: Pick<ExportInput, 'format' | 'dataset' | 'rawCsv'>,
  projectName: string,
): ExportPlan {
  return recordsPlan(
    exportFileStem(projectName, input.dataset, 'review'),
    input,
    () => reviewRecords(repo, input.dataset ?? null),
    REVIEW_EXPORT_COLUMNS,
  );
}

/**
 * The dataset card: one JSON document beside the rows (not a line inside them, so
 * JSONL and CSV readers see rows only). Never a key, a key's source or an environment value.
 */
export function cardExportPlan(repo: Repository, input: Pick<ExportInput, 'dataset'>, projectName: string): ExportPlan {
  const card = buildCard(repo, input.dataset ?? null, projectName);
  return textPlan(
    `${exportFileStem(projectName, input.dataset, 'card')}.json`,
    'application/json',
    `${JSON.stringify(card, null, 2)}\n`,
    1,
  );
}
