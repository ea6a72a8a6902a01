/**
 * Migration 006 (task_results) and the generic store of JSON-output kinds (db/taskRepository.ts):
 * a populated schema-5 project opens at schema 6 with its judge predictions (and their cache keys)
 * unchanged and an empty task_results; outputs are validated by the kind's schema on write and on
 * read; a valid output is never overwritten, a failure is.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../db/migrations';
import { migration006 } from '../../../db/migrations/006_task_results';
import { openProjectDatabase } from '../../../db/open';
import { Repository } from '../../../db/repository';
import type { TaskResultRecord } from '../../../db/taskRepository';
import { tempDir } from '../../helpers/tmp';
import { openAfterMigration } from '../../helpers/schema';

const dir = tempDir('loupe-task-migration-');

describe('migration 006 (task results)', () => {
  it('opens a populated schema-5 project with its judge predictions unchanged and an empty task_results', () => {
    expect(MIGRATIONS.indexOf(migration006)).toBe(5);
    const path = join(dir, 'schema5.loupe');
    const db = openAfterMigration(
      path,
      migration006,
      `
      INSERT INTO datasets (id, name, created_at) VALUES (1, 'news', 'x');
      INSERT INTO documents (id, dataset_id, doc_id, text) VALUES (1, 1, 'd1', 'The council met.');
      INSERT INTO summaries (id, dataset_id, document_id, summary_id, text, global_label) VALUES (1, 1, 1, 's1', 'The council met.', 1);
      INSERT INTO units (id, summary_id, idx, text, start, end, fragment, splitter, splitter_version) VALUES (10, 1, 0, 'The council met.', 0, 16, 0, 'given', 'f');
      INSERT INTO judges (id, name, kind, config, api_key_env, created_at, updated_at) VALUES (1, 'j', 'baseline', '{"kind":"baseline"}', NULL, 'x', 'x');
      INSERT INTO judge_versions (id, judge_id, config_hash, config, created_at) VALUES (1, 1, 'h', '{}', 'x');
      UPDATE judges SET current_version_id = 1;
      INSERT INTO judge_predictions (unit_id, judge_version_id, hard, soft, raw, cache_key, source, created_at)
        VALUES (10, 1, 1, 0.75, 'why', 'stored-key', 'run', 'x');
    `,
    );
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(db.prepare('SELECT count(*) FROM task_results').pluck().get()).toBe(0);
      const repo = new Repository(db);
      expect(repo.judges.cachedAnswer('stored-key')).toEqual({
        hard: 1,
        soft: 0.75,
        raw: 'why',
        parseError: null,
        tokensIn: null,
        tokensOut: null,
      });
      expect(repo.judges.listJudges().map((j) => [j.name, j.ok, j.soft])).toEqual([['j', 1, 1]]);
      expect(repo.tasks.counts()).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('refuses a row with both or neither of an output and an error kind', () => {
    const db = openProjectDatabase(Database, join(dir, 'check.loupe'), { create: true });
    const insert = db.prepare(
      `INSERT INTO task_results (kind, kind_version, config_hash, item, output, error_kind, cache_key, source, created_at) VALUES ('k', 1, 'h', ?, ?, ?, 'c', 'run', 'x')`,
    );
    expect(() => insert.run('a', '{}', 'parse_error')).toThrow(/CHECK/);
    expect(() => insert.run('b', null, null)).toThrow(/CHECK/);
    expect(insert.run('c', '{}', null).changes).toBe(1);
    db.close();
  });
});

const Words = z.object({ words: z.array(z.string().min(1)).min(1) });
type Words = z.infer<typeof Words>;
const kind = { name: 'words', version: 1, schema: Words };

function record(item: string, patch: Partial<TaskResultRecord<Words>> = {}): TaskResultRecord<Words> {
  return {
    configHash: 'cfg',
    item,
    output: { words: ['council'] },
    raw: '{"words": ["council"]}',
    errorKind: null,
    errorMessage: null,
    tokensIn: 10,
    tokensOut: 5,
    latencyMs: 12,
    cacheKey: `key-${item}`,
    source: 'run',
    ...patch,
  };
}

describe('task results (db/taskRepository.ts)', () => {
  const open = (name: string) => {
    const db = openProjectDatabase(Database, join(dir, `${name}.loupe`), { create: true });
    return { db, results: new Repository(db).tasks.forKind(kind) };
  };

  it('validates outputs on write: an output that does not match the schema is refused, nothing of the batch is written', () => {
    const { db, results } = open('write');
    expect(() => results.save([record('unit:1'), record('unit:2', { output: { words: [] } })])).toThrow(
      /does not match its schema/,
    );
    expect(() => results.save([record('unit:3', { output: null })])).toThrow(/either an output or an error kind/);
    expect(results.results('cfg')).toEqual([]);
    db.close();
  });

  it('a stored failure is replaced by the next answer; a stored output is never overwritten', () => {
    const { db, results } = open('replace');
    results.save([
      record('unit:1', {
        output: null,
        raw: 'prose',
        errorKind: 'parse_error',
        errorMessage: 'no JSON object or list in the answer',
      }),
    ]);
    expect(results.completedItems('cfg')).toEqual(new Set());
    expect(results.cachedOutput('key-unit:1')).toBeNull();
    expect(results.result('cfg', 'unit:1')).toMatchObject({ output: null, raw: 'prose', errorKind: 'parse_error' });
    expect(results.save([record('unit:1')])).toBe(1);
    expect(results.result('cfg', 'unit:1')).toMatchObject({ output: { words: ['council'] }, errorKind: null });
    expect(
      results.save([
        record('unit:1', { output: { words: ['other'] } }),
        record('unit:1', { output: null, errorKind: 'server_error', errorMessage: 'HTTP 500' }),
      ]),
    ).toBe(0);
    expect(results.result('cfg', 'unit:1')!.output).toEqual({ words: ['council'] });
    expect(results.completedItems('cfg')).toEqual(new Set(['unit:1']));
    expect(results.cachedOutput('key-unit:1')).toEqual({
      output: { words: ['council'] },
      raw: '{"words": ["council"]}',
      tokensIn: 10,
      tokensOut: 5,
    });
    // Another kind (or version) does not see these results.
    expect(new Repository(db).tasks.forKind({ ...kind, version: 2 }).completedItems('cfg')).toEqual(new Set());
    db.close();
  });

  it('validates outputs on read: a stored output that no longer matches is not done, not a cache hit, and is replaced', () => {
    const { db, results } = open('read');
    results.save([record('unit:1'), record('unit:2')]);
    db.prepare(`UPDATE task_results SET output = '{"words": "council"}' WHERE item = 'unit:2'`).run();
    expect(results.completedItems('cfg')).toEqual(new Set(['unit:1']));
    expect(results.cachedOutput('key-unit:2')).toBeNull();
    expect(results.result('cfg', 'unit:2')).toMatchObject({
      output: null,
      errorKind: 'parse_error',
      errorMessage: expect.stringMatching(/does not match the schema/),
    });
    expect(results.save([record('unit:2', { output: { words: ['budget'] } })])).toBe(1);
    expect(results.result('cfg', 'unit:2')!.output).toEqual({ words: ['budget'] });
    db.close();
  });
});
