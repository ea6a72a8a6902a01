export * from './types';
export { resolveHumanLabel, type ResolvedHumanLabel } from './human-label';
export { analyzeDataset, analyzeProject, DEFINITIONS, CORRELATION_TIE_TOLERANCE } from './analyze';
export { AnalysisInputError } from './prepare';
export { renderMarkdown } from './markdown';
