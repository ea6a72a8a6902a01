/**
 * SQL for the judge audit (issue 4): what the analysis reads from a project, as plain rows.
 *
 * The analysis runs in a worker thread with its own read-only connection
 * (`openProjectReadOnly`), so loading a large project never blocks the process that serves the
 * UI; `snapshot` reads everything in one transaction, so labels written meanwhile never give a
 * half-old, half-new input.
 */
import type { Database, DatabaseConstructor } from './open';
import { ProjectFileError } from './open';
import { SCHEMA_VERSION } from './migrations';
import { JudgeRepository, type DatasetPredictionRow } from './judgeRepository';
import { ReviewRepository, type ReviewQueueName } from './reviewRepository';
import type { GlobalLabel, HumanLabel, Phase } from '../shared/domain';

export type { DatasetPredictionRow };

export interface AnalysisSummaryRow {
  /** The summary's row id (joins units, labels and predictions). */
  key: number;
  summaryId: string;
  docId: string;
  globalLabel: GlobalLabel | null;
}

export interface AnalysisUnitRow {
  summaryKey: number;
  index: number;
  text: string;
}

/** The current (latest) label of one (unit, annotator, phase); cleared labels are not rows. */
export interface CurrentLabelRow {
  summaryKey: number;
  unitIndex: number;
  annotator: string;
  phase: Phase;
  label: HumanLabel;
  /**
   * Review phase: the review queue the decision was recorded from (schema 3, issue 5); null for
   * the annotation phase and for review labels without a queue (imported, or older than schema 3).
   */
  queue: ReviewQueueName | null;
}

/** An adjudicated label: the one that settles a disagreement between annotators. */
export interface AdjudicatedLabelRow {
  summaryKey: number;
  unitIndex: number;
  label: HumanLabel;
}

const APPLICATION_ID = 0x4c4f5550;

/**
 * A read-only connection for the analysis. The project must exist and be at this version's
 * schema (the host that started the analysis has opened, and so migrated, it already).
 */
export function openProjectReadOnly(Driver: DatabaseConstructor, path: string): Database {
  let db: Database;
  try {
    db = new Driver(path, { readonly: true, fileMustExist: true });
  } catch {
    throw new ProjectFileError(`No project file at ${path}`, 'missing');
  }
  try {
    db.pragma('busy_timeout = 5000');
    const appId = db.pragma('application_id', { simple: true }) as number;
    const version = db.pragma('user_version', { simple: true }) as number;
    if (appId !== APPLICATION_ID) throw new ProjectFileError(`${path} is not a Loupe project`, 'not_a_project');
    if (version !== SCHEMA_VERSION) {
      throw new ProjectFileError(`${path} has schema ${version}; the analysis reads schema ${SCHEMA_VERSION} (open it in this Loupe first)`, 'newer_schema');
    }
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

export class AnalysisRepository {
  private readonly judges: JudgeRepository;
  private readonly review: ReviewRepository;

  constructor(private readonly db: Database) {
    this.judges = new JudgeRepository(db);
    this.review = new ReviewRepository(db);
  }

  /** Runs fn in one read transaction: every read inside sees the same state of the project. */
  snapshot<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  datasetNames(): string[] {
    return (this.db.prepare('SELECT name FROM datasets').pluck().all() as string[]).sort(compareCodeUnits);
  }

  summaries(dataset: string): AnalysisSummaryRow[] {
    return this.db
      .prepare(
        `SELECT s.id AS key, s.summary_id AS summaryId, doc.doc_id AS docId, s.global_label AS globalLabel
         FROM summaries s JOIN datasets d ON d.id = s.dataset_id JOIN documents doc ON doc.id = s.document_id
         WHERE d.name = ?`,
      )
      .all(dataset) as AnalysisSummaryRow[];
  }

  /** Every unit of the dataset, in summary (row id) and unit order. */
  units(dataset: string): AnalysisUnitRow[] {
    const rows = this.db
      .prepare(
        `SELECT u.summary_id, u.idx, u.text FROM units u JOIN summaries s ON s.id = u.summary_id JOIN datasets d ON d.id = s.dataset_id
         WHERE d.name = ? ORDER BY u.summary_id, u.idx`,
      )
      .raw()
      .all(dataset) as Array<[number, number, string]>;
    return rows.map(([summaryKey, index, text]) => ({ summaryKey, index, text }));
  }

  /**
   * The current label of every (unit, annotator, phase) of the dataset: the latest event (by
   * created_at, then id: the rule of db/latest.ts, written out with the alias e); an
   * event with no label (cleared) means the annotator has no label there.
   */
  currentLabels(dataset: string): CurrentLabelRow[] {
    return this.db
      .prepare(
        `WITH latest AS (
           SELECT id FROM (
             SELECT e.id, row_number() OVER (PARTITION BY e.unit_id, e.annotator_id, e.phase ORDER BY e.created_at DESC, e.id DESC) AS rn
             FROM label_events e
             JOIN units u ON u.id = e.unit_id JOIN summaries s ON s.id = u.summary_id JOIN datasets d ON d.id = s.dataset_id
             WHERE d.name = ?) WHERE rn = 1
         )
         SELECT u.summary_id AS summaryKey, u.idx AS unitIndex, a.name AS annotator, e.phase, e.label, r.queue
         FROM latest l JOIN label_events e ON e.id = l.id JOIN units u ON u.id = e.unit_id JOIN annotators a ON a.id = e.annotator_id
         LEFT JOIN review_events r ON r.event_id = e.id
         WHERE e.label IS NOT NULL
         ORDER BY u.summary_id, u.idx, a.name, e.phase`,
      )
      .all(dataset) as CurrentLabelRow[];
  }

  /**
   * The hook for adjudication (issue 5): the adjudicated label of units where annotators
   * disagreed, read from the review store (`ReviewRepository.adjudicatedLabels`: current
   * decisions from the human-vs-human disagreement queue that agree, on units with ≥ 2
   * annotation-phase labels). The loader (electron/core/analysis/load.ts) gives it precedence.
   */
  adjudicatedLabels(dataset: string): AdjudicatedLabelRow[] {
    return this.review.adjudicatedLabels(dataset);
  }

  /** Predictions of the current version of every judge (with a hard or soft label). */
  predictions(dataset: string): DatasetPredictionRow[] {
    return this.judges.predictionsForDataset(dataset);
  }
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
