/**
 * The agreement contract: plain data in, plain JSON out, like the analysis report.
 *
 * Output conventions: snake_case keys; every figure carries the n it rests on; an undefined value
 * is null (never 0 or NaN); intervals are [lower, upper] 95% bootstrap percentile intervals over
 * resampled summaries.
 */
import type { HumanLabel } from '../domain';
import type { Estimate } from '../stats/estimate';

export type { Estimate };

// ───────────────────────────── input ─────────────────────────────

/**
 * What a rating of `unclear` does:
 * - `exclude` (default): the two categories faithful / unfaithful; a unit that any rater of the
 *   figure rated unclear is left out of the human figures, and a unit whose resolved human label is
 *   unclear is left out of the judge figures (both counted).
 * - `category`: three categories; unclear is a category like the others (judges never use it).
 */
export type UnclearHandling = 'exclude' | 'category';
export const UNCLEAR_HANDLINGS: readonly UnclearHandling[] = ['exclude', 'category'];

/** A judge's hard label: 1 = faithful, 0 = unfaithful, null = none. */
export type JudgeHardLabel = 0 | 1 | null;

export interface AgreementUnit {
  /** Annotation-phase labels by rater; a rater without a key did not rate the unit. */
  ratings: Readonly<Record<string, HumanLabel>>;
  /**
   * The resolved human label compared with each judge. Omitted: derived from `ratings` with
   * resolveHumanLabel (one label, or the label every rater gave; raters who disagree → none).
   * null: no human label. Pass an adjudicated label here.
   */
  human?: HumanLabel | null;
  /** Hard judge labels by judge name; no key or null = no prediction. */
  judges?: Readonly<Record<string, JudgeHardLabel>>;
}

export interface AgreementSummary {
  summaryId: string;
  units: readonly AgreementUnit[];
}

export interface AgreementDataset {
  name: string;
  summaries: readonly AgreementSummary[];
  /** Human raters in report order (default: every rater found, sorted in code-unit order). */
  raters?: readonly string[];
  /** Judges in report order (default: every judge found, sorted in code-unit order). */
  judges?: readonly string[];
}

export interface AgreementOptions {
  /** Default `exclude`. */
  unclear?: UnclearHandling;
  /** Bootstrap replicates (default 2,000; 0 = no intervals). */
  bootstrap?: number;
  /** Seed of the dataset's resampling stream (default 0). */
  seed?: number;
}

export const DEFAULT_AGREEMENT_OPTIONS: Required<AgreementOptions> = { unclear: 'exclude', bootstrap: 2000, seed: 0 };

// ───────────────────────────── output ─────────────────────────────

/** Figures of two raters over the units both rated. */
export interface PairAgreement {
  rater_a: string;
  rater_b: string;
  /** Units both rated (after the unclear handling). */
  n_units: number;
  /** Summaries holding those units. */
  n_summaries: number;
  /** Contingency table, rows = rater_a's category, columns = rater_b's, in `categories` order. */
  table: number[][];
  /** n = units both rated. */
  percent_agreement: Estimate;
  /** Cohen (1960), each rater's own marginals; null when both raters put every unit in one common category. */
  cohen_kappa: Estimate;
  /** Krippendorff's α (nominal) of the two raters. */
  krippendorff_alpha: Estimate;
  /** Gwet's AC1 (2008), π_k = mean of the two raters' shares; defined whenever n > 0. */
  gwet_ac1: Estimate;
  /** Per category: 2·T_kk / (row_k + col_k); n = units where either rater chose the category. */
  specific_agreement: Record<string, Estimate>;
}

/** Units a figure left out, by reason. */
export interface JudgeHumanAgreement extends PairAgreement {
  /** Units with a judge label but no (resolved) human label. */
  n_units_no_human: number;
  /** Units with a usable human label but no judge label. */
  n_units_no_judge: number;
  /** Units whose human label is unclear, left out (`exclude` only; 0 under `category`). */
  n_units_unclear_dropped: number;
}

export interface MultiRaterAgreement {
  raters: string[];
  n_raters: number;
  /** Units with ≥ 2 ratings: the n of percent agreement, Fleiss' κ, α and AC1. */
  n_units: number;
  /** Units with exactly one rating: they enter only the prevalence π_k of Fleiss' κ and AC1. */
  n_units_single: number;
  /** Ratings on the units with ≥ 2 ratings (Krippendorff's pairable values). */
  n_ratings: number;
  /** Units by number of ratings (key "2", "3", …), over units with ≥ 1 rating. */
  ratings_per_unit: Record<string, number>;
  /** Pairable ratings by category. */
  category_counts: Record<string, number>;
  percent_agreement: Estimate;
  fleiss_kappa: Estimate;
  krippendorff_alpha: Estimate;
  gwet_ac1: Estimate;
  /** Per category, Uebersax's multi-rater form; n = units with ≥ 2 ratings where the category occurs. */
  specific_agreement: Record<string, Estimate>;
  /** Every pair of raters (in `raters` order), pairs that share no unit included. */
  pairs: PairAgreement[];
}

export interface DatasetAgreement {
  dataset: string;
  unclear: UnclearHandling;
  categories: string[];
  /** Bootstrap units: summaries with ≥ 1 rating or human label (unclear included). */
  n_summaries: number;
  /** Summaries given without any rating or human label (nothing to compare; left out). */
  n_summaries_without_labels: number;
  /** Units of the n_summaries summaries. */
  n_units: number;
  /** Units with ≥ 1 rating by a listed rater. */
  n_units_rated: number;
  /** Units left out of the human figures because a listed rater rated them unclear (`exclude`). */
  n_units_unclear_dropped: number;
  humans: MultiRaterAgreement;
  /** Each judge against the resolved human label, in report order. */
  judges: Record<string, JudgeHumanAgreement>;
  judge_names: string[];
}

export interface AgreementReport {
  settings: { bootstrap: number; seed: number; unclear: UnclearHandling };
  /** The conventions behind the numbers, in words. */
  definitions: Record<string, string>;
  datasets: DatasetAgreement[];
}
