/**
 * The comparison of systems by a judge source in the Analysis view, in Debian's Chromium against
 * the real `loupe serve`: a project built through the CLI where a judge aligned ten summaries of
 * two systems (five documents, each with a scaffold) and a person aligned one
 * (test/helpers/judge-comparison.ts). The people pair no
 * document across systems, so the view first says which judge to compare by instead of showing
 * "fewer than two systems"; picking the judge in the source picker runs the analysis again
 * (analysis.start compareSource) and the comparison shows the judge's paired differences and
 * ranks (EPS: alpha keeps 4 of 5 attributes, beta 1 → +0.600, alpha first).
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, pickAnnotator } from '../helpers/browser';
import { buildComparisonProject, COMPARISON_JUDGE } from '../helpers/judge-comparison';
import { startServe, type ServeProcess } from '../helpers/serve';
import { tempDir } from '../helpers/tmp';

const JUDGE = COMPARISON_JUDGE;

const dir = tempDir();
const project = join(dir, 'comparison.loupe');
let browser: Browser;
let serve: ServeProcess;
let page: Page;

beforeAll(async () => {
  buildComparisonProject(dir, project);
  serve = await startServe(['--project', project], { LOUPE_STATE_DIR: dir });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(serve.lead.url);
  await pickAnnotator(page, 'lead', 'typed');
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
});

describe('the Analysis view compares systems by a judge source', () => {
  it('by default names the judge to compare by (the people pair no document)', async () => {
    await page.getByTestId('nav-analysis').click();
    await page.getByTestId('analysis-settings').waitFor({ timeout: 30_000 });
    await page.getByTestId('analysis-run').click();
    const comparison = page.getByTestId('scaffold-comparison');
    await comparison.waitFor({ timeout: 60_000 });
    expect(await comparison.getAttribute('data-source')).toBe('');
    expect(await page.getByTestId('scaffold-comparison-note').innerText()).toContain(`${JUDGE} (5 paired documents)`);
    expect(await page.getByTestId('scaffold-comparison-table').count()).toBe(0);
    const options = await page.getByTestId('scaffold-comparison-source').locator('option').allInnerTexts();
    expect(options).toEqual(['choose a source', 'people (0 paired documents)', `judge ${JUDGE} (5 paired documents)`]);
  });

  it('picking the judge runs the analysis again and shows its paired differences and ranks', async () => {
    await page.getByTestId('scaffold-comparison-source').selectOption(JUDGE);
    const byJudge = page.locator(`[data-testid="scaffold-comparison"][data-source="${JUDGE}"]`);
    await byJudge.waitFor({ timeout: 60_000 });
    const eps = byJudge.locator('tr[data-metric="eps"]');
    expect(await eps.locator('[data-role="ranking"]').innerText()).toBe('1. alpha · 2. beta');
    expect(await eps.locator('[data-role="pair"]').innerText()).toBe(
      'alpha − beta: +0.600 [0.600, 0.600] (5 documents)',
    );
    expect(await eps.locator('td[data-system="alpha"]').innerText()).toContain('0.80');
    // FPS: alpha 1·(1 − 0) = 1, beta 1·(1 − 1) = 0 on every document.
    expect(await byJudge.locator('tr[data-metric="fps"] [data-role="ranking"]').innerText()).toBe('1. alpha · 2. beta');
    expect(await page.getByTestId('scaffold-comparison-source').inputValue()).toBe(JUDGE);
    await page.getByTestId('scaffold-spread-chart').waitFor();
  });
});
