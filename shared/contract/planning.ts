/**
 * planning.*: how many more summaries to annotate for a target half-width (shared/analysis/planning.ts).
 * Like analysis.*, it rests on judge outputs, so it is the lead's; its answer holds no point estimate.
 */
import { z } from 'zod';
import { DEFAULT_TARGET_HALF_WIDTH, PlanReportSchema } from '../analysis/planning';
import { AnalysisStartInputSchema } from './analysis';

/** A 95% interval's half-width to reach: a share of units, above 0 and below ½. */
const TARGET_MESSAGE = 'The target half-width must be a number above 0 and below 0.5 (a share of units, e.g. 0.02).';

export const PlanInputSchema = AnalysisStartInputSchema.omit({ cap: true }).extend({
  target: z
    .number({ error: TARGET_MESSAGE })
    .gt(0, { error: TARGET_MESSAGE })
    .lt(0.5, { error: TARGET_MESSAGE })
    .default(DEFAULT_TARGET_HALF_WIDTH),
});
export type PlanInput = z.input<typeof PlanInputSchema>;

export const PLANNING_API = {
  /**
   * Summaries to annotate for a target half-width of p̂, p̂_PP and ε̂ per judge, and the annotator
   * time, per dataset (one, or every one); computed in the analysis worker thread, answered when done.
   */
  'planning.plan': { input: PlanInputSchema, output: PlanReportSchema },
} as const;
