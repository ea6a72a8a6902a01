/**
 * Migration 014 (paged lists): a populated project from before opens with its rows unchanged, and
 * a page of a dataset's summaries or documents after a cursor key is read from the new indexes in
 * key order, with no temp B-tree for the page order.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../db/migrations';
import { migration014 } from '../../../db/migrations/014_list_pages';
import { tempDir } from '../../helpers/tmp';
import { ONE_SUMMARY_SEED, openAfterMigration } from '../../helpers/schema';

const dir = tempDir('loupe-list-pages-migration-');

const plan = (db: ReturnType<typeof openAfterMigration>, sql: string): string =>
  (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(1, 0) as Array<{ detail: string }>).map((r) => r.detail).join('\n');

describe('migration 014 (paged lists)', () => {
  it('migrates a populated project; a page in key order is an index range', () => {
    expect(MIGRATIONS.indexOf(migration014)).toBe(13);
    const db = openAfterMigration(join(dir, 'before.loupe'), migration014, ONE_SUMMARY_SEED);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(db.prepare('SELECT id, summary_id AS summaryId FROM summaries').all()).toEqual([
        { id: 1, summaryId: 's1' },
      ]);
      const summaries = plan(db, 'SELECT id FROM summaries WHERE dataset_id = ? AND id > ? ORDER BY id LIMIT 201');
      expect(summaries).toContain('summaries_dataset_key (dataset_id=? AND id>?)');
      expect(summaries).not.toContain('TEMP B-TREE');
      const documents = plan(db, 'SELECT id FROM documents WHERE dataset_id = ? AND id > ? ORDER BY id LIMIT 201');
      expect(documents).toContain('documents_dataset_key (dataset_id=? AND id>?)');
      expect(documents).not.toContain('TEMP B-TREE');
    } finally {
      db.close();
    }
  });
});
