/**
 * Migration 015 (counts by index): a populated project from before opens with its rows unchanged;
 * judges.list counts only each judge's current version, from index ranges (never a read of the
 * prediction rows); datasets.list counts missing documents from their partial index; the
 * suspicious candidates find the hard-0 predictions in that index too. The plans checked are those
 * of the SQL the repositories really prepare.
 */
import type Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../db/migrations';
import { migration015 } from '../../../db/migrations/015_count_indexes';
import { JudgeRepository } from '../../../db/judgeRepository';
import { Repository } from '../../../db/repository';
import { ReviewRepository } from '../../../db/reviewRepository';
import { tempDir } from '../../helpers/tmp';
import { openAfterMigration } from '../../helpers/schema';

const dir = tempDir('loupe-count-indexes-migration-');

/** Two summaries of two sentences; judge A has an old version and a current one with every kind of row. */
const SEED = `
  INSERT INTO datasets (id, name, created_at) VALUES (1, 'news', 'x');
  INSERT INTO documents (id, dataset_id, doc_id, text) VALUES (1, 1, 'd1', 'The council met.'), (2, 1, 'd2', NULL);
  INSERT INTO summaries (id, dataset_id, document_id, summary_id, text, global_label) VALUES
    (1, 1, 1, 's1', 'One. Two.', 1), (2, 1, 2, 's2', 'Three. Four.', 1);
  INSERT INTO units (id, summary_id, idx, text, start, end, fragment, splitter, splitter_version) VALUES
    (10, 1, 0, 'One.', 0, 4, 0, 'given', 'f'), (11, 1, 1, 'Two.', 5, 9, 0, 'given', 'f'),
    (20, 2, 0, 'Three.', 0, 6, 0, 'given', 'f'), (21, 2, 1, 'Four.', 7, 12, 0, 'given', 'f');
  INSERT INTO judges (id, name, kind, config, created_at, updated_at) VALUES
    (1, 'a', 'endpoint', '{}', 'x', 'x'), (2, 'b', 'imported', NULL, 'x', 'x');
  INSERT INTO judge_versions (id, judge_id, config_hash, config, created_at) VALUES
    (1, 1, 'old', '{}', 'x'), (2, 1, 'new', '{}', 'x'), (3, 2, 'imported', '{}', 'x');
  UPDATE judges SET current_version_id = 2 WHERE id = 1;
  UPDATE judges SET current_version_id = 3 WHERE id = 2;
  INSERT INTO judge_predictions (unit_id, judge_version_id, hard, soft, parse_error, error_kind, source, created_at) VALUES
    (10, 1, 0, 0.1, NULL, NULL, 'run', 'x'), (11, 1, 0, 0.2, NULL, NULL, 'run', 'x'),
    (10, 2, 1, 0.9, NULL, NULL, 'run', 'x'), (11, 2, 0, NULL, NULL, NULL, 'run', 'x'),
    (20, 2, NULL, NULL, 'no verdict in the answer', NULL, 'run', 'x'), (21, 2, NULL, NULL, NULL, 'timeout', 'run', 'x'),
    (10, 3, 1, NULL, NULL, NULL, 'import', 'x'), (20, 3, 0, NULL, NULL, NULL, 'import', 'x');
`;

/** Every SQL text `db.prepare` receives while `read` runs. */
function preparedDuring(db: Database.Database, read: () => void): string[] {
  const seen: string[] = [];
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    seen.push(sql);
    return prepare(sql);
  }) as typeof db.prepare;
  try {
    read();
  } finally {
    db.prepare = prepare;
  }
  return seen;
}

function planOf(db: Database.Database, sql: string, params: unknown[]): string {
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>)
    .map((r) => r.detail)
    .join('\n');
}

describe('migration 015 (counts by index)', () => {
  it('migrates a populated project; the counts are those of the current versions, read from indexes', () => {
    expect(MIGRATIONS.indexOf(migration015)).toBe(14);
    const db = openAfterMigration(join(dir, 'before.loupe'), migration015, SEED);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(db.prepare('SELECT count(*) FROM judge_predictions').pluck().get()).toBe(8);

      const judges = new JudgeRepository(db);
      let listed: ReturnType<JudgeRepository['listJudges']> = [];
      const [judgesSql] = preparedDuring(db, () => (listed = judges.listJudges()));
      expect(listed.map((j) => [j.name, j.versions, j.ok, j.soft, j.parseErrors, j.failed])).toEqual([
        ['a', 2, 2, 1, 1, 1],
        ['b', 1, 2, 0, 0, 0],
      ]);
      const judgesPlan = planOf(db, judgesSql!, []);
      expect(judgesPlan).toContain('COVERING INDEX judge_predictions_labels (judge_version_id=?)');
      expect(judgesPlan).toContain('judge_predictions_failed (judge_version_id=?)');
      expect(judgesPlan).toContain('judge_predictions_unparsed (judge_version_id=?)');
      expect(judgesPlan).not.toMatch(/SCAN p\b/);

      const repo = new Repository(db);
      let stats: ReturnType<Repository['datasetStats']> = [];
      const [statsSql] = preparedDuring(db, () => (stats = repo.datasetStats()));
      expect(stats.map((d) => [d.name, d.documents, d.documentsMissing, d.summaries, d.units])).toEqual([
        ['news', 2, 1, 2, 4],
      ]);
      expect(planOf(db, statsSql!, [])).toContain('documents_missing (dataset_id=?)');

      const review = new ReviewRepository(db);
      let candidates: number[] = [];
      const [suspiciousSql] = preparedDuring(db, () => (candidates = review.queueCandidates('news', 'suspicious')));
      // Faithful summaries some current version flags: s1 by a (unit 11), s2 by b (unit 20); the old version's flags do not count.
      expect(candidates).toEqual([1, 2]);
      expect(planOf(db, suspiciousSql!, ['news'])).toContain(
        'COVERING INDEX judge_predictions_labels (judge_version_id=?)',
      );
    } finally {
      db.close();
    }
  });
});
