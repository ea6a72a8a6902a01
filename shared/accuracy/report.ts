/**
 * The `accuracy` block of one dataset in the analysis report, as types and as
 * zod schemas checked against each other both ways (like shared/analysis/schema.ts):
 *
 *   accuracy: { sources: { "human": S, "<judge>": S, … },
 *               keyfact_judges: { "<judge>": { alignment_error: Estimate } },
 *               claim_judges: { "<judge>": { claim_error: Estimate } },
 *               comparison: { source, systems, n_documents, metrics: { faithfulness | completeness | conciseness: … } } | null,
 *               comparison_sources, comparison_note }
 *   S = { n_summaries, faithfulness, completeness, conciseness, conciseness_basis, per_summary, by_system }
 *
 * plus failed system calls and App. D (`claim_units`: min/mean of claim verdicts vs the
 * sentence's human label, the review queue of human-faithful sentences where every judge flags a
 * claim). One conciseness per summary, on the basis the source allows (`conciseness_basis`).
 */
import { z } from 'zod';
import { EstimateSchema, type Estimate } from '../stats/estimate';
import {
  ComparisonCandidateSchema,
  SystemComparisonSchema,
  type ComparisonCandidate,
  type SystemComparison,
} from '../stats/system-comparison';
import { CONCISENESS_BASES, type ConcisenessBasis } from './domain';

export interface PerSummaryAccuracy {
  /** null: the system produced no summary for this document (a failed call: 0.0 on all three). */
  summary_id: string | null;
  doc_id: string;
  system: string | null;
  faithfulness: number | null;
  completeness: number | null;
  conciseness: number | null;
  /** What this row's conciseness counts: claims (the card) or sentences (FineSurE's scripts); null without a value. */
  conciseness_basis: ConcisenessBasis | null;
  failed: boolean;
}

export interface SystemAccuracy {
  n_summaries: number;
  n_failed: number;
  faithfulness: Estimate | null;
  completeness: Estimate | null;
  /** On the source's conciseness_basis. */
  conciseness: Estimate | null;
}

export interface SourceAccuracy {
  /** Summaries (and failed calls) with at least one figure from this source. */
  n_summaries: number;
  n_failed: number;
  faithfulness: Estimate | null;
  completeness: Estimate | null;
  conciseness: Estimate | null;
  /** What `conciseness` counts, here and per system: claims (the card) or sentences (FineSurE, when the source links no claim). */
  conciseness_basis: ConcisenessBasis | null;
  per_summary: PerSummaryAccuracy[];
  by_system: Record<string, SystemAccuracy>;
}

/** Share of items (claims or key facts × summary) where the judge differs from the people's resolved label; n = items. */
export interface JudgeItemError extends Estimate {
  /** The summaries with a compared item (the resampling units). */
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
  /** Systems compared on every metric by one source (settings.compare_source, else the default choice); null: none chosen. */
  comparison: SystemComparison | null;
  /** The sources one can compare by, with their paired documents. */
  comparison_sources: ComparisonCandidate[];
  /** Why the comparison is by this source, or why there is none. */
  comparison_note: string | null;
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
  conciseness_basis: z.enum(CONCISENESS_BASES).nullable(),
  failed: z.boolean(),
}) satisfies z.ZodType<PerSummaryAccuracy>;

export const SystemAccuracySchema = z.object({
  n_summaries: Int,
  n_failed: Int,
  faithfulness: EstimateSchema.nullable(),
  completeness: EstimateSchema.nullable(),
  conciseness: EstimateSchema.nullable(),
}) satisfies z.ZodType<SystemAccuracy>;

export const SourceAccuracySchema = z.object({
  n_summaries: Int,
  n_failed: Int,
  faithfulness: EstimateSchema.nullable(),
  completeness: EstimateSchema.nullable(),
  conciseness: EstimateSchema.nullable(),
  conciseness_basis: z.enum(CONCISENESS_BASES).nullable(),
  per_summary: z.array(PerSummaryAccuracySchema),
  by_system: z.record(z.string(), SystemAccuracySchema),
}) satisfies z.ZodType<SourceAccuracy>;

export const JudgeItemErrorSchema = EstimateSchema.extend({ n_summaries: Int }) satisfies z.ZodType<JudgeItemError>;

const ClaimAggregationCellSchema = z.object({
  pearson: EstimateSchema,
  spearman: EstimateSchema,
  kendall: EstimateSchema,
  roc_auc: EstimateSchema,
}) satisfies z.ZodType<ClaimAggregationCell>;

export const ClaimUnitsReportSchema = z.object({
  judges: z.record(
    z.string(),
    z.object({ n_sentences: Int, min: ClaimAggregationCellSchema, mean: ClaimAggregationCellSchema }),
  ),
  review_queue: z.array(
    z.object({
      summary_id: z.string(),
      sentence_index: Int,
      sentence: z.string(),
      flagged_claims: z.array(z.string()),
    }),
  ),
  human_faithful_sentences: Int,
}) satisfies z.ZodType<ClaimUnitsReport>;

export const AccuracyBlockSchema = z.object({
  sources: z.record(z.string(), SourceAccuracySchema),
  keyfact_judges: z.record(z.string(), z.object({ alignment_error: JudgeItemErrorSchema })),
  claim_judges: z.record(z.string(), z.object({ claim_error: JudgeItemErrorSchema })),
  claim_units: ClaimUnitsReportSchema,
  comparison: SystemComparisonSchema.nullable(),
  comparison_sources: z.array(ComparisonCandidateSchema),
  comparison_note: z.string().nullable(),
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
