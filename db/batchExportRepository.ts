/**
 * SQL of batch request files (schema 12): each file written is an export with an id, the kind and
 * configuration version it asks for, its selection and the item keys of its requests, so an answer
 * file is checked against the file it answers.
 */
import type { Statement } from 'better-sqlite3';
import type { Database } from './open';

export interface NewBatchExport {
  id: string;
  kind: string;
  configHash: string;
  /** What it was written for, in words: the judge, or the task and model. */
  target: string;
  /** The dataset's name; null: every dataset. */
  dataset: string | null;
  onlySampled: boolean;
}

export interface BatchExportRow extends NewBatchExport {
  /** Request lines the file holds. */
  requests: number;
  createdAt: string;
}

export class BatchExportRepository {
  constructor(private readonly db: Database) {}

  /** Starts an export: not found by `get` until `finish` gives its request count. */
  begin(e: NewBatchExport): void {
    this.db
      .prepare(
        `INSERT INTO batch_exports (id, kind, config_hash, target, dataset, only_sampled, requests, created_at) VALUES (?, ?, ?, ?, ?, ?, NULL, ?)`,
      )
      .run(e.id, e.kind, e.configHash, e.target, e.dataset, e.onlySampled ? 1 : 0, new Date().toISOString());
  }

  addItems(id: string, itemKeys: readonly string[]): void {
    const insert = this.db.prepare(`INSERT OR IGNORE INTO batch_export_items (export_id, item_key) VALUES (?, ?)`);
    this.db.transaction(() => {
      for (const key of itemKeys) insert.run(id, key);
    })();
  }

  finish(id: string, requests: number): void {
    this.db.prepare(`UPDATE batch_exports SET requests = ? WHERE id = ?`).run(requests, id);
  }

  /** An export that was not written to the end: it and its items go. */
  discard(id: string): void {
    this.db.prepare(`DELETE FROM batch_exports WHERE id = ?`).run(id);
  }

  /** A completed export, or null. */
  get(id: string): BatchExportRow | null {
    const row = this.db
      .prepare(
        `SELECT id, kind, config_hash AS configHash, target, dataset, only_sampled AS onlySampled, requests, created_at AS createdAt
           FROM batch_exports WHERE id = ? AND requests IS NOT NULL`,
      )
      .get(id) as (Omit<BatchExportRow, 'onlySampled'> & { onlySampled: number }) | undefined;
    return row ? { ...row, onlySampled: row.onlySampled === 1 } : null;
  }

  /** Whether the export has a request for this item (asked once per answer line: the statement is kept). */
  includes(id: string, itemKey: string): boolean {
    this.includesStatement ??= this.db.prepare<[string, string]>(
      `SELECT 1 FROM batch_export_items WHERE export_id = ? AND item_key = ?`,
    );
    return this.includesStatement.get(id, itemKey) !== undefined;
  }

  private includesStatement: Statement<[string, string]> | null = null;
}
