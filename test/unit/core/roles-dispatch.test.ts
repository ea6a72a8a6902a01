/**
 * The role table at the contract boundary: an annotator link may call only the methods
 * of ANNOTATOR_METHODS, and those only as itself; every other method is refused with `forbidden`
 * before its handler runs (so a refused call can store nothing). The lead may call everything.
 */
import { describe, expect, it } from 'vitest';
import {
  ANNOTATOR_METHODS,
  API_METHODS,
  LEAD,
  parseApiInput,
  type ApiHandlers,
  type ApiMethod,
  type Caller,
} from '../../../shared/api';
import { dispatch } from '../../../electron/core/dispatch';

const baseline = { kind: 'baseline' } as const;
const state = { label: 'faithful', errorType: null, note: null } as const;

/** One valid input per method (checked below to pass validation), naming annotator "alice" where a name is asked. */
const VALID_INPUT: Record<ApiMethod, unknown> = {
  'app.info': {},
  'projects.recent': {},
  'projects.open': { path: '/tmp/p.loupe' },
  'projects.create': { path: '/tmp/p.loupe' },
  'projects.openDemo': {},
  'datasets.list': {},
  'annotators.list': {},
  'annotators.ensure': { name: 'alice' },
  'annotators.activity': {},
  'imports.start': { source: { type: 'path', path: '/tmp/x.jsonl' } },
  'jobs.get': { jobId: 'j' },
  'jobs.cancel': { jobId: 'j' },
  'sampling.draw': { dataset: 'news', n: 1, annotator: 'alice' },
  'sampling.list': {},
  'annotation.queue': { annotator: 'alice' },
  'annotation.next': { annotator: 'alice', after: null },
  'annotation.load': { key: 1, annotator: 'alice' },
  'annotation.record': { unitId: 1, annotator: 'alice', state, timeSpentMs: 1, cause: 'label' },
  'annotation.revealStatus': { annotator: 'alice' },
  'annotation.reveal': { annotator: 'alice', view: 'analysis' },
  'annotation.attachDocument': { key: 1, text: 'doc' },
  'judges.defaults': {},
  'judges.list': {},
  'judges.add': { name: 'j', config: baseline },
  'judges.update': { name: 'j', config: baseline },
  'judges.remove': { name: 'j' },
  'judges.preview': { name: 'j' },
  'judges.start': { name: 'j' },
  'judges.pause': { runId: 'r' },
  'judges.resume': { runId: 'r' },
  'judges.cancel': { runId: 'r' },
  'judges.status': { runId: 'r' },
  'judges.runs': {},
  'judges.plan': { name: 'j' },
  'judges.batchExport': { name: 'j' },
  'judges.batchImport': { name: 'j', source: { type: 'upload', name: 'out.jsonl', text: '' } },
  'analysis.start': {},
  'analysis.status': { jobId: 'a' },
  'analysis.cancel': { jobId: 'a' },
  'analysis.latest': {},
  'planning.plan': { target: 0.02 },
  'review.queue': { queue: 'suspicious', dataset: 'news' },
  'review.card': { key: 1, queue: 'suspicious', reviewer: 'alice' },
  'review.record': { unitId: 1, queue: 'suspicious', reviewer: 'alice', state, timeSpentMs: 1, cause: 'label' },
  'review.reveal': { key: 1, queue: 'suspicious', reviewer: 'alice' },
  'review.table': {},
  'review.corrections': {},
  'export.build': { format: 'jsonl' },
  'export.write': { format: 'jsonl', path: '/tmp/x.jsonl' },
  'links.list': {},
  'links.create': { annotator: 'alice' },
  'links.revoke': { id: 'l' },
  'merge.projects': { paths: ['/tmp/a.loupe'] },
  'dialog.openProject': {},
  'dialog.openProjects': {},
  'dialog.createProject': {},
  'dialog.importFile': {},
  'dialog.saveExport': { fileName: 'x.jsonl', content: '' },
  'dialog.chooseSavePath': { fileName: 'x.jsonl' },
  'dialog.openBatchFile': {},
  'claims.list': { dataset: 'news', limit: 50, state: 'with', search: 's-1' },
  'claims.versions': { key: 1 },
  'claims.load': { key: 1, annotator: 'alice' },
  'claims.record': {
    claimId: 1,
    annotator: 'alice',
    state: { label: 'supported', errorType: null, note: null },
    timeSpentMs: 1,
    cause: 'label',
  },
  'claims.edit': { key: 1, annotator: 'alice', basedOnVersion: 1, claims: [{ sentenceUnitId: 1, text: 'A claim.' }] },
  'keyfacts.list': { dataset: 'news', cursor: '12', source: 'person' },
  'keyfacts.versions': { documentKey: 1 },
  'keyfacts.load': { key: 1, annotator: 'alice' },
  'keyfacts.record': {
    keyFactId: 1,
    key: 1,
    annotator: 'alice',
    state: { label: 'covered', conveyedBy: { claims: [1] }, note: null },
    timeSpentMs: 1,
    cause: 'label',
  },
  'keyfacts.edit': { documentKey: 1, annotator: 'alice', basedOnVersion: null, facts: [{ text: 'A fact.' }] },
  'scaffold.load': { key: 1, annotator: 'alice' },
  'scaffold.record': {
    key: 1,
    annotator: 'alice',
    itemId: 1,
    value: 'preserved',
    sentences: [0],
    timeSpentMs: 1,
    cause: 'label',
  },
  'scaffold.edit': {
    documentKey: 1,
    annotator: 'alice',
    basedOnVersion: 1,
    facts: [{ id: 'f1', text: 'A fact.', tier: 'main' }],
  },
  'scaffold.versions': { documentKey: 1 },
  'proposals.list': { author: 'alice' },
  'proposals.accept': { id: 1 },
  'proposals.decline': { id: 1, note: 'Not in the document.' },
  'systems.list': {},
  'systems.add': { name: 's', config: { baseUrl: 'http://127.0.0.1:8000/v1', model: 'm' } },
  'systems.remove': { name: 's' },
  'accuracy.tasks': {},
  'accuracy.preview': { task: 'claim_verdict', judge: 'j' },
  'accuracy.plan': { task: 'claim_verdict', judge: 'j' },
  'accuracy.start': { task: 'summary_generation', system: 's', dataset: 'news' },
  'accuracy.status': { runId: 'r' },
  'accuracy.pause': { runId: 'r' },
  'accuracy.resume': { runId: 'r' },
  'accuracy.cancel': { runId: 'r' },
  'accuracy.runs': {},
  'accuracy.batchExport': { run: { task: 'claim_verdict', judge: 'j' } },
  'accuracy.batchImport': {
    run: { task: 'claim_verdict', judge: 'j' },
    source: { type: 'upload', name: 'out.jsonl', text: '' },
  },
};

/** Handlers that only note that they ran (their answers need not fit: only the refusals matter here). */
function spyHandlers(): { handlers: ApiHandlers; called: ApiMethod[] } {
  const called: ApiMethod[] = [];
  const handlers = Object.fromEntries(
    API_METHODS.map((m) => [
      m,
      async () => {
        called.push(m);
        return {};
      },
    ]),
  ) as unknown as ApiHandlers;
  return { handlers, called };
}

const alice: Caller = { role: 'annotator', annotator: 'alice' };
const bob: Caller = { role: 'annotator', annotator: 'bob' };
const allowed = new Set<string>(Object.keys(ANNOTATOR_METHODS));

describe('the role table in dispatch', () => {
  it('has a valid input for every method of the contract', () => {
    expect(Object.keys(VALID_INPUT).sort()).toEqual([...API_METHODS].sort());
    for (const m of API_METHODS) expect(parseApiInput(m, VALID_INPUT[m]).ok, m).toBe(true);
  });

  it.each(API_METHODS.filter((m) => !allowed.has(m)))(
    '%s: refused to an annotator link (forbidden), its handler never called',
    async (method) => {
      const { handlers, called } = spyHandlers();
      const result = await dispatch(handlers, method, VALID_INPUT[method], alice);
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.error.code).toBe('forbidden');
        // The refusal says which role allows it.
        expect(result.error.message).toMatch(/lead/);
      }
      expect(called).toEqual([]);
    },
  );

  it.each(API_METHODS.filter((m) => allowed.has(m)))('%s: allowed to an annotator link as itself', async (method) => {
    const { handlers, called } = spyHandlers();
    const result = await dispatch(handlers, method, VALID_INPUT[method], alice);
    if (!result.ok) expect(result.error.code).not.toBe('forbidden');
    expect(called).toEqual([method]);
  });

  it.each(Object.entries(ANNOTATOR_METHODS).filter(([, field]) => field !== null))(
    '%s: refused to an annotator link acting as another annotator, handler never called',
    async (method) => {
      const { handlers, called } = spyHandlers();
      // The input names alice; the link is bob's.
      const result = await dispatch(handlers, method, VALID_INPUT[method as ApiMethod], bob);
      expect(result).toMatchObject({ ok: false, error: { code: 'forbidden' } });
      expect(called).toEqual([]);
    },
  );

  it('lets the lead call every method (the handler runs)', async () => {
    for (const method of API_METHODS) {
      const { handlers, called } = spyHandlers();
      const result = await dispatch(handlers, method, VALID_INPUT[method], LEAD);
      if (!result.ok) expect(result.error.code, method).not.toBe('forbidden');
      expect(called, method).toEqual([method]);
    }
  });

  it('validates before the role check: a malformed call is invalid_input whoever sends it, and runs nothing', async () => {
    const { handlers, called } = spyHandlers();
    expect(await dispatch(handlers, 'annotation.record', { unitId: 'x' }, alice)).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(await dispatch(handlers, 'judges.start', {}, alice)).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(called).toEqual([]);
  });
});
