/**
 * Migration 016 (queue counts): a populated project from before opens with each batch's summaries
 * and units counted (whole batches and per assignment), later sample items and assignments keep
 * the counts by trigger, and the count of summaries blocked on a missing document reads the
 * partial index of documents without text.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../db/migrations';
import { migration016 } from '../../../db/migrations/016_queue_counts';
import { tempDir } from '../../helpers/tmp';
import { ONE_SUMMARY_SEED, openAfterMigration } from '../../helpers/schema';

const dir = tempDir('loupe-queue-counts-migration-');

const SAMPLED = `
  INSERT INTO documents (id, dataset_id, doc_id, text) VALUES (2, 1, 'd2', NULL);
  INSERT INTO summaries (id, dataset_id, document_id, summary_id, text) VALUES (2, 1, 2, 's2', 'Two. Sentences.');
  INSERT INTO units (id, summary_id, idx, text, start, end, fragment, splitter, splitter_version)
    VALUES (20, 2, 0, 'Two.', 0, 4, 0, 'given', 'f'), (21, 2, 1, 'Sentences.', 5, 15, 0, 'given', 'f');
  INSERT INTO sample_batches (id, dataset_id, batch, seed, requested, annotator_id, algorithm, created_at)
    VALUES (1, 1, 1, 1, 2, NULL, 'a', 'x'), (2, 1, 2, 1, 2, NULL, 'a', 'x');
  INSERT INTO sample_items (batch_id, summary_id, position) VALUES (1, 1, 0), (1, 2, 1);
`;

describe('migration 016 (queue counts)', () => {
  it('counts the batches of a populated project, keeps the counts as samples are drawn, indexes missing documents', () => {
    expect(MIGRATIONS.indexOf(migration016)).toBe(MIGRATIONS.length - 1);
    const db = openAfterMigration(join(dir, 'before.loupe'), migration016, ONE_SUMMARY_SEED, SAMPLED);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(db.prepare('SELECT batch_id, summaries, units FROM sample_batch_counts').all()).toEqual([
        { batch_id: 1, summaries: 2, units: 3 },
      ]);
      db.exec(
        'INSERT INTO sample_assignments (batch_id, summary_id, annotator_id) VALUES (2, 2, 1), (2, 1, 1), (2, 2, 2)',
      );
      expect(db.prepare('SELECT * FROM sample_assignment_counts ORDER BY annotator_id').all()).toEqual([
        { batch_id: 2, annotator_id: 1, summaries: 2, units: 3 },
        { batch_id: 2, annotator_id: 2, summaries: 1, units: 2 },
      ]);
      const plan = (
        db
          .prepare('EXPLAIN QUERY PLAN SELECT id FROM documents INDEXED BY documents_missing_text WHERE text IS NULL')
          .all() as Array<{ detail: string }>
      )
        .map((r) => r.detail)
        .join('\n');
      expect(plan).toContain('documents_missing_text');
      expect(
        db.prepare('SELECT id FROM documents INDEXED BY documents_missing_text WHERE text IS NULL').pluck().all(),
      ).toEqual([2]);
    } finally {
      db.close();
    }
  });
});
