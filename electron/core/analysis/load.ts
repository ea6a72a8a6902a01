/**
 * From the project's rows to the analysis input (shared/analysis/types.ts `AnalysisDataset`):
 * the repository reads in one snapshot, the human reference is picked (shared/analysis/reference.ts:
 * whose labels, revealed labels left out or not), and the one loader (shared/analysis/from-rows.ts)
 * builds the dataset by the chosen rule. The label rules (annotation label, audit-adjudicated
 * label, review label) are those of shared/analysis/human-label.ts;
 * `AnalysisRepository.adjudicatedLabels` is the hook that supplies the adjudicated labels over the
 * reference's labels (a subclass may plug in another source).
 */
import { datasetFromRows, type AnalysisDataset } from '../../../shared/analysis';
import {
  DEFAULT_REFERENCE_OPTIONS,
  selectReferenceLabels,
  type ReferenceOptions,
} from '../../../shared/analysis/reference';
import type { AnalysisRepository } from '../../../db/analysisRepository';

export class UnknownDatasetError extends Error {
  constructor(readonly dataset: string) {
    super(`No dataset "${dataset}" in this project`);
    this.name = 'UnknownDatasetError';
  }
}

/** Reads every dataset (or one) in one snapshot and builds the analysis input. */
export function loadAnalysisDatasets(
  repo: AnalysisRepository,
  dataset: string | null,
  options: ReferenceOptions = DEFAULT_REFERENCE_OPTIONS,
): AnalysisDataset[] {
  return repo.snapshot(() => {
    const names = repo.datasetNames();
    if (dataset !== null && !names.includes(dataset)) throw new UnknownDatasetError(dataset);
    return (dataset === null ? names : [dataset]).map((name) => {
      const { labels, reference } = selectReferenceLabels(repo.currentLabels(name), options);
      const input = datasetFromRows({
        name,
        summaries: repo.summaries(name),
        units: repo.units(name),
        labels,
        adjudicated: repo.adjudicatedLabels(name, labels),
        predictions: repo.predictions(name),
        rule: options.rule,
        reference,
      });
      // Claims and key facts: resolved by the same reference and rule inside the analysis.
      const accuracy = repo.accuracyRows(name);
      // Semantic Scaffolds: the reference set and reveal rule apply inside the analysis.
      const scaffold = repo.scaffoldRows(name);
      // The draws tell whether the people's labels are a seeded uniform sample (p̂_PP).
      const sampling = { draws: repo.sampleDraws(name) };
      return { ...input, sampling, ...(accuracy ? { accuracy } : {}), ...(scaffold ? { scaffold } : {}) };
    });
  });
}
