/**
 * The `scaffold` block of one dataset in the analysis report, as types and as zod
 * schemas checked against each other both ways (like shared/accuracy/report.ts):
 *
 *   scaffold: { sources: { "human" | "<judge>": { per_summary: [ScaffoldSummaryRow], by_system: {<system>: ScaffoldMeans},
 *                                                 means: ScaffoldMeans, comparison: {<metric>: MetricComparison} } },
 *               comparison: {<metric>: MetricComparison}, comparison_source, notes }
 *
 * The top-level `comparison` is the one of `comparison_source` (people when they aligned the
 * dataset, else the first judge by name); every source carries its own.
 */
import { z } from 'zod';
import type { Estimate } from '../stats/estimate';
import { EstimateSchema } from '../stats/estimate';
import { SCAFFOLD_METRICS, type ScaffoldMetric } from './metrics';

export interface ScaffoldSummaryRow {
  summary_id: string;
  doc_id: string;
  system: string | null;
  /** The scaffold version the source aligned this summary on (the highest, when several). */
  scaffold_version: number;
  /** People: how many annotators' alignments this row averages; a judge: 1. */
  n_aligners: number;
  f: number | null;
  fc: number | null;
  qc: number | null;
  main_fc: number | null;
  supp_fc: number | null;
  fact_focus: number | null;
  fps: number | null;
  qps: number | null;
  eps: number | null;
  /** App. G.7's holistic score (1–10) of this summary by the source's judge (people: by direct_score_judge); null without one. */
  direct_score?: number | null;
}

export interface ScaffoldMeans {
  n_summaries: number;
  f: Estimate | null;
  fc: Estimate | null;
  qc: Estimate | null;
  main_fc: Estimate | null;
  supp_fc: Estimate | null;
  fact_focus: Estimate | null;
  fps: Estimate | null;
  qps: Estimate | null;
  eps: Estimate | null;
  direct_score?: Estimate | null;
}

export interface ComparedSystem {
  system: string;
  /** The system's mean with its summary-bootstrap CI (as in by_system). */
  mean: Estimate | null;
  /** 1 + the systems better than this one with a paired difference CI above 0; null without a mean. Equal ranks are ties. */
  rank: number | null;
}

export interface SystemPair {
  a: string;
  b: string;
  /** Documents where both systems have the metric (the paired resampling units). */
  n_documents: number;
  /** Mean of a − mean of b over those documents, with the paired-bootstrap CI. */
  difference: Estimate;
  /** The CI excludes 0; null without a CI. */
  separable: boolean | null;
}

export interface MetricComparison {
  systems: ComparedSystem[];
  pairs: SystemPair[];
  /** max − min of the systems' means (systems with a mean and a CI). */
  spread: number | null;
  /** The median half-width of those systems' CIs. */
  noise: number | null;
  /** spread ≤ noise, with ≥ 2 such systems; null otherwise. */
  saturated: boolean | null;
}

export type MetricComparisons = Record<ScaffoldMetric, MetricComparison> & { direct_score?: MetricComparison };

/** How often a judge's value of one kind of item differs from a person's. */
export interface AlignmentError {
  /** (summary, item, person) comparisons: the judge and that person both aligned the item. */
  n_items: number;
  /** Of those, the judge's value differs from the person's. */
  n_differ: number;
  /** n_differ / n_items with a 95% summary-bootstrap interval (n = summaries). */
  error: Estimate;
}

export interface JudgeVsPeople {
  facts: AlignmentError | null;
  questions: AlignmentError | null;
  attributes: AlignmentError | null;
}

export interface ScaffoldSourceReport {
  per_summary: ScaffoldSummaryRow[];
  by_system: Record<string, ScaffoldMeans>;
  means: ScaffoldMeans;
  comparison: MetricComparisons;
  /** A judge's error against the reference set's people per alignment type; null for people, or without overlap. */
  vs_people?: JudgeVsPeople | null;
}

export interface ScaffoldBlock {
  sources: Record<string, ScaffoldSourceReport>;
  comparison: MetricComparisons | null;
  comparison_source: string | null;
  /** The judge whose direct scores the people's source reports (the first by name with any); null: none. */
  direct_score_judge?: string | null;
  notes: string[];
}

const N = z.number().nullable();
const Int = z.number().int();
const E = EstimateSchema.nullable();

export const ScaffoldSummaryRowSchema = z.object({
  summary_id: z.string(),
  doc_id: z.string(),
  system: z.string().nullable(),
  scaffold_version: Int,
  n_aligners: Int,
  f: N,
  fc: N,
  qc: N,
  main_fc: N,
  supp_fc: N,
  fact_focus: N,
  fps: N,
  qps: N,
  eps: N,
  direct_score: N.optional(),
}) satisfies z.ZodType<ScaffoldSummaryRow>;

export const ScaffoldMeansSchema = z.object({ n_summaries: Int, f: E, fc: E, qc: E, main_fc: E, supp_fc: E, fact_focus: E, fps: E, qps: E, eps: E, direct_score: E.optional() }) satisfies z.ZodType<ScaffoldMeans>;

export const MetricComparisonSchema = z.object({
  systems: z.array(z.object({ system: z.string(), mean: E, rank: Int.nullable() })),
  pairs: z.array(z.object({ a: z.string(), b: z.string(), n_documents: Int, difference: EstimateSchema, separable: z.boolean().nullable() })),
  spread: N,
  noise: N,
  saturated: z.boolean().nullable(),
}) satisfies z.ZodType<MetricComparison>;

export const MetricComparisonsSchema = z.object({
  ...(Object.fromEntries(SCAFFOLD_METRICS.map((m) => [m, MetricComparisonSchema])) as Record<ScaffoldMetric, typeof MetricComparisonSchema>),
  direct_score: MetricComparisonSchema.optional(),
});

export const AlignmentErrorSchema = z.object({ n_items: Int, n_differ: Int, error: EstimateSchema }) satisfies z.ZodType<AlignmentError>;
export const JudgeVsPeopleSchema = z.object({ facts: AlignmentErrorSchema.nullable(), questions: AlignmentErrorSchema.nullable(), attributes: AlignmentErrorSchema.nullable() }) satisfies z.ZodType<JudgeVsPeople>;

export const ScaffoldSourceReportSchema = z.object({
  per_summary: z.array(ScaffoldSummaryRowSchema),
  by_system: z.record(z.string(), ScaffoldMeansSchema),
  means: ScaffoldMeansSchema,
  comparison: MetricComparisonsSchema,
  vs_people: JudgeVsPeopleSchema.nullable().optional(),
}) satisfies z.ZodType<ScaffoldSourceReport>;

export const ScaffoldBlockSchema = z.object({
  sources: z.record(z.string(), ScaffoldSourceReportSchema),
  comparison: MetricComparisonsSchema.nullable(),
  comparison_source: z.string().nullable(),
  direct_score_judge: z.string().nullable().optional(),
  notes: z.array(z.string()),
}) satisfies z.ZodType<ScaffoldBlock>;

// The other direction: every field of the schema is a field of the type.
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const checks: [
  Exact<z.infer<typeof ScaffoldBlockSchema>, ScaffoldBlock>,
  Exact<z.infer<typeof ScaffoldSourceReportSchema>, ScaffoldSourceReport>,
  Exact<z.infer<typeof ScaffoldSummaryRowSchema>, ScaffoldSummaryRow>,
  Exact<z.infer<typeof ScaffoldMeansSchema>, ScaffoldMeans>,
  Exact<z.infer<typeof MetricComparisonSchema>, MetricComparison>,
  Exact<z.infer<typeof MetricComparisonsSchema>, MetricComparisons>,
  Exact<z.infer<typeof AlignmentErrorSchema>, AlignmentError>,
  Exact<z.infer<typeof JudgeVsPeopleSchema>, JudgeVsPeople>,
] = [true, true, true, true, true, true, true, true];
void checks;
