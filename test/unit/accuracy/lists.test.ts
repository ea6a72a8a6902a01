/**
 * claims.list and keyfacts.list, a page at a time through dispatch as a host calls them: every
 * summary (every summarised document) in key order with its current set as claims.versions
 * (keyfacts.versions) tells it, including those without a set, several versions, and the system;
 * a cursor walk of any page size is the whole list; the state, source and search filters and the
 * total they keep; bounds refused naming the field; an annotator link refused.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dispatch } from '../../../electron/core/index';
import { runImport } from '../../../electron/core/imports/run';
import type { ApiInput, ApiOutput, Caller } from '../../../shared/api';
import { LIMITS } from '../../../shared/limits';
import { writeJsonl } from '../../helpers/project';
import { callCore, taskTestCore } from '../../helpers/accuracy-core';
import { tempDir } from '../../helpers/tmp';

const D = 'card';
const RECORDS = [
  {
    type: 'summary',
    dataset: D,
    doc_id: 'library',
    document: 'The library closes. It reopens in May.',
    summary_id: 'A',
    summary: 'The library closes. It reopens.',
    system: 'system-a',
  },
  {
    type: 'summary',
    dataset: D,
    doc_id: 'library',
    document: 'The library closes. It reopens in May.',
    summary_id: 'B',
    summary: 'The library closes.',
    system: 'system-b',
  },
  {
    type: 'summary',
    dataset: D,
    doc_id: 'pool',
    document: 'The pool reopens on Monday.',
    summary_id: 'C',
    summary: 'The pool reopens.',
  },
  {
    type: 'summary',
    dataset: 'other',
    doc_id: 'zoo',
    document: 'The zoo has a new panda.',
    summary_id: 'Z',
    summary: 'A panda. At the zoo.',
  },
  {
    type: 'key_facts',
    dataset: D,
    doc_id: 'library',
    facts: ['The library closes.', 'It reopens in May.'],
    extractor: 'card',
  },
  {
    type: 'claims',
    dataset: D,
    summary_id: 'A',
    decomposer: 'card',
    claims: [
      { sentence_index: 0, text: 'The library closes.' },
      { sentence_index: 1, text: 'It reopens.' },
    ],
  },
];

describe('claims.list and keyfacts.list', async () => {
  const dir = tempDir('loupe-accuracy-lists-');
  const core = taskTestCore(dir);
  core.createProject(join(dir, 'lists.loupe'));
  await runImport(core.repository(), { source: { type: 'path', path: writeJsonl(join(dir, 'lists.jsonl'), RECORDS) } });
  const h = core.handlers;
  type ListMethod = 'claims.list' | 'keyfacts.list';
  const page = <M extends ListMethod>(method: M, input: ApiInput<M>) => callCore(core, method, input);
  /** Every item, page after page from the first, checking each page's total and size. */
  const walk = async <M extends ListMethod>(method: M, input: ApiInput<M>) => {
    const items: Array<ApiOutput<M>['items'][number]> = [];
    const totals: number[] = [];
    let cursor: string | null = null;
    do {
      const next: ApiOutput<M> = await page(method, { ...input, ...(cursor !== null ? { cursor } : {}) });
      if (input.limit !== undefined) expect(next.items.length).toBeLessThanOrEqual(input.limit);
      items.push(...next.items);
      totals.push(next.total);
      cursor = next.nextCursor;
    } while (cursor !== null);
    expect(new Set(totals)).toEqual(new Set([items.length]));
    return items;
  };
  const claimKeys = async (input: ApiInput<'claims.list'>) => (await walk('claims.list', input)).map((e) => e.key);
  const docIds = async (input: ApiInput<'keyfacts.list'>) => (await walk('keyfacts.list', input)).map((e) => e.docId);

  const [a, b, c, z] = (await page('claims.list', {})).items.map((e) => e.key);
  const unit = (await h['claims.load']({ key: a!, annotator: 'ann' })).sentences[0]!.unitId;
  await h['claims.edit']({
    key: a!,
    annotator: 'ann',
    basedOnVersion: 1,
    claims: [{ sentenceUnitId: unit, text: 'The library closes.', from: [] }],
  });
  const library = (await page('keyfacts.list', { dataset: D })).items[0]!.documentKey;
  await h['keyfacts.edit']({
    documentKey: library,
    annotator: 'ann',
    basedOnVersion: 1,
    facts: [
      { text: 'It closes.', from: [] },
      { text: 'It reopens.', from: [] },
      { text: 'In May.', from: [] },
    ],
  });
  afterAll(() => core.close());

  it('lists every summary with its current claim set (or none), its sentences and system', async () => {
    const versionsOfA = await h['claims.versions']({ key: a! });
    expect(versionsOfA.map((v) => v.version)).toEqual([1, 2]);
    expect(await page('claims.list', { dataset: D })).toEqual({
      items: [
        {
          key: a,
          dataset: D,
          summaryId: 'A',
          docId: 'library',
          system: 'system-a',
          sentences: 2,
          currentVersion: 2,
          versions: 2,
          claims: 1,
          source: 'person',
          decomposer: versionsOfA[1]!.decomposer,
        },
        {
          key: b,
          dataset: D,
          summaryId: 'B',
          docId: 'library',
          system: 'system-b',
          sentences: 1,
          currentVersion: null,
          versions: 0,
          claims: 0,
          source: null,
          decomposer: null,
        },
        {
          key: c,
          dataset: D,
          summaryId: 'C',
          docId: 'pool',
          system: null,
          sentences: 1,
          currentVersion: null,
          versions: 0,
          claims: 0,
          source: null,
          decomposer: null,
        },
      ],
      nextCursor: null,
      total: 3,
    });
    expect((await page('claims.list', {})).items.map((e) => [e.key, e.dataset])).toEqual([
      [a, D],
      [b, D],
      [c, D],
      [z, 'other'],
    ]);
    expect(await page('claims.list', { dataset: 'no-such-dataset' })).toEqual({
      items: [],
      nextCursor: null,
      total: 0,
    });
  });

  it('lists every summarised document once, with its summaries and current key-fact set', async () => {
    const versions = await h['keyfacts.versions']({ documentKey: library });
    expect(await page('keyfacts.list', { dataset: D })).toEqual({
      items: [
        {
          documentKey: library,
          dataset: D,
          docId: 'library',
          summaries: 2,
          currentVersion: 2,
          versions: 2,
          facts: 3,
          source: 'person',
          extractor: versions[1]!.extractor,
        },
        {
          documentKey: expect.any(Number),
          dataset: D,
          docId: 'pool',
          summaries: 1,
          currentVersion: null,
          versions: 0,
          facts: 0,
          source: null,
          extractor: null,
        },
      ],
      nextCursor: null,
      total: 2,
    });
    expect((await page('keyfacts.list', {})).items.map((e) => e.docId)).toEqual(['library', 'pool', 'zoo']);
  });

  it('walks the pages by cursor to the whole list, for any page size', async () => {
    const whole = (await page('claims.list', {})).items;
    for (const limit of [1, 2, 3]) {
      expect(await walk('claims.list', { limit })).toEqual(whole);
      expect(await walk('keyfacts.list', { limit })).toEqual((await page('keyfacts.list', {})).items);
    }
    const first = await page('claims.list', { limit: 2 });
    expect(first).toMatchObject({ items: [{ key: a }, { key: b }], nextCursor: String(b), total: 4 });
    // The cursor is a place in key order: the page after it is the same whatever came before.
    expect((await page('claims.list', { limit: 2, cursor: first.nextCursor! })).items.map((e) => e.key)).toEqual([
      c,
      z,
    ]);
    expect(await page('claims.list', { limit: 4 })).toMatchObject({ nextCursor: null, total: 4 });
  });

  it("filters by state and by the current set's source, the total counting what is kept", async () => {
    expect(await claimKeys({ state: 'with' })).toEqual([a]);
    expect(await claimKeys({ state: 'without', limit: 1 })).toEqual([b, c, z]);
    expect(await claimKeys({ source: 'person' })).toEqual([a]);
    expect(await claimKeys({ source: 'imported' })).toEqual([]);
    expect(await claimKeys({ dataset: 'other', state: 'without' })).toEqual([z]);
    expect(await docIds({ state: 'with' })).toEqual(['library']);
    expect(await docIds({ state: 'without', limit: 1 })).toEqual(['pool', 'zoo']);
    expect(await docIds({ source: 'person', dataset: 'other' })).toEqual([]);
  });

  it('searches summary ids, doc ids and system names for the text, case-insensitively and literally', async () => {
    expect(await claimKeys({ search: 'system-B' })).toEqual([b]);
    expect(await claimKeys({ search: 'POOL' })).toEqual([c]);
    expect(await claimKeys({ search: 'libr', limit: 1 })).toEqual([a, b]);
    expect(await claimKeys({ search: 'z' })).toEqual([z]);
    expect(await claimKeys({ search: 'library', state: 'without' })).toEqual([b]);
    // LIKE's wildcards are text like any other.
    expect(await claimKeys({ search: '%' })).toEqual([]);
    expect(await claimKeys({ search: '_' })).toEqual([]);
    // A document is found by its own id or one of its summaries' ids.
    expect(await docIds({ search: 'OO' })).toEqual(['pool', 'zoo']);
    expect(await docIds({ search: 'b' })).toEqual(['library']);
    expect(await docIds({ search: 'c', dataset: D })).toEqual(['pool']);
  });

  it('refuses a bound beyond the limits, naming the field, and an annotator link', async () => {
    const refused = async (input: unknown, field: string, caller?: Caller) => {
      for (const method of ['claims.list', 'keyfacts.list'] as const) {
        const answer = await dispatch(h, method, input, caller);
        expect(answer.ok, `${method} ${JSON.stringify(input)}`).toBe(false);
        if (!answer.ok) expect(answer.error.message).toContain(field);
      }
    };
    await refused({ limit: 0 }, 'limit');
    await refused({ limit: LIMITS.lists.limit.max + 1 }, 'limit');
    await refused({ limit: 2.5 }, 'limit');
    await refused({ cursor: 'abc' }, 'cursor');
    await refused({ cursor: '0' }, 'cursor');
    await refused({ state: 'some' }, 'state');
    await refused({ source: 'robot' }, 'source');
    await refused({ search: '' }, 'search');
    await refused({ search: 'x'.repeat(LIMITS.lists.searchChars.max + 1) }, 'search');
    const forbidden = await dispatch(h, 'claims.list', {}, { role: 'annotator', annotator: 'ann' });
    expect(forbidden).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await dispatch(h, 'keyfacts.list', {}, { role: 'annotator', annotator: 'ann' })).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    expect((await page('claims.list', {})).items).toHaveLength(4);
  });
});
