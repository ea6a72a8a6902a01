/**
 * A zod schema of the analysis report (shared/analysis/types.ts), for the API contract: the
 * hosts parse every `analysis.*` output with it, so a report that reaches the renderer has
 * exactly the shape the types promise (and nothing they do not name).
 *
 * Kept in step with types.ts by the compiler, both ways: each schema `satisfies z.ZodType<TheType>`
 * (what it parses is a TheType), and `SchemaMatchesTypes` below checks the converse (every
 * TheType is what the schema parses). A field added to, renamed in, made optional or nullable in,
 * or removed from either side fails `tsc` here until the other follows.
 */
import { z } from 'zod';
import { EstimateSchema, IntervalSchema, RateSchema } from '../stats/estimate';
import { ERROR_TYPES, HumanLabelSchema } from '../domain';
import type { ReliabilityBin } from '../stats/calibration';
import type { DatasetAgreement, JudgeHumanAgreement, MultiRaterAgreement, PairAgreement } from '../agreement/types';
import { HUMAN_LABEL_RULES, REFERENCE_SETS } from './human-label';
import { AccuracyBlockSchema } from '../accuracy/report';
import { ScaffoldBlockSchema } from '../scaffold/report';
import type { ErrorTypesReport } from './types';
import type {
  AllUnitsJudge,
  AllUnitsReport,
  AnalysisReport,
  AveragingBias,
  CalibrationReport,
  Composition,
  CompositionReport,
  Confusion,
  CorrectedRate,
  CorrelationCell,
  DatasetAnalysis,
  DisagreementReport,
  Estimate,
  HiddenBiasReport,
  HumanReferenceReport,
  HumanSampleCounts,
  JudgeAnalysis,
  KindCorrelations,
  PredictionPowered,
  Rate,
  ReferenceAnnotator,
  ReviewSummary,
  ReviewTable,
  Statistics,
  SuspiciousReport,
} from './types';

const Int = z.number().int();
const NullableNumber = z.number().nullable();

const ConfusionSchema = z.object({
  positive_class: z.literal('unfaithful'),
  tp: Int,
  fp: Int,
  tn: Int,
  fn: Int,
  n: Int,
}) satisfies z.ZodType<Confusion>;

const statistics = <T extends z.ZodType>(value: T) =>
  z.object({ pearson: value, spearman: value, kendall: value, roc_auc: value });
const StatisticsSchema = statistics(EstimateSchema) satisfies z.ZodType<Statistics<Estimate>>;

const CorrelationCellSchema = StatisticsSchema.extend({
  n: Int,
  n_left_out: Int,
  n_faithful: Int,
  n_unfaithful: Int,
}) satisfies z.ZodType<CorrelationCell>;

const KindCorrelationsSchema = z.object({
  min: CorrelationCellSchema,
  mean: CorrelationCellSchema,
  max: CorrelationCellSchema,
  mean_minus_min: StatisticsSchema,
}) satisfies z.ZodType<KindCorrelations>;

const NullableBoolean = z.boolean().nullable();
const AveragingBiasSchema = z.object({
  mean_ge_min: NullableBoolean,
  below_threshold: NullableBoolean,
  below_threshold_at_upper_ci: NullableBoolean,
  holds: NullableBoolean,
  holds_at_upper_ci: NullableBoolean,
  threshold: NullableNumber,
}) satisfies z.ZodType<AveragingBias>;

const ReliabilityBinSchema = z.object({
  lower: z.number(),
  upper: z.number(),
  mean_predicted: NullableNumber,
  observed_frequency: NullableNumber,
  count: Int,
}) satisfies z.ZodType<ReliabilityBin>;

const CalibrationReportSchema = z.object({
  brier: EstimateSchema,
  ece: RateSchema,
  bins: z.array(ReliabilityBinSchema),
}) satisfies z.ZodType<CalibrationReport>;

const CorrectedRateSchema = EstimateSchema.extend({
  observed: RateSchema,
  sensitivity: RateSchema,
  specificity: RateSchema,
  n_human_summaries: Int,
  n_pool_summaries: Int,
}) satisfies z.ZodType<CorrectedRate>;

export const JudgeAnalysisSchema = z.object({
  epsilon_hat: EstimateSchema.extend({ n_summaries: Int }),
  confusion: ConfusionSchema,
  recall: RateSchema,
  specificity: RateSchema,
  correlations: z.object({ hard: KindCorrelationsSchema, soft: KindCorrelationsSchema.nullable() }),
  averaging_bias: AveragingBiasSchema,
  calibration: CalibrationReportSchema.nullable(),
  corrected_unfaithful_rate: CorrectedRateSchema,
}) satisfies z.ZodType<JudgeAnalysis>;

const CompositionCountsSchema = z.object({ all_faithful: Int, mixed: Int, all_unfaithful: Int });
const CompositionSchema = z.object({
  all_faithful: NullableNumber,
  mixed: NullableNumber,
  all_unfaithful: NullableNumber,
  n: Int,
  counts: CompositionCountsSchema,
}) satisfies z.ZodType<Composition>;

const CompositionReportSchema = z.object({
  human: CompositionSchema,
  judges: z.object({ all: CompositionSchema, annotated: CompositionSchema }),
}) satisfies z.ZodType<CompositionReport>;

const ReviewTableSchema = z.object({
  pool: Int,
  reviewed_summaries: Int,
  flagged_sentences: Int,
  unfaithful: Int,
  faithful: Int,
  unclear: Int,
  not_reviewed: Int,
  pct_unfaithful: RateSchema,
}) satisfies z.ZodType<ReviewTable>;

const SuspiciousReportSchema = z.object({
  pool: Int,
  share_of_faithful: RateSchema,
  after_fragment_filter: Int,
  cap: Int,
  listed: z.array(
    z.object({
      summary_id: z.string(),
      doc_id: z.string(),
      flagged_sentences: z.array(Int),
      review_labels: z.array(HumanLabelSchema.nullable()),
    }),
  ),
  review: ReviewTableSchema,
}) satisfies z.ZodType<SuspiciousReport>;

const DisagreementReportSchema = z.object({
  human_vs_judge: z.record(
    z.string(),
    z.array(
      z.object({
        summary_id: z.string(),
        doc_id: z.string(),
        sentence: Int,
        human: z.enum(['faithful', 'unfaithful']),
        judge: z.union([z.literal(0), z.literal(1)]),
      }),
    ),
  ),
  judges_split: z.array(
    z.object({
      summary_id: z.string(),
      doc_id: z.string(),
      sentence: Int,
      human: HumanLabelSchema.nullable(),
      faithful_judges: z.array(z.string()),
      unfaithful_judges: z.array(z.string()),
    }),
  ),
  n_judges_split_all: Int,
}) satisfies z.ZodType<DisagreementReport>;

const HiddenBiasCurvePointSchema = z.object({ gap: NullableNumber, rho_mean: NullableNumber, rho_min: NullableNumber });
const HiddenBiasReportSchema = z.object({
  p_hat: z.number(),
  epsilon_bar: NullableNumber,
  n_judges_averaged: Int,
  n_simulated_summaries: Int,
  points: z.array(
    z.object({ y: z.number(), perfect: HiddenBiasCurvePointSchema, noisy: HiddenBiasCurvePointSchema.nullable() }),
  ),
}) satisfies z.ZodType<HiddenBiasReport>;

const HumanSampleCountsSchema = z.object({
  n_annotated_summaries: Int,
  n_units: Int,
  n_usable: Int,
  n_faithful: Int,
  n_unfaithful: Int,
  n_unclear: Int,
  n_unresolved: Int,
  n_unlabeled: Int,
}) satisfies z.ZodType<HumanSampleCounts>;

const ReviewSummarySchema = z.object({
  pool: Int,
  reviewed: Int,
  U: Int,
  F: Int,
  unclear: Int,
  pct_U: NullableNumber,
}) satisfies z.ZodType<ReviewSummary>;

const PairAgreementSchema = z.object({
  rater_a: z.string(),
  rater_b: z.string(),
  n_units: Int,
  n_summaries: Int,
  table: z.array(z.array(Int)),
  percent_agreement: EstimateSchema,
  cohen_kappa: EstimateSchema,
  krippendorff_alpha: EstimateSchema,
  gwet_ac1: EstimateSchema,
  specific_agreement: z.record(z.string(), EstimateSchema),
}) satisfies z.ZodType<PairAgreement>;

const JudgeHumanAgreementSchema = PairAgreementSchema.extend({
  n_units_no_human: Int,
  n_units_no_judge: Int,
  n_units_unclear_dropped: Int,
}) satisfies z.ZodType<JudgeHumanAgreement>;

const MultiRaterAgreementSchema = z.object({
  raters: z.array(z.string()),
  n_raters: Int,
  n_units: Int,
  n_units_single: Int,
  n_ratings: Int,
  ratings_per_unit: z.record(z.string(), Int),
  category_counts: z.record(z.string(), Int),
  percent_agreement: EstimateSchema,
  fleiss_kappa: EstimateSchema,
  krippendorff_alpha: EstimateSchema,
  gwet_ac1: EstimateSchema,
  specific_agreement: z.record(z.string(), EstimateSchema),
  pairs: z.array(PairAgreementSchema),
}) satisfies z.ZodType<MultiRaterAgreement>;

export const DatasetAgreementSchema = z.object({
  dataset: z.string(),
  unclear: z.enum(['exclude', 'category']),
  categories: z.array(z.string()),
  n_summaries: Int,
  n_summaries_without_labels: Int,
  n_units: Int,
  n_units_rated: Int,
  n_units_unclear_dropped: Int,
  humans: MultiRaterAgreementSchema,
  judges: z.record(z.string(), JudgeHumanAgreementSchema),
  judge_names: z.array(z.string()),
}) satisfies z.ZodType<DatasetAgreement>;

const EstimateWithSummariesSchema = EstimateSchema.extend({ n_summaries: Int });

const PredictionPoweredSchema = z.object({
  value: NullableNumber,
  ci: IntervalSchema.nullable(),
  too_few: z.boolean(),
  replicates_dropped: Int,
  n_sampled_units: Int,
  n_all_units: Int,
  n_sampled_summaries: Int,
  n_all_summaries: Int,
  judge_rate: NullableNumber,
  rectifier: NullableNumber,
  width_ratio: NullableNumber,
  same_as_p_hat: z.boolean(),
  sample_seed: Int,
  n_drawn_summaries: Int,
}) satisfies z.ZodType<PredictionPowered>;

const AllUnitsJudgeSchema = z.object({
  epsilon_hat: EstimateWithSummariesSchema,
  confusion: ConfusionSchema,
  recall: EstimateSchema,
  specificity: EstimateSchema,
  p_pp: PredictionPoweredSchema.nullable(),
  p_pp_reason: z.string().nullable(),
}) satisfies z.ZodType<AllUnitsJudge>;

const ErrorTypesReportSchema = z.object({
  judges: z.record(
    z.string(),
    z.object({ n_unfaithful: Int, counts: z.record(z.enum([...ERROR_TYPES, 'untyped']), Int) }),
  ),
}) satisfies z.ZodType<ErrorTypesReport>;

const AllUnitsReportSchema = z.object({
  n_summaries: Int,
  n_single_sentence: Int,
  n_units: Int,
  human: HumanSampleCountsSchema,
  p_hat: EstimateWithSummariesSchema,
  judges: z.record(z.string(), AllUnitsJudgeSchema),
}) satisfies z.ZodType<AllUnitsReport>;

const HumanLabelRuleSchema = z.enum(HUMAN_LABEL_RULES);
const ReferenceSetSchema = z.enum(REFERENCE_SETS);

const ReferenceAnnotatorSchema = z.object({
  name: z.string(),
  kind: z.enum(['person', 'imported']).nullable(),
  n_labels: Int,
}) satisfies z.ZodType<ReferenceAnnotator>;

const HumanReferenceReportSchema = z.object({
  set: ReferenceSetSchema,
  rule: HumanLabelRuleSchema,
  include_revealed: z.boolean(),
  annotators: z.array(ReferenceAnnotatorSchema),
  n_annotators: Int,
  n_labels: Int,
  n_annotators_outside_reference: Int,
  n_labels_outside_reference: Int,
  n_labels_revealed: Int,
  n_labels_revealed_excluded: Int,
  n_units_adjudicated: Int,
  n_units_majority: Int,
  n_units_disagreement: Int,
  n_units_tied: Int,
}) satisfies z.ZodType<HumanReferenceReport>;

export const DatasetAnalysisSchema = z.object({
  dataset: z.string(),
  n_summaries: Int,
  n_sentences: Int,
  n_summaries_total: Int,
  n_single_sentence_left_out: Int,
  n_without_global_label: Int,
  judge_names: z.array(z.string()),
  human: HumanSampleCountsSchema,
  p_hat: NullableNumber,
  p_hat_estimate: EstimateWithSummariesSchema,
  epsilon0: NullableNumber,
  epsilon0_status: z.enum(['root', 'unconditional', 'undefined']),
  epsilon0_reason: z.string().nullable(),
  epsilon0_n_summaries: Int,
  judges: z.record(z.string(), JudgeAnalysisSchema),
  composition: CompositionReportSchema,
  suspicious: SuspiciousReportSchema,
  review: ReviewSummarySchema,
  agreement: DatasetAgreementSchema,
  all_units: AllUnitsReportSchema,
  error_types: ErrorTypesReportSchema.optional(),
  reference: HumanReferenceReportSchema,
  disagreements: DisagreementReportSchema,
  hidden_bias: HiddenBiasReportSchema.nullable(),
  accuracy: AccuracyBlockSchema.nullable().optional(),
  scaffold: ScaffoldBlockSchema.nullable().optional(),
}) satisfies z.ZodType<DatasetAnalysis>;

export const AnalysisReportSchema = z.object({
  settings: z.object({
    bootstrap: Int,
    seed: Int,
    cap: Int,
    simulation_points: Int,
    simulation_min_summaries: Int,
    human_label: HumanLabelRuleSchema,
    reference: ReferenceSetSchema,
    include_revealed: z.boolean(),
    compare_source: z.string().nullable(),
  }),
  definitions: z.record(z.string(), z.string()),
  datasets: z.array(DatasetAnalysisSchema),
}) satisfies z.ZodType<AnalysisReport>;

/** T with interfaces, `extends` and intersections flattened into plain object types, all the way down. */
type Flat<T> = T extends object ? { [K in keyof T]: Flat<T[K]> } : T;
/**
 * A and B are the same type once flattened: the same fields, each as optional, nullable and typed
 * alike (identity, not mere assignability, so an extra optional field counts as a difference).
 */
type SameShape<A, B> = (<T>() => T extends Flat<A> ? 1 : 2) extends <T>() => T extends Flat<B> ? 1 : 2 ? true : false;
type AllTrue<T extends Record<string, true>> = T;

/** The converse of each `satisfies` above (module comment); a `false` here is a compile error. */
export type SchemaMatchesTypes = AllTrue<{
  EstimateSchema: SameShape<z.infer<typeof EstimateSchema>, Estimate>;
  RateSchema: SameShape<z.infer<typeof RateSchema>, Rate>;
  ConfusionSchema: SameShape<z.infer<typeof ConfusionSchema>, Confusion>;
  StatisticsSchema: SameShape<z.infer<typeof StatisticsSchema>, Statistics<Estimate>>;
  CorrelationCellSchema: SameShape<z.infer<typeof CorrelationCellSchema>, CorrelationCell>;
  KindCorrelationsSchema: SameShape<z.infer<typeof KindCorrelationsSchema>, KindCorrelations>;
  AveragingBiasSchema: SameShape<z.infer<typeof AveragingBiasSchema>, AveragingBias>;
  ReliabilityBinSchema: SameShape<z.infer<typeof ReliabilityBinSchema>, ReliabilityBin>;
  CalibrationReportSchema: SameShape<z.infer<typeof CalibrationReportSchema>, CalibrationReport>;
  CorrectedRateSchema: SameShape<z.infer<typeof CorrectedRateSchema>, CorrectedRate>;
  JudgeAnalysisSchema: SameShape<z.infer<typeof JudgeAnalysisSchema>, JudgeAnalysis>;
  CompositionSchema: SameShape<z.infer<typeof CompositionSchema>, Composition>;
  CompositionReportSchema: SameShape<z.infer<typeof CompositionReportSchema>, CompositionReport>;
  ReviewTableSchema: SameShape<z.infer<typeof ReviewTableSchema>, ReviewTable>;
  SuspiciousReportSchema: SameShape<z.infer<typeof SuspiciousReportSchema>, SuspiciousReport>;
  DisagreementReportSchema: SameShape<z.infer<typeof DisagreementReportSchema>, DisagreementReport>;
  HiddenBiasReportSchema: SameShape<z.infer<typeof HiddenBiasReportSchema>, HiddenBiasReport>;
  HumanSampleCountsSchema: SameShape<z.infer<typeof HumanSampleCountsSchema>, HumanSampleCounts>;
  ReviewSummarySchema: SameShape<z.infer<typeof ReviewSummarySchema>, ReviewSummary>;
  PairAgreementSchema: SameShape<z.infer<typeof PairAgreementSchema>, PairAgreement>;
  JudgeHumanAgreementSchema: SameShape<z.infer<typeof JudgeHumanAgreementSchema>, JudgeHumanAgreement>;
  MultiRaterAgreementSchema: SameShape<z.infer<typeof MultiRaterAgreementSchema>, MultiRaterAgreement>;
  DatasetAgreementSchema: SameShape<z.infer<typeof DatasetAgreementSchema>, DatasetAgreement>;
  PredictionPoweredSchema: SameShape<z.infer<typeof PredictionPoweredSchema>, PredictionPowered>;
  AllUnitsJudgeSchema: SameShape<z.infer<typeof AllUnitsJudgeSchema>, AllUnitsJudge>;
  AllUnitsReportSchema: SameShape<z.infer<typeof AllUnitsReportSchema>, AllUnitsReport>;
  ReferenceAnnotatorSchema: SameShape<z.infer<typeof ReferenceAnnotatorSchema>, ReferenceAnnotator>;
  HumanReferenceReportSchema: SameShape<z.infer<typeof HumanReferenceReportSchema>, HumanReferenceReport>;
  DatasetAnalysisSchema: SameShape<z.infer<typeof DatasetAnalysisSchema>, DatasetAnalysis>;
  AnalysisReportSchema: SameShape<z.infer<typeof AnalysisReportSchema>, AnalysisReport>;
}>;
