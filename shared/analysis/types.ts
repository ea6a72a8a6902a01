/**
 * The analysis contract: plain data in (what the repository reads from a project), plain JSON
 * out (what `loupe analyze --json` prints, the Analysis view shows and the tests check).
 *
 * Output conventions: snake_case keys; every figure carries the n it was computed on; an
 * undefined value is null (never 0 or NaN); intervals are [lower, upper] percentile intervals.
 */
import type { ErrorType, ErrorTypeCounts, GlobalLabel, HumanLabel } from '../domain';
import type { Epsilon0Status } from '../stats/epsilon0';
import type { ReliabilityBin } from '../stats/calibration';
import type { DatasetAgreement } from '../agreement/types';
import type { AccuracyBlock } from '../accuracy/report';
import type { AccuracyInput } from '../accuracy/metrics';
import type { ScaffoldBlock } from '../scaffold/report';
import type { ScaffoldInput } from '../scaffold/input';
import type { HumanLabelRule, HumanLabelStatus, ReferenceSet } from './human-label';

// The report's basic shapes and the several-annotator rule have their own homes; they are part of
// the analysis contract's vocabulary, so this module names them too.
export type { Estimate, Interval, Rate } from '../stats/estimate';
export {
  HUMAN_LABEL_RULES,
  REFERENCE_SETS,
  UNRESOLVED_STATUSES,
  type HumanLabelRule,
  type HumanLabelStatus,
  type ReferenceSet,
} from './human-label';
import type { Estimate, Interval, Rate } from '../stats/estimate';

// ───────────────────────────── input ─────────────────────────────

/** One draw of the dataset as the project recorded it (sample_batches and their items). */
export interface SampleDraw {
  batch: number;
  seed: number;
  algorithm: string;
  summaryIds: readonly string[];
}

/** The dataset's sampling records (the loader fills them from the project). */
export interface SamplingRecords {
  draws: readonly SampleDraw[];
}

/** An annotator of the project (a person) or an imported label set (a benchmark's annotators). */
export type AnnotatorKind = 'person' | 'imported';

/**
 * How the loader chose the human reference of a dataset and what it left out
 * (shared/analysis/reference.ts `selectReferenceLabels`). Counts are of current
 * annotation-phase labels (one per unit and annotator) over every unit of the dataset.
 */
export interface ReferenceInput {
  set: ReferenceSet;
  rule: HumanLabelRule;
  includeRevealed: boolean;
  /** Kind of each annotator with a current annotation-phase label on the dataset (in the reference or not). */
  kinds: Record<string, AnnotatorKind>;
  /** Labels (and their annotators) outside the chosen set, left out. */
  nLabelsOutside: number;
  nAnnotatorsOutside: number;
  /** Labels of the reference given after their summary's reveal (blind: false): left out unless includeRevealed. */
  nLabelsRevealed: number;
}

export interface JudgePrediction {
  /** 1 = faithful, 0 = unfaithful, null = no (parsable) hard label. */
  hard: 0 | 1 | null;
  /** P("1") / (P("0") + P("1")) in [0, 1], or null. */
  soft: number | null;
  /** The error type of an unfaithful prediction, when the judge or its file gives one. */
  errorType?: ErrorType | null;
}

export interface AnalysisUnit {
  /** The unit's 0-based position in its summary (reported in lists). */
  index: number;
  text: string;
  /** The resolved annotation-phase label; null when status is none or disagreement. */
  human: HumanLabel | null;
  humanStatus: HumanLabelStatus;
  /** The review-phase (suspicious-example adjudication) label, if any; only feeds the review table. */
  review?: HumanLabel | null;
  /**
   * The current annotation-phase label of each annotator (before resolution), for the agreement
   * block; omitted = none known (the multi-rater figures then have no ratings; the judges are
   * still compared with `human`).
   */
  ratings?: Readonly<Record<string, HumanLabel>>;
  /** Predictions by judge name; a judge without an entry has no prediction for this unit. */
  judges: Readonly<Record<string, JudgePrediction>>;
}

export interface AnalysisSummary {
  summaryId: string;
  docId: string;
  /** Benchmark label: 1 = faithful, 0 = not, null = none. */
  globalLabel: GlobalLabel | null;
  /** Units (sentences) in summary order. */
  units: AnalysisUnit[];
  /** ≥ 1 annotation-phase human label, unclear included (also inferred from the units). */
  annotated: boolean;
}

export interface AnalysisDataset {
  name: string;
  summaries: AnalysisSummary[];
  /** Judges to analyse, in report order. */
  judges: string[];
  /**
   * How the units' human labels were chosen and resolved (the loader's account). Omitted: the
   * caller resolved them by the settings' rule and reference, with nothing left out.
   */
  reference?: ReferenceInput;
  /** Claims, key facts, their labels and judge outputs, system failures (the loader fills it). */
  accuracy?: AccuracyInput;
  /** Semantic Scaffolds and alignments to them (the loader fills it when the dataset has a scaffold). */
  scaffold?: ScaffoldInput;
  /** The project's draws of this dataset (sample-design.ts); omitted: unknown, and p̂_PP is refused. */
  sampling?: SamplingRecords;
}

export interface AnalysisSettings {
  /** Bootstrap replicates (default 2,000; 0 = no intervals). */
  bootstrap: number;
  /** Seed of every random stream (default 0). */
  seed: number;
  /** Review queue cap per dataset (default 25). */
  cap: number;
  /** Points of y in [0, 1] for the hidden-bias simulation (default 21: 0, 0.05, …, 1). */
  simulationPoints?: number;
  /** Simulated summaries at least (the dataset's lengths are repeated; default 20,000). */
  simulationMinSummaries?: number;
  /**
   * How the input's human labels were resolved and whose they are (applied by the loader, which
   * builds the units; reported with the figures; a dataset whose `reference` says otherwise is refused).
   */
  humanLabel?: HumanLabelRule;
  reference?: ReferenceSet;
  includeRevealed?: boolean;
  /**
   * The source the accuracy and scaffold blocks compare systems by: "people", or a judge's name;
   * null: people when they pair ≥ 5 documents, else none (the blocks say which judges to pick).
   */
  compareSource?: string | null;
}

export const DEFAULT_SETTINGS: Required<AnalysisSettings> = {
  bootstrap: 2000,
  seed: 0,
  cap: 25,
  simulationPoints: 21,
  simulationMinSummaries: 20_000,
  humanLabel: 'unanimous',
  reference: 'both',
  includeRevealed: false,
  compareSource: null,
};

// ───────────────────────────── output ─────────────────────────────

/** Unfaithful is the positive class: tp = human unfaithful and judge 0; fp = human faithful and judge 0. */
export interface Confusion {
  positive_class: 'unfaithful';
  tp: number;
  fp: number;
  tn: number;
  fn: number;
  n: number;
}

export const AGGREGATORS = ['min', 'mean', 'max'] as const;
export type Aggregator = (typeof AGGREGATORS)[number];
export const PREDICTION_KINDS = ['hard', 'soft'] as const;
export type PredictionKind = (typeof PREDICTION_KINDS)[number];

export interface Statistics<T> {
  pearson: T;
  spearman: T;
  kendall: T;
  roc_auc: T;
}

/** One (judge, hard|soft, aggregator) cell against the global label (faithful = positive). */
export interface CorrelationCell extends Statistics<Estimate> {
  /** Summaries in the cell. */
  n: number;
  /** Summaries (≥ 2 sentences, with a global label) left out: the judge lacks a prediction on one of their sentences. */
  n_left_out: number;
  n_faithful: number;
  n_unfaithful: number;
}

export interface KindCorrelations {
  min: CorrelationCell;
  mean: CorrelationCell;
  max: CorrelationCell;
  /** Paired differences mean − min (same resamples), each with its own interval. */
  mean_minus_min: Statistics<Estimate>;
}

export interface AveragingBias {
  /** ρ(Y, mean) ≥ ρ(Y, min) on hard Pearson (not strict; |difference| ≤ 1e-12 counts as equal). */
  mean_ge_min: boolean | null;
  /** ε̂ < ε₀ (strict); ε̂ < ½ when ε₀ is unconditional; null when ε₀ or ε̂ is undefined. */
  below_threshold: boolean | null;
  /** The upper end of ε̂'s interval < ε₀ (or ½). */
  below_threshold_at_upper_ci: boolean | null;
  /** Both conditions: the global labels show averaging bias by this judge. */
  holds: boolean | null;
  holds_at_upper_ci: boolean | null;
  /** The threshold compared with: ε₀, ½ when unconditional, null when undefined. */
  threshold: number | null;
}

export interface CalibrationReport {
  /** Brier score of soft labels against human labels (1 = faithful), n = units. */
  brier: Estimate;
  /** Expected calibration error, 10 equal-width bins, n = units. */
  ece: Rate;
  bins: ReliabilityBin[];
}

export interface CorrectedRate extends Estimate {
  /** Share of judged sentences (all analysed summaries) the judge calls unfaithful; n = sentences. */
  observed: Rate;
  /** Recall on unfaithful sentences in the human sample; n = human-unfaithful units. */
  sensitivity: Rate;
  /** Specificity (faithful recognised as faithful) in the human sample; n = human-faithful units. */
  specificity: Rate;
  /** Bootstrap units of the two resampled sides. */
  n_human_summaries: number;
  n_pool_summaries: number;
}

export interface JudgeAnalysis {
  /** Share of usable human-labeled units where the hard label differs; n = units. */
  epsilon_hat: Estimate & { n_summaries: number };
  confusion: Confusion;
  /** TP / (TP + FN): unfaithful sentences the judge flags; n = TP + FN. */
  recall: Rate;
  /** TN / (TN + FP); n = TN + FP. */
  specificity: Rate;
  correlations: { hard: KindCorrelations; soft: KindCorrelations | null };
  averaging_bias: AveragingBias;
  calibration: CalibrationReport | null;
  /** Rogan–Gladen corrected share of unfaithful sentences in the whole dataset. */
  corrected_unfaithful_rate: CorrectedRate;
}

export interface CompositionCounts {
  all_faithful: number;
  mixed: number;
  all_unfaithful: number;
}

export interface Composition extends Record<keyof CompositionCounts, number | null> {
  /** Summaries classified. */
  n: number;
  counts: CompositionCounts;
}

export interface CompositionReport {
  /** By usable annotation-phase human labels, over summaries with ≥ 1 usable label. */
  human: Composition;
  /** By the per-sentence majority of the judges that labeled the sentence (tie → unfaithful). */
  judges: { all: Composition; annotated: Composition };
}

export interface SuspiciousEntry {
  summary_id: string;
  doc_id: string;
  /** Unit indexes flagged (hard 0) by every judge, fragments (< 5 word tokens) removed. */
  flagged_sentences: number[];
  /** Review-phase label of each flagged sentence, in the same order (null = not reviewed). */
  review_labels: (HumanLabel | null)[];
}

export interface ReviewTable {
  pool: number;
  /** Listed summaries with at least one reviewed flagged sentence. */
  reviewed_summaries: number;
  /** Flagged sentences in the listed summaries. */
  flagged_sentences: number;
  unfaithful: number;
  faithful: number;
  unclear: number;
  not_reviewed: number;
  /** U / (U + F); n = U + F. */
  pct_unfaithful: Rate;
}

export interface SuspiciousReport {
  /** Suspicious summaries (global label 1, every judge flags ≥ 1 sentence), before the fragment filter. */
  pool: number;
  /** pool / summaries with global label 1; n = those summaries. */
  share_of_faithful: Rate;
  /** Suspicious summaries left with ≥ 1 flagged sentence of ≥ 5 word tokens. */
  after_fragment_filter: number;
  cap: number;
  listed: SuspiciousEntry[];
  review: ReviewTable;
}

export interface HumanJudgeDisagreement {
  summary_id: string;
  doc_id: string;
  sentence: number;
  human: 'faithful' | 'unfaithful';
  judge: 0 | 1;
}

export interface JudgeSplit {
  summary_id: string;
  doc_id: string;
  sentence: number;
  human: HumanLabel | null;
  faithful_judges: string[];
  unfaithful_judges: string[];
}

export interface DisagreementReport {
  /** Per judge: usable human-labeled units where its hard label differs (annotated summaries). */
  human_vs_judge: Record<string, HumanJudgeDisagreement[]>;
  /** Units of annotated summaries where the judges with a hard label do not all agree. */
  judges_split: JudgeSplit[];
  /** The same count over all analysed summaries (the list itself is limited to annotated ones). */
  n_judges_split_all: number;
}

export interface HiddenBiasCurvePoint {
  /** ρ(Y, mean) − ρ(Y, min), Pearson; null if either is undefined. */
  gap: number | null;
  rho_mean: number | null;
  rho_min: number | null;
}

export interface HiddenBiasPoint {
  /** Fraction of simulated summaries labeled by the averaging rule. */
  y: number;
  perfect: HiddenBiasCurvePoint;
  /** Judge with error ε̄; null when ε̄ is undefined. */
  noisy: HiddenBiasCurvePoint | null;
}

export interface HiddenBiasReport {
  p_hat: number;
  /** Mean ε̂ over the judges where it is defined. */
  epsilon_bar: number | null;
  n_judges_averaged: number;
  n_simulated_summaries: number;
  points: HiddenBiasPoint[];
}

/** Table 4 in the shape (`analyze --json`): the same counts as `suspicious.review`. */
export interface ReviewSummary {
  pool: number;
  /** = suspicious.review.reviewed_summaries */
  reviewed: number;
  U: number;
  F: number;
  unclear: number;
  /** 100 · U / (U + F), a percentage; null when U + F = 0. */
  pct_U: number | null;
}

export interface HumanSampleCounts {
  /** Analysed summaries with ≥ 1 annotation-phase label (bootstrap units for p̂ and ε̂). */
  n_annotated_summaries: number;
  /** Units of annotated summaries. */
  n_units: number;
  /** Faithful + unfaithful (usable). */
  n_usable: number;
  n_faithful: number;
  n_unfaithful: number;
  n_unclear: number;
  /** Units where annotators disagree (under `majority`: tie) and no adjudicated label exists (left out). */
  n_unresolved: number;
  n_unlabeled: number;
}

/** One annotator of the human reference, with the labels it brought. */
export interface ReferenceAnnotator {
  name: string;
  /** null: the analysis input did not say (a caller without the project's annotator kinds). */
  kind: AnnotatorKind | null;
  /** Its current annotation-phase labels that entered (units of every length). */
  n_labels: number;
}

/**
 * The human reference of a dataset: whose labels, by which rule, and what was left out,
 * over every unit of the dataset (all lengths).
 */
export interface HumanReferenceReport {
  set: ReferenceSet;
  rule: HumanLabelRule;
  include_revealed: boolean;
  /** In code-unit order of name. */
  annotators: ReferenceAnnotator[];
  n_annotators: number;
  /** Current annotation-phase labels that entered the human label. */
  n_labels: number;
  n_annotators_outside_reference: number;
  /** Labels of annotators outside the chosen set, left out. */
  n_labels_outside_reference: number;
  /** Labels of the reference given after their summary's reveal (blind: false). */
  n_labels_revealed: number;
  /** Of those, left out (all of them unless include_revealed). */
  n_labels_revealed_excluded: number;
  /** Units by resolution, every length: a label by adjudication, by majority (dissent outvoted); unresolved by disagreement (unanimous) or tie (majority). */
  n_units_adjudicated: number;
  n_units_majority: number;
  n_units_disagreement: number;
  n_units_tied: number;
}

/**
 * p̂_PP of one judge (prediction-powered inference, shared/analysis/prediction-powered.ts): the
 * judge's share of faithful units over the whole dataset corrected by the people-minus-judge
 * difference on the sampled units; the same p as p̂, with a two-sample bootstrap interval.
 */
export interface PredictionPowered {
  /** F_all + (Y_lab − F_lab); null when undefined. */
  value: number | null;
  /** null with too_few, without replicates, or when no replicate is defined. */
  ci: Interval | null;
  /** Fewer than 5 sampled summaries: the point value without an interval (PROTOCOL "Too few to estimate"). */
  too_few: boolean;
  replicates_dropped: number;
  /** Sampled units with a usable human label and a hard label of the judge (Y_lab, F_lab). */
  n_sampled_units: number;
  /** Units of the dataset with a hard label of the judge (F_all). */
  n_all_units: number;
  /** Bootstrap units of the two sides: the annotated summaries, and every summary of the dataset. */
  n_sampled_summaries: number;
  n_all_summaries: number;
  /** F_all: the judge's share of faithful units over the dataset. */
  judge_rate: number | null;
  /** Y_lab − F_lab: people minus judge on the sampled units. */
  rectifier: number | null;
  /** Width of this interval over the width of all_units.p_hat's; null without both, or when p̂'s has zero width. */
  width_ratio: number | null;
  /** The judge labeled no unit outside the sample: p̂_PP is p̂ on the units both labeled (Y_lab), with the sample's interval. */
  same_as_p_hat: boolean;
  /** The seed of the dataset's draws, and the summaries they hold (annotated or not yet). */
  sample_seed: number;
  n_drawn_summaries: number;
}

/** One judge on every annotated unit, whatever the summary's length (the all-units scope). */
export interface AllUnitsJudge {
  /** n = usable human-labeled units with a hard label; n_summaries = bootstrap units. */
  epsilon_hat: Estimate & { n_summaries: number };
  confusion: Confusion;
  /** TP / (TP + FN), unfaithful = positive; n = TP + FN. */
  recall: Estimate;
  /** TN / (TN + FP); n = TN + FP. */
  specificity: Estimate;
  /** null when refused or undefined, with the reason in p_pp_reason (null when p_pp is given). */
  p_pp: PredictionPowered | null;
  p_pp_reason: string | null;
}

/**
 * p̂ and the judge-error table over every annotated summary of any length: where the
 * summary length does not matter (XSum-style one-sentence summaries count).
 */
export interface AllUnitsReport {
  /** Annotated summaries (≥ 1 annotation-phase label, unclear included), any length: the bootstrap units. */
  n_summaries: number;
  /** Of those, summaries with a single sentence (outside the diagnostic scope). */
  n_single_sentence: number;
  /** Units of the annotated summaries. */
  n_units: number;
  human: HumanSampleCounts;
  p_hat: Estimate & { n_summaries: number };
  judges: Record<string, AllUnitsJudge>;
}

export interface DatasetAnalysis {
  dataset: string;
  /** Summaries analysed (≥ 2 sentences). */
  n_summaries: number;
  /** Sentences of the analysed summaries. */
  n_sentences: number;
  n_summaries_total: number;
  n_single_sentence_left_out: number;
  /** Analysed summaries without a global label (left out of correlations and the suspicious pool). */
  n_without_global_label: number;
  judge_names: string[];
  human: HumanSampleCounts;
  /** Share of faithful among usable human labels. */
  p_hat: number | null;
  p_hat_estimate: Estimate & { n_summaries: number };
  epsilon0: number | null;
  epsilon0_status: Epsilon0Status;
  epsilon0_reason: string | null;
  /** Summaries whose lengths enter ε₀ (all analysed summaries). */
  epsilon0_n_summaries: number;
  judges: Record<string, JudgeAnalysis>;
  composition: CompositionReport;
  suspicious: SuspiciousReport;
  /** The shape of Table 4 (mapped from suspicious.review, which stays). */
  review: ReviewSummary;
  /**
   * Inter-rater agreement (shared/agreement) over every annotated summary, any length:
   * annotators among themselves and each judge (hard labels) against the resolved human label.
   */
  agreement: DatasetAgreement;
  /** p̂ and judge error over every annotated unit, any length. */
  all_units: AllUnitsReport;
  /** The error types of each judge's unfaithful sentence predictions, over every unit it labeled. */
  error_types?: ErrorTypesReport;
  /** Whose labels are the human reference, by which rule, with its n. */
  reference: HumanReferenceReport;
  disagreements: DisagreementReport;
  hidden_bias: HiddenBiasReport | null;
  /** Summarization Accuracy (shared/accuracy): absent or null when the dataset has no claims, key facts or system failures. */
  accuracy?: AccuracyBlock | null;
  /** Semantic Scaffold (shared/scaffold): absent when the dataset has no scaffold. */
  scaffold?: ScaffoldBlock | null;
}

/** A judge's unfaithful sentence predictions by error type (shared/analysis/error-types.ts). */
export interface JudgeErrorTypes {
  /** Sentences the judge predicts unfaithful (hard 0). */
  n_unfaithful: number;
  counts: ErrorTypeCounts;
}

export interface ErrorTypesReport {
  judges: Record<string, JudgeErrorTypes>;
}

export interface AnalysisReport {
  settings: {
    bootstrap: number;
    seed: number;
    cap: number;
    simulation_points: number;
    simulation_min_summaries: number;
    /** The human-label rule and reference set, and whether labels given after a reveal were included. */
    human_label: HumanLabelRule;
    reference: ReferenceSet;
    include_revealed: boolean;
    /** The source systems are compared by ("people" or a judge), as asked; null: the default choice. */
    compare_source: string | null;
  };
  /** The conventions behind the numbers, in words (for readers of the JSON). */
  definitions: Record<string, string>;
  datasets: DatasetAnalysis[];
}
