/**
 * annotation.reveal on a queue longer than one page (200): it counts and records in SQL, so it
 * must reach every batch and every position of the queue, the way the whole-queue read before it
 * did. The expected reveals come from what the test itself did (which summaries it finished,
 * which were revealed before), not from the repository's queue rule.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { dispatch, type Core } from '../../../electron/core/index';
import { runImport } from '../../../electron/core/imports/run';
import { newsRows, writeJsonl } from '../../helpers/project';
import { tempDir } from '../../helpers/tmp';
import { webCore } from '../../helpers/web-core';

const dir = tempDir('loupe-reveal-pages-');
const ALICE = 'alice';
const BOB = 'bob';
let core: Core;

/** Alice's whole queue in order, walked a page (200) at a time. */
const queue: number[] = [];
/** Summaries of her queue the test leaves with every sentence labeled by her. */
const finished = new Set<number>();
/** Summaries of her queue revealed to her before the reveal under test. */
const revealedBefore = new Set<number>();
/** Summaries outside her queue (bob's own batch, unsampled). */
let outside: number[] = [];

const label = (unitId: number, annotator: string, value: 'faithful' | 'unfaithful' | null) =>
  core.handlers['annotation.record']({
    unitId,
    annotator,
    state: { label: value, errorType: null, note: null },
    timeSpentMs: 5,
    cause: 'label',
  });
const unitsOf = (key: number) =>
  core
    .repository()
    .summaryForAnnotation(key)!
    .units.map((u) => u.id);
const idOf = (name: string) => core.repository().annotator(name)!.id;
const sorted = (keys: Iterable<number>) => [...keys].sort((a, b) => a - b);

beforeAll(async () => {
  core = webCore(dir);
  core.createProject(join(dir, 'p.loupe'));
  await runImport(core.repository(), {
    source: { type: 'path', path: writeJsonl(join(dir, 'news.jsonl'), newsRows(600)) },
  });
  // Everyone's batch, a batch split between alice and bob (some summaries to both), bob's own batch; 20 unsampled.
  await core.handlers['sampling.draw']({ dataset: 'news', n: 380, seed: 1 });
  await core.handlers['sampling.draw']({ dataset: 'news', n: 150, seed: 2, annotators: [ALICE, BOB], overlap: 0.2 });
  await core.handlers['sampling.draw']({ dataset: 'news', n: 50, seed: 3, annotator: BOB });

  let cursor: string | undefined;
  do {
    const page = await core.handlers['annotation.queue']({ annotator: ALICE, ...(cursor ? { cursor } : {}) });
    queue.push(...page.items.map((i) => i.key));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  const inQueue = new Set(queue);
  outside = core
    .repository()
    .exportSummaryKeys('news')
    .map((s) => s.key)
    .filter((k) => !inQueue.has(k));

  for (const [position, key] of queue.entries()) {
    const units = unitsOf(key);
    if (position % 7 === 0) {
      // Finished: every sentence labeled (some relabeled).
      for (const u of units) await label(u, ALICE, 'faithful');
      if (position % 21 === 0) await label(units[0]!, ALICE, 'unfaithful');
      finished.add(key);
    } else if (position % 5 === 0) {
      // Unfinished: one sentence labeled.
      await label(units[1]!, ALICE, 'faithful');
    } else if (position % 11 === 0) {
      // Unfinished again: every sentence labeled, then one label cleared.
      for (const u of units) await label(u, ALICE, 'faithful');
      await label(units[2]!, ALICE, null);
    }
    // Bob finishing a summary finishes it for bob only.
    if (position % 3 === 0) for (const u of units) await label(u, BOB, 'faithful');
  }
  // Revealed earlier: every fourth summary of her queue (some since finished), on both sides of each page edge.
  for (const [position, key] of queue.entries()) if (position % 4 === 0) revealedBefore.add(key);
  core.repository().recordReveals(idOf(ALICE), [...revealedBefore], 'review');
  // Bob's reveals are his: of summaries in her queue too.
  core.repository().recordReveals(
    idOf(BOB),
    queue.filter((_, p) => p % 6 === 1),
    'judges',
  );
}, 120_000);

describe('annotation.reveal over a queue of several pages', () => {
  it('records exactly the unfinished summaries not revealed before, counted against the test’s own bookkeeping', async () => {
    expect(queue.length).toBeGreaterThan(400);
    expect(new Set(queue).size).toBe(queue.length);
    const expected = queue.filter((k) => !finished.has(k) && !revealedBefore.has(k));
    const unfinished = queue.filter((k) => !finished.has(k));
    // Some of each on either side of the first page edge.
    expect(expected.some((k) => queue.indexOf(k) < 200) && expected.some((k) => queue.indexOf(k) >= 400)).toBe(true);

    const bobBefore = sorted(core.repository().revealedSummaries(idOf(BOB)));
    expect(await core.handlers['annotation.revealStatus']({ annotator: ALICE })).toEqual({
      annotator: ALICE,
      unfinished: unfinished.length,
      revealed: unfinished.filter((k) => revealedBefore.has(k)).length,
    });

    // The gate names the count of what it would record, and records nothing.
    expect(await dispatch(core.handlers, 'annotation.reveal', { annotator: ALICE, view: 'analysis' })).toMatchObject({
      ok: false,
      error: {
        code: 'conflict',
        message: expect.stringContaining(`on ${expected.length} unfinished summaries not blind`) as unknown,
      },
    });
    expect(sorted(core.repository().revealedSummaries(idOf(ALICE)))).toEqual(sorted(revealedBefore));

    const answer = await core.handlers['annotation.reveal']({ annotator: ALICE, view: 'analysis', confirmFor: ALICE });
    expect(answer).toEqual({
      revealed: expected.length,
      status: { annotator: ALICE, unfinished: unfinished.length, revealed: unfinished.length },
    });
    expect(sorted(core.repository().revealedSummaries(idOf(ALICE)))).toEqual(sorted([...revealedBefore, ...expected]));
    for (const key of outside) expect(core.repository().isRevealed(idOf(ALICE), key)).toBe(false);
    expect(sorted(core.repository().revealedSummaries(idOf(BOB)))).toEqual(bobBefore);

    // Again: nothing left to record.
    expect(
      (await core.handlers['annotation.reveal']({ annotator: ALICE, view: 'review', confirmFor: ALICE })).revealed,
    ).toBe(0);

    // A label given after the reveal, past the second page edge, is not blind; on a summary finished before it, still blind.
    const late = expected.filter((k) => queue.indexOf(k) >= 400).at(-1)!;
    const lateEvent = await label(unitsOf(late)[0]!, ALICE, 'unfaithful');
    expect(core.repository().eventBlind(lateEvent.eventId)).toBe(false);
    const done = [...finished].find((k) => !revealedBefore.has(k))!;
    const doneEvent = await label(unitsOf(done)[0]!, ALICE, 'unfaithful');
    expect(core.repository().eventBlind(doneEvent.eventId)).toBe(true);
  });
});
