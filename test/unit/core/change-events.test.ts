/**
 * The core's change events: who may hear which (`changeFor`: an annotator link hears nothing of
 * judges, systems, task runs, reviews, links, merges or other people's labels), and when the core
 * emits them (after a write returned, never for a refused one; an import when its job is done).
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  API,
  CHANGE_NAMESPACES,
  CHANGING_METHODS,
  changeFor,
  type ChangeEvent,
  type ChangeNamespace,
} from '../../../shared/api';
import { createCore } from '../../../electron/core/index';
import { runImport } from '../../../electron/core/imports/run';
import { newsRows, writeJsonl } from '../../helpers/project';
import { tempDir } from '../../helpers/tmp';

const dir = tempDir();
const alice = { role: 'annotator', annotator: 'alice' } as const;
const event = (namespace: ChangeNamespace, what: string, by: string | null = null): ChangeEvent => ({
  seq: 1,
  namespace,
  what,
  dataset: 'news',
  by,
});

describe('CHANGING_METHODS: every writing method is on the list', () => {
  // A method off the list sends no event, so a view stays stale: each one must be a read, a start
  // or control of background work (which emits when it ends), a host dialog, or a write no open
  // view shows (named here with why).
  const READ =
    /\.(list|load|get|status|versions|queue|card|table|preview|plan|defaults|info|recent|activity|runs|latest|corrections|tasks|revealStatus|next)$/;
  const BACKGROUND = /\.(start|pause|resume|cancel)$/;
  const UNSHOWN: Record<string, string> = {
    'judges.batchExport': 'records its request file for the later import; no view lists request files',
    'accuracy.batchExport': 'the same, for an accuracy task',
    'export.build': 'answers a file; the project is unchanged',
    'export.write': 'writes a file outside the project',
    'annotation.reveal': 'the reveal shows in the revealing tab only; later labels carry it',
    'review.reveal': 'the same, in Review',
  };

  it('names every method that is neither a read, background work, a dialog nor an unshown write', () => {
    const unlisted = Object.keys(API).filter(
      (method) =>
        !CHANGING_METHODS.has(method as keyof typeof API) &&
        !READ.test(method) &&
        !BACKGROUND.test(method) &&
        !method.startsWith('dialog.') &&
        !(method in UNSHOWN),
    );
    expect(unlisted).toEqual([]);
    for (const method of Object.keys(UNSHOWN)) expect(Object.keys(API)).toContain(method);
  });

  it('a writing method is not mistaken for a read', () => {
    for (const method of CHANGING_METHODS) expect(READ.test(method) || BACKGROUND.test(method), method).toBe(false);
  });
});

describe('changeFor: who hears which change', () => {
  it('the lead hears every change', () => {
    for (const namespace of CHANGE_NAMESPACES)
      expect(changeFor(event(namespace, `${namespace}.x`, 'bob'), { role: 'lead' })).not.toBeNull();
  });

  it('an annotator link hears the corpus, samples, sets and its own labels, and nothing of judges or other people', () => {
    const heard = CHANGE_NAMESPACES.filter(
      (namespace) => changeFor(event(namespace, `${namespace}.x`), alice) !== null,
    );
    expect(heard).toEqual([
      'projects',
      'datasets',
      'imports',
      'annotation',
      'sampling',
      'claims',
      'keyfacts',
      'scaffold',
      'proposals',
    ]);
    expect(changeFor(event('judges', 'judges.add'), alice)).toBeNull();
    expect(changeFor(event('judges', 'judges.run'), alice)).toBeNull();
    expect(changeFor(event('accuracy', 'accuracy.run'), alice)).toBeNull();
    // Imports that carry judge outputs or other people's labels are the lead's business.
    for (const what of ['imports.predictions', 'imports.labels', 'imports.scaffold-alignments'])
      expect(changeFor(event('imports', what), alice)).toBeNull();
    expect(changeFor(event('imports', 'imports.scaffold'), alice)).toEqual(event('imports', 'imports.scaffold'));
    // Labels and edits: her own and the lead's, never another annotator's.
    expect(changeFor(event('annotation', 'annotation.record', 'alice'), alice)).not.toBeNull();
    expect(changeFor(event('annotation', 'annotation.record', 'bob'), alice)).toBeNull();
    expect(changeFor(event('claims', 'claims.edit', 'bob'), alice)).toBeNull();
    expect(changeFor(event('scaffold', 'scaffold.edit'), alice)).not.toBeNull();
  });
});

describe('the core emits a change after each committed write', () => {
  const core = createCore({
    Database,
    stateDir: dir,
    demoDir: dir,
    host: 'web',
    fileDialogs: false,
    diskPaths: true,
    canSwitchProjects: false,
  });
  const heard: ChangeEvent[] = [];
  core.onChange((e) => heard.push(e));
  afterAll(() => core.close());

  it('after a write returned, with whose labels they are; never for a refused call or a read', async () => {
    core.createProject(join(dir, 'changes.loupe'));
    await runImport(core.repository(), {
      source: { type: 'path', path: writeJsonl(join(dir, 'news.jsonl'), newsRows(2)) },
    });
    await core.handlers['judges.add']({ name: 'j', config: { kind: 'baseline' } as never });
    await expect(core.handlers['judges.add']({ name: 'j', config: { kind: 'baseline' } as never })).rejects.toThrow();
    await core.handlers['judges.list']({});
    await core.handlers['sampling.draw']({ dataset: 'news', n: 2, seed: 0 } as never);
    const queue = await core.handlers['annotation.queue']({ annotator: 'alice' });
    const loaded = await core.handlers['annotation.load']({ key: queue.items[0]!.key, annotator: 'alice' });
    await core.handlers['annotation.record']({
      unitId: loaded.units[0]!.id,
      annotator: 'alice',
      state: { label: 'faithful', errorType: null, note: null },
      timeSpentMs: 100,
      cause: 'label',
    } as never);
    expect(heard.map((e) => [e.namespace, e.what, e.dataset, e.by])).toEqual([
      ['judges', 'judges.add', null, null],
      ['sampling', 'sampling.draw', 'news', null],
      ['annotation', 'annotation.record', null, 'alice'],
    ]);
    expect(heard.map((e) => e.seq)).toEqual(heard.map((_, i) => heard[0]!.seq + i));
  });

  it('an import tells its change once its job is done, with its kind and dataset', async () => {
    const before = heard.length;
    const { jobId } = await core.handlers['imports.start']({
      source: { type: 'path', path: writeJsonl(join(dir, 'more.jsonl'), newsRows(2, 'more')) },
    });
    const start = Date.now();
    while ((await core.handlers['jobs.get']({ jobId })).state === 'running') {
      if (Date.now() - start > 10_000) throw new Error('the import did not finish');
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(heard.slice(before)).toEqual([
      expect.objectContaining({ namespace: 'imports', what: 'imports.summaries', dataset: 'more', by: null }),
    ]);
  });
});
