/**
 * Assignments with overlap: the pure deal (shared/sampling.ts assignWithOverlap:
 * deterministic from the seed, the overlap count exact, balanced loads, never the same annotator
 * twice on an item), sampling.draw with annotators and overlap through the dispatcher, each
 * annotator's queue holding exactly their items, older batches (shared, or one annotator's)
 * unchanged, and migration 005 on a populated project. The CLI flags are in
 * test/integration/sampling-cli.test.ts.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assignWithOverlap, drawSample } from '../../../shared/sampling';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../db/migrations';
import { migration005 } from '../../../db/migrations/005_assignments';
import { Repository } from '../../../db/repository';
import { createCore, type Core } from '../../../electron/core/index';
import { dispatch } from '../../../electron/core/dispatch';
import { runImport } from '../../../electron/core/imports/run';
import type { SampleBatch, SampleBatchInfo } from '../../../shared/api';
import { newsRows, writeJsonl } from '../../helpers/project';
import { tempDir } from '../../helpers/tmp';
import { openAfterMigration } from '../../helpers/schema';

const dir = tempDir('loupe-assign-');
const items = (n: number) => Array.from({ length: n }, (_, i) => `s${i}`);

function loads(assignment: Array<{ annotators: string[] }>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const a of assignment) for (const name of a.annotators) counts.set(name, (counts.get(name) ?? 0) + 1);
  return counts;
}

describe('assignWithOverlap (pure)', () => {
  it('is deterministic from the seed, whatever the order the annotators are given in', () => {
    const a = assignWithOverlap('d', items(40), ['alice', 'bob', 'carol'], 0.2, 0);
    expect(assignWithOverlap('d', items(40), ['alice', 'bob', 'carol'], 0.2, 0)).toEqual(a);
    expect(assignWithOverlap('d', items(40), ['carol', 'alice', 'bob'], 0.2, 0)).toEqual(a);
    const other = [1, 2, 3, 4, 5].map((seed) =>
      assignWithOverlap('d', items(40), ['alice', 'bob', 'carol'], 0.2, seed),
    );
    expect(other.some((x) => JSON.stringify(x) !== JSON.stringify(a))).toBe(true);
    expect(a.map((x) => x.item)).toEqual(items(40)); // the batch order is kept
  });

  it('gives exactly round(overlap · n) items to two different annotators and the rest to one', () => {
    for (const [n, overlap, k] of [
      [25, 0.2, 3],
      [10, 0.25, 2],
      [7, 0.5, 4],
      [40, 1, 3],
      [13, 0, 3],
      [1, 0.6, 2],
      [0, 0.5, 2],
      [9, 0.05, 5],
    ] as const) {
      const names = Array.from({ length: k }, (_, i) => `a${i}`);
      const result = assignWithOverlap('d', items(n), names, overlap, 3);
      const doubled = result.filter((x) => x.annotators.length === 2);
      expect(doubled.length, `${n} ${overlap}`).toBe(Math.round(overlap * n));
      expect(result.every((x) => x.annotators.length === 1 || x.annotators.length === 2)).toBe(true);
      expect(doubled.every((x) => x.annotators[0] !== x.annotators[1])).toBe(true);
      // Balanced: loads differ by at most one, over all k annotators.
      const counts = loads(result);
      const all = names.map((name) => counts.get(name) ?? 0);
      expect(Math.max(...all) - Math.min(...all), `${n} ${overlap} ${k}`).toBeLessThanOrEqual(1);
      expect(all.reduce((x, y) => x + y, 0)).toBe(n + doubled.length);
    }
  });

  it('spreads the shared items over the pairs and over the batch', () => {
    const result = assignWithOverlap('d', items(60), ['a', 'b', 'c'], 0.5, 0);
    const pairs = new Map<string, number>();
    for (const x of result.filter((r) => r.annotators.length === 2)) {
      const key = [...x.annotators].sort().join('+');
      pairs.set(key, (pairs.get(key) ?? 0) + 1);
    }
    expect([...pairs.keys()].sort()).toEqual(['a+b', 'a+c', 'b+c']);
    expect(Math.max(...pairs.values()) - Math.min(...pairs.values())).toBeLessThanOrEqual(1);
    // Evenly spread: the doubled items alternate with the single ones at overlap 0.5.
    expect(result.filter((_, i) => i < 10).filter((r) => r.annotators.length === 2)).toHaveLength(5);
  });

  it('refuses what cannot be done', () => {
    expect(() => assignWithOverlap('d', items(5), [], 0, 0)).toThrow(/at least one/);
    expect(() => assignWithOverlap('d', items(5), ['a', 'a'], 0, 0)).toThrow(/repeat/);
    expect(() => assignWithOverlap('d', items(5), ['a', 'b'], 1.5, 0)).toThrow(/\[0, 1\]/);
    expect(() => assignWithOverlap('d', items(5), ['a'], 0.5, 0)).toThrow(/two annotators/);
    expect(assignWithOverlap('d', items(5), ['a'], 0, 0).every((x) => x.annotators[0] === 'a')).toBe(true);
  });
});

describe('sampling.draw with annotators and overlap', () => {
  let core: Core;
  const call = async <T>(method: string, input: unknown): Promise<T> => {
    const result = await dispatch(core.handlers, method, input);
    if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
    return result.value as T;
  };
  const queueIds = async (annotator: string) =>
    (await call<{ items: Array<{ summaryId: string }> }>('annotation.queue', { annotator, dataset: 'news' })).items.map(
      (i) => i.summaryId,
    );

  let shared: SampleBatch;
  let bobs: SampleBatch;
  let split: SampleBatch;
  beforeAll(async () => {
    core = createCore({
      Database,
      stateDir: dir,
      demoDir: dir,
      host: 'web',
      fileDialogs: false,
      diskPaths: false,
      canSwitchProjects: false,
    });
    core.createProject(join(dir, 'assign.loupe'));
    await runImport(core.repository(), {
      source: { type: 'path', path: writeJsonl(join(dir, 'news.jsonl'), newsRows(40)) },
    });
    // Old-style batches first: one shared by everyone, one for bob alone.
    shared = await call<SampleBatch>('sampling.draw', { dataset: 'news', n: 3, seed: 0 });
    bobs = await call<SampleBatch>('sampling.draw', { dataset: 'news', n: 2, seed: 0, annotator: 'bob' });
    split = await call<SampleBatch>('sampling.draw', {
      dataset: 'news',
      n: 20,
      seed: 0,
      annotators: ['alice', 'bob', 'carol'],
      overlap: 0.2,
    });
  });

  it('stores the deal of assignWithOverlap on the batch drawn (hash-rank order as before)', () => {
    expect(split.summaryIds).toHaveLength(20);
    expect(split.overlap).toBe(0.2);
    expect(shared.assignments).toEqual([]);
    expect(shared.overlap).toBeNull();
    const remaining = newsRows(40)
      .map((r) => ({ summaryId: r.summary_id }))
      .filter((r) => !shared.summaryIds.includes(r.summaryId) && !bobs.summaryIds.includes(r.summaryId));
    expect(split.summaryIds).toEqual(drawSample('news', remaining, 20, 0).map((r) => r.summaryId));
    const expected = assignWithOverlap('news', split.summaryIds, ['alice', 'bob', 'carol'], 0.2, 0);
    for (const name of ['alice', 'bob', 'carol']) {
      expect(split.assignments.find((a) => a.annotator === name)!.summaryIds).toEqual(
        expected.filter((x) => x.annotators.includes(name)).map((x) => x.item),
      );
    }
    const total = split.assignments.reduce((n, a) => n + a.summaryIds.length, 0);
    expect(total - 20).toBe(4); // round(0.2 · 20) by two
    expect(split.assignments.map((a) => a.summaryIds.length).sort()).toEqual([8, 8, 8]);
  });

  it("gives each annotator exactly their items, beside the older batches' as before", async () => {
    const byName = (name: string) => split.assignments.find((a) => a.annotator === name)!.summaryIds;
    expect(await queueIds('alice')).toEqual([...shared.summaryIds, ...byName('alice')]);
    expect(await queueIds('bob')).toEqual([...shared.summaryIds, ...bobs.summaryIds, ...byName('bob')]);
    expect(await queueIds('carol')).toEqual([...shared.summaryIds, ...byName('carol')]);
    // Someone outside the split sees only what everyone sees.
    expect(await queueIds('dave')).toEqual(shared.summaryIds);
    const listed = await call<SampleBatchInfo[]>('sampling.list', { dataset: 'news' });
    expect(listed.map((b) => [b.batch, b.assignments.length, b.annotator])).toEqual([
      [1, 0, null],
      [2, 0, 'bob'],
      [3, 3, null],
    ]);
    // The list carries counts, not ids: the same counts as the drawn batch's ids.
    expect(listed[2]).not.toHaveProperty('summaryIds');
    expect(listed[2]!.summaries).toBe(split.summaryIds.length);
    expect(listed[2]!.assignments).toEqual(
      split.assignments.map((a) => ({ annotator: a.annotator, summaries: a.summaryIds.length })),
    );
    expect(listed[1]!.summaries).toBe(bobs.summaryIds.length);
  });

  it('refuses an overlap without annotators, repeated names, or both --annotator and annotators', async () => {
    await expect(call('sampling.draw', { dataset: 'news', n: 2, seed: 0, overlap: 0.5 })).rejects.toThrow(
      /invalid_input.*needs annotators/,
    );
    await expect(call('sampling.draw', { dataset: 'news', n: 2, seed: 0, annotators: ['a', 'a'] })).rejects.toThrow(
      /repeat/,
    );
    await expect(
      call('sampling.draw', { dataset: 'news', n: 2, seed: 0, annotators: ['a'], overlap: 0.5 }),
    ).rejects.toThrow(/two annotators/);
    await expect(
      call('sampling.draw', { dataset: 'news', n: 2, seed: 0, annotator: 'a', annotators: ['b', 'c'] }),
    ).rejects.toThrow(/not both/);
    await expect(
      call('sampling.draw', { dataset: 'news', n: 2, seed: 0, annotators: ['b', 'c'], overlap: 2 }),
    ).rejects.toThrow(/invalid_input/);
    // Nothing was drawn by the refused calls.
    expect((await call<SampleBatchInfo[]>('sampling.list', { dataset: 'news' })).length).toBe(3);
  });
});

describe('migration 005 (sample assignments)', () => {
  it('opens a populated project of the previous schema with its batches and queues unchanged', () => {
    expect(MIGRATIONS.indexOf(migration005)).toBe(4);
    const path = join(dir, 'previous.loupe');
    const db = openAfterMigration(
      path,
      migration005,
      `
      INSERT INTO datasets (id, name, created_at) VALUES (1, 'news', 'x');
      INSERT INTO documents (id, dataset_id, doc_id, text) VALUES (1, 1, 'd1', 'A document.');
      INSERT INTO summaries (id, dataset_id, document_id, summary_id, text, global_label) VALUES (1, 1, 1, 's1', 'One. Two.', 1), (2, 1, 1, 's2', 'Three. Four.', 0);
      INSERT INTO units (id, summary_id, idx, text, start, end, fragment, splitter, splitter_version) VALUES
        (10, 1, 0, 'One.', 0, 4, 1, 'given', 'f'), (11, 1, 1, 'Two.', 5, 9, 1, 'given', 'f'),
        (20, 2, 0, 'Three.', 0, 6, 1, 'given', 'f'), (21, 2, 1, 'Four.', 7, 12, 1, 'given', 'f');
      INSERT INTO annotators (id, name, created_at) VALUES (1, 'alice', 'x'), (2, 'bob', 'x');
      INSERT INTO sample_batches (id, dataset_id, batch, seed, requested, annotator_id, algorithm, created_at) VALUES
        (1, 1, 1, 0, 1, NULL, 'hash-rank-v1', 'x'), (2, 1, 2, 0, 1, 2, 'hash-rank-v1', 'x');
      INSERT INTO sample_items (batch_id, summary_id, position) VALUES (1, 1, 0), (2, 2, 0);
    `,
    );
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(db.prepare('SELECT count(*) FROM sample_assignments').pluck().get()).toBe(0);
      const repo = new Repository(db);
      expect(repo.annotationQueue(1, null).map((r) => r.summaryId)).toEqual(['s1']);
      expect(repo.annotationQueue(2, null).map((r) => r.summaryId)).toEqual(['s1', 's2']);
      expect(repo.sampleBatchInfos(null).map((b) => [b.batch, b.annotator, b.overlap, b.assignments])).toEqual([
        [1, null, null, []],
        [2, 'bob', null, []],
      ]);
    } finally {
      db.close();
    }
  });
});
