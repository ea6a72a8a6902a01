/**
 * The Annotate view across a page edge of the paged queue (annotation.queue answers 200 summaries
 * a page), in Debian's Chromium against the real `loupe serve`, through alice's annotator link on
 * a sample of 450 one-sentence summaries. The view reads the first page; the queue list jumps to
 * summary 198 (its rows near the edge read the page past it as they come into view); the keyboard
 * labels 198 → 203 (F, Enter), crossing from 200, the first page's last, to 201. Each label is
 * read back through the api on the summary the core's queue has at that place; P walks back
 * across the edge, a relabel there lands on summary 200, and Enter crosses forward again to the
 * next summary with work.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnnotationSummary, Queue } from '../../shared/api';
import { labelsStored, launchChromium } from '../helpers/browser';
import { mustLoupe, writeJsonl } from '../helpers/project';
import { apiCall, startServe, type ServeProcess } from '../helpers/serve';
import { tempDir } from '../helpers/tmp';

const SUMMARIES = 450;
const PAGE = 200;
const dir = tempDir();
const project = join(dir, 'edge.loupe');
let browser: Browser;
let serve: ServeProcess;
let page: Page;
/** The queue's summaries from position FROM on (0-based), as the core orders them. */
const FROM = PAGE - 5;
let keys: number[] = [];
let summaryIds: string[] = [];
/** The pages of the queue the view read (annotation.queue answers), in order. */
const pages: Array<{ start: number; items: number; total: number }> = [];

/** The key and summary id at 1-based place `at` of the queue. */
const keyAt = (at: number) => keys[at - 1 - FROM]!;
const idAt = (at: number) => summaryIds[at - 1 - FROM]!;

/** Waits until the summary pane shows place `at` of the queue with that place's summary. */
async function showing(at: number): Promise<void> {
  await page.waitForFunction(
    ([text, id]) =>
      document.querySelector('[data-testid="summary-position"]')?.textContent === text &&
      document.querySelector('.summary-pane .pane-title code')?.textContent === id,
    [`${at} of ${SUMMARIES}`, idAt(at)] as const,
  );
}

const storedLabel = async (at: number) =>
  (await apiCall<AnnotationSummary>(serve, 'annotation.load', { key: keyAt(at), annotator: 'alice' })).units[0]!.state
    .label;

beforeAll(async () => {
  const rows = Array.from({ length: SUMMARIES }, (_, i) => ({
    dataset: 'edge',
    doc_id: `doc-${i}`,
    document: `Report ${i}. The river rose by ${i % 9} centimetres overnight.`,
    summary_id: `s-${String(i).padStart(3, '0')}`,
    summary: `The river rose by ${i % 9} centimetres.`,
  }));
  mustLoupe(['import', writeJsonl(join(dir, 'summaries.jsonl'), rows), '--project', project]);
  mustLoupe(['sample', '--project', project, '--dataset', 'edge', '--n', String(SUMMARIES), '--seed', '0']);
  serve = await startServe(['--project', project, '--annotator', 'alice'], { LOUPE_STATE_DIR: dir });
  const around = await apiCall<Queue>(serve, 'annotation.queue', { annotator: 'alice', position: FROM, limit: 12 });
  expect(around.start).toBe(FROM);
  keys = around.items.map((item) => item.key);
  summaryIds = around.items.map((item) => item.summaryId);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('response', async (response) => {
    if (new URL(response.url()).pathname !== '/api/annotation.queue') return;
    const body = (await response.json().catch(() => null)) as { ok: boolean; value?: Queue } | null;
    if (body?.value) pages.push({ start: body.value.start, items: body.value.items.length, total: body.value.total });
  });
  await page.goto(serve.url);
  await page.getByTestId('unit-current').waitFor({ timeout: 30_000 });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
});

describe('the Annotate view across a page edge of the queue', () => {
  it('jumps through the queue list to summary 198, labels by keyboard across 200 → 201, and each label lands on its summary', async () => {
    expect(await page.getByTestId('summary-position').innerText()).toBe(`1 of ${SUMMARIES}`);
    expect(await page.getByTestId('queue-pane-count').innerText()).toBe(`(${SUMMARIES})`);
    // The view read the first page only: 201 and on are not on it.
    await expect.poll(() => pages.length).toBeGreaterThan(0);
    expect(pages[0]).toEqual({ start: 0, items: PAGE, total: SUMMARIES });
    // The first page is loaded: row 198 is there once the list scrolls to it (only rows in view exist).
    await page.getByTestId('queue-list').evaluate((list, top) => (list.scrollTop = top), (FROM + 2) * 44);
    await page.getByTestId(`queue-item-${keyAt(FROM + 3)}`).click();
    await showing(FROM + 3);

    for (let at = FROM + 3; at <= FROM + 8; at += 1) {
      await page.keyboard.press('f');
      await page.locator('[data-testid="unit-0"][data-label="faithful"]').waitFor();
      await page.keyboard.press('Enter');
      await showing(at + 1);
    }
    expect(await page.getByTestId('summary-position').innerText()).toBe(`${FROM + 9} of ${SUMMARIES}`);
    await labelsStored(page);
    for (let at = FROM + 3; at <= FROM + 8; at += 1) expect(await storedLabel(at), `place ${at}`).toBe('faithful');
    // Neither the summary before the jump nor the one now on screen got a label.
    expect(await storedLabel(FROM + 2)).toBeNull();
    expect(await storedLabel(FROM + 9)).toBeNull();
    const progress = await apiCall<Queue>(serve, 'annotation.queue', { annotator: 'alice', limit: 1 });
    expect(progress.progress).toMatchObject({ unitsDone: 6, summariesDone: 6 });
    // Every read was a page; 201 to 204 came from one that reaches past the first.
    await expect
      .poll(() => pages.some((p) => p.start > 0 && p.start < PAGE && p.start + p.items >= PAGE + 4))
      .toBe(true);
    expect(pages.every((p) => p.items <= PAGE)).toBe(true);
  });

  it('goes back across the edge with P, a relabel on summary 200 lands there, and Enter goes on to the next with work', async () => {
    for (let at = FROM + 8; at >= PAGE; at -= 1) {
      await page.keyboard.press('p');
      await showing(at);
    }
    // On 200, the last summary of the first page, reached back from 201: relabel it.
    await page.locator('[data-testid="unit-0"][data-label="faithful"]').waitFor();
    await page.keyboard.press('u');
    await page.locator('[data-testid="unit-0"][data-label="unfaithful"]').waitFor();
    await page.keyboard.press('p');
    await showing(PAGE - 1);
    await labelsStored(page);
    expect(await storedLabel(PAGE)).toBe('unfaithful');
    expect(await storedLabel(PAGE + 1)).toBe('faithful');
    expect(await storedLabel(PAGE - 1)).toBe('faithful');
    // Enter from 199 skips the labeled 200–203 and crosses the edge again, to 204 (the first with work after it).
    await page.keyboard.press('Enter');
    await showing(FROM + 9);
    expect(await page.getByTestId(`queue-item-${keyAt(FROM + 9)}`).getAttribute('aria-current')).toBe('true');
  });
});
