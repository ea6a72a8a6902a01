/**
 * Migration 002: a schema-1 project with judge predictions kept from a benchmark file opens at
 * schema 2 with those predictions as an "imported" judge, and `imported_predictions` is gone.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../../db/migrations';
import { openProjectDatabase } from '../../../db/open';
import { IMPORTED_CONFIG_HASH } from '../../../db/judgeRepository';
import { Repository } from '../../../db/repository';
import { tempDir } from '../../helpers/tmp';
import { projectAtSchema } from '../../helpers/schema';

const dir = tempDir();

function schemaOneProject(path: string): void {
  const db = projectAtSchema(path, 1);
  db.exec(`
    INSERT INTO datasets (id, name, created_at) VALUES (1, 'frank', '2025-01-01T00:00:00.000Z');
    INSERT INTO documents (id, dataset_id, doc_id, text) VALUES (1, 1, 'd1', 'The council met on Tuesday.');
    INSERT INTO imports (id, kind, source, files, content_hash, summaries, labels, created_at)
      VALUES (7, 'frank', 'demo/frank', '[]', 'h', 1, 0, '2025-01-02T00:00:00.000Z');
    INSERT INTO summaries (id, dataset_id, document_id, summary_id, text, global_label, import_id)
      VALUES (1, 1, 1, 's1', 'The council met. It voted.', 1, 7);
    INSERT INTO units (id, summary_id, idx, text, start, end, fragment, splitter, splitter_version) VALUES
      (10, 1, 0, 'The council met.', 0, 16, 0, 'given', 'f'),
      (11, 1, 1, 'It voted.', 17, 26, 0, 'given', 'f');
    INSERT INTO imported_predictions (unit_id, judge, hard, soft, raw, import_id) VALUES
      (10, 'finesure-gpt-4o (imported)', 1, NULL, '{"a": 1}', 7),
      (11, 'finesure-gpt-4o (imported)', 0, NULL, NULL, 7),
      (10, 'other judge', NULL, 0.25, 'raw', 7);
  `);
  db.close();
}

describe('migration 002 (judges)', () => {
  it('moves imported predictions into an imported judge per name and drops the old table', () => {
    const path = join(dir, 'schema1.loupe');
    schemaOneProject(path);
    const db = openProjectDatabase(Database, path, { create: false });
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(2);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    const tables = (
      db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as Array<{ name: string }>
    ).map((t) => t.name);
    expect(tables).not.toContain('imported_predictions');
    expect(tables).toEqual(expect.arrayContaining(['judges', 'judge_versions', 'judge_predictions']));

    const repo = new Repository(db);
    const judges = repo.judges.listJudges();
    expect(judges.map((j) => [j.name, j.kind, j.configHash, j.versions, j.ok])).toEqual([
      ['finesure-gpt-4o (imported)', 'imported', IMPORTED_CONFIG_HASH, 1, 2],
      ['other judge', 'imported', IMPORTED_CONFIG_HASH, 1, 0],
    ]);
    const rows = db
      .prepare(
        `SELECT j.name, p.unit_id AS unitId, p.hard, p.soft, p.raw, p.source, p.import_id AS importId, p.created_at AS createdAt
         FROM judge_predictions p JOIN judge_versions v ON v.id = p.judge_version_id JOIN judges j ON j.id = v.judge_id ORDER BY p.id`,
      )
      .all();
    expect(rows).toEqual([
      {
        name: 'finesure-gpt-4o (imported)',
        unitId: 10,
        hard: 1,
        soft: null,
        raw: '{"a": 1}',
        source: 'import',
        importId: 7,
        createdAt: '2025-01-02T00:00:00.000Z',
      },
      {
        name: 'finesure-gpt-4o (imported)',
        unitId: 11,
        hard: 0,
        soft: null,
        raw: null,
        source: 'import',
        importId: 7,
        createdAt: '2025-01-02T00:00:00.000Z',
      },
      {
        name: 'other judge',
        unitId: 10,
        hard: null,
        soft: 0.25,
        raw: 'raw',
        source: 'import',
        importId: 7,
        createdAt: '2025-01-02T00:00:00.000Z',
      },
    ]);
    // The analysis sees them as predictions of the current version.
    expect(repo.judges.predictionsForDataset('frank')).toEqual([
      { summaryKey: 1, unitIndex: 0, judge: 'finesure-gpt-4o (imported)', hard: 1, soft: null, errorType: null },
      { summaryKey: 1, unitIndex: 0, judge: 'other judge', hard: null, soft: 0.25, errorType: null },
      { summaryKey: 1, unitIndex: 1, judge: 'finesure-gpt-4o (imported)', hard: 0, soft: null, errorType: null },
    ]);
    db.close();
  });

  it('migrates a schema-1 project without predictions to empty judge tables', () => {
    const path = join(dir, 'empty1.loupe');
    const raw = projectAtSchema(path, 1);
    raw.close();
    const db = openProjectDatabase(Database, path, { create: false });
    expect(new Repository(db).judges.listJudges()).toEqual([]);
    db.close();
  });
});
