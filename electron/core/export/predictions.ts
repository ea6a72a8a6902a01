/** The judge-predictions export (`export.build {predictions: true}`, `loupe export --predictions`). */
import type { ExportInput } from '../../../shared/api';
import type { Repository } from '../../../db/repository';
import { recordsPlan, summaryBatches, type ExportPlan } from './files';
import { exportFileStem } from '../../../shared/contract/export';

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
export function predictionsExportPlan(
  repo: Repository,
  input: Pick<ExportInput, 'format' | 'dataset' | 'rawCsv'>,
  projectName: string,
): ExportPlan {
  const dataset = input.dataset ?? null;
  return recordsPlan(
    exportFileStem(projectName, input.dataset, 'predictions'),
    input,
    function* () {
      for (const batch of summaryBatches(repo, dataset))
        for (const r of repo.judges.exportPredictions(batch.dataset, batch.keys))
          yield {
            dataset: r.dataset,
            summary_id: r.summaryId,
            sentence_index: r.sentenceIndex,
            judge: r.judge,
            hard: r.hard,
            soft: r.soft,
            config_hash: r.configHash,
          };
    },
    PREDICTION_EXPORT_COLUMNS,
  );
}
