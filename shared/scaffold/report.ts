/**
 * The `scaffold` block of one dataset in the analysis report, as types and as zod
 * schemas checked against each other both ways (like shared/accuracy/report.ts):
 *
 *   scaffold: { sources: { "human" | "<judge>": { per_summary: [ScaffoldSummaryRow], by_system: {<system>: ScaffoldMeans},
 *                                                 means: ScaffoldMeans, vs_people? } },
 *               comparison: { source, systems, n_documents, metrics: {<metric>: …} } | null,
 *               comparison_sources, comparison_note, direct_score_judge, provenance, notes }
 *
 * `comparison` is that of one source (shared/stats/system-comparison.ts): settings.compare_source,
 * else the people when they pair ≥ 5 documents; `comparison_note` says why, or why there is none.
 */
import { z } from 'zod';
import type { Estimate } from '../stats/estimate';
import { EstimateSchema } from '../stats/estimate';
import {
  ComparisonCandidateSchema,
  SystemComparisonSchema,
  type ComparisonCandidate,
  type SystemComparison,
} from '../stats/system-comparison';

export interface ScaffoldSummaryRow {
  summary_id: string;
  doc_id: string;
  system: string | null;
  /** The scaffold version the source aligned this summary on (the highest, when several). */
  scaffold_version: number;
  /** People: how many annotators' alignments of that version this row resolves item by item; a judge: 1. */
  n_aligners: number;
  /** People: items the several-annotator rule left unresolved (a tie, or a disagreement under unanimous), out of every count. */
  n_unresolved: number;
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
  /** A judge's error against the reference set's people per alignment type; null for people, or without overlap. */
  vs_people?: JudgeVsPeople | null;
}

/** Which prompts made the dataset's scaffolds and the judges' alignments (the task kind; "imported" or "person" otherwise), with counts. */
export interface ScaffoldProvenance {
  /** Extractor (maker) of each scaffold version → versions. */
  scaffolds: Record<string, number>;
  /** Judge → the task kind of its alignments (or "imported") → (summary, item) alignments. */
  alignments: Record<string, Record<string, number>>;
}

export interface ScaffoldBlock {
  sources: Record<string, ScaffoldSourceReport>;
  /** Systems compared on every metric by one source; null: none chosen (comparison_note says why). */
  comparison: SystemComparison | null;
  comparison_sources: ComparisonCandidate[];
  comparison_note: string | null;
  /** The judge whose direct scores the people's source reports (the first by name with any); null: none. */
  direct_score_judge?: string | null;
  provenance?: ScaffoldProvenance;
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
  n_unresolved: Int,
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

export const ScaffoldMeansSchema = z.object({
  n_summaries: Int,
  f: E,
  fc: E,
  qc: E,
  main_fc: E,
  supp_fc: E,
  fact_focus: E,
  fps: E,
  qps: E,
  eps: E,
  direct_score: E.optional(),
}) satisfies z.ZodType<ScaffoldMeans>;

export const AlignmentErrorSchema = z.object({
  n_items: Int,
  n_differ: Int,
  error: EstimateSchema,
}) satisfies z.ZodType<AlignmentError>;
export const JudgeVsPeopleSchema = z.object({
  facts: AlignmentErrorSchema.nullable(),
  questions: AlignmentErrorSchema.nullable(),
  attributes: AlignmentErrorSchema.nullable(),
}) satisfies z.ZodType<JudgeVsPeople>;

export const ScaffoldSourceReportSchema = z.object({
  per_summary: z.array(ScaffoldSummaryRowSchema),
  by_system: z.record(z.string(), ScaffoldMeansSchema),
  means: ScaffoldMeansSchema,
  vs_people: JudgeVsPeopleSchema.nullable().optional(),
}) satisfies z.ZodType<ScaffoldSourceReport>;

export const ScaffoldBlockSchema = z.object({
  sources: z.record(z.string(), ScaffoldSourceReportSchema),
  comparison: SystemComparisonSchema.nullable(),
  comparison_sources: z.array(ComparisonCandidateSchema),
  comparison_note: z.string().nullable(),
  direct_score_judge: z.string().nullable().optional(),
  provenance: z
    .object({ scaffolds: z.record(z.string(), Int), alignments: z.record(z.string(), z.record(z.string(), Int)) })
    .optional(),
  notes: z.array(z.string()),
}) satisfies z.ZodType<ScaffoldBlock>;

// The other direction: every field of the schema is a field of the type.
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const checks: [
  Exact<z.infer<typeof ScaffoldBlockSchema>, ScaffoldBlock>,
  Exact<z.infer<typeof ScaffoldSourceReportSchema>, ScaffoldSourceReport>,
  Exact<z.infer<typeof ScaffoldSummaryRowSchema>, ScaffoldSummaryRow>,
  Exact<z.infer<typeof ScaffoldMeansSchema>, ScaffoldMeans>,
  Exact<z.infer<typeof AlignmentErrorSchema>, AlignmentError>,
  Exact<z.infer<typeof JudgeVsPeopleSchema>, JudgeVsPeople>,
] = [true, true, true, true, true, true];
void checks;
