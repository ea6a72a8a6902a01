/** The judge-predictions export (`export.build {predictions: true}`, `loupe export --predictions`). */
import type { ExportInput } from '../../../shared/api';
import type { Repository } from '../../../db/repository';
import { fileStem, writeRecords, type ExportFile } from './files';

/** Judge predictions: the `predictions` import format plus the judge version (config_hash). */
export const PREDICTION_EXPORT_COLUMNS = [
  'dataset',
  'summary_id',
  'sentence_index',
  'judge',
  'hard',
  'soft',
  'config_hash',
] as const;

/** One row per (sentence, judge) with a hard label, current judge versions. Never a key or a setting. */
export function buildPredictionsExport(
  repo: Repository,
  input: Pick<ExportInput, 'format' | 'dataset' | 'rawCsv'>,
  projectName: string,
): ExportFile {
  const records = repo.judges.exportPredictions(input.dataset ?? null).map((r) => ({
    dataset: r.dataset,
    summary_id: r.summaryId,
    sentence_index: r.sentenceIndex,
    judge: r.judge,
    hard: r.hard,
    soft: r.soft,
    config_hash: r.configHash,
  }));
  return writeRecords(fileStem(projectName, input.dataset, 'predictions'), input, records, PREDICTION_EXPORT_COLUMNS);
}
