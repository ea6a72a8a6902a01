import Database from 'better-sqlite3';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCore, dispatch, type Core } from '../../../electron/core/index';
import { runImport } from '../../../electron/core/imports/run';
import { newsRows, writeJsonl } from '../../helpers/project';
import { tempDir } from '../../helpers/tmp';

const dir = tempDir();
let core: Core;

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
  core.createProject(join(dir, 'core.loupe'));
  await runImport(core.repository(), {
    source: { type: 'path', path: writeJsonl(join(dir, 'news.jsonl'), newsRows(10)) },
  });
  // A summary whose document is missing (as TofuEval ships them), through the labels-free path.
  await runImport(core.repository(), {
    source: {
      type: 'upload',
      name: 'missing.csv',
      text: 'doc_id,annotation_id,topic,model_name,sent_idx,summ_sent,sent_label,exp,type\nD1,1,Budget,model_A,1,The council met on Monday to vote.,yes,,\n',
    },
    as: 'tofueval',
    dataset: 'talks',
  });
});

describe('sampling through the core', () => {
  it('draws reproducible batches that never repeat and says when the dataset runs out', async () => {
    const first = await core.handlers['sampling.draw']({ dataset: 'news', n: 4, seed: 0 });
    const second = await core.handlers['sampling.draw']({ dataset: 'news', n: 4, seed: 0, annotator: 'bob' });
    const third = await core.handlers['sampling.draw']({ dataset: 'news', n: 4, seed: 0 });
    expect(first.summaryIds).toHaveLength(4);
    expect(second.summaryIds.filter((id) => first.summaryIds.includes(id))).toEqual([]);
    expect(third.summaryIds).toHaveLength(2);
    expect(third.exhausted).toBe(true);
    expect([first.batch, second.batch, third.batch]).toEqual([1, 2, 3]);
    expect(second.annotator).toBe('bob');
    await expect(core.handlers['sampling.draw']({ dataset: 'nope', n: 1, seed: 0 })).rejects.toThrow(/No dataset/);
  });
});

describe('annotation through the core', () => {
  it('queues the batches assigned to the annotator or to everyone, with progress, and resumes where work is left', async () => {
    const alice = await core.handlers['annotation.queue']({ annotator: 'alice' });
    const bob = await core.handlers['annotation.queue']({ annotator: 'bob' });
    expect(alice.items).toHaveLength(6); // batches 1 and 3: not bob's batch 2
    expect(bob.items).toHaveLength(10);
    expect(alice.progress).toEqual({ unitsDone: 0, unitsTotal: 18, summariesDone: 0, summariesTotal: 6 });
    expect(alice.resumeAt).toBe(0);
    expect(Object.keys(alice.items[0]!).sort()).toEqual([
      'dataset',
      'docId',
      'documentMissing',
      'key',
      'labeled',
      'summaryId',
      'units',
    ]);
  });

  it('records labels as events, reports progress, and loads only the annotator’s own labels', async () => {
    const queue = await core.handlers['annotation.queue']({ annotator: 'alice' });
    const summary = await core.handlers['annotation.load']({ key: queue.items[0]!.key, annotator: 'alice' });
    expect(Object.keys(summary).sort()).toEqual([
      'dataset',
      'docId',
      'document',
      'key',
      'revealed',
      'splitter',
      'summary',
      'summaryId',
      'units',
    ]);
    expect(summary.splitter).toMatch(/^loupe-rules/);
    for (const unit of summary.units) {
      await core.handlers['annotation.record']({
        unitId: unit.id,
        annotator: 'alice',
        state: { label: 'faithful', errorType: null, note: null },
        timeSpentMs: 1500,
        cause: 'label',
      });
    }
    const last = await core.handlers['annotation.record']({
      unitId: summary.units[2]!.id,
      annotator: 'alice',
      state: { label: 'unfaithful', errorType: 'number_or_date', note: 'the figure is wrong' },
      timeSpentMs: 900,
      cause: 'label',
    });
    expect(last.progress).toEqual({ unitsDone: 3, unitsTotal: 18, summariesDone: 1, summariesTotal: 6 });
    const reloaded = await core.handlers['annotation.load']({ key: summary.key, annotator: 'alice' });
    expect(reloaded.units.map((u) => u.state.label)).toEqual(['faithful', 'faithful', 'unfaithful']);
    const bobsView = await core.handlers['annotation.load']({ key: summary.key, annotator: 'bob' });
    expect(bobsView.units.map((u) => u.state.label)).toEqual([null, null, null]);
    expect((await core.handlers['annotation.queue']({ annotator: 'alice' })).resumeAt).toBe(1);
  });

  it('reads never write: looking at a queue or a summary creates no annotator', async () => {
    const before = (await core.handlers['annotators.list']({})).map((a) => a.name);
    const queue = await core.handlers['annotation.queue']({ annotator: 'nobody-yet' });
    expect(queue.items.length).toBeGreaterThan(0);
    expect(queue.progress.unitsDone).toBe(0);
    const summary = await core.handlers['annotation.load']({ key: queue.items[0]!.key, annotator: 'nobody-yet' });
    expect(summary.units.every((u) => u.state.label === null)).toBe(true);
    expect((await core.handlers['annotators.list']({})).map((a) => a.name)).toEqual(before);
  });

  it('refuses an error type on a sentence that is not unfaithful', async () => {
    const queue = await core.handlers['annotation.queue']({ annotator: 'alice' });
    const summary = await core.handlers['annotation.load']({ key: queue.items[1]!.key, annotator: 'alice' });
    // The rule is the contract's: every host refuses it in dispatch, before the core, and stores nothing.
    const refused = await dispatch(core.handlers, 'annotation.record', {
      unitId: summary.units[0]!.id,
      annotator: 'alice',
      state: { label: 'faithful', errorType: 'entity', note: null },
      timeSpentMs: null,
      cause: 'label',
    });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringMatching(/only to an Unfaithful/) },
    });
    const after = await core.handlers['annotation.load']({ key: queue.items[1]!.key, annotator: 'alice' });
    expect(after.units[0]!.state).toEqual(summary.units[0]!.state);
  });

  it('refuses labels on a summary whose document is missing until one is attached', async () => {
    await core.handlers['sampling.draw']({ dataset: 'talks', n: 1, seed: 0, annotator: 'carol' });
    const queue = await core.handlers['annotation.queue']({ annotator: 'carol', dataset: 'talks' });
    expect(queue.items[0]!.documentMissing).toBe(true);
    expect(queue.resumeAt).toBeNull();
    const summary = await core.handlers['annotation.load']({ key: queue.items[0]!.key, annotator: 'carol' });
    expect(summary.document).toBeNull();
    const record = () =>
      core.handlers['annotation.record']({
        unitId: summary.units[0]!.id,
        annotator: 'carol',
        state: { label: 'faithful', errorType: null, note: null },
        timeSpentMs: 10,
        cause: 'label',
      });
    await expect(record()).rejects.toThrow(/attach its document/);
    expect(
      await core.handlers['annotation.attachDocument']({
        key: summary.key,
        text: 'Transcript: the council met on Monday and voted.',
      }),
    ).toEqual({ attached: 1 });
    await expect(record()).resolves.toMatchObject({ state: { label: 'faithful' } });
  });
});

describe('export through the core', () => {
  it('writes one CSV row per labeled (sentence, annotator) and one per unlabeled sentence, with the history on request', async () => {
    const file = await core.handlers['export.build']({ format: 'csv', history: true, dataset: 'news' });
    const rows = parse(file.content, { columns: true }) as Array<Record<string, string>>;
    expect(file.fileName).toBe('core-news-labels.csv');
    expect(rows).toHaveLength(file.rows);
    expect(rows).toHaveLength(30); // 10 summaries × 3 sentences, alice labeled 3 of them once each
    const alices = rows.filter((r) => r.annotator === 'alice');
    expect(alices.map((r) => r.label)).toEqual(['faithful', 'faithful', 'unfaithful']);
    expect(alices[2]).toMatchObject({
      error_type: 'number_or_date',
      note: 'the figure is wrong',
      phase: 'annotation',
      splitter: 'loupe-rules',
      time_spent_ms: '2400',
    });
    expect(JSON.parse(alices[2]!.history!).map((h: { label: string }) => h.label)).toEqual(['faithful', 'unfaithful']);
    expect(rows.filter((r) => r.annotator === '').every((r) => r.label === '')).toBe(true);
  });
});

describe('annotator activity', () => {
  it('counts current labels per phase, events, the median decision time and fast decisions', async () => {
    const activity = await core.handlers['annotators.activity']({ fastMs: 1000 });
    const alice = activity.find((a) => a.name === 'alice')!;
    // alice: three keypress labels (1500, 1500, 1500 ms) then a relabel of sentence 3 (900 ms):
    // 3 sentences labeled now, 4 events, 4 timed decisions with median 1500 ms, one under 1 s.
    expect(alice).toMatchObject({
      annotationLabels: 3,
      reviewDecisions: 0,
      events: 4,
      timedDecisions: 4,
      medianMsPerDecision: 1500,
      fastDecisions: 1,
    });
    const carol = activity.find((a) => a.name === 'carol')!;
    expect(carol).toMatchObject({ annotationLabels: 1, timedDecisions: 1, medianMsPerDecision: 10, fastDecisions: 1 });
    expect(activity.find((a) => a.name === 'bob')).toMatchObject({
      annotationLabels: 0,
      events: 0,
      medianMsPerDecision: null,
      firstAt: null,
    });
  });
});
