/**
 * annotation.queue a page at a time and annotation.next: every walk (forward by cursor, backward
 * by `before`, from a position, around a key) reads the annotator's whole queue in its order, as
 * the full query (repo.annotationQueue) lists it, with batches shared by everyone, batches of one
 * annotator and batches split by assignments; next-with-work wraps around and never answers the
 * summary it starts from; totals, progress and the rows' labeled counts follow labels and undos.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dispatch, type Core } from '../../../electron/core/index';
import { progressOf } from '../../../electron/core/annotation/progress';
import { runImport } from '../../../electron/core/imports/run';
import type { QueueItem } from '../../../shared/api';
import { newsRows, writeJsonl } from '../../helpers/project';
import { tempDir } from '../../helpers/tmp';
import { webCore } from '../../helpers/web-core';

const dir = tempDir('loupe-queue-pages-');

async function setup(name: string): Promise<Core> {
  const core = webCore(dir);
  core.createProject(join(dir, `${name}.loupe`));
  await runImport(core.repository(), {
    source: { type: 'path', path: writeJsonl(join(dir, `${name}.jsonl`), newsRows(30)) },
  });
  await runImport(core.repository(), {
    source: { type: 'path', path: writeJsonl(join(dir, `${name}-talks.jsonl`), newsRows(6, 'talks')) },
  });
  await core.handlers['sampling.draw']({ dataset: 'news', n: 5, seed: 1 });
  await core.handlers['sampling.draw']({ dataset: 'news', n: 4, seed: 2, annotator: 'bob' });
  await core.handlers['sampling.draw']({ dataset: 'news', n: 8, seed: 3, annotators: ['alice', 'bob'], overlap: 0.25 });
  await core.handlers['sampling.draw']({ dataset: 'talks', n: 3, seed: 4 });
  return core;
}

/** The whole queue as the full query lists it (the reference every page is checked against). */
function fullQueue(core: Core, annotator: string): QueueItem[] {
  const repo = core.repository();
  return repo.annotationQueue(repo.annotatorId(annotator) ?? -1, null);
}

async function walkForward(core: Core, annotator: string, limit: number): Promise<QueueItem[]> {
  const items: QueueItem[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await core.handlers['annotation.queue']({ annotator, limit, ...(cursor ? { cursor } : {}) });
    expect(page.start).toBe(items.length);
    items.push(...page.items);
    if (page.nextCursor === null) return items;
    cursor = page.nextCursor;
  }
}

async function walkBackward(core: Core, annotator: string, limit: number, total: number): Promise<QueueItem[]> {
  let page = await core.handlers['annotation.queue']({ annotator, limit, position: total });
  const items = [...page.items];
  while (page.previousCursor !== null) {
    page = await core.handlers['annotation.queue']({ annotator, limit, before: page.previousCursor });
    expect(page.start + page.items.length).toBe(total - items.length);
    items.unshift(...page.items);
  }
  return items;
}

async function labelAll(core: Core, annotator: string, key: number): Promise<void> {
  const summary = await core.handlers['annotation.load']({ key, annotator });
  for (const unit of summary.units)
    await core.handlers['annotation.record']({
      unitId: unit.id,
      annotator,
      state: { label: 'faithful', errorType: null, note: null },
      timeSpentMs: 1_000,
      cause: 'label',
    });
}

describe('annotation.queue pages', () => {
  it('reads the whole queue in order forward and backward, for every page size, whoever asks', async () => {
    const core = await setup('walks');
    for (const annotator of ['alice', 'bob', 'carol']) {
      const whole = fullQueue(core, annotator);
      expect(whole.length).toBeGreaterThan(3);
      for (const limit of [1, 2, 3, 7, 200]) {
        expect(await walkForward(core, annotator, limit)).toEqual(whole);
        expect(await walkBackward(core, annotator, limit, whole.length)).toEqual(whole);
      }
      const first = await core.handlers['annotation.queue']({ annotator, limit: 3 });
      expect(first).toMatchObject({ start: 0, total: whole.length, previousCursor: null });
      expect(first.nextCursor).toBe(String(whole[2]!.key));
    }
  });

  it('answers the page around a key (near its middle) and from a position, clamped to the queue', async () => {
    const core = await setup('around');
    const whole = fullQueue(core, 'bob');
    for (const [at, item] of whole.entries()) {
      const page = await core.handlers['annotation.queue']({ annotator: 'bob', limit: 4, around: item.key });
      expect(page.items).toEqual(whole.slice(page.start, page.start + 4));
      expect(page.items.map((i) => i.key)).toContain(item.key);
      expect(page.start).toBe(Math.max(0, Math.min(at - 2, whole.length - 4)));
    }
    const last = await core.handlers['annotation.queue']({ annotator: 'bob', limit: 4, position: 10_000 });
    expect(last).toMatchObject({ start: whole.length - 4, nextCursor: null });
    expect(last.items).toEqual(whole.slice(-4));
    // A key not in bob's queue (alice's own batch is not his): the first page.
    const notHis = fullQueue(core, 'alice').find((a) => !whole.some((b) => b.key === a.key))!;
    expect((await core.handlers['annotation.queue']({ annotator: 'bob', limit: 4, around: notHis.key })).start).toBe(0);
  });

  it('refuses two places at once', async () => {
    const core = await setup('refuses');
    const answer = await dispatch(core.handlers, 'annotation.queue', { annotator: 'bob', cursor: '1', position: 2 });
    expect(answer.ok).toBe(false);
    if (!answer.ok) expect(answer.error.message).toContain('at most one of cursor, before, around and position');
  });
});

describe('annotation.next and the counts', () => {
  it('finds the next summary with work, wrapping around, never the one it starts from; null once all are done', async () => {
    const core = await setup('next');
    const whole = fullQueue(core, 'bob');
    const keys = whole.map((i) => i.key);
    // Label every summary but the second and the second to last.
    const open = [keys[1]!, keys[keys.length - 2]!];
    for (const key of keys) if (!open.includes(key)) await labelAll(core, 'bob', key);
    const next = async (after: number | null) =>
      (await core.handlers['annotation.next']({ annotator: 'bob', after }))?.item.key ?? null;
    expect(await next(null)).toBe(open[0]);
    expect(await next(keys[0]!)).toBe(open[0]);
    expect(await next(open[0]!)).toBe(open[1]);
    expect(await next(open[1]!)).toBe(open[0]); // wrapped around
    expect(await next(keys[keys.length - 1]!)).toBe(open[0]);
    const placed = await core.handlers['annotation.next']({ annotator: 'bob', after: open[0]! });
    expect(placed?.position).toBe(keys.length - 2);
    expect((await core.handlers['annotation.queue']({ annotator: 'bob', limit: 2 })).resumeAt).toBe(1);
    // Without work: simply the next one, null at the end.
    expect(
      (await core.handlers['annotation.next']({ annotator: 'bob', after: keys[0]!, withWork: false }))?.item.key,
    ).toBe(keys[1]);
    expect(
      await core.handlers['annotation.next']({ annotator: 'bob', after: keys.at(-1)!, withWork: false }),
    ).toBeNull();

    await labelAll(core, 'bob', open[0]!);
    expect(await next(open[1]!)).toBeNull(); // only itself has work left
    await labelAll(core, 'bob', open[1]!);
    expect(await next(null)).toBeNull();
    expect((await core.handlers['annotation.queue']({ annotator: 'bob' })).resumeAt).toBeNull();
  });

  it('keeps total, progress and each row labeled count equal to the full recount after labels and an undo', async () => {
    const core = await setup('counts');
    const check = async () => {
      for (const annotator of ['alice', 'bob']) {
        const whole = fullQueue(core, annotator);
        const page = await core.handlers['annotation.queue']({ annotator, limit: 3, position: 2 });
        expect(page.total).toBe(whole.length);
        expect(page.items).toEqual(whole.slice(2, 5));
        expect(page.progress).toEqual(progressOf(whole));
        expect(page.blocked).toBe(0);
      }
    };
    await check();
    const [a, b, c] = fullQueue(core, 'bob').slice(2, 5);
    await labelAll(core, 'bob', a!.key);
    await labelAll(core, 'alice', b!.key);
    const summary = await core.handlers['annotation.load']({ key: c!.key, annotator: 'bob' });
    const unit = summary.units[0]!;
    const recorded = await core.handlers['annotation.record']({
      unitId: unit.id,
      annotator: 'bob',
      state: { label: 'unclear', errorType: null, note: null },
      timeSpentMs: null,
      cause: 'label',
    });
    expect(recorded.progress).toEqual(progressOf(fullQueue(core, 'bob')));
    await check();
    const undone = await core.handlers['annotation.record']({
      unitId: unit.id,
      annotator: 'bob',
      state: { label: null, errorType: null, note: null },
      timeSpentMs: null,
      cause: 'undo',
    });
    expect(undone.progress).toEqual(progressOf(fullQueue(core, 'bob')));
    await check();
    // A new batch changes the totals the next page reads.
    await core.handlers['sampling.draw']({ dataset: 'news', n: 3, seed: 9 });
    await check();
  });
});
