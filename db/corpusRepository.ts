/**
 * SQL of the corpus as the claims, key-fact, scaffold and task features read it: documents,
 * summaries and their sentences by key, and the selections an LLM task runs over (the summaries of
 * a dataset or of its samples, every document of a dataset).
 */
import type { Database } from './open';

export class CorpusRepository {
  constructor(private readonly db: Database) {}

  documentKey(dataset: string, docId: string): number | null {
    const row = this.db
      .prepare(
        'SELECT d.id FROM documents d JOIN datasets ds ON ds.id = d.dataset_id WHERE ds.name = ? AND d.doc_id = ?',
      )
      .get(dataset, docId) as { id: number } | undefined;
    return row?.id ?? null;
  }

  summaryKey(dataset: string, summaryId: string): number | null {
    const row = this.db
      .prepare(
        'SELECT s.id FROM summaries s JOIN datasets ds ON ds.id = s.dataset_id WHERE ds.name = ? AND s.summary_id = ?',
      )
      .get(dataset, summaryId) as { id: number } | undefined;
    return row?.id ?? null;
  }

  /** The public id of each of the given summaries (one query; a batch of an export). */
  summaryIds(keys: readonly number[]): Array<{ key: number; summaryId: string }> {
    return this.db
      .prepare('SELECT id AS key, summary_id AS summaryId FROM summaries WHERE id IN (SELECT value FROM json_each(?))')
      .all(JSON.stringify(keys)) as Array<{ key: number; summaryId: string }>;
  }

  summaryInfo(key: number): {
    key: number;
    dataset: string;
    summaryId: string;
    docId: string;
    documentKey: number;
    document: string | null;
    text: string;
    system: string | null;
  } | null {
    const row = this.db
      .prepare(
        `SELECT s.id AS key, ds.name AS dataset, s.summary_id AS summaryId, d.doc_id AS docId, d.id AS documentKey, d.text AS document, s.text AS text,
                (SELECT sy.name FROM system_outputs o JOIN systems sy ON sy.id = o.system_id WHERE o.summary_id = s.id ORDER BY o.id LIMIT 1) AS system
         FROM summaries s JOIN datasets ds ON ds.id = s.dataset_id JOIN documents d ON d.id = s.document_id WHERE s.id = ?`,
      )
      .get(key) as ReturnType<CorpusRepository['summaryInfo']> | undefined;
    return row ?? null;
  }

  documentInfo(
    documentKey: number,
  ): { documentKey: number; dataset: string; docId: string; text: string | null } | null {
    const row = this.db
      .prepare(
        'SELECT d.id AS documentKey, ds.name AS dataset, d.doc_id AS docId, d.text AS text FROM documents d JOIN datasets ds ON ds.id = d.dataset_id WHERE d.id = ?',
      )
      .get(documentKey) as ReturnType<CorpusRepository['documentInfo']> | undefined;
    return row ?? null;
  }

  sentences(summaryKey: number): Array<{ unitId: number; index: number; text: string }> {
    return this.db
      .prepare('SELECT id AS unitId, idx AS "index", text FROM units WHERE summary_id = ? ORDER BY idx')
      .all(summaryKey) as Array<{ unitId: number; index: number; text: string }>;
  }

  summaryIdTaken(documentKey: number, summaryId: string): boolean {
    return (
      this.db
        .prepare(
          'SELECT 1 FROM summaries s JOIN documents d ON d.dataset_id = s.dataset_id WHERE d.id = ? AND s.summary_id = ?',
        )
        .get(documentKey, summaryId) !== undefined
    );
  }

  // --- task selections -------------------------------------------------------------------------------

  /** Summaries of a selection, in a stable order (document, then summary). */
  selectSummaries(
    dataset: string | null,
    onlySampled: boolean,
  ): Array<{
    key: number;
    summaryId: string;
    dataset: string;
    documentKey: number;
    docId: string;
    hasDocument: boolean;
  }> {
    const rows = this.db
      .prepare(
        `SELECT s.id AS key, s.summary_id AS summaryId, ds.name AS dataset, d.id AS documentKey, d.doc_id AS docId, d.text IS NOT NULL AS hasDocument
         FROM summaries s JOIN datasets ds ON ds.id = s.dataset_id JOIN documents d ON d.id = s.document_id
         WHERE (? IS NULL OR ds.name = ?) AND (? = 0 OR EXISTS (SELECT 1 FROM sample_items i WHERE i.summary_id = s.id))
         ORDER BY d.id, s.id`,
      )
      .all(dataset, dataset, onlySampled ? 1 : 0) as Array<{
      key: number;
      summaryId: string;
      dataset: string;
      documentKey: number;
      docId: string;
      hasDocument: number;
    }>;
    return rows.map((r) => ({ ...r, hasDocument: r.hasDocument === 1 }));
  }

  /** Documents of a dataset (every document, summarised or not: what a system under test is asked about). */
  selectDocuments(dataset: string): Array<{ documentKey: number; docId: string; dataset: string; hasText: boolean }> {
    const rows = this.db
      .prepare(
        `SELECT d.id AS documentKey, d.doc_id AS docId, ds.name AS dataset, d.text IS NOT NULL AS hasText
         FROM documents d JOIN datasets ds ON ds.id = d.dataset_id WHERE ds.name = ? ORDER BY d.id`,
      )
      .all(dataset) as Array<{ documentKey: number; docId: string; dataset: string; hasText: number }>;
    return rows.map((r) => ({ ...r, hasText: r.hasText === 1 }));
  }
}
