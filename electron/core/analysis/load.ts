/**
 * From the project's rows to the analysis input (shared/analysis/types.ts `AnalysisDataset`):
 * the repository reads in one snapshot, the one loader (shared/analysis/from-rows.ts) builds the
 * dataset. The label rules (annotation label, audit-adjudicated label, review label) are those of
 * shared/analysis/human-label.ts; `AnalysisRepository.adjudicatedLabels` is the hook that supplies
 * the adjudicated labels (a subclass may plug in another source).
 */
import { datasetFromRows, type AnalysisDataset } from '../../../shared/analysis';
import type { AnalysisRepository } from '../../../db/analysisRepository';

export class UnknownDatasetError extends Error {
  constructor(readonly dataset: string) {
    super(`No dataset "${dataset}" in this project`);
    this.name = 'UnknownDatasetError';
  }
}

/** Reads every dataset (or one) in one snapshot and builds the analysis input. */
export function loadAnalysisDatasets(repo: AnalysisRepository, dataset: string | null): AnalysisDataset[] {
  return repo.snapshot(() => {
    const names = repo.datasetNames();
    if (dataset !== null && !names.includes(dataset)) throw new UnknownDatasetError(dataset);
    return (dataset === null ? names : [dataset]).map((name) =>
      datasetFromRows({
        name,
        summaries: repo.summaries(name),
        units: repo.units(name),
        labels: repo.currentLabels(name),
        adjudicated: repo.adjudicatedLabels(name),
        predictions: repo.predictions(name),
      }),
    );
  });
}
