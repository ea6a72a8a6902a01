/**
 * An annotator's queue read a page at a time (annotation.queue, annotation.next): the cost of a
 * page, a position or the totals does not grow with the queue's length.
 *
 * The queue is the annotator's sample items in (dataset name, batch, position) order. An annotator
 * has few batches, so the batches are read first (with their counts, kept by schema 16's triggers)
 * and each page is then an index range of `sample_items (batch_id, position)` in one batch after
 * another. A row's sentence and labeled counts are index seeks per row of the page.
 */
import { CURRENT_FIRST } from './latest';
import type { Database } from './open';
import { StatementCache } from './statements';

/**
 * Whether sample item `si` of batch `b` (summary `s`) is in the queue of the annotator the SQL
 * parameter `annotator` names. A batch drawn with assignments holds exactly each annotator's items; any other batch is
 * its annotator's, or everyone's.
 */
export function inQueueOf(annotator: string): string {
  return `(CASE WHEN EXISTS (SELECT 1 FROM sample_assignments sa WHERE sa.batch_id = b.id)
                THEN EXISTS (SELECT 1 FROM sample_assignments sa WHERE sa.batch_id = b.id AND sa.summary_id = s.id AND sa.annotator_id = ${annotator})
                ELSE (b.annotator_id IS NULL OR b.annotator_id = ${annotator}) END)`;
}
/** inQueueOf with positional parameters: binds the annotator id twice. */
export const IN_QUEUE_OF = inQueueOf('?');

/** One summary of an annotator's queue with its sentence counts. */
export interface QueueRow {
  key: number;
  dataset: string;
  summaryId: string;
  docId: string;
  units: number;
  labeled: number;
  documentMissing: boolean;
}

/** What an annotator's queue holds, for progress: each sampled summary's units and labeled units. */
export interface QueueCounts {
  key: number;
  units: number;
  labeled: number;
}

/** One batch of an annotator's queue, in queue order, with its share of the queue's totals. */
interface QueueBatch {
  id: number;
  /** Drawn without assignments: each of its items is in the queue (else only those assigned to the annotator). */
  whole: boolean;
  summaries: number;
  units: number;
}

/** A row of the queue and where it is in the whole queue (0-based). */
export interface PlacedQueueRow {
  row: QueueRow;
  position: number;
}

export interface QueuePage {
  rows: QueueRow[];
  /** Position in the whole queue of rows[0] (of the page's place when it is empty). */
  start: number;
  total: number;
}

/** The label of unit `u` (an alias in scope) by annotator @annotator, null when none: one index seek. */
const CURRENT_LABEL = `(SELECT e.label FROM label_events e WHERE e.unit_id = u.id AND e.annotator_id = @annotator AND e.phase = 'annotation'
                        ORDER BY e.created_at DESC, e.id DESC LIMIT 1)`;

/** The rows of batch @batch in the annotator's queue; more WHERE terms, the order and the limit follow. */
function batchRows(batch: QueueBatch): string {
  return `SELECT s.id AS key, d.name AS dataset, s.summary_id AS summaryId, doc.doc_id AS docId,
         (SELECT count(*) FROM units u WHERE u.summary_id = s.id) AS units,
         (SELECT count(*) FROM units u WHERE u.summary_id = s.id AND ${CURRENT_LABEL} IS NOT NULL) AS labeled,
         doc.text IS NULL AS documentMissing, si.position AS position
  FROM sample_items si
  JOIN summaries s ON s.id = si.summary_id
  JOIN documents doc ON doc.id = s.document_id
  JOIN datasets d ON d.id = s.dataset_id
  WHERE si.batch_id = @batch AND ${inBatchQueue(batch, 'si')}`;
}

/**
 * Whether sample item `alias` of `batch` is in the annotator's queue: every item of a batch drawn
 * without assignments (no term at all, so an index range of sample_items stays index-only), else
 * those assigned to @annotator.
 */
function inBatchQueue(batch: QueueBatch, alias: string): string {
  return batch.whole
    ? '1'
    : `EXISTS (SELECT 1 FROM sample_assignments sa WHERE sa.batch_id = ${alias}.batch_id AND sa.summary_id = ${alias}.summary_id AND sa.annotator_id = @annotator)`;
}

/** The named parameters a statement of `batch` binds (an assigned batch's term names the annotator). */
function batchParameters(batch: QueueBatch, annotatorId: number): Record<string, number> {
  return batch.whole ? { batch: batch.id } : { batch: batch.id, annotator: annotatorId };
}

/** Summary s has a unit without a current label of the annotator (a summary without units is never unfinished). */
const UNFINISHED = `EXISTS (SELECT 1 FROM units u WHERE u.summary_id = s.id AND ${CURRENT_LABEL} IS NULL)`;

/** Summary s has a unit without a current label of the annotator, and its document is there. */
const HAS_WORK = `doc.text IS NOT NULL AND ${UNFINISHED}`;

/**
 * The summaries of @annotator's whole queue a reveal records: unfinished and not revealed by them
 * yet. Index seeks per sample item (its reveal, then its units' current labels until one is
 * missing), nothing read into JS.
 */
const UNREVEALED_UNFINISHED = `FROM sample_items si
  JOIN sample_batches b ON b.id = si.batch_id JOIN summaries s ON s.id = si.summary_id
  WHERE ${inQueueOf('@annotator')}
    AND NOT EXISTS (SELECT 1 FROM reveals r WHERE r.annotator_id = @annotator AND r.summary_id = s.id)
    AND ${UNFINISHED}`;

type StoredRow = Omit<QueueRow, 'documentMissing'> & { documentMissing: number; position: number };

const toRow = ({ position: _position, documentMissing, ...rest }: StoredRow): QueueRow => ({
  ...rest,
  documentMissing: documentMissing === 1,
});

export class QueueRepository {
  private readonly statements: StatementCache;

  constructor(db: Database) {
    this.statements = new StatementCache(db);
  }

  /** The queue of one annotator (an unknown one: any id no annotator has), over one dataset or all. */
  of(annotatorId: number, dataset: string | null): AnnotatorQueue {
    return new AnnotatorQueue(this.statements, annotatorId, this.batches(annotatorId, dataset));
  }

  /** How many summaries of the annotator's whole queue are unfinished and not revealed by them yet (what a reveal would record). */
  unrevealedUnfinished(annotatorId: number): number {
    return this.statements
      .get(`SELECT count(*) ${UNREVEALED_UNFINISHED}`)
      .pluck()
      .get({ annotator: annotatorId }) as number;
  }

  /**
   * Records a reveal through `view` of each summary of the annotator's whole queue that is unfinished
   * and not revealed by them yet, in one INSERT … SELECT; returns how many it recorded.
   */
  recordUnfinishedReveals(annotatorId: number, view: string, createdAt: string): number {
    return this.statements
      .get(
        `INSERT OR IGNORE INTO reveals (annotator_id, summary_id, view, created_at)
         SELECT @annotator, s.id, @view, @createdAt ${UNREVEALED_UNFINISHED}`,
      )
      .run({ annotator: annotatorId, view, createdAt }).changes;
  }

  private batches(annotatorId: number, dataset: string | null): QueueBatch[] {
    const rows = this.statements
      .get(
        `SELECT b.id, b.annotator_id AS owner,
                NOT EXISTS (SELECT 1 FROM sample_assignments sa WHERE sa.batch_id = b.id) AS whole,
                bc.summaries AS batchSummaries, bc.units AS batchUnits, ac.summaries AS ownSummaries, ac.units AS ownUnits
         FROM sample_batches b JOIN datasets d ON d.id = b.dataset_id
         LEFT JOIN sample_batch_counts bc ON bc.batch_id = b.id
         LEFT JOIN sample_assignment_counts ac ON ac.batch_id = b.id AND ac.annotator_id = @annotator
         WHERE (@dataset IS NULL OR d.name = @dataset)
         ORDER BY d.name, b.batch`,
      )
      .all({ annotator: annotatorId, dataset }) as Array<{
      id: number;
      owner: number | null;
      whole: number;
      batchSummaries: number | null;
      batchUnits: number | null;
      ownSummaries: number | null;
      ownUnits: number | null;
    }>;
    return rows.flatMap((b): QueueBatch[] => {
      if (b.whole === 1)
        return b.owner === null || b.owner === annotatorId
          ? [{ id: b.id, whole: true, summaries: b.batchSummaries ?? 0, units: b.batchUnits ?? 0 }]
          : [];
      return b.ownSummaries ? [{ id: b.id, whole: false, summaries: b.ownSummaries, units: b.ownUnits ?? 0 }] : [];
    });
  }
}

/** One annotator's queue: its batches read once, then pages, places and counts on demand. */
export class AnnotatorQueue {
  /** Summaries of the queue. */
  readonly total: number;
  /** Sentences (units) of the queue. */
  readonly units: number;
  /** Summaries in the batches before each batch. */
  private readonly before: number[];

  constructor(
    private readonly statements: StatementCache,
    private readonly annotatorId: number,
    private readonly batches: readonly QueueBatch[],
  ) {
    let summaries = 0;
    let units = 0;
    this.before = batches.map((b) => {
      const at = summaries;
      summaries += b.summaries;
      units += b.units;
      return at;
    });
    this.total = summaries;
    this.units = units;
  }

  /** The page of `limit` rows starting at `position` (clamped to the queue). */
  pageAt(position: number, limit: number): QueuePage {
    const start = Math.max(0, Math.min(position, this.total - limit));
    const index = this.batchAt(start);
    if (index === -1) return { rows: [], start: this.total, total: this.total };
    const batch = this.batches[index]!;
    // The offset skips index entries of sample_items alone; only the page's rows are joined.
    const first = this.rowsOf(
      batch,
      `AND si.position >= (SELECT k.position FROM sample_items k WHERE k.batch_id = @batch AND ${inBatchQueue(batch, 'k')}
                           ORDER BY k.position LIMIT 1 OFFSET @offset)
       ORDER BY si.position LIMIT @limit`,
      { limit, offset: start - this.before[index]! },
    );
    const last = first[first.length - 1];
    const rows = last ? [...first, ...this.walk(index, last.position, 'forward', limit - first.length)] : first;
    return { rows: rows.map(toRow), start, total: this.total };
  }

  /** The page of `limit` rows with the summary `key` near its middle (the first page when it is not in the queue). */
  pageAround(key: number, limit: number): QueuePage {
    const position = this.positionOf(key);
    return this.pageAt(position === null ? 0 : position - Math.floor(limit / 2), limit);
  }

  /** The page of up to `limit` rows after the summary `key` (from the start when null or not in the queue). */
  pageAfter(key: number | null, limit: number): QueuePage {
    const place = key === null ? null : this.locate(key);
    if (!place) return this.pageAt(0, limit);
    const rows = this.walk(place.index, place.position, 'forward', limit);
    return { rows: rows.map(toRow), start: place.at + 1, total: this.total };
  }

  /** The page of up to `limit` rows just before the summary `key` (the first page when it is not in the queue). */
  pageBefore(key: number, limit: number): QueuePage {
    const place = this.locate(key);
    if (!place) return this.pageAt(0, limit);
    const rows = this.walk(place.index, place.position, 'backward', limit).reverse();
    return { rows: rows.map(toRow), start: place.at - rows.length, total: this.total };
  }

  /** Where the summary is in the queue (0-based), or null when it is not in it. */
  positionOf(key: number): number | null {
    return this.locate(key)?.at ?? null;
  }

  /**
   * The first summary after `key` (from the start when null) that can be worked on (a unit without
   * this annotator's label, its document there), searching on from the top after the end; never
   * `key` itself. Null: none has work.
   */
  nextWithWork(key: number | null): PlacedQueueRow | null {
    const place = key === null ? null : this.locate(key);
    const later = place ? this.walk(place.index, place.position, 'forward', 1, HAS_WORK)[0] : undefined;
    if (later) return this.placed(later);
    // From the top: the earliest summary with work, if it comes before the summary itself.
    const first = this.firstWithWork();
    if (!first) return null;
    const before =
      !place || first.index < place.index || (first.index === place.index && first.row.position < place.position);
    return before ? this.placed(first.row) : null;
  }

  /** The summary just after `key` in queue order, or null at the end (or when `key` is not in the queue). */
  next(key: number): PlacedQueueRow | null {
    const place = this.locate(key);
    const found = place ? this.walk(place.index, place.position, 'forward', 1)[0] : undefined;
    return found ? { row: toRow(found), position: place!.at + 1 } : null;
  }

  /** Units labeled and summaries wholly labeled by the annotator in this queue: read from their labels alone. */
  done(): { unitsDone: number; summariesDone: number } {
    const ids = new Set(this.batches.map((b) => b.id));
    const rows = this.statements
      .get(
        `WITH cur AS (
           SELECT unit_id FROM (
             SELECT unit_id, label, row_number() OVER (PARTITION BY unit_id ORDER BY ${CURRENT_FIRST}) AS rn
             FROM label_events WHERE annotator_id = @annotator AND phase = 'annotation') WHERE rn = 1 AND label IS NOT NULL
         ), per AS (SELECT u.summary_id AS key, count(*) AS labeled FROM cur JOIN units u ON u.id = cur.unit_id GROUP BY u.summary_id)
         SELECT si.batch_id AS batchId, per.labeled, (SELECT count(*) FROM units x WHERE x.summary_id = per.key) AS units
         FROM per JOIN sample_items si ON si.summary_id = per.key
         JOIN sample_batches b ON b.id = si.batch_id JOIN summaries s ON s.id = si.summary_id
         WHERE ${inQueueOf('@annotator')}`,
      )
      .all({ annotator: this.annotatorId }) as Array<{
      batchId: number;
      labeled: number;
      units: number;
    }>;
    let unitsDone = 0;
    let summariesDone = 0;
    for (const r of rows) {
      if (!ids.has(r.batchId)) continue;
      unitsDone += r.labeled;
      if (r.labeled === r.units) summariesDone += 1;
    }
    return { unitsDone, summariesDone };
  }

  /** Summaries of the queue with work left that cannot be worked on: their document is missing. */
  blocked(): number {
    const ids = new Set(this.batches.map((b) => b.id));
    const batchIds = this.statements
      .get(
        `SELECT si.batch_id FROM documents doc INDEXED BY documents_missing_text
         CROSS JOIN summaries s ON s.document_id = doc.id
         JOIN sample_items si ON si.summary_id = s.id JOIN sample_batches b ON b.id = si.batch_id
         WHERE doc.text IS NULL AND ${inQueueOf('@annotator')}
           AND ${UNFINISHED}`,
      )
      .pluck()
      .all({ annotator: this.annotatorId }) as number[];
    return batchIds.filter((id) => ids.has(id)).length;
  }

  /** Summaries of the queue with a unit the annotator has not labeled that they revealed (schema 7). */
  revealedUnfinished(): number {
    const ids = new Set(this.batches.map((b) => b.id));
    const batchIds = this.statements
      .get(
        `SELECT si.batch_id FROM reveals r
         CROSS JOIN sample_items si ON si.summary_id = r.summary_id
         JOIN sample_batches b ON b.id = si.batch_id JOIN summaries s ON s.id = si.summary_id
         WHERE r.annotator_id = @annotator AND ${inQueueOf('@annotator')}
           AND ${UNFINISHED}`,
      )
      .pluck()
      .all({ annotator: this.annotatorId }) as number[];
    return batchIds.filter((id) => ids.has(id)).length;
  }

  /** One summary's units and those with the annotator's label (what a label of it moves). */
  countsOf(key: number): { units: number; labeled: number } {
    return this.statements
      .get(`SELECT count(*) AS units, count(${CURRENT_LABEL}) AS labeled FROM units u WHERE u.summary_id = @key`)
      .get({ annotator: this.annotatorId, key }) as { units: number; labeled: number };
  }

  /** Whether the summary is in this queue. */
  has(key: number): boolean {
    return this.find(key) !== null;
  }

  // --- places --------------------------------------------------------------------------------

  /** The batch (index) holding queue position `position`, or -1 past the end. */
  private batchAt(position: number): number {
    for (let i = this.batches.length - 1; i >= 0; i -= 1)
      if (position >= this.before[i]! && position < this.before[i]! + this.batches[i]!.summaries) return i;
    return -1;
  }

  /** The summary's batch (index) and its sample position in it; null when it is not in the queue. */
  private find(key: number): { index: number; position: number } | null {
    const item = this.statements
      .get('SELECT batch_id AS batchId, position FROM sample_items WHERE summary_id = ?')
      .get(key) as { batchId: number; position: number } | undefined;
    if (!item) return null;
    const index = this.batches.findIndex((b) => b.id === item.batchId);
    const batch = this.batches[index];
    if (!batch) return null;
    if (
      !batch.whole &&
      this.statements
        .get(`SELECT 1 FROM sample_items si WHERE si.summary_id = @key AND ${inBatchQueue(batch, 'si')}`)
        .get({ key, annotator: this.annotatorId }) === undefined
    )
      return null;
    return { index, position: item.position };
  }

  /** find, with the summary's place in the queue (a count within its batch). */
  private locate(key: number): { index: number; position: number; at: number } | null {
    const found = this.find(key);
    if (!found) return null;
    const batch = this.batches[found.index]!;
    const { n } = this.statements
      .get(
        `SELECT count(*) AS n FROM sample_items si WHERE si.batch_id = @batch AND si.position < @position AND ${inBatchQueue(batch, 'si')}`,
      )
      .get({ ...batchParameters(batch, this.annotatorId), position: found.position }) as { n: number };
    return { ...found, at: this.before[found.index]! + n };
  }

  /** A row with its place in the queue (one count within its batch). */
  private placed(row: StoredRow): PlacedQueueRow {
    return { row: toRow(row), position: this.locate(row.key)!.at };
  }

  // --- walking -------------------------------------------------------------------------------

  /** Up to `limit` rows from after (or before) sample position `position` of batch `index`, then the next batches. */
  private walk(
    index: number,
    position: number,
    direction: 'forward' | 'backward',
    limit: number,
    where?: string,
  ): StoredRow[] {
    const rows: StoredRow[] = [];
    const forward = direction === 'forward';
    for (let i = index; rows.length < limit && i >= 0 && i < this.batches.length; i += forward ? 1 : -1) {
      const from = i === index ? position : null;
      const bound = from === null ? '' : forward ? 'AND si.position > @from' : 'AND si.position < @from';
      rows.push(
        ...this.rowsOf(
          this.batches[i]!,
          `${bound} ${where ? `AND ${where}` : ''} ORDER BY si.position ${forward ? '' : 'DESC'} LIMIT @limit`,
          { limit: limit - rows.length, ...(from === null ? {} : { from }) },
        ),
      );
    }
    return rows;
  }

  /** The earliest row of the queue with work, and its batch (index). */
  private firstWithWork(): { row: StoredRow; index: number } | null {
    for (let index = 0; index < this.batches.length; index += 1) {
      const row = this.rowsOf(this.batches[index]!, `AND ${HAS_WORK} ORDER BY si.position LIMIT 1`, {})[0];
      if (row) return { row, index };
    }
    return null;
  }

  /** Rows of `batch` (the row columns read the annotator's labels: @annotator is always bound). */
  private rowsOf(batch: QueueBatch, tail: string, parameters: Record<string, number>): StoredRow[] {
    return this.statements
      .get(`${batchRows(batch)} ${tail}`)
      .all({ batch: batch.id, annotator: this.annotatorId, ...parameters }) as StoredRow[];
  }
}
