/**
 * Roles in `loupe serve`: the lead token may call everything; an annotator link's token
 * only the annotation calls, as its own annotator (403 otherwise); a revoked link is refused at
 * once (401) and nothing a refused call sent is stored.
 */
import Database from 'better-sqlite3';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnnotatorLink } from '../../../shared/api';
import { createCore, type Core } from '../../../electron/core/index';
import { runImport } from '../../../electron/core/imports/run';
import { createLinkRegistry } from '../../../electron/serve/links';
import { startServer, type RunningServer } from '../../../electron/serve/server';
import { newsRows, writeJsonl } from '../../helpers/project';
import { tempDir } from '../../helpers/tmp';

const dir = tempDir();
let server: RunningServer;
let core: Core;
let alice: AnnotatorLink;

interface Answer {
  status: number;
  body: { ok: boolean; value?: unknown; error?: { code: string; message: string } };
}

function api(token: string, method: string, input: unknown = {}): Promise<Answer> {
  const body = JSON.stringify(input);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        path: `/api/${method}`,
        method: 'POST',
        headers: {
          host: `127.0.0.1:${server.port}`,
          origin: `http://127.0.0.1:${server.port}`,
          'content-type': 'application/json',
          'x-loupe-token': token,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Answer['body'] }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const tokenOf = (link: AnnotatorLink) => new URL(link.url!).searchParams.get('token')!;
const counts = () => {
  const repo = core.repository();
  return {
    events: repo.labelHistory(null).length,
    batches: repo.sampleBatchInfos(null).length,
    summaries: repo.datasetStats().reduce((n, d) => n + d.summaries, 0),
    annotators: repo.listAnnotators().length,
  };
};

beforeAll(async () => {
  const staticDir = join(dir, 'static');
  mkdirSync(staticDir);
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  const links = createLinkRegistry();
  core = createCore({
    Database,
    stateDir: dir,
    demoDir: dir,
    host: 'web',
    fileDialogs: false,
    diskPaths: false,
    canSwitchProjects: false,
    links,
  });
  core.createProject(join(dir, 'roles.loupe'));
  await runImport(core.repository(), {
    source: { type: 'path', path: writeJsonl(join(dir, 'news.jsonl'), newsRows(4)) },
  });
  await runImport(core.repository(), {
    source: {
      type: 'path',
      path: writeJsonl(join(dir, 'labels.jsonl'), [
        { dataset: 'news', summary_id: 'sum-000', sentence_index: 0, label: 'faithful', annotator: 'frank-0' },
      ]),
    },
  });
  await core.handlers['sampling.draw']({ dataset: 'news', n: 4, seed: 0 });
  server = await startServer({ handlers: core.handlers, staticDir, links });
  const created = await api(server.token, 'links.create', { annotator: 'alice' });
  expect(created.status).toBe(200);
  alice = created.body.value as AnnotatorLink;
  afterAll(async () => {
    await server.close();
    core.close();
  });
});

/** Every lead-only namespace, with an input that passes validation. */
const LEAD_ONLY: Array<[string, unknown]> = [
  ['judges.list', {}],
  ['judges.add', { name: 'j', config: { kind: 'baseline' } }],
  ['judges.start', { name: 'j' }],
  ['judges.runs', {}],
  ['analysis.start', {}],
  ['analysis.latest', {}],
  ['review.queue', { queue: 'suspicious', dataset: 'news' }],
  ['review.table', {}],
  ['review.corrections', {}],
  ['export.build', { format: 'jsonl' }],
  [
    'imports.start',
    {
      source: {
        type: 'upload',
        name: 'x.jsonl',
        base64: Buffer.from(JSON.stringify(newsRows(1, 'other')[0])).toString('base64'),
      },
    },
  ],
  ['sampling.draw', { dataset: 'news', n: 1 }],
  ['sampling.list', {}],
  ['merge.projects', { paths: ['/tmp/x.loupe'] }],
  ['annotators.activity', {}],
  ['annotators.list', {}],
  ['annotators.ensure', { name: 'alice' }],
  ['links.list', {}],
  ['links.create', { annotator: 'mallory' }],
  ['links.revoke', { id: 'whatever' }],
  ['annotation.revealStatus', { annotator: 'alice' }],
  ['annotation.reveal', { annotator: 'alice', view: 'analysis' }],
];

describe('an annotator link', () => {
  it('says who it is: app.info answers role annotator, fixed to its annotator', async () => {
    const info = await api(tokenOf(alice), 'app.info');
    expect(info).toMatchObject({ status: 200, body: { ok: true, value: { role: 'annotator', annotator: 'alice' } } });
    expect((await api(server.token, 'app.info')).body.value).toMatchObject({ role: 'lead' });
  });

  it.each(LEAD_ONLY)(
    'cannot call %s (403 forbidden, naming the lead), and nothing is stored',
    async (method, input) => {
      const before = counts();
      const answer = await api(tokenOf(alice), method, input);
      expect(answer.status).toBe(403);
      expect(answer.body.error).toMatchObject({ code: 'forbidden', message: expect.stringMatching(/lead/) });
      expect(counts()).toEqual(before);
    },
  );

  it('annotates as itself and not as another annotator', async () => {
    const token = tokenOf(alice);
    const queue = await api(token, 'annotation.queue', { annotator: 'alice' });
    expect(queue.status).toBe(200);
    const key = (queue.body.value as { items: Array<{ key: number }> }).items[0]!.key;
    const summary = (await api(token, 'annotation.load', { key, annotator: 'alice' })).body.value as {
      units: Array<{ id: number }>;
    };
    const state = { label: 'faithful', errorType: null, note: null };
    const recorded = await api(token, 'annotation.record', {
      unitId: summary.units[0]!.id,
      annotator: 'alice',
      state,
      timeSpentMs: 900,
      cause: 'label',
    });
    expect(recorded.status).toBe(200);
    expect(
      core
        .repository()
        .labelHistory(null)
        .filter((e) => e.annotator === 'alice'),
    ).toHaveLength(1);

    const before = counts();
    for (const [method, input] of [
      ['annotation.queue', { annotator: 'bob' }],
      ['annotation.load', { key, annotator: 'frank-0' }],
      [
        'annotation.record',
        { unitId: summary.units[1]!.id, annotator: 'bob', state, timeSpentMs: 900, cause: 'label' },
      ],
    ] as const) {
      const answer = await api(token, method, input);
      expect(answer.status, method).toBe(403);
      expect(answer.body.error?.message).toMatch(/annotator "alice"/);
    }
    expect(counts()).toEqual(before);
  });

  it('stops at once when the lead revokes it: 401, and what it sent is not stored', async () => {
    const bob = (await api(server.token, 'links.create', { annotator: 'bob' })).body.value as AnnotatorLink;
    const token = tokenOf(bob);
    const queue = (await api(token, 'annotation.queue', { annotator: 'bob' })).body.value as {
      items: Array<{ key: number }>;
    };
    const summary = (await api(token, 'annotation.load', { key: queue.items[0]!.key, annotator: 'bob' })).body
      .value as { units: Array<{ id: number }> };
    expect((await api(server.token, 'links.revoke', { id: bob.id })).body.value).toEqual({ revoked: true });
    const before = counts();
    const answer = await api(token, 'annotation.record', {
      unitId: summary.units[0]!.id,
      annotator: 'bob',
      state: { label: 'faithful', errorType: null, note: null },
      timeSpentMs: 1,
      cause: 'label',
    });
    expect(answer.status).toBe(401);
    expect((await api(token, 'app.info')).status).toBe(401);
    expect(counts()).toEqual(before);
    expect((await api(server.token, 'links.revoke', { id: bob.id })).body.value).toEqual({ revoked: false });
    // alice's link is untouched.
    expect((await api(tokenOf(alice), 'app.info')).status).toBe(200);
  });
});

describe('the lead manages links', () => {
  it('lists links without their tokens; each link has its own random token', async () => {
    const carol = (await api(server.token, 'links.create', { annotator: 'carol' })).body.value as AnnotatorLink;
    expect(carol.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${server.port}/\\?token=[A-Za-z0-9_-]{32}$`));
    const tokens = [server.token, tokenOf(alice), tokenOf(carol)];
    expect(new Set(tokens).size).toBe(3);
    const listed = await api(server.token, 'links.list');
    expect(listed.status).toBe(200);
    const text = JSON.stringify(listed.body);
    for (const t of tokens) expect(text).not.toContain(t);
    expect((listed.body.value as AnnotatorLink[]).map((l) => [l.annotator, l.url])).toEqual([
      ['alice', null],
      ['carol', null],
    ]);
  });

  it('refuses a link for an imported label set (400) and creates nobody', async () => {
    const before = counts();
    const answer = await api(server.token, 'links.create', { annotator: 'frank-0' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/imported label set/),
    });
    expect(counts()).toEqual(before);
    expect((await api(server.token, 'links.list')).body.value as AnnotatorLink[]).toHaveLength(2);
  });
});
