/**
 * Merging annotators' copies carries people's claim and key-fact labels with their notes (a note
 * without a label too), in the project's own claim and key-fact ids, idempotently; merged claim,
 * key-fact and scaffold alignment events record where they were first made; a claim set the
 * project lacks refuses the file. A note on an unlabeled claim or key fact is exported and imported
 * back.
 */
import Database from 'better-sqlite3';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../electron/core/index';
import { runImport } from '../../../electron/core/imports/run';
import { MergeRepository } from '../../../db/mergeRepository';
import { writeJsonl } from '../../helpers/project';
import { tempDir } from '../../helpers/tmp';

const dir = tempDir('loupe-merge-items-');
const DOCUMENT = 'The council approved 2 million euros for the library. Work starts in March and lasts a year.';
const SUMMARY = 'The council approved 2 million euros for the library. Work starts in March.';
const RECORDS = [
  {
    type: 'summary',
    dataset: 'card',
    doc_id: 'lib',
    document: DOCUMENT,
    summary_id: 'S',
    summary: SUMMARY,
    system: 'sys',
  },
  {
    type: 'key_facts',
    dataset: 'card',
    doc_id: 'lib',
    facts: ['The budget is 2 million euros.', 'Work starts in March.', 'Work lasts a year.'],
    extractor: 'card',
  },
  {
    type: 'claims',
    dataset: 'card',
    summary_id: 'S',
    decomposer: 'card',
    claims: [
      { sentence_index: 0, text: 'The council approved the money.' },
      { sentence_index: 0, text: 'The money is 2 million euros.' },
      { sentence_index: 1, text: 'Work starts in March.' },
    ],
  },
];
const SOURCE = writeJsonl(join(dir, 'card.jsonl'), RECORDS);

function makeCore(): Core {
  return createCore({
    Database,
    stateDir: join(dir, 'state'),
    demoDir: dir,
    host: 'electron',
    fileDialogs: false,
    diskPaths: true,
    canSwitchProjects: false,
  });
}

async function withProject<T>(path: string, fn: (core: Core) => Promise<T> | T): Promise<T> {
  const core = makeCore();
  try {
    try {
      core.openProject(path);
    } catch {
      core.createProject(path);
      await runImport(core.repository(), { source: { type: 'path', path: SOURCE } });
    }
    return await fn(core);
  } finally {
    core.close();
  }
}

function rows<T>(path: string, sql: string): T[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

/** The lead's project and alice's copy of it, alice labels two claims (one a note alone) and two key facts. */
async function leadAndAlice(name: string) {
  const lead = join(dir, `${name}-lead.loupe`);
  await withProject(lead, (core) => core.handlers['merge.projects']({ paths: [] }));
  const alice = join(dir, `${name}-alice.loupe`);
  copyFileSync(lead, alice);
  await withProject(alice, async (core) => {
    const h = core.handlers;
    const key = core.repository().corpus.summaryKey('card', 'S')!;
    const claims = (await h['claims.load']({ key, annotator: 'alice' })).sentences.flatMap((s) => s.claims);
    await h['claims.record']({
      claimId: claims[1]!.id,
      annotator: 'alice',
      state: { label: 'unsupported', errorType: 'number_or_date', note: 'the document says 2 million' },
      timeSpentMs: 700,
      cause: 'label',
    });
    await h['claims.record']({
      claimId: claims[2]!.id,
      annotator: 'alice',
      state: { label: null, errorType: null, note: 'check the start date' },
      timeSpentMs: null,
      cause: 'note',
    });
    const facts = await h['keyfacts.load']({ key, annotator: 'alice' });
    await h['keyfacts.record']({
      keyFactId: facts.facts[0]!.id,
      key,
      annotator: 'alice',
      state: {
        label: 'covered',
        conveyedBy: { claims: [claims[1]!.id], sentences: [facts.sentences[0]!.unitId] },
        note: 'both sentences agree',
      },
      timeSpentMs: 500,
      cause: 'label',
    });
    await h['keyfacts.record']({
      keyFactId: facts.facts[2]!.id,
      key,
      annotator: 'alice',
      state: { label: null, conveyedBy: { claims: [], sentences: [] }, note: 'unsure about the duration' },
      timeSpentMs: null,
      cause: 'note',
    });
  });
  return { lead, alice };
}

describe('merging claim and key-fact labels', () => {
  it('brings the labels and notes into the project under its own ids, with their origin; twice changes nothing', async () => {
    const { lead, alice } = await leadAndAlice('basic');
    const aliceId = rows<{ value: string }>(alice, "SELECT value FROM project_meta WHERE key = 'project_id'")[0]!.value;
    const [first] = await withProject(lead, (core) => core.handlers['merge.projects']({ paths: [alice] }));
    expect(first).toMatchObject({ merged: true, itemLabelsAdded: 4, itemLabelsPresent: 0, problems: [] });

    const claimLabels = rows(
      lead,
      `SELECT c.idx, a.name AS annotator, e.label, e.error_type AS errorType, e.note, e.time_spent_ms AS ms, e.origin_project AS origin, e.merge_id IS NOT NULL AS merged
       FROM claim_label_events e JOIN claims c ON c.id = e.claim_id JOIN annotators a ON a.id = e.annotator_id ORDER BY c.idx`,
    );
    expect(claimLabels).toEqual([
      {
        idx: 1,
        annotator: 'alice',
        label: 'unsupported',
        errorType: 'number_or_date',
        note: 'the document says 2 million',
        ms: 700,
        origin: aliceId,
        merged: 1,
      },
      {
        idx: 2,
        annotator: 'alice',
        label: null,
        errorType: null,
        note: 'check the start date',
        ms: null,
        origin: aliceId,
        merged: 1,
      },
    ]);
    // conveyed_by in the lead's own ids: claim 1 of the lead's set and the lead's first sentence.
    const ids = rows<{ claim: number; unit: number }>(
      lead,
      'SELECT (SELECT id FROM claims WHERE idx = 1) AS claim, (SELECT id FROM units WHERE idx = 0) AS unit',
    )[0]!;
    const keyFactLabels = rows(
      lead,
      `SELECT k.idx, e.label, e.conveyed_by AS conveyedBy, e.note, e.origin_project AS origin FROM key_fact_label_events e JOIN key_facts k ON k.id = e.key_fact_id ORDER BY k.idx`,
    );
    expect(keyFactLabels).toEqual([
      {
        idx: 0,
        label: 'covered',
        conveyedBy: JSON.stringify({ claims: [ids.claim], sentences: [ids.unit] }),
        note: 'both sentences agree',
        origin: aliceId,
      },
      {
        idx: 2,
        label: null,
        conveyedBy: '{"claims":[],"sentences":[]}',
        note: 'unsure about the duration',
        origin: aliceId,
      },
    ]);

    const [again] = await withProject(lead, (core) => core.handlers['merge.projects']({ paths: [alice] }));
    expect(again).toMatchObject({ merged: true, itemLabelsAdded: 0, itemLabelsPresent: 4 });
    expect(rows(lead, 'SELECT count(*) AS n FROM claim_label_events')).toEqual([{ n: 2 }]);
  });

  it('a chain alice → bob → lead keeps the first origin', async () => {
    const { lead, alice } = await leadAndAlice('chain');
    const bob = join(dir, 'chain-bob.loupe');
    copyFileSync(lead, bob);
    const aliceId = rows<{ value: string }>(alice, "SELECT value FROM project_meta WHERE key = 'project_id'")[0]!.value;
    await withProject(bob, (core) => core.handlers['merge.projects']({ paths: [alice] }));
    await withProject(lead, (core) => core.handlers['merge.projects']({ paths: [bob] }));
    const provenance = await withProject(lead, (core) =>
      new MergeRepository((core.repository() as unknown as { db: Database.Database }).db).itemProvenance(
        'claim_label_events',
      ),
    );
    expect(provenance.map((p) => p.originProject)).toEqual([aliceId, aliceId]);
    // Merging alice's own file afterwards recognises the same events.
    const [direct] = await withProject(lead, (core) => core.handlers['merge.projects']({ paths: [alice] }));
    expect(direct).toMatchObject({ itemLabelsAdded: 0, itemLabelsPresent: 4 });
  });

  it("a person's edited claim set the project lacks is added as the summary's next version, with the labels on it", async () => {
    const { lead, alice } = await leadAndAlice('edited');
    await withProject(alice, async (core) => {
      const h = core.handlers;
      const key = core.repository().corpus.summaryKey('card', 'S')!;
      const [v1] = await h['claims.versions']({ key });
      const c = v1!.claims;
      // alice splits claim 0 in two; claims 1 and 2 stay.
      await h['claims.edit']({
        key,
        annotator: 'alice',
        basedOnVersion: 1,
        claims: [
          { sentenceUnitId: c[0]!.sentenceUnitId, text: 'The council approved it.', from: [c[0]!.id] },
          { sentenceUnitId: c[0]!.sentenceUnitId, text: 'It is money.', from: [c[0]!.id] },
          ...c.slice(1).map((x) => ({ sentenceUnitId: x.sentenceUnitId, text: x.text, from: [x.id] })),
        ],
      });
      const claims = (await h['claims.load']({ key, annotator: 'alice' })).sentences.flatMap((s) => s.claims);
      await h['claims.record']({
        claimId: claims[1]!.id,
        annotator: 'alice',
        state: { label: 'supported', errorType: null, note: 'split from claim 1' },
        timeSpentMs: 300,
        cause: 'label',
      });
    });
    const [result] = await withProject(lead, (core) => core.handlers['merge.projects']({ paths: [alice] }));
    expect(result).toMatchObject({ merged: true, problems: [], itemSetsAdded: 1, itemLabelsAdded: 5 });
    const versions = await withProject(lead, async (core) =>
      core.handlers['claims.versions']({ key: core.repository().corpus.summaryKey('card', 'S')! }),
    );
    expect(versions.map((v) => [v.version, v.source, v.createdBy, v.claims.map((c) => c.text)])).toEqual([
      [
        1,
        'imported',
        null,
        ['The council approved the money.', 'The money is 2 million euros.', 'Work starts in March.'],
      ],
      [
        2,
        'person',
        'alice',
        ['The council approved it.', 'It is money.', 'The money is 2 million euros.', 'Work starts in March.'],
      ],
    ]);
    // Its items name the lead's version-1 claims they came from.
    const v1 = versions[0]!.claims.map((c) => c.id);
    expect(versions[1]!.claims.map((c) => c.from)).toEqual([[v1[0]], [v1[0]], [v1[1]], [v1[2]]]);
    expect(
      rows(
        lead,
        'SELECT c.idx, e.note FROM claim_label_events e JOIN claims c ON c.id = e.claim_id JOIN claim_sets s ON s.id = c.set_id WHERE s.version = 2',
      ),
    ).toEqual([{ idx: 1, note: 'split from claim 1' }]);
    const [again] = await withProject(lead, (core) => core.handlers['merge.projects']({ paths: [alice] }));
    expect(again).toMatchObject({ itemSetsAdded: 0, itemLabelsAdded: 0, itemLabelsPresent: 5 });
  });

  it('a claim set the project lacks refuses the file', async () => {
    const { alice } = await leadAndAlice('refused');
    // Another project with the same summary and key facts but its own claims.
    const other = join(dir, 'refused-other.loupe');
    const core = makeCore();
    core.createProject(other);
    const own = RECORDS.map((r) =>
      r.type === 'claims' ? { ...r, claims: [{ sentence_index: 0, text: 'Something else.' }] } : r,
    );
    await runImport(core.repository(), { source: { type: 'path', path: writeJsonl(join(dir, 'other.jsonl'), own) } });
    core.close();
    const [result] = await withProject(other, (core) => core.handlers['merge.projects']({ paths: [alice] }));
    expect(result!.merged).toBe(false);
    expect(result!.problems).toEqual([
      expect.stringMatching(/^card\/S: the claim set that alice's labels rest on is not in this project/),
    ]);
  });

  it('a note on an unlabeled claim or key fact is exported, and imported back', async () => {
    const { alice } = await leadAndAlice('export');
    const content = await withProject(
      alice,
      async (core) =>
        (await core.handlers['export.build']({ format: 'jsonl', history: false, accuracy: true })).content,
    );
    const records = content
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((r) => r.type === 'claim_label' || r.type === 'key_fact_label');
    expect(records).toEqual([
      expect.objectContaining({
        type: 'claim_label',
        claim_index: 1,
        label: 'unsupported',
        note: 'the document says 2 million',
      }),
      expect.objectContaining({ type: 'claim_label', claim_index: 2, label: null, note: 'check the start date' }),
      expect.objectContaining({
        type: 'key_fact_label',
        key_fact_index: 0,
        label: 'covered',
        note: 'both sentences agree',
      }),
      expect.objectContaining({
        type: 'key_fact_label',
        key_fact_index: 2,
        label: null,
        note: 'unsure about the duration',
      }),
    ]);
    const back = join(dir, 'export-back.loupe');
    await withProject(back, async (core) => {
      await runImport(core.repository(), {
        source: { type: 'upload', name: 'alice.jsonl', text: content },
        as: 'accuracy',
      });
    });
    expect(
      rows(
        back,
        "SELECT e.label, e.note FROM claim_label_events e JOIN annotators a ON a.id = e.annotator_id WHERE a.name = 'alice' ORDER BY e.id",
      ),
    ).toEqual([
      { label: 'unsupported', note: 'the document says 2 million' },
      { label: null, note: 'check the start date' },
    ]);
  });
});
