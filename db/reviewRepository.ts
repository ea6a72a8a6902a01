/**
 * SQL for review queues and adjudication. Plain values in and out: the rows of
 * shared/review/rows.ts, which the pure rules of shared/review and shared/analysis/human-label.ts
 * read. SQL picks the current events (db/latest.ts); it never restates which label counts where.
 *
 * A decision is an ordinary `label_events` row of phase `review` (the append-only history: the
 * current decision of (unit, adjudicator) is the latest event, a revision is a new event), plus a
 * `review_events` row naming the queue it was recorded from (schema 3).
 *
 * The constructor and every read are read-only, so it also works on a read-only connection.
 */
import { scopeCondition, type SummaryScope } from './summaryScope';
import type { Database } from './open';
import { AnnotatorKindError } from './annotatorKind';
import type { ErrorType, HumanLabel, Phase } from '../shared/domain';
import type { ReviewQueueKind } from '../shared/contract/review';
import { adjudicatedLabelRows } from '../shared/analysis/human-label';
import type { AdjudicatedLabelRow } from '../shared/analysis/from-rows';
import type { ReviewLabelRow, ReviewPredictionRow, ReviewSummaryRow, ReviewUnitRow } from '../shared/review/rows';
import { currentEventIds, oldestFirst, PER_LABEL_CURRENT_FIRST } from './latest';

/** The contract's review queues (shared/api REVIEW_QUEUES; migration 003 checks the same list). */
export type ReviewQueueName = ReviewQueueKind;

export type { ReviewSummaryRow, ReviewUnitRow, ReviewLabelRow, ReviewPredictionRow };
export type { AdjudicatedLabelRow };

export interface NewDecision {
  unitId: number;
  annotatorId: number;
  label: HumanLabel | null;
  errorType: ErrorType | null;
  note: string | null;
  timeSpentMs: number | null;
  cause: string;
  queue: ReviewQueueName;
  judges: string[];
}

export interface CardJudgeRow {
  name: string;
  kind: string;
  config: string | null;
  configHash: string | null;
  versions: number;
  predictions: number;
  createdAt: string;
  updatedAt: string;
}

const now = (): string => new Date().toISOString();

export class ReviewRepository {
  constructor(private readonly db: Database) {}

  /** Runs fn in one transaction (every read inside sees the same state). */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  datasetNames(): string[] {
    return this.db.prepare('SELECT name FROM datasets ORDER BY name').pluck().all() as string[];
  }

  unitSummaryKey(unitId: number): number | null {
    const row = this.db.prepare('SELECT summary_id FROM units WHERE id = ?').pluck().get(unitId) as number | undefined;
    return row ?? null;
  }

  datasetOfSummary(key: number): string | null {
    const row = this.db
      .prepare('SELECT d.name FROM summaries s JOIN datasets d ON d.id = s.dataset_id WHERE s.id = ?')
      .pluck()
      .get(key) as string | undefined;
    return row ?? null;
  }

  /**
   * Summaries of a dataset (or one of them, by key) with their benchmark label. The texts are read
   * for one summary (a card); a whole-dataset read leaves them out (summary "", document "" or
   * null when missing), as queues and tables never show them.
   */
  summaries(dataset: string, key: SummaryScope = null): ReviewSummaryRow[] {
    const scope = scopeCondition('s.id', key);
    const texts =
      typeof key !== 'number'
        ? `'' AS summary, CASE WHEN doc.text IS NULL THEN NULL ELSE '' END AS document`
        : 's.text AS summary, doc.text AS document';
    return this.db
      .prepare(
        `SELECT s.id AS key, d.name AS dataset, s.summary_id AS summaryId, doc.doc_id AS docId, ${texts}, s.global_label AS globalLabel
         FROM summaries s JOIN datasets d ON d.id = s.dataset_id JOIN documents doc ON doc.id = s.document_id
         WHERE d.name = ? AND ${scope.sql} ORDER BY s.id`,
      )
      .all(dataset, ...scope.params) as ReviewSummaryRow[];
  }

  /** The dataset's summaries with a review-phase label event (any adjudicator), with the ids export order sorts by. */
  reviewedSummaries(dataset: string): Array<{ key: number; docId: string; summaryId: string }> {
    return this.db
      .prepare(
        `SELECT s.id AS key, doc.doc_id AS docId, s.summary_id AS summaryId
         FROM summaries s JOIN datasets d ON d.id = s.dataset_id JOIN documents doc ON doc.id = s.document_id
         WHERE d.name = ? AND EXISTS (
           SELECT 1 FROM units u JOIN label_events e ON e.unit_id = u.id WHERE u.summary_id = s.id AND e.phase = 'review')`,
      )
      .all(dataset) as Array<{ key: number; docId: string; summaryId: string }>;
  }

  units(dataset: string, key: SummaryScope = null): ReviewUnitRow[] {
    const scope = scopeCondition('s.id', key);
    const rows = this.db
      .prepare(
        `SELECT u.id, u.summary_id, u.idx, u.text, u.start, u.end, u.fragment, u.splitter || ' ' || u.splitter_version
         FROM units u JOIN summaries s ON s.id = u.summary_id JOIN datasets d ON d.id = s.dataset_id
         WHERE d.name = ? AND ${scope.sql} ORDER BY u.summary_id, u.idx`,
      )
      .raw()
      .all(dataset, ...scope.params) as Array<[number, number, number, string, number, number, number, string]>;
    return rows.map(([id, summaryKey, index, text, start, end, fragment, splitter]) => ({
      id,
      summaryKey,
      index,
      text,
      start,
      end,
      fragment: fragment === 1,
      splitter,
    }));
  }

  /** The current event of every (unit, person, phase) of a dataset (or one summary). */
  currentLabels(dataset: string, key: SummaryScope = null): ReviewLabelRow[] {
    const scope = scopeCondition('s.id', key);
    return this.db
      .prepare(
        `WITH scoped AS (
           SELECT e.* FROM label_events e JOIN units u ON u.id = e.unit_id JOIN summaries s ON s.id = u.summary_id
           JOIN datasets d ON d.id = s.dataset_id WHERE d.name = ? AND ${scope.sql}
         ),
         latest AS (
           SELECT id, events, firstAt, totalTimeMs FROM (
             SELECT id, row_number() OVER (${PER_LABEL_CURRENT_FIRST}) AS rn,
                    count(*) OVER (PARTITION BY unit_id, annotator_id, phase) AS events,
                    min(created_at) OVER (PARTITION BY unit_id, annotator_id, phase) AS firstAt,
                    sum(time_spent_ms) OVER (PARTITION BY unit_id, annotator_id, phase) AS totalTimeMs
             FROM scoped) WHERE rn = 1
         )
         SELECT e.unit_id AS unitId, u.summary_id AS summaryKey, u.idx AS unitIndex, e.annotator_id AS annotatorId, a.name AS annotator,
                e.phase, e.id AS eventId, e.label, e.error_type AS errorType, e.note, r.queue,
                (SELECT f.time_spent_ms FROM label_events f
                 WHERE f.unit_id = e.unit_id AND f.annotator_id = e.annotator_id AND f.phase = e.phase AND f.label IS NOT NULL
                 ORDER BY ${oldestFirst('f')} LIMIT 1) AS blindTimeMs,
                l.totalTimeMs, l.events, l.firstAt, e.created_at AS lastAt
         FROM latest l JOIN label_events e ON e.id = l.id JOIN units u ON u.id = e.unit_id JOIN annotators a ON a.id = e.annotator_id
         LEFT JOIN review_events r ON r.event_id = e.id
         ORDER BY u.summary_id, u.idx, e.annotator_id, e.phase`,
      )
      .all(dataset, ...scope.params) as ReviewLabelRow[];
  }

  /** Predictions (current version of each judge, with a hard or soft label) of a dataset or one summary. */
  predictions(dataset: string, key: SummaryScope = null): ReviewPredictionRow[] {
    const scope = scopeCondition('s.id', key);
    const rows = this.db
      .prepare(
        `SELECT p.unit_id, u.summary_id, u.idx, j.name, p.hard, p.soft
         FROM judge_predictions p JOIN judges j ON j.current_version_id = p.judge_version_id
         JOIN units u ON u.id = p.unit_id JOIN summaries s ON s.id = u.summary_id JOIN datasets d ON d.id = s.dataset_id
         WHERE d.name = ? AND ${scope.sql} AND (p.hard IS NOT NULL OR p.soft IS NOT NULL)`,
      )
      .raw()
      .all(dataset, ...scope.params) as Array<[number, number, number, string, 0 | 1 | null, number | null]>;
    return rows.map(([unitId, summaryKey, unitIndex, judge, hard, soft]) => ({
      unitId,
      summaryKey,
      unitIndex,
      judge,
      hard,
      soft,
    }));
  }

  /**
   * The summaries of a dataset a queue can hold, by key: a superset the queue's rule (shared/review
   * computeQueue) narrows, so a queue reads these instead of the whole dataset. The rules decide;
   * this only leaves out summaries none of them could pick:
   * - suspicious (and Table 4): benchmark label faithful, and some judge's current version flags
   *   (hard 0) one of its sentences; the rule also wants every panel judge to flag one.
   * - human-judge, judges-split, human-human: a label event of any person on one of its sentences
   *   (a summary nobody labeled has no human label to disagree with, and is not annotated).
   * CROSS JOIN keeps SQLite's join order: from the flags (the labels) to their summaries, never a
   * walk of every summary of the dataset looking for them.
   */
  queueCandidates(dataset: string, queue: ReviewQueueName): number[] {
    const sql =
      queue === 'suspicious'
        ? `SELECT DISTINCT u.summary_id FROM judges j
           CROSS JOIN judge_predictions p ON p.judge_version_id = j.current_version_id AND p.hard = 0
           CROSS JOIN units u ON u.id = p.unit_id CROSS JOIN summaries s ON s.id = u.summary_id
           WHERE s.dataset_id = (SELECT id FROM datasets WHERE name = ?) AND s.global_label = 1 ORDER BY u.summary_id`
        : `SELECT DISTINCT u.summary_id FROM label_events e CROSS JOIN units u ON u.id = e.unit_id CROSS JOIN summaries s ON s.id = u.summary_id
           WHERE s.dataset_id = (SELECT id FROM datasets WHERE name = ?) ORDER BY u.summary_id`;
    return this.db.prepare(sql).pluck().all(dataset) as number[];
  }

  /** Judges with ≥ 1 prediction (current version) in the dataset, in creation order (for "Judge A, B, …"). */
  datasetJudges(dataset: string): string[] {
    return this.db
      .prepare(
        `SELECT j.name FROM judges j WHERE EXISTS (
           SELECT 1 FROM judge_predictions p JOIN units u ON u.id = p.unit_id JOIN summaries s ON s.id = u.summary_id
           JOIN datasets d ON d.id = s.dataset_id
           WHERE p.judge_version_id = j.current_version_id AND d.name = ? AND (p.hard IS NOT NULL OR p.soft IS NOT NULL))
         ORDER BY j.id`,
      )
      .pluck()
      .all(dataset) as string[];
  }

  judgeExists(name: string): boolean {
    return this.db.prepare('SELECT 1 FROM judges WHERE name = ?').get(name) !== undefined;
  }

  /** People with ≥ 1 annotation-phase event in the dataset, in creation order (for "Annotator 1, 2, …"). */
  datasetAnnotators(dataset: string): string[] {
    return this.db
      .prepare(
        `SELECT a.name FROM annotators a WHERE EXISTS (
           SELECT 1 FROM label_events e JOIN units u ON u.id = e.unit_id JOIN summaries s ON s.id = u.summary_id
           JOIN datasets d ON d.id = s.dataset_id WHERE e.annotator_id = a.id AND e.phase = 'annotation' AND d.name = ?)
         ORDER BY a.id`,
      )
      .pluck()
      .all(dataset) as string[];
  }

  /** A reviewer is a person: an imported label set's name is refused. */
  ensureAnnotator(name: string): number {
    this.db.prepare('INSERT OR IGNORE INTO annotators (name, created_at) VALUES (?, ?)').run(name, now());
    const row = this.db.prepare('SELECT id, kind FROM annotators WHERE name = ?').get(name) as {
      id: number;
      kind: string;
    };
    if (row.kind === 'imported') throw new AnnotatorKindError(name);
    return row.id;
  }

  /** One committed transaction: the review-phase label event and the queue it came from. */
  recordDecision(d: NewDecision): number {
    return this.transaction(() => {
      const eventId = Number(
        this.db
          .prepare(
            `INSERT INTO label_events (unit_id, annotator_id, phase, label, error_type, note, time_spent_ms, cause, created_at)
             VALUES (?, ?, 'review', ?, ?, ?, ?, ?, ?)`,
          )
          .run(d.unitId, d.annotatorId, d.label, d.errorType, d.note, d.timeSpentMs, d.cause, now()).lastInsertRowid,
      );
      this.db
        .prepare('INSERT INTO review_events (event_id, queue, judges) VALUES (?, ?, ?)')
        .run(eventId, d.queue, JSON.stringify(d.judges));
      return eventId;
    });
  }

  /**
   * The adjudicated labels the audit (p̂, ε̂, human composition) may use: the rule of
   * shared/analysis/human-label.ts (`auditAdjudicatedLabel`) over the current label events, so
   * SQL only picks the current events and never restates the rule.
   */
  adjudicatedLabels(dataset: string): AdjudicatedLabelRow[] {
    return adjudicatedLabelRows(this.currentLabels(dataset));
  }

  // --- dataset card (export) -------------------------------------------------------------

  /** Per dataset: label events, units labeled and dates, by phase. */
  labelCounts(dataset: string | null): Array<{
    dataset: string;
    phase: Phase;
    events: number;
    current: number;
    units: number;
    people: number;
    firstAt: string | null;
    lastAt: string | null;
  }> {
    return this.db
      .prepare(
        `WITH scoped AS (
           SELECT e.*, d.name AS dataset FROM label_events e JOIN units u ON u.id = e.unit_id JOIN summaries s ON s.id = u.summary_id
           JOIN datasets d ON d.id = s.dataset_id WHERE (? IS NULL OR d.name = ?)
         ),
         latest AS (${currentEventIds('scoped')})
         SELECT x.dataset, x.phase, count(*) AS events,
                (SELECT count(*) FROM latest l JOIN scoped c ON c.id = l.id WHERE c.dataset = x.dataset AND c.phase = x.phase AND c.label IS NOT NULL) AS current,
                (SELECT count(DISTINCT c.unit_id) FROM latest l JOIN scoped c ON c.id = l.id WHERE c.dataset = x.dataset AND c.phase = x.phase AND c.label IS NOT NULL) AS units,
                count(DISTINCT x.annotator_id) AS people, min(x.created_at) AS firstAt, max(x.created_at) AS lastAt
         FROM scoped x GROUP BY x.dataset, x.phase ORDER BY x.dataset, x.phase`,
      )
      .all(dataset, dataset) as ReturnType<ReviewRepository['labelCounts']>;
  }

  /** Who labeled what: per dataset, person and phase, the current labels and dates. */
  people(
    dataset: string | null,
  ): Array<{ dataset: string; name: string; phase: Phase; labels: number; firstAt: string; lastAt: string }> {
    return this.db
      .prepare(
        `WITH scoped AS (
           SELECT e.*, d.name AS dataset FROM label_events e JOIN units u ON u.id = e.unit_id JOIN summaries s ON s.id = u.summary_id
           JOIN datasets d ON d.id = s.dataset_id WHERE (? IS NULL OR d.name = ?)
         ),
         latest AS (${currentEventIds('scoped')})
         SELECT x.dataset, a.name, x.phase,
                sum(CASE WHEN x.id IN (SELECT id FROM latest) AND x.label IS NOT NULL THEN 1 ELSE 0 END) AS labels,
                min(x.created_at) AS firstAt, max(x.created_at) AS lastAt
         FROM scoped x JOIN annotators a ON a.id = x.annotator_id
         GROUP BY x.dataset, a.id, x.phase ORDER BY x.dataset, a.name, x.phase`,
      )
      .all(dataset, dataset) as ReturnType<ReviewRepository['people']>;
  }

  /** Splitters of each dataset's units. */
  splitters(dataset: string | null): Array<{ dataset: string; splitter: string; version: string; units: number }> {
    return this.db
      .prepare(
        `SELECT d.name AS dataset, u.splitter, u.splitter_version AS version, count(*) AS units
         FROM units u JOIN summaries s ON s.id = u.summary_id JOIN datasets d ON d.id = s.dataset_id
         WHERE (? IS NULL OR d.name = ?) GROUP BY d.name, u.splitter, u.splitter_version ORDER BY d.name, u.splitter, u.splitter_version`,
      )
      .all(dataset, dataset) as ReturnType<ReviewRepository['splitters']>;
  }

  /** Sample batches (seed, algorithm, size) per dataset. */
  samples(dataset: string | null): Array<{
    dataset: string;
    batch: number;
    seed: number;
    requested: number;
    drawn: number;
    algorithm: string;
    annotator: string | null;
    createdAt: string;
  }> {
    return this.db
      .prepare(
        `SELECT d.name AS dataset, b.batch, b.seed, b.requested, (SELECT count(*) FROM sample_items i WHERE i.batch_id = b.id) AS drawn,
                b.algorithm, a.name AS annotator, b.created_at AS createdAt
         FROM sample_batches b JOIN datasets d ON d.id = b.dataset_id LEFT JOIN annotators a ON a.id = b.annotator_id
         WHERE (? IS NULL OR d.name = ?) ORDER BY d.name, b.batch`,
      )
      .all(dataset, dataset) as ReturnType<ReviewRepository['samples']>;
  }

  /** Imports that brought data (kind, source, files, content hash, when). */
  imports(): Array<{
    kind: string;
    source: string;
    files: string;
    contentHash: string;
    summaries: number;
    labels: number;
    createdAt: string;
  }> {
    return this.db
      .prepare(
        'SELECT kind, source, files, content_hash AS contentHash, summaries, labels, created_at AS createdAt FROM imports ORDER BY id',
      )
      .all() as ReturnType<ReviewRepository['imports']>;
  }

  /** Judges with the configuration of their current version (stored without keys) and prediction counts in scope. */
  cardJudges(dataset: string | null): CardJudgeRow[] {
    return this.db
      .prepare(
        `SELECT j.name, j.kind, v.config, v.config_hash AS configHash,
                (SELECT count(*) FROM judge_versions x WHERE x.judge_id = j.id) AS versions,
                (SELECT count(*) FROM judge_predictions p JOIN units u ON u.id = p.unit_id JOIN summaries s ON s.id = u.summary_id
                   JOIN datasets d ON d.id = s.dataset_id
                   WHERE p.judge_version_id = j.current_version_id AND p.hard IS NOT NULL AND (? IS NULL OR d.name = ?)) AS predictions,
                j.created_at AS createdAt, j.updated_at AS updatedAt
         FROM judges j LEFT JOIN judge_versions v ON v.id = j.current_version_id ORDER BY j.id`,
      )
      .all(dataset, dataset) as CardJudgeRow[];
  }
}
