/**
 * The whole first capability in Debian's Chromium against the real `loupe serve`: the demo project
 * (FRANK), a summary annotated entirely by keyboard, undo/redo across summaries, a reload that
 * comes back to the same place with every label in place, the export file, and blindness: no payload the page
 * receives while annotating carries a judge prediction or a global label.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labelsStored, launchChromium } from '../helpers/browser';
import { mustLoupe } from '../helpers/project';
import { startServe, type ServeProcess } from '../helpers/serve';
import { tempDir } from '../helpers/tmp';

const FORBIDDEN_KEYS =
  /^(global_?label|globalLabel|label_derived|factuality|Factuality|judge|judges|prediction|predictions|hard|soft|raw|pred_.*|llm_output|meta)$/;
const FORBIDDEN_TEXT = /finesure|pred_faithfulness|llm_output|Factuality|baseline \(offline/i;

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

let browser: Browser;
let serve: ServeProcess;
let page: Page;
const payloads: Array<{ method: string; body: string }> = [];
const stateDir = tempDir();

const unit = (i: number) => page.locator(`[data-testid="unit-${i}"]`);
const labelOf = (i: number) => unit(i).getAttribute('data-label');
const position = () => page.getByTestId('summary-position').innerText();

async function expectLabel(i: number, label: string): Promise<void> {
  await page.locator(`[data-testid="unit-${i}"][data-label="${label}"]`).waitFor({ timeout: 10_000 });
}

beforeAll(async () => {
  // No --project: serve builds and opens the demo project (FRANK sample, 25 summaries drawn with seed 0).
  serve = await startServe(['--annotator', 'e2e'], { LOUPE_STATE_DIR: stateDir });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('response', async (response) => {
    const url = new URL(response.url());
    // Calls only: the change-event stream is no call's answer (the unit tier checks what it carries).
    if (!url.pathname.startsWith('/api/') || url.pathname === '/api/events') return;
    payloads.push({ method: url.pathname.slice(5), body: await response.text().catch(() => '') });
  });
  await page.goto(serve.url);
  await page.getByTestId('unit-current').waitFor({ timeout: 30_000 });
});

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
});

describe('annotating the demo project in Chromium', () => {
  let units = 0;
  let firstPosition = '';

  it('opens at the first unlabeled sentence of the sample, with the token gone from the address bar', async () => {
    expect(page.url()).not.toContain('token=');
    units = await page.locator('[data-testid^="label-badge-"]').count();
    expect(units).toBeGreaterThan(0);
    expect(await page.getByTestId('unit-current').getAttribute('data-index')).toBe('0');
    expect(await page.getByTestId('progress').getAttribute('data-units-done')).toBe('0');
    firstPosition = await position();
    const documentText = await page.getByTestId('document').innerText();
    expect(documentText.length).toBeGreaterThan(200);
  });

  it('labels a whole summary by keyboard: F, U with an error type, C, advancing after each key, and stores every label', async () => {
    await page.keyboard.press('f');
    await expectLabel(0, 'faithful');
    if (units > 1) {
      await page.keyboard.press('u');
      await expectLabel(1, 'unfaithful');
      await page.keyboard.press('e');
      await page.getByTestId('error-type-picker').waitFor();
      await page.keyboard.press('1');
      await page.getByTestId('error-type-1').waitFor();
    }
    for (let i = 2; i < units; i += 1) {
      await page.keyboard.press('c');
      await expectLabel(i, 'unclear');
    }
    await page.getByTestId('summary-done').waitFor();
    // Labels paint at once ("saving"); once stored, the header shows the core's count.
    await labelsStored(page);
    expect(await page.getByTestId('progress').getAttribute('data-units-done')).toBe(String(units));
  });

  it('undoes and redoes with Ctrl+Z / Ctrl+Shift+Z, also after moving to the next summary', async () => {
    const last = units - 1;
    const lastLabel = (await labelOf(last)) ?? '';
    await page.keyboard.press('Control+z');
    await expectLabel(last, '');
    await page.keyboard.press('Control+Shift+z');
    await expectLabel(last, lastLabel);

    await page.keyboard.press('Enter');
    await page.waitForFunction(
      (before) => document.querySelector('[data-testid="summary-position"]')?.textContent !== before,
      firstPosition,
    );
    expect(await position()).not.toBe(firstPosition);
    // Undo reaches back into the previous summary and shows it.
    await page.keyboard.press('Control+z');
    await page.waitForFunction(
      (before) => document.querySelector('[data-testid="summary-position"]')?.textContent === before,
      firstPosition,
    );
    await expectLabel(last, '');
    await page.keyboard.press('Control+Shift+z');
    await expectLabel(last, lastLabel);
    // The reload below and the export read what is stored, not what is painted.
    await labelsStored(page);
  });

  it('after a reload comes back to the same summary and sentence, shows every stored label, and Enter goes on to the next with work', async () => {
    const sentence = await page.getByTestId('unit-current').getAttribute('data-index');
    await page.reload();
    await page.getByTestId('unit-current').waitFor({ timeout: 30_000 });
    expect(await position()).toBe(firstPosition);
    expect(await page.getByTestId('unit-current').getAttribute('data-index')).toBe(sentence);
    await expectLabel(0, 'faithful');
    if (units > 1) {
      await expectLabel(1, 'unfaithful');
      expect(await page.getByTestId('error-type-1').innerText()).toMatch(/entity/i);
    }
    for (let i = 2; i < units; i += 1) await expectLabel(i, 'unclear');
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      (before) => document.querySelector('[data-testid="summary-position"]')?.textContent !== before,
      firstPosition,
    );
    expect(await page.getByTestId('unit-current').getAttribute('data-index')).toBe('0');
  });

  it('exports the labels with ids, offsets, annotator, splitter and version', () => {
    const out = join(stateDir, 'export.jsonl');
    mustLoupe(['export', '--project', join(stateDir, 'demo.loupe'), '--out', out, '--history'], {
      LOUPE_STATE_DIR: stateDir,
    });
    const rows = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const mine = rows.filter((r) => r.annotator === 'e2e');
    expect(mine).toHaveLength(units);
    expect(mine.map((r) => r.label)).toEqual(
      ['faithful', 'unfaithful', 'unclear', 'unclear', 'unclear', 'unclear'].slice(0, units),
    );
    for (const row of mine) {
      expect(row).toMatchObject({
        dataset: 'frank',
        phase: 'annotation',
        splitter: 'given',
        loupe_version: expect.any(String),
      });
      expect(typeof row.sentence).toBe('string');
      expect(row.end as number).toBeGreaterThan(row.start as number);
      expect((row.history as unknown[]).length).toBeGreaterThanOrEqual(1);
    }
    if (units > 1) expect(mine[1]).toMatchObject({ error_type: 'entity' });
    // The undo and redo are part of the history, not lost.
    const lastHistory = mine[units - 1]!.history as Array<{ cause: string }>;
    expect(lastHistory.map((h) => h.cause)).toEqual(['label', 'undo', 'redo', 'undo', 'redo']);
  });

  it('never sent the page a judge prediction or a global label while annotating', () => {
    const annotationCalls = payloads.filter((p) => p.method.startsWith('annotation.'));
    expect(annotationCalls.length).toBeGreaterThan(5);
    for (const p of payloads) {
      const body = JSON.parse(p.body) as unknown;
      expect(forbiddenKeys(body), `${p.method} returned forbidden keys`).toEqual([]);
      expect(FORBIDDEN_TEXT.test(p.body), `${p.method} mentions a judge or benchmark label`).toBe(false);
    }
    // The demo does hold global labels and an imported judge run: the check above is not vacuous.
    const exported = readFileSync(join(stateDir, 'export.jsonl'), 'utf8');
    expect(exported).toMatch(/"global_label":[01]/);
  });
});
