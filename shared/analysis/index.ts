export * from './types';
export {
  resolveHumanLabel,
  unitHumanLabels,
  auditAdjudicatedLabel,
  reviewLabel,
  ADJUDICATION_QUEUE,
  type ResolvedHumanLabel,
  type CurrentLabelEvent,
} from './human-label';
export { datasetFromRows, analysisSummariesByKey, type DatasetRows } from './from-rows';
export { buildReviewTable, reviewSummary } from './review-table';
export { analyzeAllUnits, analyzeDataset, analyzeProject, DEFINITIONS, CORRELATION_TIE_TOLERANCE } from './analyze';
export type { AnalysisEngines } from './analyze';
export { AnalysisInputError } from './prepare';
export {
  selectReferenceLabels,
  referenceReport,
  DEFAULT_REFERENCE_OPTIONS,
  type ReferenceOptions,
  type ReferenceLabelEvent,
} from './reference';
export { computeAllUnits } from './all-units';
export { renderMarkdown } from './markdown';
