/**
 * SQL for the judge audit: what the analysis reads from a project, as plain rows.
 *
 * The analysis runs in a worker thread with its own read-only connection
 * (`openProjectReadOnly`), so loading a large project never blocks the process that serves the
 * UI; `snapshot` reads everything in one transaction, so labels written meanwhile never give a
 * half-old, half-new input.
 */
import { AccuracySnapshot, type AccuracyDatasetRows } from './accuracySnapshot';
import { SetRepository } from './setRepository';
import { ScaffoldRepository } from './scaffoldRepository';
import type { ScaffoldInput } from '../shared/scaffold/input';
import { directScoreOfStored } from '../shared/scaffold/direct-score';
import type { Database, DatabaseConstructor } from './open';
import { ProjectFileError } from './open';
import { SCHEMA_VERSION } from './migrations';
import { JudgeRepository, type DatasetPredictionRow } from './judgeRepository';
import type { HumanLabel } from '../shared/domain';
import { adjudicatedLabelRows } from '../shared/analysis/human-label';
import type {
  AdjudicatedLabelRow,
  CurrentLabelRow as AnalysisLabelRow,
  SummaryRow,
  UnitRow,
} from '../shared/analysis/from-rows';
import type { AnnotatorKind } from '../shared/analysis/types';
import type { SampleDraw } from '../shared/analysis/types';
import { currentFirst } from './latest';

export type { DatasetPredictionRow };

/** The summary row the analysis reads (shared/analysis/from-rows.ts). */
export type AnalysisSummaryRow = SummaryRow;
export type AnalysisUnitRow = UnitRow;

/**
 * The current (latest) label of one (unit, annotator, phase); cleared labels are not rows. With
 * what the human reference needs (schema 7): the annotator's kind, and whether the event
 * was given blind (false: after its summary was revealed to its annotator).
 */
export type CurrentLabelRow = AnalysisLabelRow & { label: HumanLabel; kind: AnnotatorKind; blind: boolean };

export type { AdjudicatedLabelRow };

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
      throw new ProjectFileError(
        `${path} has schema ${version}; the analysis reads schema ${SCHEMA_VERSION} (open it in this Loupe first)`,
        'newer_schema',
      );
    }
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

export class AnalysisRepository {
  /** Claims, key facts and system outputs of one dataset (schema 8); null when it has none. */
  accuracyRows(dataset: string): AccuracyDatasetRows | null {
    const snapshot = new AccuracySnapshot(this.db, new SetRepository(this.db));
    // Without a current set or a failure there is nothing to read: the summaries and sentences
    // it would read again cost about a fifth of the load of a 20,000-summary dataset.
    const current = snapshot.currentSets(dataset);
    const failures = snapshot.failures(dataset);
    if (current.claims.size === 0 && current.keyFacts.size === 0 && failures.length === 0) return null;
    const rows: AccuracyDatasetRows = { ...snapshot.itemRows(dataset, null, current), failures };
    return rows.claims.size > 0 || rows.keyFacts.size > 0 || rows.failures.length > 0 ? rows : null;
  }

  /** Scaffolds and their current alignments of one dataset (schema 9); null when it has no scaffold. */
  scaffoldRows(dataset: string): ScaffoldInput | null {
    // Most datasets have none: one indexed look-up instead of reading every summary for nothing.
    const anyScaffold = this.db
      .prepare(
        `SELECT EXISTS (SELECT 1 FROM scaffolds sc JOIN documents doc ON doc.id = sc.document_id JOIN datasets d ON d.id = doc.dataset_id
         WHERE d.name = ?)`,
      )
      .pluck()
      .get(dataset) as number;
    if (anyScaffold === 0) return null;
    const rows = new ScaffoldRepository(this.db).datasetRows(dataset);
    if (rows.scaffolds.size === 0) return null;
    return {
      summaries: rows.summaries,
      scaffolds: [...rows.scaffolds].map(([id, s]) => ({
        id,
        docId: s.docId,
        version: s.version,
        extractor: s.extractor,
        items: s.items.map((i) => ({ id: i.id, kind: i.kind, tier: i.tier })),
      })),
      alignments: rows.alignments,
      directScores: new ScaffoldRepository(this.db).directScores(dataset).flatMap((d) => {
        const score = directScoreOfStored(d.output);
        return score === null ? [] : [{ summaryKey: d.summaryKey, judge: d.judge, score }];
      }),
    };
  }

  private readonly judges: JudgeRepository;

  constructor(private readonly db: Database) {
    this.judges = new JudgeRepository(db);
  }

  /** Runs fn in one read transaction: every read inside sees the same state of the project. */
  snapshot<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  /**
   * Summaries of the largest dataset analysed (one, or any when null; 0 without any): what tells
   * the analysis, before it loads, how large its largest bootstrap can be.
   */
  largestDatasetSize(dataset: string | null): number {
    return this.db
      .prepare(
        `SELECT coalesce(max(n), 0) FROM (SELECT count(*) AS n FROM summaries s JOIN datasets d ON d.id = s.dataset_id
         WHERE ? IS NULL OR d.name = ? GROUP BY s.dataset_id)`,
      )
      .pluck()
      .get(dataset, dataset) as number;
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
   * created_at, then id: the rule of db/latest.ts); an
   * event with no label (cleared) means the annotator has no label there.
   */
  currentLabels(dataset: string): CurrentLabelRow[] {
    const rows = this.db
      .prepare(
        `WITH latest AS (
           SELECT id FROM (
             SELECT e.id, row_number() OVER (PARTITION BY e.unit_id, e.annotator_id, e.phase ORDER BY ${currentFirst('e')}) AS rn
             FROM label_events e
             JOIN units u ON u.id = e.unit_id JOIN summaries s ON s.id = u.summary_id JOIN datasets d ON d.id = s.dataset_id
             WHERE d.name = ?) WHERE rn = 1
         )
         SELECT u.summary_id AS summaryKey, u.idx AS unitIndex, a.name AS annotator, e.phase, e.label, r.queue, a.kind, e.blind
         FROM latest l JOIN label_events e ON e.id = l.id JOIN units u ON u.id = e.unit_id JOIN annotators a ON a.id = e.annotator_id
         LEFT JOIN review_events r ON r.event_id = e.id
         WHERE e.label IS NOT NULL
         ORDER BY u.summary_id, u.idx, a.name, e.phase`,
      )
      .all(dataset) as Array<Omit<CurrentLabelRow, 'blind'> & { blind: number }>;
    return rows.map((row) => ({ ...row, blind: row.blind === 1 }));
  }

  /**
   * The hook for adjudication: the audit-adjudicated label of units where annotators
   * disagreed, by the one rule (shared/analysis/human-label.ts `auditAdjudicatedLabel`) over the
   * current labels (`labels`: those of the chosen human reference; default every current label).
   * The loader (electron/core/analysis/load.ts) gives it precedence; a subclass may plug in another
   * source.
   */
  adjudicatedLabels(
    dataset: string,
    labels: readonly CurrentLabelRow[] = this.currentLabels(dataset),
  ): AdjudicatedLabelRow[] {
    return adjudicatedLabelRows(labels);
  }

  /** The dataset's draws (sample_batches) with their summaries in draw order: what tells a seeded uniform sample (shared/analysis/sample-design.ts). */
  sampleDraws(dataset: string): SampleDraw[] {
    const rows = this.db
      .prepare(
        `SELECT b.batch, b.seed, b.algorithm,
                (SELECT json_group_array(x.summary_id) FROM (SELECT s.summary_id FROM sample_items i JOIN summaries s ON s.id = i.summary_id
                   WHERE i.batch_id = b.id ORDER BY i.position) x) AS summaryIds
         FROM sample_batches b JOIN datasets d ON d.id = b.dataset_id WHERE d.name = ? ORDER BY b.batch`,
      )
      .all(dataset) as Array<{ batch: number; seed: number; algorithm: string; summaryIds: string }>;
    return rows.map((row) => ({ ...row, summaryIds: JSON.parse(row.summaryIds) as string[] }));
  }

  /**
   * Time people spent labeling the dataset's sentences, per (person, summary): the sum of the
   * recorded time of their annotation-phase events on its units (summaries without any recorded
   * time are not rows). The planner takes the median.
   */
  annotationTimes(dataset: string): number[] {
    return this.db
      .prepare(
        `SELECT sum(e.time_spent_ms) AS ms FROM label_events e
         JOIN units u ON u.id = e.unit_id JOIN summaries s ON s.id = u.summary_id JOIN datasets d ON d.id = s.dataset_id
         JOIN annotators a ON a.id = e.annotator_id
         WHERE d.name = ? AND e.phase = 'annotation' AND a.kind = 'person' AND e.time_spent_ms IS NOT NULL
         GROUP BY e.annotator_id, u.summary_id HAVING sum(e.time_spent_ms) > 0`,
      )
      .pluck()
      .all(dataset) as number[];
  }

  /** Predictions of the current version of every judge (with a hard or soft label). */
  predictions(dataset: string): DatasetPredictionRow[] {
    return this.judges.predictionsForDataset(dataset);
  }
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
