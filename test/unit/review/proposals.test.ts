/**
 * Shared sets have owners: an annotator link's keyfacts.edit, claims.edit and scaffold.edit are
 * proposals, current for nobody until the lead accepts one (which writes the next version as the
 * lead's own edit would, labels on the old version staying there); declining closes it; a proposal
 * whose base is no longer current cannot be accepted; an annotator lists only her own proposals,
 * cannot accept or decline, and cannot propose for a document outside her queue. The lead's own
 * edits stay direct.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiOutput, Proposal } from '../../../shared/api';
import { runImport } from '../../../electron/core/imports/run';
import { ALICE, BOB, splitProject, type SplitProject } from '../../helpers/owners';
import { NEWS_DOCUMENT, newsRows, writeJsonl } from '../../helpers/project';
import { tempDir } from '../../helpers/tmp';

const dir = tempDir('loupe-proposals-');
let p: SplitProject;
let council: number;
let harbour: number;
let aliceKey: number;
let bobKey: number;

type FactsLoad = ApiOutput<'keyfacts.load'>;
const factsOf = async (key: number, name: string, caller = name === 'alice' ? ALICE : BOB) => {
  const loaded = await p.value<FactsLoad>('keyfacts.load', { key, annotator: name }, caller);
  return { version: loaded.version, facts: loaded.facts.map((f) => f.text), ids: loaded.facts.map((f) => f.id) };
};
const versionsOf = (documentKey: number) =>
  p.value<ApiOutput<'keyfacts.versions'>>('keyfacts.versions', { documentKey });

beforeAll(async () => {
  // Four summaries of one document, split between alice and bob; a second document only bob has.
  p = await splitProject(
    dir,
    newsRows(4).map((r) => ({ ...r, doc_id: 'council', document: NEWS_DOCUMENT })),
  );
  await runImport(p.core.repository(), {
    source: {
      type: 'path',
      path: writeJsonl(
        join(dir, 'harbour.jsonl'),
        newsRows(1, 'harbour').map((r) => ({ ...r, doc_id: 'harbour' })),
      ),
    },
  });
  await p.value('sampling.draw', { dataset: 'harbour', n: 1, seed: 0, annotator: 'bob' });
  aliceKey = (await p.queueOf('alice'))[0]!.key;
  const bobs = await p.queueOf('bob');
  bobKey = bobs.find((i) => i.docId === 'council')!.key;
  council = p.documentKeyOf(aliceKey);
  harbour = p.documentKeyOf(bobs.find((i) => i.docId === 'harbour')!.key);
  expect(p.documentKeyOf(bobKey)).toBe(council);
  // The lead's key facts, version 1; bob labels one of them.
  const v1 = await p.value<ApiOutput<'keyfacts.edit'>>('keyfacts.edit', {
    documentKey: council,
    annotator: 'lead',
    basedOnVersion: null,
    facts: [{ text: 'The council approved a budget.' }, { text: 'The budget adds 12 million dollars for schools.' }],
  });
  expect(v1).toMatchObject({ version: 1 });
  expect(v1.proposal).toBeUndefined();
  const bobsFacts = await factsOf(bobKey, 'bob');
  await p.value(
    'keyfacts.record',
    {
      keyFactId: bobsFacts.ids[0],
      key: bobKey,
      annotator: 'bob',
      state: { label: 'covered', conveyedBy: {}, note: null },
      timeSpentMs: 5,
      cause: 'label',
    },
    BOB,
  );
}, 30_000);

describe('an annotator link edits shared sets by proposal', () => {
  let proposalId: number;

  it("alice's key-fact edit is stored as a pending proposal: no new version, everyone still on version 1", async () => {
    const answer = await p.value<ApiOutput<'keyfacts.edit'>>(
      'keyfacts.edit',
      {
        documentKey: council,
        annotator: 'alice',
        basedOnVersion: 1,
        facts: [
          { text: 'The council approved a budget on Tuesday.' },
          { text: 'The budget adds 12 million dollars for schools.' },
          { text: 'Taxes may rise by 3.5 percent.' },
        ],
        note: 'Dates and taxes matter.',
      },
      ALICE,
    );
    expect(answer.version).toBe(1);
    expect(answer.facts.map((f) => f.text)).toEqual([
      'The council approved a budget.',
      'The budget adds 12 million dollars for schools.',
    ]);
    expect(answer.proposal).toMatchObject({ status: 'pending' });
    proposalId = answer.proposal!.id;
    expect((await versionsOf(council)).map((v) => v.version)).toEqual([1]);
    expect(await factsOf(bobKey, 'bob')).toMatchObject({
      version: 1,
      facts: ['The council approved a budget.', 'The budget adds 12 million dollars for schools.'],
    });
    expect((await factsOf(aliceKey, 'alice')).version).toBe(1);
  });

  it("alice sees her own proposal pending, with a diff against version 1; she cannot list others' or decide", async () => {
    const mine = await p.value<Proposal[]>('proposals.list', { author: 'alice' }, ALICE);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      id: proposalId,
      kind: 'keyfacts',
      author: 'alice',
      documentKey: council,
      docId: 'council',
      baseVersion: 1,
      currentVersion: 1,
      stale: false,
      status: 'pending',
      note: 'Dates and taxes matter.',
      resultVersion: null,
    });
    expect(mine[0]!.diff).toEqual([
      { op: 'removed', text: 'The council approved a budget.' },
      { op: 'added', text: 'The council approved a budget on Tuesday.' },
      { op: 'same', text: 'The budget adds 12 million dollars for schools.' },
      { op: 'added', text: 'Taxes may rise by 3.5 percent.' },
    ]);
    for (const [method, input] of [
      ['proposals.list', {}],
      ['proposals.list', { author: 'bob' }],
      ['proposals.accept', { id: proposalId }],
      ['proposals.decline', { id: proposalId }],
    ] as const) {
      expect(await p.call(method, input, ALICE), `${method} ${JSON.stringify(input)}`).toMatchObject({
        ok: false,
        error: { code: 'forbidden' },
      });
    }
    expect(await p.value<Proposal[]>('proposals.list', { author: 'bob' }, BOB)).toEqual([]);
  });

  it('refuses a proposal for a document outside her queue, one on a set that does not exist yet, and one on a stale base; stores none', async () => {
    const outside = await p.call(
      'keyfacts.edit',
      { documentKey: harbour, annotator: 'alice', basedOnVersion: null, facts: [{ text: 'A harbour.' }] },
      ALICE,
    );
    expect(outside).toMatchObject({
      ok: false,
      error: {
        code: 'forbidden',
        message: expect.stringMatching(/no summary of document \d+ is in their queue/) as unknown,
      },
    });
    const first = await p.call(
      'scaffold.edit',
      {
        documentKey: council,
        annotator: 'alice',
        basedOnVersion: null,
        facts: [{ id: 'f1', text: 'A budget.', tier: 'main' }],
      },
      ALICE,
    );
    expect(first).toMatchObject({
      ok: false,
      error: {
        code: 'conflict',
        message: expect.stringMatching(/has no version yet: the lead makes the first one/) as unknown,
      },
    });
    const stale = await p.call(
      'keyfacts.edit',
      { documentKey: council, annotator: 'alice', basedOnVersion: 7, facts: [{ text: 'x' }] },
      ALICE,
    );
    expect(stale).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(await p.value<Proposal[]>('proposals.list', {})).toHaveLength(1);
  });

  it('the lead accepts: version 2 made of her content, current for bob too; his label stays on version 1', async () => {
    const accepted = await p.value<Proposal>('proposals.accept', { id: proposalId });
    expect(accepted).toMatchObject({ status: 'accepted', resultVersion: 2, currentVersion: 2, stale: false });
    expect(accepted.decidedAt).not.toBeNull();
    const versions = await versionsOf(council);
    expect(versions.map((v) => [v.version, v.basedOnVersion, v.createdBy, v.source, v.labelEvents])).toEqual([
      [1, null, 'lead', 'person', 1],
      [2, 1, 'alice', 'person', 0],
    ]);
    expect(versions[1]!.note).toBe('Dates and taxes matter.');
    expect(await factsOf(bobKey, 'bob')).toMatchObject({
      version: 2,
      facts: [
        'The council approved a budget on Tuesday.',
        'The budget adds 12 million dollars for schools.',
        'Taxes may rise by 3.5 percent.',
      ],
    });
    expect(await p.call('proposals.accept', { id: proposalId })).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: `Proposal ${proposalId} was already accepted.` },
    });
  });

  it('a proposal whose base has moved on is shown stale and refused on accept, naming both versions', async () => {
    const bobs = await p.value<ApiOutput<'keyfacts.edit'>>(
      'keyfacts.edit',
      { documentKey: council, annotator: 'bob', basedOnVersion: 2, facts: [{ text: 'Bob’s fact.' }] },
      BOB,
    );
    const alices = await p.value<ApiOutput<'keyfacts.edit'>>(
      'keyfacts.edit',
      { documentKey: council, annotator: 'alice', basedOnVersion: 2, facts: [{ text: 'Alice’s fact.' }] },
      ALICE,
    );
    await p.value('proposals.accept', { id: alices.proposal!.id });
    const [listed] = await p.value<Proposal[]>('proposals.list', { author: 'bob', status: 'pending' });
    expect(listed).toMatchObject({ id: bobs.proposal!.id, baseVersion: 2, currentVersion: 3, stale: true });
    const refused = await p.call('proposals.accept', { id: bobs.proposal!.id });
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'conflict',
        message: `Proposal ${bobs.proposal!.id} was made on version 2, but the key facts of document ${council} are at version 3 now: decline it and ask bob to propose again on the current version.`,
      },
    });
    expect((await versionsOf(council)).map((v) => v.version)).toEqual([1, 2, 3]);
  });

  it('declining closes a proposal with its reason and writes no version; it is decided once', async () => {
    const [bobs] = await p.value<Proposal[]>('proposals.list', { author: 'bob', status: 'pending' });
    const declined = await p.value<Proposal>('proposals.decline', { id: bobs!.id, note: 'Based on an old version.' });
    expect(declined).toMatchObject({
      status: 'declined',
      decisionNote: 'Based on an old version.',
      resultVersion: null,
      stale: false,
    });
    expect(await p.value<Proposal[]>('proposals.list', { author: 'bob' }, BOB)).toMatchObject([
      { id: bobs!.id, status: 'declined' },
    ]);
    expect(await p.call('proposals.decline', { id: bobs!.id })).toMatchObject({
      ok: false,
      error: { code: 'conflict' },
    });
    expect(await p.call('proposals.accept', { id: bobs!.id })).toMatchObject({
      ok: false,
      error: { code: 'conflict' },
    });
    expect((await versionsOf(council)).map((v) => v.version)).toEqual([1, 2, 3]);
  });

  it('claims and scaffold edits from a link are proposals too, accepted into the next version', async () => {
    const sentences = await p.value<ApiOutput<'claims.load'>>(
      'claims.load',
      { key: aliceKey, annotator: 'alice' },
      ALICE,
    );
    const unit = sentences.sentences[0]!.unitId;
    await p.value('claims.edit', {
      key: aliceKey,
      annotator: 'lead',
      basedOnVersion: null,
      claims: [{ sentenceUnitId: unit, text: 'The council approved a budget.' }],
    });
    const claims = await p.value<ApiOutput<'claims.edit'>>(
      'claims.edit',
      {
        key: aliceKey,
        annotator: 'alice',
        basedOnVersion: 1,
        claims: [{ sentenceUnitId: unit, text: 'The Springfield council approved a budget.' }],
      },
      ALICE,
    );
    expect(claims).toMatchObject({ version: 1, proposal: { status: 'pending' } });
    const listed = (await p.value<Proposal[]>('proposals.list', { author: 'alice', status: 'pending' }, ALICE))[0]!;
    expect(listed).toMatchObject({
      kind: 'claims',
      summaryKey: aliceKey,
      diff: [
        { op: 'removed', text: 'Sentence 1: The council approved a budget.' },
        { op: 'added', text: 'Sentence 1: The Springfield council approved a budget.' },
      ],
    });
    expect(await p.value<Proposal>('proposals.accept', { id: claims.proposal!.id })).toMatchObject({
      resultVersion: 2,
    });
    expect(
      (await p.value<ApiOutput<'claims.load'>>('claims.load', { key: aliceKey, annotator: 'alice' }, ALICE)).version,
    ).toBe(2);

    await p.value('scaffold.edit', {
      documentKey: council,
      annotator: 'lead',
      basedOnVersion: null,
      facts: [{ id: 'f1', text: 'A budget was approved.', tier: 'main' }],
    });
    const scaffold = await p.value<ApiOutput<'scaffold.edit'>>(
      'scaffold.edit',
      {
        documentKey: council,
        annotator: 'alice',
        basedOnVersion: 1,
        facts: [
          { id: 'f1', text: 'A budget was approved.', tier: 'main' },
          { id: 'f2', text: 'Schools get 12 million dollars.', tier: 'supporting' },
        ],
      },
      ALICE,
    );
    expect(scaffold).toMatchObject({ version: 1, proposal: { status: 'pending' } });
    expect(
      (await p.value<ApiOutput<'scaffold.versions'>>('scaffold.versions', { documentKey: council })).map(
        (v) => v.version,
      ),
    ).toEqual([1]);
    expect(await p.value<Proposal>('proposals.accept', { id: scaffold.proposal!.id })).toMatchObject({
      kind: 'scaffold',
      resultVersion: 2,
    });
    const versions = await p.value<ApiOutput<'scaffold.versions'>>('scaffold.versions', { documentKey: council });
    expect(versions.map((v) => [v.version, v.createdBy, v.items.map((i) => i.itemKey)])).toEqual([
      [1, 'lead', ['f1']],
      [2, 'alice', ['f1', 'f2']],
    ]);
  });
});
