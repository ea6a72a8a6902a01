/**
 * Merging annotators' copies (teams without a server): `merge.projects` through the core
 * on real project files. Copies made by copying the file share the project id (the harder case
 * for provenance); separately created projects made from the same benchmark file have their own.
 */
import Database from 'better-sqlite3';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../electron/core/index';
import { runImport } from '../../../electron/core/imports/run';
import { eventIdentity, MergeRepository, readOtherProject } from '../../../db/mergeRepository';
import { AnalysisRepository } from '../../../db/analysisRepository';
import type { HumanLabel, Phase } from '../../../shared/domain';
import { newsRows, writeJsonl } from '../../helpers/project';
import { tempDir } from '../../helpers/tmp';

const dir = tempDir('loupe-merge-');
const NEWS = writeJsonl(join(dir, 'news.jsonl'), newsRows(5));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function makeCore(host: 'electron' | 'web' = 'electron'): Core {
  return createCore({
    Database,
    stateDir: join(dir, 'state'),
    demoDir: dir,
    host,
    fileDialogs: false,
    diskPaths: host === 'electron',
    canSwitchProjects: false,
  });
}

/** Opens a project (created from the news file when missing), runs fn, closes. */
async function withProject<T>(path: string, fn: (core: Core) => Promise<T> | T): Promise<T> {
  const core = makeCore();
  try {
    try {
      core.openProject(path);
    } catch {
      core.createProject(path);
      await runImport(core.repository(), { source: { type: 'path', path: NEWS } });
      await core.handlers['sampling.draw']({ dataset: 'news', n: 5, seed: 0 });
    }
    return await fn(core);
  } finally {
    core.close();
  }
}

function unitId(core: Core, summary: number, index: number): number {
  return core.repository().unitIdsBySummary(`sum-00${summary}`, 'news')[0]!.unitIds[index]!;
}

async function label(
  core: Core,
  annotator: string,
  summary: number,
  index: number,
  value: HumanLabel | null,
  note: string | null = null,
): Promise<void> {
  await core.handlers['annotation.record']({
    unitId: unitId(core, summary, index),
    annotator,
    state: { label: value, errorType: value === 'unfaithful' ? 'entity' : null, note },
    timeSpentMs: 1000 + index,
    cause: value === null ? 'clear' : 'label',
  });
}

async function labelSummary(core: Core, annotator: string, summary: number, value: HumanLabel): Promise<void> {
  for (const i of [0, 1, 2]) await label(core, annotator, summary, i, value);
}

const identities = (path: string): string[] => readOtherProject(Database, path).events.map(eventIdentity).sort();

/** Current labels (non-null) as "summary/index annotator phase label", from the analysis loader's query. */
async function current(path: string): Promise<string[]> {
  return withProject(path, (core) => {
    const db = (core.repository() as unknown as { db: Database.Database }).db;
    return new AnalysisRepository(db)
      .currentLabels('news')
      .map((r) => `${r.summaryKey}/${r.unitIndex} ${r.annotator} ${r.phase} ${r.label}`)
      .sort();
  });
}

function tableDump(path: string): string {
  const db = new Database(path, { readonly: true });
  try {
    return JSON.stringify([
      db.prepare('SELECT * FROM label_events ORDER BY id').all(),
      db.prepare('SELECT * FROM review_events ORDER BY event_id').all(),
      db.prepare('SELECT * FROM annotators ORDER BY id').all(),
      db.prepare('SELECT * FROM merges ORDER BY id').all(),
    ]);
  } finally {
    db.close();
  }
}

async function merge(path: string, others: string[]) {
  return withProject(path, (core) => core.handlers['merge.projects']({ paths: others }));
}

describe('merging copies of a project', () => {
  const P = join(dir, 'team.loupe');
  const A = join(dir, 'alice-copy.loupe');
  const B = join(dir, 'bob-copy.loupe');

  it('adds each copy’s new events once, recognises the project’s own, records provenance, and a second merge changes nothing', async () => {
    await withProject(P, (core) => labelSummary(core, 'lead', 0, 'faithful'));
    copyFileSync(P, A);
    copyFileSync(P, B);
    // Work in the copies and in the project itself after the copies were made: ids collide (4, 5, 6 in each).
    await withProject(A, async (core) => {
      await labelSummary(core, 'alice', 1, 'unfaithful');
      await label(core, 'alice', 2, 0, 'faithful', 'checked twice');
      await label(core, 'alice', 2, 0, null); // a clear is an event too
    });
    await withProject(B, (core) => labelSummary(core, 'bob', 1, 'faithful'));
    await withProject(P, (core) => labelSummary(core, 'lead', 3, 'unclear'));
    const before = new Set([...identities(P), ...identities(A), ...identities(B)]);

    const first = await merge(P, [A, B]);
    expect(first.map((r) => [r.eventsAdded, r.eventsPresent, r.problems])).toEqual([
      [5, 3, []],
      [3, 3, []],
    ]);
    expect(first[0]).toMatchObject({
      merged: true,
      annotators: ['alice', 'lead'],
      annotatorsAdded: ['alice'],
      summariesMatched: 5,
      summariesNotInProject: 0,
    });
    expect(first[1]!.annotatorsAdded).toEqual(['bob']);

    // No label lost or duplicated: P holds exactly the union of the three histories, each event once.
    const after = identities(P);
    expect(after).toHaveLength(before.size);
    expect(new Set(after)).toEqual(before);

    // Provenance: the origin project (the copies share P's id: they are file copies) and the event's id there, and the merge.
    await withProject(P, (core) => {
      const db = (core.repository() as unknown as { db: Database.Database }).db;
      const repo = new MergeRepository(db);
      const projectId = core.repository().getMeta('project_id');
      expect(projectId).toMatch(/^[0-9a-f-]{36}$/);
      const merged = repo.provenance().filter((e) => e.mergeId !== null);
      expect(merged).toHaveLength(8);
      const merges = repo.merges();
      expect(merges.map((m) => [m.source, m.sourceProject, m.eventsAdded, m.eventsPresent, m.annotatorsAdded])).toEqual(
        [
          [A, projectId, 5, 3, 1],
          [B, projectId, 3, 3, 1],
        ],
      );
      const fromA = merged.filter((e) => e.mergeId === merges[0]!.id);
      expect(fromA.map((e) => [e.originProject, e.originEvent])).toEqual([4, 5, 6, 7, 8].map((id) => [projectId, id]));
      expect(
        repo
          .provenance()
          .filter((e) => e.mergeId === null)
          .every((e) => e.originProject === null && e.originEvent === null),
      ).toBe(true);
    });

    const dump = tableDump(P);
    const second = await merge(P, [A, B, A]);
    expect(second.map((r) => [r.eventsAdded, r.eventsPresent, r.annotatorsAdded, r.problems])).toEqual([
      [0, 8, [], []],
      [0, 6, [], []],
      [0, 8, [], []],
    ]);
    expect(tableDump(P)).toBe(dump);
  });

  it('shows merged labels to the annotation view, the export and the analysis', async () => {
    await withProject(P, async (core) => {
      const queue = await core.handlers['annotation.queue']({ annotator: 'alice' });
      expect(queue.progress.unitsDone).toBe(3); // summary 1; the cleared sentence of summary 2 is not done
      const key = queue.items.find((i) => i.summaryId === 'sum-001')!.key;
      const loaded = await core.handlers['annotation.load']({ key, annotator: 'alice' });
      expect(loaded.units.map((u) => u.state.label)).toEqual(['unfaithful', 'unfaithful', 'unfaithful']);
      const cleared = await core.handlers['annotation.load']({
        key: queue.items.find((i) => i.summaryId === 'sum-002')!.key,
        annotator: 'alice',
      });
      expect(cleared.units[0]!.state).toEqual({ label: null, errorType: null, note: null });
      const file = await core.handlers['export.build']({ format: 'jsonl', history: true });
      const rows = file.content
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { annotator: string | null; summary_id: string; label: string | null });
      expect(rows.filter((r) => r.annotator === 'bob' && r.label === 'faithful').map((r) => r.summary_id)).toEqual([
        'sum-001',
        'sum-001',
        'sum-001',
      ]);
    });
    const labels = await current(P);
    expect(labels.filter((l) => l.includes(' alice '))).toHaveLength(3);
    expect(labels.filter((l) => l.includes(' bob '))).toHaveLength(3);
    expect(labels.filter((l) => l.includes(' lead '))).toHaveLength(6);
  });
});

describe('the latest event across merged histories', () => {
  it('keeps the newest label current whatever the merge order gave as ids, in every current-state read', async () => {
    const P = join(dir, 'latest.loupe');
    const A = join(dir, 'latest-copy.loupe');
    await withProject(P, () => undefined);
    copyFileSync(P, A);
    // Older in the copy, newer in the project: the merged (older) event gets the larger id.
    await withProject(A, (core) => label(core, 'bob', 4, 0, 'unfaithful'));
    await sleep(5);
    await withProject(P, (core) => label(core, 'bob', 4, 0, 'faithful'));
    // Newer in the copy: it must become current after the merge.
    await withProject(P, (core) => label(core, 'bob', 4, 1, 'faithful'));
    await sleep(5);
    await withProject(A, (core) => label(core, 'bob', 4, 1, 'unclear'));
    // A review decision (queue human-human) in the copy comes with its queue.
    await withProject(A, (core) => {
      const review = core.repository().review;
      review.recordDecision({
        unitId: unitId(core, 4, 1),
        annotatorId: review.ensureAnnotator('rita'),
        label: 'unfaithful',
        errorType: 'relation',
        note: 'adjudicated',
        timeSpentMs: 4000,
        cause: 'label',
        queue: 'human-human',
        judges: [],
      });
    });

    const [result] = await merge(P, [A]);
    expect(result).toMatchObject({ eventsAdded: 3, eventsPresent: 0, problems: [] });

    await withProject(P, async (core) => {
      const repo = core.repository();
      const key = repo.unitSummaryKey(unitId(core, 4, 0))!;
      const loaded = await core.handlers['annotation.load']({ key, annotator: 'bob' });
      expect(loaded.units.slice(0, 2).map((u) => u.state.label)).toEqual(['faithful', 'unclear']);
      const exported = repo.exportRows('news').filter((r) => r.annotator === 'bob' && r.summaryId === 'sum-004');
      expect(exported.map((r) => [r.sentenceIndex, r.label])).toEqual([
        [0, 'faithful'],
        [1, 'unclear'],
      ]);
      const reviewRows = repo.review.currentLabels('news').filter((r) => r.summaryKey === key);
      expect(reviewRows.filter((r) => r.annotator === 'bob').map((r) => [r.unitIndex, r.label, r.events])).toEqual([
        [0, 'faithful', 2],
        [1, 'unclear', 2],
      ]);
      expect(reviewRows.find((r) => r.annotator === 'rita')).toMatchObject({
        phase: 'review',
        label: 'unfaithful',
        queue: 'human-human',
        errorType: 'relation',
        note: 'adjudicated',
        blindTimeMs: 4000,
      });
      // History in time order: the merged older event comes first although its id is larger.
      const history = repo.labelHistory('news').filter((e) => e.annotator === 'bob' && e.unitId === unitId(core, 4, 0));
      expect(history.map((e) => e.label)).toEqual(['unfaithful', 'faithful']);
      expect(history[0]!.eventId).toBeGreaterThan(history[1]!.eventId);
    });
    expect((await current(P)).filter((l) => l.includes(' bob '))).toEqual([
      expect.stringMatching(/\/0 bob annotation faithful$/),
      expect.stringMatching(/\/1 bob annotation unclear$/),
    ]);
  });
});

describe('chains of merges between separately created projects', () => {
  it('A→B, B→C, then A→C adds nothing again; origins stay those of the first project; C→A completes A', async () => {
    const [A, B, C] = ['chain-a', 'chain-b', 'chain-c'].map((n) => join(dir, `${n}.loupe`)) as [string, string, string];
    await withProject(A, (core) => labelSummary(core, 'ann', 0, 'faithful'));
    await withProject(B, (core) => labelSummary(core, 'ben', 1, 'unfaithful'));
    await withProject(C, (core) => labelSummary(core, 'cat', 2, 'unclear'));
    const ids = await Promise.all(
      [A, B, C].map((p) => withProject(p, (core) => core.repository().getMeta('project_id'))),
    );
    expect(new Set(ids).size).toBe(3);

    expect((await merge(B, [A]))[0]).toMatchObject({ eventsAdded: 3, eventsPresent: 0 });
    expect((await merge(C, [B]))[0]).toMatchObject({ eventsAdded: 6, eventsPresent: 0 });
    const dump = tableDump(C);
    expect((await merge(C, [A]))[0]).toMatchObject({ eventsAdded: 0, eventsPresent: 3 });
    expect((await merge(C, [B]))[0]).toMatchObject({ eventsAdded: 0, eventsPresent: 6 });
    expect(tableDump(C)).toBe(dump);

    await withProject(C, (core) => {
      const db = (core.repository() as unknown as { db: Database.Database }).db;
      const rows = db
        .prepare(
          `SELECT a.name, e.origin_project AS p, e.origin_event AS e FROM label_events e JOIN annotators a ON a.id = e.annotator_id ORDER BY e.id`,
        )
        .all() as Array<{ name: string; p: string | null; e: number | null }>;
      expect(rows.filter((r) => r.name === 'ann').map((r) => [r.p, r.e])).toEqual([1, 2, 3].map((e) => [ids[0], e]));
      expect(rows.filter((r) => r.name === 'ben').map((r) => [r.p, r.e])).toEqual([1, 2, 3].map((e) => [ids[1], e]));
      expect(rows.filter((r) => r.name === 'cat').map((r) => r.p)).toEqual([null, null, null]);
    });

    expect((await merge(A, [C]))[0]).toMatchObject({ eventsAdded: 6, eventsPresent: 3 });
    expect(identities(A)).toEqual(identities(C));
    expect(await current(A)).toEqual(await current(C));
  });
});

describe('refusals', () => {
  it('refuses a copy whose sentences differ, naming the summary and sentence, and writes nothing', async () => {
    const P = join(dir, 'strict.loupe');
    const D = join(dir, 'diverged.loupe');
    const E = join(dir, 'extra.loupe');
    await withProject(P, (core) => labelSummary(core, 'lead', 0, 'faithful'));
    const rows = newsRows(5);
    rows[3] = {
      ...rows[3]!,
      summary:
        'The Springfield council approved a budget on Monday. It adds 12 million dollars for schools. Mayor Jane Smith called it a victory.',
    };
    const diverged = writeJsonl(join(dir, 'diverged.jsonl'), rows);
    const core = makeCore();
    core.createProject(D);
    await runImport(core.repository(), { source: { type: 'path', path: diverged } });
    await labelSummary(core, 'dora', 0, 'unfaithful'); // an unaffected summary: still nothing merges
    core.close();
    // Labels on a summary the project lacks would be lost: refused too.
    const extra = makeCore();
    extra.createProject(E);
    await runImport(extra.repository(), {
      source: { type: 'path', path: writeJsonl(join(dir, 'extra.jsonl'), [...newsRows(5), ...newsRows(7).slice(5)]) },
    });
    await labelSummary(extra, 'eve', 6, 'faithful');
    extra.close();
    const junk = join(dir, 'junk.loupe');
    writeFileSync(junk, 'not a database');

    const dump = tableDump(P);
    const results = await merge(P, [D, E, junk, join(dir, 'missing.loupe'), P]);
    expect(results.every((r) => !r.merged && r.eventsAdded === 0)).toBe(true);
    expect(results[0]!.problems).toEqual([
      expect.stringMatching(
        /^news\/sum-003: sentence 0 differs \(sentence 0 here: "The Springfield council approved a budget on Tuesday\."; in the file: ".*Monday\."\)$/,
      ),
    ]);
    expect(results[1]!.problems).toEqual([
      expect.stringMatching(/^news\/sum-006: not in this project, and the file holds 3 label event\(s\)/),
    ]);
    expect(results[2]!.problems).toEqual([expect.stringMatching(/not a Loupe project/)]);
    expect(results[3]!.problems).toEqual([expect.stringMatching(/cannot open/)]);
    expect(results[4]!.problems).toEqual([expect.stringMatching(/is the open project itself/)]);
    expect(tableDump(P)).toBe(dump);
  });

  it('is desktop only: loupe serve answers unsupported (paths on disk)', async () => {
    const core = makeCore('web');
    core.openProject(join(dir, 'strict.loupe'));
    await expect(core.handlers['merge.projects']({ paths: [join(dir, 'extra.loupe')] })).rejects.toMatchObject({
      code: 'unsupported',
    });
    core.close();
  });
});

describe('imported labels', () => {
  it('recognises the same labels file imported into both projects at different times (by its import key)', async () => {
    const labels = writeJsonl(join(dir, 'labels.jsonl'), [
      { dataset: 'news', summary_id: 'sum-000', sentence_index: 0, label: 'faithful', annotator: 'expert' },
      {
        dataset: 'news',
        summary_id: 'sum-000',
        sentence_index: 1,
        label: 'unfaithful',
        annotator: 'expert',
        error_type: 'entity',
      },
    ]);
    const P = join(dir, 'imported.loupe');
    const B = join(dir, 'imported-other.loupe');
    await withProject(P, (core) => runImport(core.repository(), { source: { type: 'path', path: labels } }));
    await sleep(5);
    await withProject(B, async (core) => {
      await runImport(core.repository(), { source: { type: 'path', path: labels } });
      // The imported set "expert" is read-only: a person adds the local label.
      await label(core, 'maria', 0, 2, 'unclear');
    });
    const [first] = await merge(P, [B]);
    expect(first).toMatchObject({ eventsAdded: 1, eventsPresent: 2, problems: [] });
    expect((await current(P)).filter((l) => l.includes(' expert '))).toHaveLength(2);
    expect((await current(P)).filter((l) => l.includes(' maria '))).toHaveLength(1);
    // Importing the file into P again still changes nothing.
    const again = await withProject(P, (core) =>
      runImport(core.repository(), { source: { type: 'path', path: labels } }),
    );
    expect(again.labelsAdded).toBe(0);
  });
});

describe('phases', () => {
  it('copies review-phase labels as review labels', async () => {
    const P = join(dir, 'phases.loupe');
    const A = join(dir, 'phases-copy.loupe');
    await withProject(P, () => undefined);
    copyFileSync(P, A);
    await withProject(A, (core) => {
      const review = core.repository().review;
      review.recordDecision({
        unitId: unitId(core, 0, 0),
        annotatorId: review.ensureAnnotator('rita'),
        label: 'faithful',
        errorType: null,
        note: null,
        timeSpentMs: 10,
        cause: 'label',
        queue: 'suspicious',
        judges: ['baseline'],
      });
    });
    await merge(P, [A]);
    const phases = await withProject(P, (core) =>
      core
        .repository()
        .labelHistory(null)
        .map((e) => [e.annotator, e.phase as Phase, e.label]),
    );
    expect(phases).toEqual([['rita', 'review', 'faithful']]);
    const db = new Database(P, { readonly: true });
    expect(db.prepare('SELECT queue, judges FROM review_events').all()).toEqual([
      { queue: 'suspicious', judges: '["baseline"]' },
    ]);
    db.close();
  });
});
