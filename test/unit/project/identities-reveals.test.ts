/**
 * At the core: one identity per annotator (imported label sets are read-only sources),
 * reveals and `blind: false`, and the migration of a schema-6 file.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeEach, describe, expect, it } from 'vitest';
import { createCore, dispatch, type Core } from '../../../electron/core/index';
import { runImport } from '../../../electron/core/imports/run';
import { newsRows, writeJsonl } from '../../helpers/project';
import { projectAtSchema } from '../../helpers/schema';
import { tempDir } from '../../helpers/tmp';

const dir = tempDir();
let core: Core;
let n = 0;

function newCore(): Core {
  return createCore({
    Database,
    stateDir: dir,
    demoDir: dir,
    host: 'web',
    fileDialogs: false,
    diskPaths: false,
    canSwitchProjects: false,
  });
}

const events = (c: Core) => c.repository().labelHistory(null);

beforeEach(async () => {
  core = newCore();
  core.createProject(join(dir, `p${++n}.loupe`));
  await runImport(core.repository(), {
    source: { type: 'path', path: writeJsonl(join(dir, `news${n}.jsonl`), newsRows(6)) },
  });
  // A benchmark's label set: "frank-0" labels sentence 0 of sum-000.
  await runImport(core.repository(), {
    source: {
      type: 'path',
      path: writeJsonl(join(dir, `labels${n}.jsonl`), [
        { dataset: 'news', summary_id: 'sum-000', sentence_index: 0, label: 'unfaithful', annotator: 'frank-0' },
      ]),
    },
  });
  await core.handlers['sampling.draw']({ dataset: 'news', n: 4, seed: 0 });
});

async function unitsOf(annotator: string, index: number): Promise<number[]> {
  const queue = await core.handlers['annotation.queue']({ annotator });
  const summary = await core.handlers['annotation.load']({ key: queue.items[index]!.key, annotator });
  return summary.units.map((u) => u.id);
}

describe('identities: imported label sets are read-only sources', () => {
  it('lists annotators with their kind', async () => {
    await core.handlers['annotators.ensure']({ name: 'alice' });
    expect(await core.handlers['annotators.list']({})).toEqual([
      expect.objectContaining({ name: 'alice', kind: 'person' }),
      expect.objectContaining({ name: 'frank-0', kind: 'imported' }),
    ]);
  });

  it('refuses every call that would annotate, review, sample or link as an imported set, and stores nothing', async () => {
    const before = events(core).length;
    const [unitId] = await unitsOf('alice', 0);
    const state = { label: 'faithful', errorType: null, note: null } as const;
    const calls = [
      ['annotation.record', { unitId, annotator: 'frank-0', state, timeSpentMs: 5, cause: 'label' }],
      ['annotation.queue', { annotator: 'frank-0' }],
      ['annotation.load', { key: 1, annotator: 'frank-0' }],
      ['annotation.reveal', { annotator: 'frank-0', view: 'analysis' }],
      ['annotators.ensure', { name: 'frank-0' }],
      ['sampling.draw', { dataset: 'news', n: 1, annotator: 'frank-0' }],
    ] as const;
    for (const [method, input] of calls) {
      const result = await dispatch(core.handlers, method, input);
      expect(result, method).toMatchObject({
        ok: false,
        error: {
          code: 'invalid_input',
          message: expect.stringMatching(/"frank-0" is an imported label set \(read-only\)/),
        },
      });
    }
    // A review decision takes its reviewer from the same rule (review.record needs a queue; its repository call is the gate).
    expect(() => core.repository().review.ensureAnnotator('frank-0')).toThrow(
      /"frank-0" is an imported label set \(read-only\)/,
    );
    expect(events(core)).toHaveLength(before);
    expect(core.repository().sampleBatchInfos(null)).toHaveLength(1);
    expect((await core.handlers['annotators.list']({})).map((a) => `${a.name}:${a.kind}`)).toEqual([
      'frank-0:imported',
    ]);
  });

  it('refuses a label made in Loupe under an imported name even below the handlers (the schema trigger)', () => {
    const repo = core.repository();
    const frank = repo.annotator('frank-0')!;
    const unitId = repo.unitIdsBySummary('sum-001', 'news')[0]!.unitIds[0]!;
    expect(() =>
      repo.recordLabel({
        unitId,
        annotatorId: frank.id,
        phase: 'annotation',
        state: { label: 'faithful', errorType: null, note: null },
        timeSpentMs: null,
        cause: 'label',
      }),
    ).toThrow(/imported label set is read-only/);
  });

  it('lets an import add labels to an existing person, who stays a person (re-importing one’s own export)', async () => {
    await core.handlers['annotators.ensure']({ name: 'alice' });
    await runImport(core.repository(), {
      source: {
        type: 'path',
        path: writeJsonl(join(dir, `alice${n}.jsonl`), [
          { dataset: 'news', summary_id: 'sum-002', sentence_index: 1, label: 'faithful', annotator: 'alice' },
        ]),
      },
    });
    expect(core.repository().annotator('alice')?.kind).toBe('person');
  });
});

describe('reveals and blind: false', () => {
  it('counts the unfinished summaries, records a reveal for each, and marks later labels on them blind: false in history and export', async () => {
    const annotator = 'alice';
    const first = await unitsOf(annotator, 0);
    const second = await unitsOf(annotator, 1);
    const record = (unitId: number, label: 'faithful' | 'unfaithful') =>
      core.handlers['annotation.record']({
        unitId,
        annotator,
        state: { label, errorType: null, note: null },
        timeSpentMs: 10,
        cause: 'label',
      });
    // The first summary is finished before the reveal; one sentence of the second is labeled before it.
    for (const u of first) await record(u, 'faithful');
    await record(second[0]!, 'faithful');
    expect(await core.handlers['annotation.revealStatus']({ annotator })).toEqual({
      annotator,
      unfinished: 3,
      revealed: 0,
    });

    const revealed = await core.handlers['annotation.reveal']({ annotator, view: 'analysis', confirmFor: annotator });
    expect(revealed).toEqual({ revealed: 3, status: { annotator, unfinished: 3, revealed: 3 } });
    // Revealing again adds nothing.
    expect(
      (await core.handlers['annotation.reveal']({ annotator, view: 'review', confirmFor: annotator })).revealed,
    ).toBe(0);

    await record(second[1]!, 'unfaithful');
    await record(first[0]!, 'unfaithful'); // a relabel of a summary finished before the reveal: still blind
    const queue = await core.handlers['annotation.queue']({ annotator });
    expect((await core.handlers['annotation.load']({ key: queue.items[1]!.key, annotator })).revealed).toBe(true);
    expect((await core.handlers['annotation.load']({ key: queue.items[0]!.key, annotator })).revealed).toBe(false);

    const history = events(core).filter((e) => e.annotator === annotator);
    const blindOf = (unitId: number) => history.filter((e) => e.unitId === unitId).map((e) => e.blind);
    expect(blindOf(second[0]!)).toEqual([true]);
    expect(blindOf(second[1]!)).toEqual([false]);
    expect(blindOf(first[0]!)).toEqual([true, true]);

    const file = await core.handlers['export.build']({ format: 'csv', history: true, dataset: 'news' });
    const rows = parse(file.content, { columns: true }) as Array<Record<string, string>>;
    const row = (unitId: number) => {
      const summary = core.repository().summaryForAnnotation(core.repository().unitSummaryKey(unitId)!)!;
      const index = summary.units.find((u) => u.id === unitId)!.index;
      return rows.find(
        (r) => r.annotator === annotator && r.summary_id === summary.summaryId && Number(r.sentence_index) === index,
      )!;
    };
    // CSV writes booleans as 1/0.
    expect(row(second[1]!).blind).toBe('0');
    expect(row(second[0]!).blind).toBe('1');
    const jsonl = (await core.handlers['export.build']({ format: 'jsonl', history: false, dataset: 'news' })).content
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(jsonl.filter((r) => r.annotator === annotator && r.blind === false)).toHaveLength(1);
    expect(JSON.parse(row(second[1]!).history!)).toEqual([
      expect.objectContaining({ label: 'unfaithful', blind: false }),
    ]);
    // A sentence nobody labeled has no blindness to speak of.
    expect(rows.filter((r) => r.annotator === '').every((r) => r.blind === '')).toBe(true);
  });

  it('an unknown annotator has no reveals; revealing creates them as a person', async () => {
    expect(await core.handlers['annotation.revealStatus']({ annotator: 'zoe' })).toEqual({
      annotator: 'zoe',
      unfinished: 4,
      revealed: 0,
    });
    expect(
      (await core.handlers['annotation.reveal']({ annotator: 'zoe', view: 'judges', confirmFor: 'zoe' })).revealed,
    ).toBe(4);
    expect(core.repository().annotator('zoe')?.kind).toBe('person');
  });

  it('links.* answer unsupported on a host without links (desktop, CLI)', async () => {
    for (const [method, input] of [
      ['links.list', {}],
      ['links.create', { annotator: 'alice' }],
      ['links.revoke', { id: 'x' }],
    ] as const) {
      expect(await dispatch(core.handlers, method, input), method).toMatchObject({
        ok: false,
        error: { code: 'unsupported' },
      });
    }
  });
});

describe('migration 007 of a schema-6 file', () => {
  it('makes an annotator whose events are all imports an imported set, everyone else a person, and every stored event blind', async () => {
    const path = join(dir, 'old.loupe');
    const db = projectAtSchema(path, 6);
    const at = '2024-01-01T00:00:00.000Z';
    db.exec(`INSERT INTO datasets (id, name, created_at) VALUES (1, 'news', '${at}');
      INSERT INTO documents (id, dataset_id, doc_id, text) VALUES (1, 1, 'd', 'Doc.');
      INSERT INTO summaries (id, dataset_id, document_id, summary_id, text) VALUES (1, 1, 1, 's', 'One. Two.');
      INSERT INTO units (id, summary_id, idx, text, start, end, fragment, splitter, splitter_version) VALUES (1, 1, 0, 'One.', 0, 4, 0, 'x', '1'), (2, 1, 1, 'Two.', 5, 9, 0, 'x', '1');
      INSERT INTO annotators (id, name, created_at) VALUES (1, 'frank-0', '${at}'), (2, 'alice', '${at}'), (3, 'bob', '${at}'), (4, 'mixed', '${at}');
      INSERT INTO label_events (unit_id, annotator_id, phase, label, cause, created_at, import_key) VALUES
        (1, 1, 'annotation', 'faithful', 'import', '${at}', 'k1'), (2, 1, 'annotation', 'faithful', 'import', '${at}', 'k2'),
        (1, 2, 'annotation', 'unclear', 'label', '${at}', NULL),
        (1, 4, 'annotation', 'faithful', 'import', '${at}', 'k3'), (2, 4, 'annotation', 'faithful', 'label', '${at}', NULL);`);
    db.close();
    const migrated = newCore();
    migrated.openProject(path);
    expect((await migrated.handlers['annotators.list']({})).map((a) => `${a.name}:${a.kind}`)).toEqual([
      'alice:person',
      'bob:person',
      'frank-0:imported',
      'mixed:person',
    ]);
    expect(events(migrated).map((e) => e.blind)).toEqual([true, true, true, true, true]);
    expect(await dispatch(migrated.handlers, 'annotators.ensure', { name: 'frank-0' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    migrated.close();
  });
});
