/**
 * The only place with SQL. Methods say what they mean (recordLabel, annotationQueue, …) and take
 * and return plain values; callers never see statements.
 */
import { scopeCondition } from './summaryScope';
import type { Database } from './open';
import { JudgeRepository } from './judgeRepository';
import { ReviewRepository } from './reviewRepository';
import { TaskRepository } from './taskRepository';
import { CorpusRepository } from './corpusRepository';
import { SetRepository } from './setRepository';
import { StatementCache } from './statements';
import { ItemLabelRepository } from './itemLabelRepository';
import { SystemRepository } from './systemRepository';
import { AccuracySnapshot } from './accuracySnapshot';
import { ScaffoldRepository } from './scaffoldRepository';
import { ProposalRepository } from './proposalRepository';
import { BatchExportRepository } from './batchExportRepository';
import { CURRENT_FIRST, currentFirst, PER_LABEL_CURRENT_FIRST } from './latest';
import type { ErrorType, GlobalLabel, HumanLabel, Phase } from '../shared/domain';
import { AnnotatorKindError, type AnnotatorKind } from './annotatorKind';
import { IN_QUEUE_OF, QueueRepository, type QueueRow } from './queueRepository';

export { AnnotatorKindError, type AnnotatorKind } from './annotatorKind';
export type { AnnotatorQueue, QueueCounts, QueueRow } from './queueRepository';

/** One annotator's counts (annotatorActivity): current labels of each kind, events and when they were made. */
export interface AnnotatorActivityRow {
  name: string;
  kind: AnnotatorKind;
  annotationLabels: number;
  reviewDecisions: number;
  claimLabels: number;
  keyFactLabels: number;
  scaffoldAlignments: number;
  events: number;
  firstAt: string | null;
  lastAt: string | null;
}

export interface AnnotatorRow {
  id: number;
  name: string;
  kind: AnnotatorKind;
}

export interface UnitRecord {
  idx: number;
  text: string;
  start: number;
  end: number;
  fragment: boolean;
}

export interface NewSummary {
  dataset: string;
  docId: string;
  document: string | null;
  summaryId: string;
  summary: string;
  label: GlobalLabel | null;
  meta: Record<string, unknown>;
  units: UnitRecord[];
  splitter: { name: string; version: string };
}

/** Inserts an import's new summaries (Repository.summaryWriter). */
export interface SummaryWriter {
  /** Inserts a new summary with its document (created or reused) and units. Returns its key. */
  insert(summary: NewSummary): number;
}

export interface StoredSummary {
  key: number;
  dataset: string;
  summaryId: string;
  docId: string;
  document: string | null;
  summary: string;
  label: GlobalLabel | null;
  unitTexts: string[];
}

export interface LabelState {
  label: HumanLabel | null;
  errorType: ErrorType | null;
  note: string | null;
}

export interface NewLabelEvent {
  unitId: number;
  annotatorId: number;
  phase: Phase;
  state: LabelState;
  timeSpentMs: number | null;
  cause: string;
  importKey?: string;
  importId?: number;
}

export interface ExportRow {
  dataset: string;
  docId: string;
  summaryId: string;
  globalLabel: GlobalLabel | null;
  unitId: number;
  sentenceIndex: number;
  text: string;
  start: number;
  end: number;
  fragment: boolean;
  splitter: string;
  splitterVersion: string;
  annotator: string | null;
  phase: Phase | null;
  label: HumanLabel | null;
  errorType: ErrorType | null;
  note: string | null;
  firstLabeledAt: string | null;
  lastLabeledAt: string | null;
  timeSpentMs: number | null;
  /** False when the current label was given after its summary was revealed to its annotator (schema 7). */
  blind: boolean | null;
}

export interface HistoryEvent {
  eventId: number;
  unitId: number;
  annotator: string;
  phase: Phase;
  label: HumanLabel | null;
  errorType: ErrorType | null;
  note: string | null;
  timeSpentMs: number | null;
  cause: string;
  createdAt: string;
  /** False: given after the annotator revealed the summary's judge outputs or benchmark labels. */
  blind: boolean;
}

const now = (): string => new Date().toISOString();

/** A sample batch's own fields as stored. */
interface SampleBatchFields {
  id: number;
  dataset: string;
  batch: number;
  seed: number;
  requested: number;
  annotator: string | null;
  createdAt: string;
  overlap: number | null;
}
export type SampleBatchInfoRow = SampleBatchFields & {
  summaries: number;
  assignments: Array<{ annotator: string; summaries: number }>;
};
export type SampleBatchRow = SampleBatchFields & {
  summaries: number;
  summaryIds: string[];
  assignments: Array<{ annotator: string; summaries: number; summaryIds: string[] }>;
};

const SAMPLE_BATCH_COLUMNS =
  'b.id, d.name AS dataset, b.batch, b.seed, b.requested, a.name AS annotator, b.created_at AS createdAt, b.overlap';

export class Repository {
  /** Judges, judge versions and predictions (db/judgeRepository.ts), on the same connection. */
  /** Statements run once per imported summary, prepared once. */
  private readonly statements: StatementCache;
  readonly judges: JudgeRepository;
  /** Review queues, decisions and the dataset card (db/reviewRepository.ts), on the same connection. */
  readonly review: ReviewRepository;
  /** Results of the JSON-output task kinds (db/taskRepository.ts), on the same connection. */
  readonly tasks: TaskRepository;
  /** Documents, summaries and sentences by key, and the selections tasks run over (db/corpusRepository.ts). */
  readonly corpus: CorpusRepository;
  /** Versioned claim and key-fact sets (schema 8, db/setRepository.ts). */
  readonly sets: SetRepository;
  /** People's labels and judges' outputs on claims and key facts (db/itemLabelRepository.ts). */
  readonly itemLabels: ItemLabelRepository;
  /** Annotators' queues a page at a time, with their counts (schema 16). */
  readonly queue: QueueRepository;
  /** Systems under test and what they wrote (db/systemRepository.ts). */
  readonly systems: SystemRepository;
  /** One dataset's claims, key facts, labels and outputs, as the analysis and the export read them (db/accuracySnapshot.ts). */
  readonly accuracySnapshot: AccuracySnapshot;
  /** Semantic Scaffolds and alignments to them (schema 9). */
  readonly scaffold: ScaffoldRepository;
  /** Annotators' proposed versions of shared sets (schema 10). */
  readonly proposals: ProposalRepository;
  /** Batch request files written, with the requests each holds (schema 12). */
  readonly batchExports: BatchExportRepository;

  constructor(private readonly db: Database) {
    this.statements = new StatementCache(db);
    this.judges = new JudgeRepository(db);
    this.review = new ReviewRepository(db);
    this.tasks = new TaskRepository(db);
    this.corpus = new CorpusRepository(db);
    this.sets = new SetRepository(db);
    this.itemLabels = new ItemLabelRepository(db);
    this.queue = new QueueRepository(db);
    this.systems = new SystemRepository(db);
    this.accuracySnapshot = new AccuracySnapshot(db, this.sets);
    this.scaffold = new ScaffoldRepository(db);
    this.proposals = new ProposalRepository(db);
    this.batchExports = new BatchExportRepository(db);
  }

  /** Runs fn in one transaction (all or nothing). */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  // --- project metadata -------------------------------------------------------------------

  getMeta(key: string): string | null {
    const row = this.db.prepare('SELECT value FROM project_meta WHERE key = ?').get(key) as
      { value: string } | undefined;
    return row?.value ?? null;
  }

  setMeta(key: string, value: string): void {
    this.db
      .prepare(
        'INSERT INTO project_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
      )
      .run(key, value);
  }

  schemaVersion(): number {
    return this.db.pragma('user_version', { simple: true }) as number;
  }

  // --- datasets and annotators ----------------------------------------------------------------

  ensureDataset(name: string): number {
    this.statements.get('INSERT OR IGNORE INTO datasets (name, created_at) VALUES (?, ?)').run(name, now());
    return (this.statements.get('SELECT id FROM datasets WHERE name = ?').get(name) as { id: number }).id;
  }

  datasetId(name: string): number | null {
    const row = this.db.prepare('SELECT id FROM datasets WHERE name = ?').get(name) as { id: number } | undefined;
    return row?.id ?? null;
  }

  datasetStats(): Array<{
    name: string;
    documents: number;
    documentsMissing: number;
    summaries: number;
    units: number;
    sampled: number;
    batches: number;
  }> {
    return this.db
      .prepare(
        `SELECT d.name,
           (SELECT count(*) FROM documents x WHERE x.dataset_id = d.id) AS documents,
           (SELECT count(*) FROM documents x WHERE x.dataset_id = d.id AND x.text IS NULL) AS documentsMissing,
           (SELECT count(*) FROM summaries s WHERE s.dataset_id = d.id) AS summaries,
           (SELECT count(*) FROM units u JOIN summaries s ON s.id = u.summary_id WHERE s.dataset_id = d.id) AS units,
           (SELECT count(*) FROM sample_items i JOIN sample_batches b ON b.id = i.batch_id WHERE b.dataset_id = d.id) AS sampled,
           (SELECT count(*) FROM sample_batches b WHERE b.dataset_id = d.id) AS batches
         FROM datasets d ORDER BY d.name`,
      )
      .all() as ReturnType<Repository['datasetStats']>;
  }

  /**
   * The annotator of this name, created with `kind` when missing. A person is never written as
   * an imported set's name (AnnotatorKindError); an import may add its labels to an existing
   * person (re-importing one's own export), which stays a person.
   */
  ensureAnnotator(name: string, kind: AnnotatorKind = 'person'): AnnotatorRow {
    this.db
      .prepare('INSERT OR IGNORE INTO annotators (name, created_at, kind) VALUES (?, ?, ?)')
      .run(name, now(), kind);
    const row = this.annotator(name)!;
    if (kind === 'person' && row.kind === 'imported') throw new AnnotatorKindError(name);
    return row;
  }

  /** The annotator of this name, or null. */
  annotator(name: string): AnnotatorRow | null {
    return (
      (this.db.prepare('SELECT id, name, kind FROM annotators WHERE name = ?').get(name) as AnnotatorRow | undefined) ??
      null
    );
  }

  /**
   * What each annotator has done: current labels per phase, events, and the time spent on each
   * label decision (keypress labels only; imported, undo and redo events carry no decision time).
   */
  annotatorActivity(): Array<AnnotatorActivityRow & { decisionTimesMs: number[] }> {
    // Current labels per item and annotator (the latest event), counted when they hold a value.
    const current = (source: string, item: string) =>
      `(SELECT annotator_id, value FROM (SELECT annotator_id, value, row_number() OVER (PARTITION BY ${item}, annotator_id ORDER BY ${CURRENT_FIRST}) AS rn FROM ${source}) WHERE rn = 1)`;
    const rows = this.db
      .prepare(
        `WITH ranked AS (
           SELECT annotator_id, phase, label, row_number() OVER (${PER_LABEL_CURRENT_FIRST}) AS rn FROM label_events
         ),
         claims AS ${current('(SELECT id, created_at, claim_id, annotator_id, label AS value FROM claim_label_events)', 'claim_id')},
         facts AS ${current('(SELECT id, created_at, key_fact_id, summary_id, annotator_id, label AS value FROM key_fact_label_events)', 'key_fact_id, summary_id')},
         conveying AS ${current('(SELECT id, created_at, unit_id, key_fact_set_id, annotator_id, conveys AS value FROM sentence_keyfact_events)', 'unit_id, key_fact_set_id')},
         alignments AS ${current('(SELECT id, created_at, item_id, summary_id, annotator_id, value FROM scaffold_alignment_events WHERE annotator_id IS NOT NULL)', 'item_id, summary_id')},
         times AS (
           SELECT annotator_id, created_at FROM label_events
           UNION ALL SELECT annotator_id, created_at FROM claim_label_events
           UNION ALL SELECT annotator_id, created_at FROM key_fact_label_events
           UNION ALL SELECT annotator_id, created_at FROM sentence_keyfact_events
           UNION ALL SELECT annotator_id, created_at FROM scaffold_alignment_events WHERE annotator_id IS NOT NULL
         )
         SELECT a.name, a.kind,
                (SELECT count(*) FROM ranked r WHERE r.annotator_id = a.id AND r.rn = 1 AND r.phase = 'annotation' AND r.label IS NOT NULL) AS annotationLabels,
                (SELECT count(*) FROM ranked r WHERE r.annotator_id = a.id AND r.rn = 1 AND r.phase = 'review' AND r.label IS NOT NULL) AS reviewDecisions,
                (SELECT count(*) FROM claims c WHERE c.annotator_id = a.id AND c.value IS NOT NULL) AS claimLabels,
                (SELECT count(*) FROM facts f WHERE f.annotator_id = a.id AND f.value IS NOT NULL)
                  + (SELECT count(*) FROM conveying c WHERE c.annotator_id = a.id AND c.value IS NOT NULL) AS keyFactLabels,
                (SELECT count(*) FROM alignments s WHERE s.annotator_id = a.id AND s.value IS NOT NULL) AS scaffoldAlignments,
                (SELECT count(*) FROM label_events e WHERE e.annotator_id = a.id) AS events,
                (SELECT json_group_array(e.time_spent_ms) FROM label_events e
                   WHERE e.annotator_id = a.id AND e.cause = 'label' AND e.time_spent_ms IS NOT NULL) AS decisionTimes,
                (SELECT min(created_at) FROM times t WHERE t.annotator_id = a.id) AS firstAt,
                (SELECT max(created_at) FROM times t WHERE t.annotator_id = a.id) AS lastAt
         FROM annotators a ORDER BY a.name`,
      )
      .all() as Array<AnnotatorActivityRow & { decisionTimes: string }>;
    return rows.map(({ decisionTimes, ...r }) => ({ ...r, decisionTimesMs: JSON.parse(decisionTimes) as number[] }));
  }

  annotatorId(name: string): number | null {
    const row = this.db.prepare('SELECT id FROM annotators WHERE name = ?').get(name) as { id: number } | undefined;
    return row?.id ?? null;
  }

  listAnnotators(): AnnotatorRow[] {
    return this.db.prepare('SELECT id, name, kind FROM annotators ORDER BY name').all() as AnnotatorRow[];
  }

  // --- import -----------------------------------------------------------------------------

  /**
   * The summaries a dataset already holds under the given ids (the caller passes a bounded batch),
   * to tell unchanged re-imports from conflicts without loading the whole dataset.
   */
  storedSummaries(dataset: string, summaryIds: readonly string[]): Map<string, StoredSummary> {
    const rows = this.statements
      .get(
        `SELECT s.id AS key, d.name AS dataset, s.summary_id AS summaryId, doc.doc_id AS docId, doc.text AS document,
                s.text AS summary, s.global_label AS label,
                (SELECT json_group_array(u.text) FROM (SELECT text FROM units WHERE summary_id = s.id ORDER BY idx) u) AS unitTexts
         FROM datasets d JOIN summaries s ON s.dataset_id = d.id JOIN documents doc ON doc.id = s.document_id
         WHERE d.name = ? AND s.summary_id IN (SELECT value FROM json_each(?))`,
      )
      .all(dataset, JSON.stringify(summaryIds)) as Array<
      Omit<StoredSummary, 'unitTexts' | 'label'> & { unitTexts: string; label: number | null }
    >;
    const map = new Map<string, StoredSummary>();
    for (const row of rows) {
      map.set(row.summaryId, {
        ...row,
        label: row.label as GlobalLabel | null,
        unitTexts: JSON.parse(row.unitTexts) as string[],
      });
    }
    return map;
  }

  /** Document texts of a dataset under the given doc ids (a bounded batch; null text: missing). */
  storedDocuments(dataset: string, docIds: readonly string[]): Map<string, string | null> {
    const rows = this.statements
      .get(
        `SELECT doc.doc_id AS docId, doc.text AS text FROM datasets d JOIN documents doc ON doc.dataset_id = d.id
         WHERE d.name = ? AND doc.doc_id IN (SELECT value FROM json_each(?))`,
      )
      .all(dataset, JSON.stringify(docIds)) as Array<{ docId: string; text: string | null }>;
    return new Map(rows.map((r) => [r.docId, r.text]));
  }

  recordImport(entry: {
    kind: string;
    source: string;
    files: string[];
    contentHash: string;
    summaries: number;
    labels: number;
  }): number {
    return Number(
      this.db
        .prepare(
          'INSERT INTO imports (kind, source, files, content_hash, summaries, labels, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        )
        .run(
          entry.kind,
          entry.source,
          JSON.stringify(entry.files),
          entry.contentHash,
          entry.summaries,
          entry.labels,
          now(),
        ).lastInsertRowid,
    );
  }

  /** Inserts a new summary with its document (created or reused) and units. Returns its key. */
  insertSummary(summary: NewSummary, importId: number): number {
    return this.summaryWriter(importId).insert(summary);
  }

  /**
   * A writer for one import's summaries, run inside its transaction: it remembers the dataset and
   * document ids it has written (valid only within that transaction), so a summary costs one
   * document statement at most and one statement per row after that.
   */
  summaryWriter(importId: number): SummaryWriter {
    const datasetIds = new Map<string, number>();
    /** `${datasetId} ${docId}` → the document's id once its text is stored (or known to be missing for good). */
    const documentIds = new Map<string, { id: number; hasText: boolean }>();
    const upsertDocument = this.statements.get(
      // A document imported earlier as missing (text NULL) gets its text now; a stored text is kept.
      `INSERT INTO documents (dataset_id, doc_id, text) VALUES (?, ?, ?)
       ON CONFLICT (dataset_id, doc_id) DO UPDATE SET text = coalesce(documents.text, excluded.text)
       RETURNING id, text IS NOT NULL AS hasText`,
    );
    const insertSummary = this.statements.get(
      'INSERT INTO summaries (dataset_id, document_id, summary_id, text, global_label, meta, import_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const insertUnit = this.statements.get(
      'INSERT INTO units (summary_id, idx, text, start, end, fragment, splitter, splitter_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    return {
      insert: (summary) => {
        let datasetId = datasetIds.get(summary.dataset);
        if (datasetId === undefined) datasetIds.set(summary.dataset, (datasetId = this.ensureDataset(summary.dataset)));
        const docKey = `${datasetId} ${summary.docId}`;
        let document = documentIds.get(docKey);
        if (!document || (!document.hasText && summary.document !== null)) {
          const row = upsertDocument.get(datasetId, summary.docId, summary.document) as { id: number; hasText: number };
          documentIds.set(docKey, (document = { id: row.id, hasText: row.hasText === 1 }));
        }
        const key = Number(
          insertSummary.run(
            datasetId,
            document.id,
            summary.summaryId,
            summary.summary,
            summary.label,
            JSON.stringify(summary.meta),
            importId,
          ).lastInsertRowid,
        );
        for (const u of summary.units) {
          insertUnit.run(
            key,
            u.idx,
            u.text,
            u.start,
            u.end,
            u.fragment ? 1 : 0,
            summary.splitter.name,
            summary.splitter.version,
          );
        }
        return key;
      },
    };
  }

  /** Unit ids of a summary in order, found by dataset (optional) and benchmark summary id. */
  unitIdsBySummary(summaryId: string, dataset: string | null): Array<{ dataset: string; unitIds: number[] }> {
    const rows = this.db
      .prepare(
        `SELECT d.name AS dataset, u.id AS unitId FROM summaries s
         JOIN datasets d ON d.id = s.dataset_id JOIN units u ON u.summary_id = s.id
         WHERE s.summary_id = ? AND (? IS NULL OR d.name = ?) ORDER BY d.name, u.idx`,
      )
      .all(summaryId, dataset, dataset) as Array<{ dataset: string; unitId: number }>;
    const byDataset = new Map<string, number[]>();
    for (const r of rows) byDataset.set(r.dataset, [...(byDataset.get(r.dataset) ?? []), r.unitId]);
    return [...byDataset].map(([name, unitIds]) => ({ dataset: name, unitIds }));
  }

  hasImportKey(importKey: string): boolean {
    return this.db.prepare('SELECT 1 FROM label_events WHERE import_key = ?').get(importKey) !== undefined;
  }

  /** Sets the text of the summary's document when it has none (or in any case with `replace`); the rows changed. */
  attachDocument(summaryKey: number, text: string, replace = false): number {
    return this.db
      .prepare(
        `UPDATE documents SET text = ? WHERE id = (SELECT document_id FROM summaries WHERE id = ?)${replace ? '' : ' AND text IS NULL'}`,
      )
      .run(text, summaryKey).changes;
  }

  // --- labels -----------------------------------------------------------------------------

  /** One committed event; the caller acknowledges only after this returns. */
  recordLabel(e: NewLabelEvent): number {
    const info = this.db
      .prepare(
        `INSERT INTO label_events (unit_id, annotator_id, phase, label, error_type, note, time_spent_ms, cause, created_at, import_key, import_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        e.unitId,
        e.annotatorId,
        e.phase,
        e.state.label,
        e.state.errorType,
        e.state.note,
        e.timeSpentMs,
        e.cause,
        now(),
        e.importKey ?? null,
        e.importId ?? null,
      );
    return Number(info.lastInsertRowid);
  }

  /** The current label of one (unit, annotator, annotation phase), or null when never labeled: one index seek. */
  currentAnnotationLabel(unitId: number, annotatorId: number): HumanLabel | null {
    const row = this.db
      .prepare(
        `SELECT label FROM label_events WHERE unit_id = ? AND annotator_id = ? AND phase = 'annotation' ORDER BY ${CURRENT_FIRST} LIMIT 1`,
      )
      .get(unitId, annotatorId) as { label: HumanLabel | null } | undefined;
    return row?.label ?? null;
  }

  /**
   * What can change an annotator's queue or its labels other than their own annotation.record on
   * this connection: a sample batch, an import, a merge (their max ids) or another connection's
   * commit (data_version). Each is one O(1) read; equal fingerprints mean a cached progress still holds.
   */
  queueFingerprint(): string {
    const row = this.db
      .prepare(
        'SELECT (SELECT max(id) FROM sample_batches) AS b, (SELECT max(id) FROM imports) AS i, (SELECT max(id) FROM merges) AS m',
      )
      .get() as { b: number | null; i: number | null; m: number | null };
    const dataVersion = this.db.pragma('data_version', { simple: true }) as number;
    return `${row.b ?? 0}/${row.i ?? 0}/${row.m ?? 0}/${dataVersion}`;
  }

  /** The current (latest) state per unit of one summary for one annotator and phase. */
  currentStates(summaryKey: number, annotatorId: number, phase: Phase): Map<number, LabelState> {
    const rows = this.db
      .prepare(
        `SELECT unitId, label, errorType, note FROM (
           SELECT le.unit_id AS unitId, le.label, le.error_type AS errorType, le.note,
                  row_number() OVER (PARTITION BY le.unit_id ORDER BY ${currentFirst('le')}) AS rn
           FROM label_events le JOIN units u ON u.id = le.unit_id
           WHERE u.summary_id = ? AND le.annotator_id = ? AND le.phase = ?) WHERE rn = 1`,
      )
      .all(summaryKey, annotatorId, phase) as Array<{ unitId: number } & LabelState>;
    return new Map(rows.map((r) => [r.unitId, { label: r.label, errorType: r.errorType, note: r.note }]));
  }

  /** Whether the summary's document text is missing (its units cannot be labeled yet). */
  documentMissing(summaryKey: number): boolean {
    const row = this.db
      .prepare(
        'SELECT doc.text IS NULL AS missing FROM summaries s JOIN documents doc ON doc.id = s.document_id WHERE s.id = ?',
      )
      .get(summaryKey) as { missing: number } | undefined;
    return row?.missing === 1;
  }

  unitSummaryKey(unitId: number): number | null {
    const row = this.db.prepare('SELECT summary_id AS key FROM units WHERE id = ?').get(unitId) as
      { key: number } | undefined;
    return row?.key ?? null;
  }

  // --- annotation -------------------------------------------------------------------------

  /** The summaries sampled for an annotator (batches assigned to them or to nobody), in draw order. */
  annotationQueue(annotatorId: number, dataset: string | null): QueueRow[] {
    const rows = this.db
      .prepare(
        `WITH cur AS (
           SELECT unit_id, label FROM (
             SELECT unit_id, label, row_number() OVER (PARTITION BY unit_id ORDER BY ${CURRENT_FIRST}) AS rn
             FROM label_events WHERE annotator_id = ? AND phase = 'annotation') WHERE rn = 1
         )
         SELECT s.id AS key, d.name AS dataset, s.summary_id AS summaryId, doc.doc_id AS docId,
                count(u.id) AS units, count(cur.label) AS labeled, doc.text IS NULL AS documentMissing
         FROM sample_items si
         JOIN sample_batches b ON b.id = si.batch_id
         JOIN datasets d ON d.id = b.dataset_id
         JOIN summaries s ON s.id = si.summary_id
         JOIN documents doc ON doc.id = s.document_id
         JOIN units u ON u.summary_id = s.id
         LEFT JOIN cur ON cur.unit_id = u.id
         WHERE ${IN_QUEUE_OF}
           AND (? IS NULL OR d.name = ?)
         GROUP BY s.id
         ORDER BY d.name, b.batch, si.position`,
      )
      .all(annotatorId, annotatorId, annotatorId, dataset, dataset) as Array<
      Omit<QueueRow, 'documentMissing'> & { documentMissing: number }
    >;
    return rows.map((r) => ({ ...r, documentMissing: r.documentMissing === 1 }));
  }

  /** Whether the summary is in the annotator's queue (annotationQueue's rule; an unknown annotator reads as id -1). */
  inAnnotationQueue(annotatorId: number, summaryKey: number): boolean {
    return (
      this.db
        .prepare(
          `SELECT 1 FROM sample_items si JOIN sample_batches b ON b.id = si.batch_id JOIN summaries s ON s.id = si.summary_id
           WHERE s.id = ? AND ${IN_QUEUE_OF} LIMIT 1`,
        )
        .get(summaryKey, annotatorId, annotatorId) !== undefined
    );
  }

  /** Whether some summary of the document is in the annotator's queue (who may propose a new version of its sets). */
  documentInAnnotationQueue(annotatorId: number, documentKey: number): boolean {
    return (
      this.db
        .prepare(
          `SELECT 1 FROM sample_items si JOIN sample_batches b ON b.id = si.batch_id JOIN summaries s ON s.id = si.summary_id
           WHERE s.document_id = ? AND ${IN_QUEUE_OF} LIMIT 1`,
        )
        .get(documentKey, annotatorId, annotatorId) !== undefined
    );
  }

  /** Text needed to show a summary for annotation: deliberately without the global label. */
  summaryForAnnotation(key: number): {
    key: number;
    dataset: string;
    summaryId: string;
    docId: string;
    summary: string;
    document: string | null;
    units: Array<{
      id: number;
      index: number;
      text: string;
      start: number;
      end: number;
      fragment: boolean;
      splitter: string;
    }>;
  } | null {
    const head = this.db
      .prepare(
        `SELECT s.id AS key, d.name AS dataset, s.summary_id AS summaryId, doc.doc_id AS docId, s.text AS summary, doc.text AS document
         FROM summaries s JOIN datasets d ON d.id = s.dataset_id JOIN documents doc ON doc.id = s.document_id WHERE s.id = ?`,
      )
      .get(key) as
      | { key: number; dataset: string; summaryId: string; docId: string; summary: string; document: string | null }
      | undefined;
    if (!head) return null;
    const units = this.db
      .prepare(
        `SELECT id, idx AS "index", text, start, end, fragment, splitter || ' ' || splitter_version AS splitter
         FROM units WHERE summary_id = ? ORDER BY idx`,
      )
      .all(key) as Array<{
      id: number;
      index: number;
      text: string;
      start: number;
      end: number;
      fragment: number;
      splitter: string;
    }>;
    return { ...head, units: units.map((u) => ({ ...u, fragment: u.fragment === 1 })) };
  }

  // --- reveals (schema 7) -------------------------------------------------------------------

  /** Summary keys the annotator has revealed (judge outputs or benchmark labels shown while unfinished). */
  revealedSummaries(annotatorId: number): Set<number> {
    return new Set(
      this.db.prepare('SELECT summary_id FROM reveals WHERE annotator_id = ?').pluck().all(annotatorId) as number[],
    );
  }

  isRevealed(annotatorId: number, summaryKey: number): boolean {
    return (
      this.db
        .prepare('SELECT 1 FROM reveals WHERE annotator_id = ? AND summary_id = ?')
        .get(annotatorId, summaryKey) !== undefined
    );
  }

  /**
   * Records the reveal of each given summary not revealed before, in one transaction; returns how
   * many are new. For given keys (tests set reveals up with it); annotation.reveal records through
   * revealUnfinished, which picks the summaries in SQL.
   */
  recordReveals(annotatorId: number, summaryKeys: readonly number[], view: string): number {
    const insert = this.db.prepare(
      'INSERT OR IGNORE INTO reveals (annotator_id, summary_id, view, created_at) VALUES (?, ?, ?, ?)',
    );
    return this.transaction(() => {
      const at = now();
      let added = 0;
      for (const key of summaryKeys) added += insert.run(annotatorId, key, view, at).changes;
      return added;
    });
  }

  /**
   * Reveals, in one transaction, each summary of the annotator's whole queue that is unfinished and
   * not revealed by them yet (schema 7): `gate` is told how many there are first (never when none)
   * and may refuse by throwing, which writes nothing; it returns the annotator id to record them
   * under (the reader's, or a person created for an unknown name). Returns how many were recorded.
   */
  revealUnfinished(readerId: number, view: string, gate: (unrevealed: number) => number): number {
    return this.transaction(() => {
      const unrevealed = this.queue.unrevealedUnfinished(readerId);
      if (unrevealed === 0) return 0;
      return this.queue.recordUnfinishedReveals(gate(unrevealed), view, now());
    });
  }

  /** Whether the stored event was recorded blind (the trigger of schema 7 decides it). */
  eventBlind(eventId: number): boolean {
    return (this.db.prepare('SELECT blind FROM label_events WHERE id = ?').pluck().get(eventId) as number) === 1;
  }

  // --- sampling ---------------------------------------------------------------------------

  /** Summaries of a dataset not yet in any batch, with their benchmark ids. */
  unsampledSummaries(datasetId: number): Array<{ key: number; summaryId: string }> {
    return this.db
      .prepare(
        `SELECT s.id AS key, s.summary_id AS summaryId FROM summaries s
         WHERE s.dataset_id = ? AND NOT EXISTS (SELECT 1 FROM sample_items i WHERE i.summary_id = s.id)`,
      )
      .all(datasetId) as Array<{ key: number; summaryId: string }>;
  }

  /**
   * A new batch of the dataset; `assignments` (summary key → annotator ids, schema 5) gives each
   * summary its annotators (a batch drawn with overlap), and `overlap` records what was asked.
   */
  insertSampleBatch(b: {
    datasetId: number;
    seed: number;
    requested: number;
    annotatorId: number | null;
    algorithm: string;
    keys: number[];
    assignments?: ReadonlyMap<number, readonly number[]>;
    overlap?: number | null;
  }): number {
    const next = (
      this.db
        .prepare('SELECT coalesce(max(batch), 0) + 1 AS n FROM sample_batches WHERE dataset_id = ?')
        .get(b.datasetId) as { n: number }
    ).n;
    const batchId = Number(
      this.db
        .prepare(
          'INSERT INTO sample_batches (dataset_id, batch, seed, requested, annotator_id, algorithm, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        )
        .run(b.datasetId, next, b.seed, b.requested, b.annotatorId, b.algorithm, now()).lastInsertRowid,
    );
    const insert = this.db.prepare('INSERT INTO sample_items (batch_id, summary_id, position) VALUES (?, ?, ?)');
    b.keys.forEach((key, position) => insert.run(batchId, key, position));
    if (b.assignments) {
      this.db.prepare('UPDATE sample_batches SET overlap = ? WHERE id = ?').run(b.overlap ?? null, batchId);
      const assign = this.db.prepare(
        'INSERT INTO sample_assignments (batch_id, summary_id, annotator_id) VALUES (?, ?, ?)',
      );
      for (const key of b.keys)
        for (const annotatorId of b.assignments.get(key) ?? []) assign.run(batchId, key, annotatorId);
    }
    return batchId;
  }

  /** Batches with their counts (no summary ids): what a list shows, small at any batch size. */
  sampleBatchInfos(dataset: string | null): SampleBatchInfoRow[] {
    // The counts are those migration 016's triggers keep (the queue's totals read them too).
    const rows = this.db
      .prepare(
        `SELECT ${SAMPLE_BATCH_COLUMNS}, coalesce(c.summaries, 0) AS summaries
         FROM sample_batches b JOIN datasets d ON d.id = b.dataset_id LEFT JOIN annotators a ON a.id = b.annotator_id
         LEFT JOIN sample_batch_counts c ON c.batch_id = b.id
         WHERE (? IS NULL OR d.name = ?) ORDER BY d.name, b.batch`,
      )
      .all(dataset, dataset) as Array<SampleBatchFields & { summaries: number }>;
    const assigned = this.db.prepare(
      `SELECT an.name AS annotator, c.summaries FROM sample_assignment_counts c
       JOIN annotators an ON an.id = c.annotator_id WHERE c.batch_id = ? ORDER BY an.name`,
    );
    return rows.map((r) => ({
      ...r,
      assignments: assigned.all(r.id) as Array<{ annotator: string; summaries: number }>,
    }));
  }

  /** One batch with its summary ids in batch order, per annotator too (null: no such batch). */
  sampleBatch(batchId: number): SampleBatchRow | null {
    const row = this.db
      .prepare(
        `SELECT ${SAMPLE_BATCH_COLUMNS},
                (SELECT json_group_array(x.summary_id) FROM (SELECT s.summary_id FROM sample_items i JOIN summaries s ON s.id = i.summary_id
                   WHERE i.batch_id = b.id ORDER BY i.position) x) AS summaryIds
         FROM sample_batches b JOIN datasets d ON d.id = b.dataset_id LEFT JOIN annotators a ON a.id = b.annotator_id
         WHERE b.id = ?`,
      )
      .get(batchId) as (SampleBatchFields & { summaryIds: string }) | undefined;
    if (!row) return null;
    const byAnnotator = new Map<string, string[]>();
    const assigned = this.db
      .prepare(
        `SELECT an.name AS annotator, s.summary_id AS summaryId FROM sample_assignments sa
         JOIN sample_items i ON i.batch_id = sa.batch_id AND i.summary_id = sa.summary_id
         JOIN summaries s ON s.id = sa.summary_id JOIN annotators an ON an.id = sa.annotator_id
         WHERE sa.batch_id = ? ORDER BY an.name, i.position`,
      )
      .all(batchId) as Array<{ annotator: string; summaryId: string }>;
    for (const { annotator, summaryId } of assigned) {
      const list = byAnnotator.get(annotator) ?? [];
      list.push(summaryId);
      byAnnotator.set(annotator, list);
    }
    const summaryIds = JSON.parse(row.summaryIds) as string[];
    return {
      ...row,
      summaries: summaryIds.length,
      summaryIds,
      assignments: [...byAnnotator].map(([annotator, ids]) => ({ annotator, summaries: ids.length, summaryIds: ids })),
    };
  }

  // --- export -----------------------------------------------------------------------------

  /**
   * The summaries an export walks, in the export's order (dataset, then summary id): the export
   * reads their rows a batch of keys at a time (`exportRows(dataset, keys)`), never the whole project.
   */
  exportSummaryKeys(dataset: string | null): Array<{ dataset: string; key: number }> {
    return this.db
      .prepare(
        `SELECT d.name AS dataset, s.id AS key FROM summaries s JOIN datasets d ON d.id = s.dataset_id
         WHERE (? IS NULL OR d.name = ?) ORDER BY d.name, s.summary_id`,
      )
      .all(dataset, dataset) as Array<{ dataset: string; key: number }>;
  }

  /**
   * One row per (unit, annotator, phase) with a current label, plus one row for each unit nobody
   * labeled; of the summaries `keys` when given (in export order within them), else of the dataset.
   */
  exportRows(dataset: string | null, keys: readonly number[] | null = null): ExportRow[] {
    const unitScope = scopeCondition('scoped.summary_id', keys);
    const summaryScope = scopeCondition('s.id', keys);
    const rows = this.db
      .prepare(
        `WITH latest AS (
           SELECT unit_id, annotator_id, phase, id, first_at, spent FROM (
             SELECT unit_id, annotator_id, phase, id, row_number() OVER (${PER_LABEL_CURRENT_FIRST}) AS rn,
                    min(created_at) OVER (PARTITION BY unit_id, annotator_id, phase) AS first_at,
                    sum(time_spent_ms) OVER (PARTITION BY unit_id, annotator_id, phase) AS spent
             FROM label_events WHERE unit_id IN (SELECT scoped.id FROM units scoped WHERE ${unitScope.sql})) WHERE rn = 1
         )
         SELECT d.name AS dataset, doc.doc_id AS docId, s.summary_id AS summaryId, s.global_label AS globalLabel,
                u.id AS unitId, u.idx AS sentenceIndex, u.text, u.start, u.end, u.fragment,
                u.splitter, u.splitter_version AS splitterVersion,
                a.name AS annotator, l.phase, e.label, e.error_type AS errorType, e.note,
                l.first_at AS firstLabeledAt, e.created_at AS lastLabeledAt, l.spent AS timeSpentMs, e.blind
         FROM summaries s
         JOIN units u ON u.summary_id = s.id
         JOIN datasets d ON d.id = s.dataset_id
         JOIN documents doc ON doc.id = s.document_id
         LEFT JOIN latest l ON l.unit_id = u.id
         LEFT JOIN label_events e ON e.id = l.id
         LEFT JOIN annotators a ON a.id = l.annotator_id
         WHERE (? IS NULL OR d.name = ?) AND ${summaryScope.sql}
         ORDER BY d.name, s.summary_id, u.idx, a.name, l.phase`,
      )
      .all(...unitScope.params, dataset, dataset, ...summaryScope.params) as Array<
      Omit<ExportRow, 'fragment' | 'blind'> & { fragment: number; blind: number | null }
    >;
    return rows.map((r) => ({ ...r, fragment: r.fragment === 1, blind: r.blind === null ? null : r.blind === 1 }));
  }

  /** Every label event, oldest first; of the summaries `keys` when given, else of the dataset. */
  labelHistory(dataset: string | null, keys: readonly number[] | null = null): HistoryEvent[] {
    const scope = scopeCondition('s.id', keys);
    const rows = this.db
      .prepare(
        `SELECT e.id AS eventId, e.unit_id AS unitId, a.name AS annotator, e.phase, e.label, e.error_type AS errorType, e.note,
                e.time_spent_ms AS timeSpentMs, e.cause, e.created_at AS createdAt, e.blind
         FROM label_events e JOIN annotators a ON a.id = e.annotator_id
         JOIN units u ON u.id = e.unit_id JOIN summaries s ON s.id = u.summary_id JOIN datasets d ON d.id = s.dataset_id
         WHERE (? IS NULL OR d.name = ?) AND ${scope.sql}
         ORDER BY e.created_at, e.id`,
      )
      .all(dataset, dataset, ...scope.params) as Array<Omit<HistoryEvent, 'blind'> & { blind: number }>;
    return rows.map((r) => ({ ...r, blind: r.blind === 1 }));
  }
}
