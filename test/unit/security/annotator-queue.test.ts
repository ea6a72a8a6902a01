/**
 * An annotator link reaches only its own queue: the annotation calls and the claim, key-fact and
 * scaffold label calls on a summary of someone else's sample are refused (forbidden, 403 in
 * `loupe serve`) and store nothing; the same calls on the caller's own summaries, and the lead's on
 * any summary, go through.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ALICE, splitProject, type SplitProject } from '../../helpers/owners';
import { tempDir } from '../../helpers/tmp';

const dir = tempDir('loupe-queue-');
let p: SplitProject;
let aliceKey: number;
let bobKey: number;
const faithful = { label: 'faithful', errorType: null, note: null } as const;

beforeAll(async () => {
  p = await splitProject(dir);
  aliceKey = (await p.queueOf('alice'))[0]!.key;
  bobKey = (await p.queueOf('bob'))[0]!.key;
  // Shared sets on bob's summary and document, made by the lead.
  const sentences = await p.value<{ sentences: Array<{ unitId: number }> }>('claims.load', {
    key: bobKey,
    annotator: 'bob',
  });
  await p.value('claims.edit', {
    key: bobKey,
    annotator: 'lead',
    basedOnVersion: null,
    claims: [{ sentenceUnitId: sentences.sentences[0]!.unitId, text: 'The council approved a budget.' }],
  });
  await p.value('keyfacts.edit', {
    documentKey: p.documentKeyOf(bobKey),
    annotator: 'lead',
    basedOnVersion: null,
    facts: [{ text: 'A budget was approved.' }],
  });
  await p.value('scaffold.edit', {
    documentKey: p.documentKeyOf(bobKey),
    annotator: 'lead',
    basedOnVersion: null,
    facts: [{ id: 'f1', text: 'A budget was approved.', tier: 'main' }],
  });
}, 30_000);

const forbidden = {
  ok: false,
  error: {
    code: 'forbidden',
    message: expect.stringMatching(/annotator "alice"'s: summary \d+ is not in their queue/) as unknown,
  },
};

describe('an annotator link outside its own queue', () => {
  it('has disjoint queues for alice and bob (the premise)', async () => {
    const alice = (await p.queueOf('alice')).map((i) => i.key);
    const bob = (await p.queueOf('bob')).map((i) => i.key);
    expect(alice.length).toBe(2);
    expect(bob.length).toBe(2);
    expect(alice.filter((k) => bob.includes(k))).toEqual([]);
  });

  it("annotation.load and annotation.record on a summary of bob's sample are forbidden and store nothing", async () => {
    expect(await p.call('annotation.load', { key: bobKey, annotator: 'alice' }, ALICE)).toMatchObject(forbidden);
    const bobsUnit = (
      await p.value<{ units: Array<{ id: number }> }>('annotation.load', { key: bobKey, annotator: 'bob' })
    ).units[0]!.id;
    const before = p.core.repository().labelHistory(null).length;
    expect(
      await p.call(
        'annotation.record',
        { unitId: bobsUnit, annotator: 'alice', state: faithful, timeSpentMs: 10, cause: 'label' },
        ALICE,
      ),
    ).toMatchObject(forbidden);
    expect(p.core.repository().labelHistory(null).length).toBe(before);
  });

  it('her own summaries load and record as before', async () => {
    const own = await p.value<{ key: number; units: Array<{ id: number }> }>(
      'annotation.load',
      { key: aliceKey, annotator: 'alice' },
      ALICE,
    );
    expect(own.key).toBe(aliceKey);
    const before = p.core.repository().labelHistory(null).length;
    const recorded = await p.value<{ unitId: number }>(
      'annotation.record',
      { unitId: own.units[0]!.id, annotator: 'alice', state: faithful, timeSpentMs: 10, cause: 'label' },
      ALICE,
    );
    expect(recorded.unitId).toBe(own.units[0]!.id);
    expect(p.core.repository().labelHistory(null).length).toBe(before + 1);
  });

  it('claims, key facts and scaffold: load and record outside her queue are forbidden, and no label is stored', async () => {
    for (const method of ['claims.load', 'keyfacts.load', 'scaffold.load'] as const) {
      expect(await p.call(method, { key: bobKey, annotator: 'alice' }, ALICE), method).toMatchObject(forbidden);
    }
    const claims = await p.value<{ sentences: Array<{ claims: Array<{ id: number }> }> }>('claims.load', {
      key: bobKey,
      annotator: 'bob',
    });
    const facts = await p.value<{ facts: Array<{ id: number }> }>('keyfacts.load', { key: bobKey, annotator: 'bob' });
    const scaffold = await p.value<{ items: Array<{ id: number }> }>('scaffold.load', {
      key: bobKey,
      annotator: 'bob',
    });
    const claimId = claims.sentences[0]!.claims[0]!.id;
    expect(
      await p.call(
        'claims.record',
        {
          claimId,
          annotator: 'alice',
          state: { label: 'supported', errorType: null, note: null },
          timeSpentMs: 1,
          cause: 'label',
        },
        ALICE,
      ),
    ).toMatchObject(forbidden);
    expect(
      await p.call(
        'keyfacts.record',
        {
          keyFactId: facts.facts[0]!.id,
          key: bobKey,
          annotator: 'alice',
          state: { label: 'covered', conveyedBy: {}, note: null },
          timeSpentMs: 1,
          cause: 'label',
        },
        ALICE,
      ),
    ).toMatchObject(forbidden);
    expect(
      await p.call(
        'scaffold.record',
        { key: bobKey, annotator: 'alice', itemId: scaffold.items[0]!.id, value: 'preserved' },
        ALICE,
      ),
    ).toMatchObject(forbidden);

    const documentKey = p.documentKeyOf(bobKey);
    expect((await p.value<Array<{ labelEvents: number }>>('claims.versions', { key: bobKey }))[0]!.labelEvents).toBe(0);
    expect((await p.value<Array<{ labelEvents: number }>>('keyfacts.versions', { documentKey }))[0]!.labelEvents).toBe(
      0,
    );
    expect(
      (await p.value<Array<{ alignmentEvents: number }>>('scaffold.versions', { documentKey }))[0]!.alignmentEvents,
    ).toBe(0);
  });

  it('the lead reaches every summary, acting as anyone', async () => {
    const loaded = await p.value<{ key: number }>('annotation.load', { key: bobKey, annotator: 'alice' });
    expect(loaded.key).toBe(bobKey);
    const claims = await p.value<{ key: number; setId: number | null }>('claims.load', {
      key: bobKey,
      annotator: 'alice',
    });
    expect(claims.setId).not.toBeNull();
  });
});
