/**
 * The Semantic Scaffold end to end in Debian's Chromium against the real `loupe serve`:
 * the App. B.4 project built through the CLI (summaries, the scaffold with --as scaffold, a
 * judge's and an imported person's alignments with --as scaffold-alignments), sampled for alice.
 * Through alice's annotator link, by keyboard only: T until the Scaffold mode, every item of the
 * first summary aligned (F/U/C/R and 1–4), one fact given its sentence with E, one slip undone
 * with Ctrl+Z. Then, through the lead's token and the CLI: scaffold.load as alice returns exactly
 * what was pressed, and `loupe analyze --json --reference people` scores that summary's FPS / EPS
 * from alice's values. Blindness: no response the page received carries the judge's or the other
 * person's alignments or names.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScaffoldAnnotation, ScaffoldAnnotationItem } from '../../shared/contract/scaffold';
import { labelsStored, launchChromium } from '../helpers/browser';
import { mustLoupe, writeJsonl } from '../helpers/project';
import { b4Alignments, b4Scaffold, b4Summaries, B4_DATASET } from '../helpers/scaffold-b4';
import { apiCall, startServe, type ServeProcess } from '../helpers/serve';
import { tempDir } from '../helpers/tmp';

const JUDGE = 'judge-secretive';
const OTHER_PERSON = 'bob-secret-rater';

type Value = NonNullable<ScaffoldAnnotationItem['state']['value']>;

/**
 * The key alice presses on each item (by item id in the B.4 scaffold) and the value it stands for:
 * FPS 2/4 · (1 − 0/3) = 0.5 and EPS 5/9, unlike the imported sources' (0.33 / 4/9 and 0.25 / 6/9), so
 * figures taken from them would show.
 */
const PRESSES: Record<string, { key: string; value: Value }> = {
  M1: { key: 'c', value: 'partial' },
  M2: { key: 'f', value: 'preserved' },
  M3: { key: '1', value: 'preserved' },
  M4: { key: 'u', value: 'missing' },
  S1: { key: 'u', value: 'missing' },
  S2: { key: '2', value: 'missing' },
  S3: { key: 'r', value: 'misrepresented' },
  Q1: { key: 'f', value: 'answered' },
  Q2: { key: '2', value: 'unanswered' },
  Q3: { key: '1', value: 'answered' },
  Q4: { key: 'u', value: 'unanswered' },
  dev1: { key: 'f', value: 'preserved' },
  dev2: { key: 'f', value: 'preserved' },
  dev3: { key: '4', value: 'misrepresented' },
  app1: { key: '1', value: 'preserved' },
  app2: { key: '2', value: 'missing' },
  hello1: { key: 'f', value: 'preserved' },
  hello2: { key: 'r', value: 'misrepresented' },
  desk1: { key: 'f', value: 'preserved' },
  desk2: { key: 'u', value: 'missing' },
};
/** The fact given a conveying sentence with E (right after aligning it), and that sentence (0-based). */
const FOCUS_FACT = 'M2';
const FOCUS_SENTENCE = 0;

const dir = tempDir();
const project = join(dir, 'scaffold.loupe');
let browser: Browser;
let serve: ServeProcess;
let page: Page;
const payloads: Array<{ method: string; status: number; body: string }> = [];

let summaryId = '';
let summaryKey = 0;
let items: ScaffoldAnnotationItem[] = [];

beforeAll(async () => {
  mustLoupe(['import', writeJsonl(join(dir, 'summaries.jsonl'), b4Summaries()), '--project', project]);
  mustLoupe([
    'import',
    writeJsonl(join(dir, 'scaffold.jsonl'), [b4Scaffold()]),
    '--project',
    project,
    '--as',
    'scaffold',
  ]);
  const alignments = [...b4Alignments(`judge:${JUDGE}`), ...b4Alignments(`human:${OTHER_PERSON}`)];
  mustLoupe([
    'import',
    writeJsonl(join(dir, 'alignments.jsonl'), alignments),
    '--project',
    project,
    '--as',
    'scaffold-alignments',
  ]);
  mustLoupe(['sample', '--project', project, '--dataset', B4_DATASET, '--n', '2', '--seed', '0']);

  serve = await startServe(['--project', project, '--annotator', 'alice'], { LOUPE_STATE_DIR: dir });
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
  await page.getByTestId('unit-current').waitFor({ timeout: 30_000 });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
});

const row = (itemKey: string) => page.getByTestId(`scaffold-item-${itemKey}`);
/** The item's row while it is the cursor's. */
const current = (itemKey: string) => page.locator(`[data-testid="scaffold-item-${itemKey}"][aria-current="true"]`);

/** No alignment write in flight: the pane's saving status gone and no row marked saving. */
async function alignmentsStored(): Promise<void> {
  await labelsStored(page);
  await page.waitForFunction(() => document.querySelector('[data-write="saving"]') === null, undefined, {
    timeout: 15_000,
  });
}

async function loadAsAlice(): Promise<ScaffoldAnnotation> {
  return apiCall<ScaffoldAnnotation>(serve, 'scaffold.load', { key: summaryKey, annotator: 'alice' }, serve.lead.token);
}

describe('the Semantic Scaffold through alice’s annotator link', () => {
  it('T reaches the Scaffold mode: every B.4 item shown, none aligned (the judge’s and the other person’s not shown)', async () => {
    summaryId = (await page.locator('.summary-pane .pane-title code').innerText()).trim();
    expect(['camera-internal-s', 'camera-gpt-4o']).toContain(summaryId);
    for (let i = 0; i < 4; i += 1) {
      if ((await page.getByTestId('unit-mode').getAttribute('data-mode')) === 'scaffold') break;
      const before = await page.getByTestId('unit-mode').getAttribute('data-mode');
      await page.keyboard.press('t');
      await page.locator(`[data-testid="unit-mode"]:not([data-mode="${before}"])`).waitFor();
    }
    await page.locator('[data-testid="unit-mode"][data-mode="scaffold"]').waitFor();
    await page.getByTestId('scaffold-pane').waitFor({ timeout: 15_000 });

    const queue = await apiCall<{ items: Array<{ key: number; summaryId: string }> }>(
      serve,
      'annotation.queue',
      { annotator: 'alice' },
      serve.lead.token,
    );
    summaryKey = queue.items.find((i) => i.summaryId === summaryId)!.key;
    items = (await loadAsAlice()).items;
    expect(items.map((i) => i.itemKey).sort()).toEqual(Object.keys(PRESSES).sort());
    for (const item of items) expect(await row(item.itemKey).getAttribute('data-value')).toBe('');
  });

  it('aligns every item by keyboard in the scaffold’s order, E gives a fact its sentence, Ctrl+Z undoes a slip', async () => {
    for (const [at, item] of items.entries()) {
      const press = PRESSES[item.itemKey]!;
      if (at === 0) {
        // J moves the cursor to the next item, K back.
        await current(item.itemKey).waitFor();
        await page.keyboard.press('j');
        await current(items[1]!.itemKey).waitFor();
        await page.keyboard.press('k');
      }
      if (at === 1) {
        // A slip on the second item (the cursor moves on), undone: Ctrl+Z clears it and brings the cursor back to it.
        await page.keyboard.press('u');
        await row(item.itemKey).and(page.locator('[data-value]:not([data-value=""])')).waitFor();
        await current(items[2]!.itemKey).waitFor();
        await alignmentsStored();
        await page.keyboard.press('Control+z');
        await row(item.itemKey).and(page.locator('[data-value=""]')).waitFor();
        await alignmentsStored();
      }
      await current(item.itemKey).waitFor();
      await page.keyboard.press(press.key);
      await row(item.itemKey)
        .and(page.locator(`[data-value="${press.value}"]`))
        .waitFor();
      if (item.itemKey === FOCUS_FACT) {
        await page.keyboard.press('e');
        await page.getByTestId('fact-sentences-picker').waitFor();
        await page.keyboard.press(String(FOCUS_SENTENCE + 1));
        await page.locator(`[data-testid="fact-sentence-${FOCUS_SENTENCE + 1}"] input:checked`).waitFor();
        await page.keyboard.press('Enter');
        await page.getByTestId('fact-sentences-picker').waitFor({ state: 'detached' });
        await page.getByTestId(`scaffold-sentences-${FOCUS_FACT}`).waitFor();
        expect(await page.getByTestId(`scaffold-sentences-${FOCUS_FACT}`).innerText()).toContain(
          `by ${FOCUS_SENTENCE + 1}`,
        );
      }
    }
    await alignmentsStored();
    expect(await page.getByTestId('scaffold-version').innerText()).toContain(
      `you aligned ${items.length} of ${items.length}`,
    );
  });

  it('stores exactly what was pressed, as alice (scaffold.load through the lead token)', async () => {
    const loaded = await loadAsAlice();
    expect(loaded.items.map((i) => ({ itemKey: i.itemKey, ...i.state }))).toEqual(
      items.map((i) => ({
        itemKey: i.itemKey,
        value: PRESSES[i.itemKey]!.value,
        sentences: i.itemKey === FOCUS_FACT ? [FOCUS_SENTENCE] : [],
        note: null,
      })),
    );
  });

  it('`loupe analyze --json --reference people` gives the summary’s FPS and EPS from alice’s values', () => {
    // FPS = (main facts kept / main facts) · (1 − supporting kept / supporting); EPS = attributes kept / attributes.
    const keptOf = (pred: (i: ScaffoldAnnotationItem) => boolean) => {
      const xs = items.filter(pred);
      return xs.filter((i) => PRESSES[i.itemKey]!.value === 'preserved').length / xs.length;
    };
    const expectedFps =
      keptOf((i) => i.kind === 'fact' && i.tier === 'main') *
      (1 - keptOf((i) => i.kind === 'fact' && i.tier === 'supporting'));
    const expectedEps = keptOf((i) => i.kind === 'attribute');
    const report = JSON.parse(
      mustLoupe(['analyze', '--project', project, '--json', '--reference', 'people', '--bootstrap', '0'], {
        LOUPE_STATE_DIR: dir,
      }),
    ) as {
      datasets: Array<{
        dataset: string;
        scaffold?: {
          sources: Record<
            string,
            { per_summary: Array<{ summary_id: string; n_aligners: number; fps: number | null; eps: number | null }> }
          >;
        };
      }>;
    };
    const human = report.datasets.find((d) => d.dataset === B4_DATASET)!.scaffold!.sources.human!;
    const summary = human.per_summary.find((r) => r.summary_id === summaryId)!;
    expect(summary.n_aligners).toBe(1);
    expect(summary.fps).toBeCloseTo(expectedFps, 12);
    expect(summary.eps).toBeCloseTo(expectedEps, 12);
  });

  it('the secrets are in the project, so the blindness check below can fail: the judge’s alignments are analysed', () => {
    const report = JSON.parse(
      mustLoupe(['analyze', '--project', project, '--json', '--bootstrap', '0'], { LOUPE_STATE_DIR: dir }),
    ) as {
      datasets: Array<{
        dataset: string;
        scaffold?: { sources: Record<string, { per_summary: Array<{ summary_id: string }> }> };
      }>;
    };
    const sources = report.datasets.find((d) => d.dataset === B4_DATASET)!.scaffold!.sources;
    expect(sources[JUDGE]?.per_summary.map((r) => r.summary_id)).toContain(summaryId);
  });

  it('the lead’s alignments export holds the judge’s and the other person’s alignments of the summary', async () => {
    const exported = await apiCall<{ content: string }>(
      serve,
      'export.build',
      { format: 'jsonl', scaffoldAlignments: true },
      serve.lead.token,
    );
    const lines = exported.content
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { summary_id: string; source: string; facts?: Record<string, string> });
    const of = (source: string) => lines.find((l) => l.summary_id === summaryId && l.source === source);
    expect(of(`judge:${JUDGE}`)?.facts).toMatchObject({ M1: expect.any(String), M4: 'missing' });
    expect(of(`human:${OTHER_PERSON}`)?.facts).toMatchObject({ M1: expect.any(String), M4: 'missing' });
  });

  it('no payload alice’s page received carries the judge’s or the other person’s alignments or names', () => {
    const loads = payloads.filter((p) => p.method === 'scaffold.load' && p.status === 200);
    expect(loads.length).toBeGreaterThan(0);
    expect(payloads.filter((p) => p.method === 'scaffold.record' && p.status === 200).length).toBeGreaterThanOrEqual(
      items.length,
    );
    for (const p of payloads) {
      for (const secret of [JUDGE, OTHER_PERSON]) expect(p.body, `${p.method} carries ${secret}`).not.toContain(secret);
    }
    // Before alice pressed anything the page saw no values at all, though the judge and the other person aligned every item.
    const first = (JSON.parse(loads[0]!.body) as { value: ScaffoldAnnotation }).value;
    expect(first.items.length).toBe(items.length);
    expect(first.items.every((i) => i.state.value === null && i.state.sentences.length === 0)).toBe(true);
    // Any later load shows only values alice gave (never another source's on an item she left unaligned).
    for (const load of loads) {
      for (const item of (JSON.parse(load.body) as { value: ScaffoldAnnotation }).value.items) {
        if (item.state.value !== null) expect([PRESSES[item.itemKey]!.value, 'missing']).toContain(item.state.value);
      }
    }
  });
});
