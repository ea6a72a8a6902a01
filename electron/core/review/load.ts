/**
 * Reads a dataset (or one summary of it, or a batch of its summaries) for the review rules of shared/review, in one
 * transaction. The rules themselves (labels, queues, Table 4, corrections) are pure and live in
 * shared/review and shared/analysis/human-label.ts.
 */
import { assembleReviewDataset, type LoadedDataset } from '../../../shared/review';
import type { ReviewRepository } from '../../../db/reviewRepository';
import type { SummaryScope } from '../../../db/summaryScope';

export function loadDataset(repo: ReviewRepository, dataset: string, key: SummaryScope = null): LoadedDataset {
  return repo.transaction(() =>
    assembleReviewDataset({
      name: dataset,
      summaries: repo.summaries(dataset, key),
      units: repo.units(dataset, key),
      labels: repo.currentLabels(dataset, key),
      predictions: repo.predictions(dataset, key),
      judgesByCreation: repo.datasetJudges(dataset),
    }),
  );
}
