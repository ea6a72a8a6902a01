/**
 * Dataset text is rendered as text, never as HTML: a document and a summary carrying
 * <img onerror> and <script> are imported, opened for annotation, and nothing in them runs.
 */
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { labelsStored, launchChromium } from '../helpers/browser';
import { mustLoupe, writeJsonl } from '../helpers/project';
import { startServe, type ServeProcess } from '../helpers/serve';
import { tempDir } from '../helpers/tmp';

const ATTACK_DOC =
  'The mayor spoke on Monday. <img src=x onerror="window.__pwned = (window.__pwned || 0) + 1"> ' +
  '<script>window.__pwned = 99</script> She said the <b>budget</b> passed. <iframe src="javascript:window.__pwned=7"></iframe>';
const ATTACK_SUMMARY =
  'The mayor spoke <img src=y onerror="window.__pwned=5"> on Monday. The budget passed <script>window.__pwned=6</script>.';

let browser: Browser | undefined;
let serve: ServeProcess | undefined;
afterAll(async () => {
  await browser?.close();
  await serve?.stop();
});

describe('hostile dataset text', () => {
  it('shows markup literally and runs none of it', async () => {
    const dir = tempDir();
    const project = join(dir, 'xss.loupe');
    mustLoupe([
      'import',
      writeJsonl(join(dir, 'xss.jsonl'), [
        { dataset: 'xss', doc_id: 'd1', document: ATTACK_DOC, summary_id: 's1', summary: ATTACK_SUMMARY, label: 1 },
      ]),
      '--project',
      project,
    ]);
    mustLoupe(['sample', '--project', project, '--dataset', 'xss', '--n', '1']);
    serve = await startServe(['--project', project, '--annotator', 'x'], { LOUPE_STATE_DIR: dir });
    browser = await launchChromium();
    const page = await browser.newPage();
    const dialogs: string[] = [];
    const blockedRequests: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    page.on('request', (r) => {
      if (!r.url().startsWith(serve!.origin)) blockedRequests.push(r.url());
    });
    await page.goto(serve.url);
    await page.getByTestId('unit-current').waitFor({ timeout: 30_000 });
    // Labeling re-renders the summary and the document around the hostile text: wait for the
    // painted label and its write (instead of a fixed pause), then look.
    await page.keyboard.press('f');
    await page.locator('[data-testid="unit-0"][data-label="faithful"]').waitFor({ timeout: 10_000 });
    await labelsStored(page);

    const documentPane = page.getByTestId('document');
    expect(await documentPane.innerText()).toContain('<img src=x onerror=');
    expect(await documentPane.innerText()).toContain('<script>window.__pwned = 99</script>');
    expect(await page.getByTestId('summary').innerText()).toContain('<img src=y onerror=');
    expect(await page.locator('main img, main script, main iframe, main b').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    // The image URL "x" would resolve to the server itself; no such request may have been made.
    const triedImage = await page.evaluate(() =>
      performance.getEntriesByType('resource').some((e) => /\/(x|y)$/.test(e.name)),
    );
    expect(triedImage).toBe(false);
    expect(blockedRequests).toEqual([]);
  });
});
