/**
 * claims.list and keyfacts.list (one lean query each): every summary (every summarised document)
 * of the dataset in summary order, with its current set as claims.versions (keyfacts.versions)
 * tells it, including summaries and documents without a set, several versions, and the system.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCore } from '../../../electron/core/index';
import { runImport } from '../../../electron/core/imports/run';
import { writeJsonl } from '../../helpers/project';
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
  const core = createCore({
    Database,
    stateDir: dir,
    demoDir: dir,
    host: 'electron',
    fileDialogs: false,
    diskPaths: true,
    canSwitchProjects: false,
  });
  core.createProject(join(dir, 'lists.loupe'));
  await runImport(core.repository(), { source: { type: 'path', path: writeJsonl(join(dir, 'lists.jsonl'), RECORDS) } });
  const h = core.handlers;
  const [a, b, c, z] = (await h['claims.list']({})).map((e) => e.key);
  const unit = (await h['claims.load']({ key: a!, annotator: 'ann' })).sentences[0]!.unitId;
  await h['claims.edit']({
    key: a!,
    annotator: 'ann',
    basedOnVersion: 1,
    claims: [{ sentenceUnitId: unit, text: 'The library closes.', from: [] }],
  });
  const library = (await h['keyfacts.list']({ dataset: D }))[0]!.documentKey;
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
    expect(await h['claims.list']({ dataset: D })).toEqual([
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
    ]);
    expect((await h['claims.list']({})).map((e) => [e.key, e.dataset])).toEqual([
      [a, D],
      [b, D],
      [c, D],
      [z, 'other'],
    ]);
    expect(await h['claims.list']({ dataset: 'no-such-dataset' })).toEqual([]);
  });

  it('lists every summarised document once, with its summaries and current key-fact set', async () => {
    const versions = await h['keyfacts.versions']({ documentKey: library });
    expect(await h['keyfacts.list']({ dataset: D })).toEqual([
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
    ]);
    expect((await h['keyfacts.list']({})).map((e) => e.docId)).toEqual(['library', 'pool', 'zoo']);
  });
});
