/**
 * datasets.*: the datasets of the open project with their counts.
 */
import { z } from 'zod';
import { Empty } from './primitives';

export const DatasetStatsSchema = z.object({
  name: z.string(),
  documents: z.number().int(),
  documentsMissing: z.number().int(),
  summaries: z.number().int(),
  units: z.number().int(),
  sampled: z.number().int(),
  batches: z.number().int(),
});
export type DatasetStats = z.infer<typeof DatasetStatsSchema>;

export const DATASETS_API = {
  'datasets.list': { input: Empty, output: z.array(DatasetStatsSchema) },
} as const;

/** An annotator link sees the datasets (names and counts). */
export const DATASETS_ANNOTATOR_METHODS = { 'datasets.list': null } as const;
