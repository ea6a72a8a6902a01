/**
 * What the review store reads from a project (db/reviewRepository.ts returns these rows): plain
 * values, so the review rules of shared/review run on them without a database.
 */
import type { ErrorType, GlobalLabel, HumanLabel } from '../domain';
import type { ReviewQueueKind } from '../contract/review';
import type { CurrentLabelRow, PredictionRow, SummaryRow, UnitRow } from '../analysis/from-rows';

export interface ReviewSummaryRow extends SummaryRow {
  dataset: string;
  /** "" on a whole-dataset read (queues and tables never show texts). */
  summary: string;
  /** null: the document is missing; "" on a whole-dataset read. */
  document: string | null;
  globalLabel: GlobalLabel | null;
}

export interface ReviewUnitRow extends UnitRow {
  id: number;
  start: number;
  end: number;
  fragment: boolean;
  /** Splitter name and version, e.g. "loupe-rules 1". */
  splitter: string;
}

/** The current (latest) event of one (unit, person, phase), cleared ones included (label null). */
export interface ReviewLabelRow extends CurrentLabelRow {
  unitId: number;
  annotatorId: number;
  eventId: number;
  errorType: ErrorType | null;
  note: string | null;
  label: HumanLabel | null;
  /** Review phase: the queue the current decision was recorded from (null: imported or unknown). */
  queue: ReviewQueueKind | null;
  /** Time spent on the first event that gave a label (the blind decision), if recorded. */
  blindTimeMs: number | null;
  /** Sum of the recorded times of every event of (unit, person, phase). */
  totalTimeMs: number | null;
  events: number;
  firstAt: string;
  /** created_at of the current event. */
  lastAt: string;
}

export interface ReviewPredictionRow extends PredictionRow {
  unitId: number;
}

/** Everything one dataset (or one summary of it) needs for queues, tables, corrections and exports. */
export interface ReviewDatasetRows {
  name: string;
  summaries: readonly ReviewSummaryRow[];
  units: readonly ReviewUnitRow[];
  labels: readonly ReviewLabelRow[];
  predictions: readonly ReviewPredictionRow[];
  /** Judges with a prediction in the dataset, in creation order (letters for anonymised reveal). */
  judgesByCreation: readonly string[];
}
