/**
 * Import, sample and start annotating from the browser UI of `loupe serve`, on an empty project:
 * a bad file lists its problems (line, field) and imports nothing; the good file imports with
 * progress; a drawn sample appears in the Annotate view.
 */
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser';
import { newsRows } from '../helpers/project';
import { apiCall, startServe, type ServeProcess } from '../helpers/serve';
import { tempDir } from '../helpers/tmp';

let browser: Browser | undefined;
let serve: ServeProcess | undefined;
afterAll(async () => {
  await browser?.close();
  await serve?.stop();
});

const jsonl = (rows: unknown[]) => Buffer.from(rows.map((r) => JSON.stringify(r)).join('\n') + '\n');

describe('import from the browser', () => {
  it('shows problems for a bad file, imports a good one, samples it and opens it for annotation', async () => {
    const dir = tempDir();
    serve = await startServe(['--project', join(dir, 'fresh.loupe'), '--annotator', 'ui'], { LOUPE_STATE_DIR: dir });
    browser = await launchChromium();
    const page = await browser.newPage();
    await page.goto(serve.url);
    await page.getByTestId('nav-project').click();
    await page.getByTestId('datasets-empty').waitFor();

    const bad = newsRows(3) as unknown as Array<Record<string, unknown>>;
    bad[1]!.label = 'yes';
    await page.getByTestId('import-file').setInputFiles({ name: 'bad.jsonl', mimeType: 'application/x-ndjson', buffer: jsonl(bad) });
    const problems = page.getByTestId('import-problems');
    await problems.waitFor({ timeout: 20_000 });
    const text = await problems.innerText();
    expect(text).toContain('bad.jsonl');
    expect(text).toMatch(/\b2\b/);
    expect(text).toContain('label');
    expect(await apiCall<unknown[]>(serve, 'datasets.list', {})).toEqual([]);

    await page.getByTestId('import-file').setInputFiles({ name: 'good.jsonl', mimeType: 'application/x-ndjson', buffer: jsonl(newsRows(30)) });
    await page.getByTestId('import-result').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('import-result').innerText()).toMatch(/30/);
    await page.getByTestId('dataset-news').waitFor();

    await page.getByTestId('sample-n').fill('5');
    await page.getByTestId('sample-draw').click();
    await page.getByTestId('sample-message').waitFor();
    const batches = await apiCall<Array<{ summaryIds: string[]; seed: number }>>(serve, 'sampling.list', { dataset: 'news' });
    expect(batches).toHaveLength(1);
    expect(batches[0]!.summaryIds).toHaveLength(5);
    expect(batches[0]!.seed).toBe(0);

    await page.getByTestId('nav-annotate').click();
    await page.getByTestId('unit-current').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('progress').getAttribute('data-summaries-total')).toBe('5');
  });
});
