/**
 * The `accuracy` block of one dataset in the analysis report, as types and as
 * zod schemas checked against each other both ways (like shared/analysis/schema.ts):
 *
 *   accuracy: { sources: { "human": S, "<judge>": S, … },
 *               keyfact_judges: { "<judge>": { alignment_error: Estimate } },
 *               claim_judges: { "<judge>": { claim_error: Estimate } } }
 *   S = { n_summaries, faithfulness, completeness, conciseness, per_summary, by_system }
 *
 * plus, clearly named, what the issue asks to be said beside them: the unit each conciseness
 * figure counts (`conciseness_unit`), FineSurE's sentence-unit conciseness, failed system calls,
 * and App. D (`claim_units`: min/mean of claim verdicts vs the sentence's human label, the review
 * queue of human-faithful sentences where every judge flags a claim).
 */
import { z } from 'zod';
import { EstimateSchema, type Estimate } from '../stats/estimate';
import { CONCISENESS_UNITS, type ConcisenessUnit } from './domain';

export interface PerSummaryAccuracy {
  /** null: the system produced no summary for this document (a failed call: 0.0 on all three). */
  summary_id: string | null;
  doc_id: string;
  system: string | null;
  faithfulness: number | null;
  completeness: number | null;
  conciseness: number | null;
  /** FineSurE's sentence-unit conciseness (sentences conveying a key fact / sentences). */
  sentence_conciseness: number | null;
  failed: boolean;
}

export interface SystemAccuracy {
  n_summaries: number;
  n_failed: number;
  faithfulness: Estimate | null;
  completeness: Estimate | null;
  conciseness: Estimate | null;
  sentence_conciseness: Estimate | null;
}

export interface SourceAccuracy {
  /** Summaries (and failed calls) with at least one figure from this source. */
  n_summaries: number;
  n_failed: number;
  faithfulness: Estimate | null;
  completeness: Estimate | null;
  conciseness: Estimate | null;
  /** Which unit `conciseness` counts: claims (the card) or sentences (FineSurE, when the source has no claim-level alignment). */
  conciseness_unit: ConcisenessUnit | null;
  sentence_conciseness: Estimate | null;
  per_summary: PerSummaryAccuracy[];
  by_system: Record<string, SystemAccuracy>;
}

export interface JudgeItemError {
  /** Share of items (claims or key facts × summary) where the judge differs from the people's resolved label. */
  value: number | null;
  ci: [number, number] | null;
  n: number;
  replicates_dropped: number;
  n_summaries: number;
}

export interface ClaimAggregationCell {
  pearson: Estimate;
  spearman: Estimate;
  kendall: Estimate;
  roc_auc: Estimate;
}

export interface ClaimUnitsJudge {
  /** Sentences with a resolved human label (not unclear), ≥ 2 claims and a verdict of this judge on each claim. */
  n_sentences: number;
  min: ClaimAggregationCell;
  mean: ClaimAggregationCell;
}

export interface ClaimReviewEntry {
  summary_id: string;
  sentence_index: number;
  sentence: string;
  /** Claims every judge says are unsupported. */
  flagged_claims: string[];
}

export interface ClaimUnitsReport {
  judges: Record<string, ClaimUnitsJudge>;
  /** Human-faithful sentences (≥ 1 claim) where every judge flags at least one claim unsupported (App. D.4). */
  review_queue: ClaimReviewEntry[];
  /** Human-faithful sentences with a verdict of every judge on every claim (the queue's denominator). */
  human_faithful_sentences: number;
}

export interface AccuracyBlock {
  /** "human" (people's labels, by the --human-label rule) and each judge. */
  sources: Record<string, SourceAccuracy>;
  keyfact_judges: Record<string, { alignment_error: JudgeItemError }>;
  claim_judges: Record<string, { claim_error: JudgeItemError }>;
  claim_units: ClaimUnitsReport;
  /** Rules and counts a reader needs: which rule resolved people's labels, unresolved items. */
  notes: string[];
}

const N = z.number().nullable();
const Int = z.number().int();

export const PerSummaryAccuracySchema = z.object({
  summary_id: z.string().nullable(),
  doc_id: z.string(),
  system: z.string().nullable(),
  faithfulness: N,
  completeness: N,
  conciseness: N,
  sentence_conciseness: N,
  failed: z.boolean(),
}) satisfies z.ZodType<PerSummaryAccuracy>;

export const SystemAccuracySchema = z.object({
  n_summaries: Int,
  n_failed: Int,
  faithfulness: EstimateSchema.nullable(),
  completeness: EstimateSchema.nullable(),
  conciseness: EstimateSchema.nullable(),
  sentence_conciseness: EstimateSchema.nullable(),
}) satisfies z.ZodType<SystemAccuracy>;

export const SourceAccuracySchema = z.object({
  n_summaries: Int,
  n_failed: Int,
  faithfulness: EstimateSchema.nullable(),
  completeness: EstimateSchema.nullable(),
  conciseness: EstimateSchema.nullable(),
  conciseness_unit: z.enum(CONCISENESS_UNITS).nullable(),
  sentence_conciseness: EstimateSchema.nullable(),
  per_summary: z.array(PerSummaryAccuracySchema),
  by_system: z.record(z.string(), SystemAccuracySchema),
}) satisfies z.ZodType<SourceAccuracy>;

export const JudgeItemErrorSchema = EstimateSchema.extend({ n_summaries: Int }) satisfies z.ZodType<JudgeItemError>;

const ClaimAggregationCellSchema = z.object({ pearson: EstimateSchema, spearman: EstimateSchema, kendall: EstimateSchema, roc_auc: EstimateSchema }) satisfies z.ZodType<ClaimAggregationCell>;

export const ClaimUnitsReportSchema = z.object({
  judges: z.record(z.string(), z.object({ n_sentences: Int, min: ClaimAggregationCellSchema, mean: ClaimAggregationCellSchema })),
  review_queue: z.array(z.object({ summary_id: z.string(), sentence_index: Int, sentence: z.string(), flagged_claims: z.array(z.string()) })),
  human_faithful_sentences: Int,
}) satisfies z.ZodType<ClaimUnitsReport>;

export const AccuracyBlockSchema = z.object({
  sources: z.record(z.string(), SourceAccuracySchema),
  keyfact_judges: z.record(z.string(), z.object({ alignment_error: JudgeItemErrorSchema })),
  claim_judges: z.record(z.string(), z.object({ claim_error: JudgeItemErrorSchema })),
  claim_units: ClaimUnitsReportSchema,
  notes: z.array(z.string()),
}) satisfies z.ZodType<AccuracyBlock>;

// The other direction: every field of the schema is a field of the type.
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const checks: [
  Exact<z.infer<typeof AccuracyBlockSchema>, AccuracyBlock>,
  Exact<z.infer<typeof SourceAccuracySchema>, SourceAccuracy>,
  Exact<z.infer<typeof PerSummaryAccuracySchema>, PerSummaryAccuracy>,
] = [true, true, true];
void checks;
