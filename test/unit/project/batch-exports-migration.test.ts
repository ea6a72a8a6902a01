/**
 * Migration 012 (batch request files): a populated project from before opens with its sentences
 * unchanged and no request file recorded; a request file is found only once written to the end,
 * holds its item keys, and goes with them when discarded.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BatchExportRepository } from '../../../db/batchExportRepository';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../db/migrations';
import { migration012 } from '../../../db/migrations/012_batch_exports';
import { tempDir } from '../../helpers/tmp';
import { ONE_SUMMARY_SEED, openAfterMigration } from '../../helpers/schema';

const dir = tempDir('loupe-batch-exports-migration-');
const HASH = 'a'.repeat(64);

describe('migration 012 (batch request files)', () => {
  it('migrates a populated project; request files are recorded, found when complete, and discarded with their items', () => {
    expect(MIGRATIONS.indexOf(migration012)).toBeGreaterThanOrEqual(10);
    const path = join(dir, 'before.loupe');
    const db = openAfterMigration(path, migration012, ONE_SUMMARY_SEED);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(db.prepare('SELECT id, text FROM units').all()).toEqual([{ id: 10, text: 'The council met.' }]);
      expect(db.prepare('SELECT count(*) AS n FROM batch_exports').get()).toEqual({ n: 0 });

      const files = new BatchExportRepository(db);
      const file = {
        id: '0123456789abcdef',
        kind: 'sentence-verdict',
        configHash: HASH,
        target: 'judge "j"',
        dataset: 'news',
        onlySampled: true,
      };
      files.begin(file);
      files.addItems(file.id, ['unit:10', 'unit:11']);
      expect(files.get(file.id)).toBeNull(); // still being written
      files.finish(file.id, 2);
      expect(files.get(file.id)).toEqual({
        ...file,
        requests: 2,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      expect(files.includes(file.id, 'unit:10')).toBe(true);
      expect(files.includes(file.id, 'unit:12')).toBe(false);
      expect(() => files.begin({ ...file, id: 'short' })).toThrow(/CHECK/);

      files.discard(file.id);
      expect(files.get(file.id)).toBeNull();
      expect(db.prepare('SELECT count(*) AS n FROM batch_export_items').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });
});
