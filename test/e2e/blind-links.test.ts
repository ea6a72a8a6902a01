/**
 * Done when: through an annotator link in Debian's Chromium, `loupe serve --annotator
 * alice` on a project holding judge predictions, benchmark global labels, an imported benchmark
 * label set and another person's labels, alice labels a summary, and no payload the page receives
 * (any call) carries a judge output, a benchmark label or another annotator's label; the
 * lead-only calls answer 403 from that page.
 *
 * Every API response the page receives is recorded (page.on('response')). The page's own calls
 * are what its UI makes; the test then makes, from the page itself (same origin, its token), the
 * annotation calls a keyboard label makes and every lead-only call, so the proof does not depend
 * on which views the UI offers an annotator link.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser';
import { mustLoupe, newsRows, writeJsonl } from '../helpers/project';
import { apiCall, startServe, type ServeProcess } from '../helpers/serve';
import { tempDir } from '../helpers/tmp';

const JUDGE = 'judge-secretive';
const BOB_NOTE = 'bob-private-note';
const FRANK_NOTE = 'frank-benchmark-note';
/** Keys that would carry a judge output or a benchmark label. */
const FORBIDDEN_KEYS =
  /^(global_?label|globalLabel|judge|judges|prediction|predictions|hard|soft|raw|verdict|panel|meta|corrected_global_label|adjudicated_label)$/;

function forbiddenKeys(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => forbiddenKeys(v, `${path}[${i}]`));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => [
      ...(FORBIDDEN_KEYS.test(k) ? [`${path}.${k}`] : []),
      ...forbiddenKeys(v, `${path}.${k}`),
    ]);
  }
  return [];
}

const dir = tempDir();
let browser: Browser;
let serve: ServeProcess;
let page: Page;
const payloads: Array<{ method: string; status: number; body: string }> = [];
let aliceKey = 0;

/** A call made by the page itself: same origin, the token the page holds (the link's). */
async function pageCall(
  method: string,
  input: unknown,
): Promise<{ status: number; body: { ok: boolean; value?: unknown; error?: { code: string; message: string } } }> {
  return page.evaluate(
    async ([m, i, token]) => {
      const res = await fetch(`/api/${m}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-loupe-token': token },
        body: JSON.stringify(i),
      });
      return { status: res.status, body: await res.json() };
    },
    [method, input, serve.token] as const,
  );
}

beforeAll(async () => {
  const project = join(dir, 'blind.loupe');
  // Summaries with benchmark global labels (0/1), judge predictions for every sentence, an imported
  // benchmark label set (frank-0) and, below, a person (bob) labeling the same summaries.
  const rows = newsRows(4);
  mustLoupe(['import', writeJsonl(join(dir, 'news.jsonl'), rows), '--project', project]);
  const predictions = rows.flatMap((r) =>
    [0, 1, 2].map((i) => ({
      dataset: 'news',
      summary_id: r.summary_id,
      sentence_index: i,
      judge: JUDGE,
      hard: i % 2,
      soft: 0.37,
    })),
  );
  mustLoupe([
    'import',
    writeJsonl(join(dir, 'predictions.jsonl'), predictions),
    '--project',
    project,
    '--as',
    'predictions',
  ]);
  const frank = rows.flatMap((r) =>
    [0, 1, 2].map((i) => ({
      dataset: 'news',
      summary_id: r.summary_id,
      sentence_index: i,
      label: 'unfaithful',
      error_type: 'entity',
      note: FRANK_NOTE,
      annotator: 'frank-0',
    })),
  );
  mustLoupe(['import', writeJsonl(join(dir, 'frank.jsonl'), frank), '--project', project, '--as', 'labels']);
  mustLoupe(['sample', '--project', project, '--dataset', 'news', '--n', '4', '--seed', '0']);

  serve = await startServe(['--project', project, '--annotator', 'alice'], { LOUPE_STATE_DIR: dir });
  expect(serve.links).toHaveLength(2);
  expect(serve.lead.token).not.toBe(serve.token);
  // bob labels every sentence of the sample, through the lead link (setup, not the page).
  const queue = await apiCall<{ items: Array<{ key: number }> }>(
    serve,
    'annotation.queue',
    { annotator: 'bob' },
    serve.lead.token,
  );
  for (const item of queue.items) {
    const summary = await apiCall<{ units: Array<{ id: number }> }>(
      serve,
      'annotation.load',
      { key: item.key, annotator: 'bob' },
      serve.lead.token,
    );
    for (const u of summary.units) {
      await apiCall(
        serve,
        'annotation.record',
        {
          unitId: u.id,
          annotator: 'bob',
          state: { label: 'unclear', errorType: null, note: BOB_NOTE },
          timeSpentMs: 5,
          cause: 'label',
        },
        serve.lead.token,
      );
    }
  }

  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('response', async (response) => {
    const url = new URL(response.url());
    // Calls only: the change-event stream is no call's answer (the unit tier checks what it carries).
    if (!url.pathname.startsWith('/api/') || url.pathname === '/api/events') return;
    payloads.push({
      method: url.pathname.slice(5),
      status: response.status(),
      body: await response.text().catch(() => ''),
    });
  });
  await page.goto(serve.url);
  // Let the page make the calls its UI makes on load: its queue and first summary are on screen
  // (not "network idle": the page keeps its change-event stream open).
  await page.getByTestId('unit-current').waitFor({ timeout: 30_000 });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
});

describe('an annotator link in Chromium', () => {
  it('the page knows it is alice’s annotator link', async () => {
    const info = await pageCall('app.info', {});
    expect(info.body.value).toMatchObject({ role: 'annotator', annotator: 'alice' });
  });

  it('labels a summary as alice', async () => {
    const queue = await pageCall('annotation.queue', { annotator: 'alice' });
    expect(queue.status).toBe(200);
    const items = (queue.body.value as { items: Array<{ key: number }> }).items;
    expect(items).toHaveLength(4);
    aliceKey = items[0]!.key;
    const summary = (await pageCall('annotation.load', { key: aliceKey, annotator: 'alice' })).body.value as {
      units: Array<{ id: number; state: { label: string | null } }>;
    };
    // bob's and frank-0's labels on these very sentences are not alice's: she sees none.
    expect(summary.units.every((u) => u.state.label === null)).toBe(true);
    for (const u of summary.units) {
      const recorded = await pageCall('annotation.record', {
        unitId: u.id,
        annotator: 'alice',
        state: { label: 'faithful', errorType: null, note: null },
        timeSpentMs: 700,
        cause: 'label',
      });
      expect(recorded.status).toBe(200);
    }
    const after = (await pageCall('annotation.load', { key: aliceKey, annotator: 'alice' })).body.value as {
      units: Array<{ state: { label: string | null } }>;
    };
    expect(after.units.map((u) => u.state.label)).toEqual(summary.units.map(() => 'faithful'));
  });

  it('cannot act as another annotator, nor as the imported label set (403)', async () => {
    for (const annotator of ['bob', 'frank-0']) {
      const answer = await pageCall('annotation.load', { key: aliceKey, annotator });
      expect(answer.status, annotator).toBe(403);
    }
  });

  it('every lead-only call answers 403 from the page', async () => {
    const calls: Array<[string, unknown]> = [
      ['judges.list', {}],
      ['judges.runs', {}],
      ['judges.preview', { name: JUDGE }],
      ['analysis.latest', {}],
      ['analysis.start', {}],
      ['review.queue', { queue: 'suspicious', dataset: 'news' }],
      ['review.card', { key: aliceKey, queue: 'suspicious', reviewer: 'alice' }],
      ['review.table', {}],
      ['review.corrections', {}],
      ['export.build', { format: 'jsonl' }],
      ['imports.start', { source: { type: 'path', path: '/etc/passwd' } }],
      ['sampling.draw', { dataset: 'news', n: 1 }],
      ['sampling.list', {}],
      ['merge.projects', { paths: ['/tmp/other.loupe'] }],
      ['annotators.activity', {}],
      ['annotators.list', {}],
      ['links.list', {}],
      ['links.create', { annotator: 'mallory' }],
      ['annotation.revealStatus', { annotator: 'alice' }],
    ];
    for (const [method, input] of calls) {
      const answer = await pageCall(method, input);
      expect(answer.status, method).toBe(403);
      expect(answer.body.error?.code, method).toBe('forbidden');
    }
  });

  it('no payload the page received carries a judge output, a benchmark label or another annotator’s label', async () => {
    expect(payloads.length).toBeGreaterThan(20);
    expect(payloads.some((p) => p.method === 'annotation.record' && p.status === 200)).toBe(true);
    for (const p of payloads) {
      if (p.body === '') continue;
      const parsed = JSON.parse(p.body) as unknown;
      expect(forbiddenKeys(parsed), `${p.method}: ${p.body.slice(0, 200)}`).toEqual([]);
      for (const secret of [JUDGE, BOB_NOTE, FRANK_NOTE, 'frank-0', '"bob"', '0.37', 'unclear', 'unfaithful']) {
        // The 403 answers to the impersonation attempts name whom they refused; nothing else may.
        if (p.status === 403 && (secret === 'frank-0' || secret === '"bob"')) continue;
        expect(p.body, `${p.method} carries ${secret}`).not.toContain(secret);
      }
    }
  });

  it('alice’s labels are stored as hers, blind', async () => {
    const history = await apiCall<{ content: string }>(
      serve,
      'export.build',
      { format: 'jsonl', history: true },
      serve.lead.token,
    );
    const rows = history.content
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const alices = rows.filter((r) => r.annotator === 'alice');
    expect(alices).toHaveLength(3);
    expect(alices.every((r) => r.label === 'faithful' && r.blind === true)).toBe(true);
  });
});
