/**
 * Import, sample and start annotating from the browser UI of `loupe serve`, on an empty project:
 * a bad file lists its problems (line, field) and imports nothing; a Latin-1 file is refused with
 * its line (the upload carries bytes); the good file imports with progress; a drawn sample
 * appears in the Annotate view.
 */
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { launchChromium, pickAnnotator } from '../helpers/browser';
import { newsRows } from '../helpers/project';
import { apiCall, startServe, type ServeProcess } from '../helpers/serve';
import { tempDir } from '../helpers/tmp';

let browser: Browser | undefined;
let serve: ServeProcess | undefined;
let leadServe: ServeProcess | undefined;
afterAll(async () => {
  await browser?.close();
  await serve?.stop();
  await leadServe?.stop();
});

const jsonl = (rows: unknown[]) => Buffer.from(rows.map((r) => JSON.stringify(r)).join('\n') + '\n');

describe('import from the browser', () => {
  it('shows problems for a bad file, imports a good one, samples it and opens it for annotation', async () => {
    const dir = tempDir();
    // Import and sampling are the lead's: the lead link, with no annotator preset.
    serve = await startServe(['--project', join(dir, 'fresh.loupe')], { LOUPE_STATE_DIR: dir });
    expect(serve.links).toEqual([serve.lead.url]);
    browser = await launchChromium();
    const page = await browser.newPage();
    await page.goto(serve.lead.url);
    await page.getByTestId('nav-project').click();
    await page.getByTestId('datasets-empty').waitFor();

    const bad = newsRows(3) as unknown as Array<Record<string, unknown>>;
    bad[1]!.label = 'yes';
    await page
      .getByTestId('import-file')
      .setInputFiles({ name: 'bad.jsonl', mimeType: 'application/x-ndjson', buffer: jsonl(bad) });
    const problems = page.getByTestId('import-problems');
    await problems.waitFor({ timeout: 20_000 });
    const text = await problems.innerText();
    expect(text).toContain('bad.jsonl');
    expect(text).toMatch(/\b2\b/);
    expect(text).toContain('label');
    expect(await apiCall<unknown[]>(serve, 'datasets.list', {})).toEqual([]);

    // A Latin-1 file: the page uploads its bytes and the core's strict decoder refuses it with
    // the line, as `loupe import` does (file.text() used to turn é into U+FFFD and store it).
    const latin1 = Buffer.concat([
      jsonl(newsRows(1)),
      Buffer.from(
        '{"dataset":"news","doc_id":"d","document":"Caf\xe9","summary_id":"x","summary":"Caf\xe9 opens."}\n',
        'latin1',
      ),
    ]);
    await page
      .getByTestId('import-file')
      .setInputFiles({ name: 'cafe.jsonl', mimeType: 'application/x-ndjson', buffer: latin1 });
    await page.getByTestId('import-problems').getByText('cafe.jsonl').waitFor({ timeout: 20_000 });
    const encoding = await page.getByTestId('import-problems').innerText();
    expect(encoding).toContain('line 2');
    expect(encoding).toContain('UTF-8 text');
    expect(encoding).toContain('not valid UTF-8');
    expect(await apiCall<unknown[]>(serve, 'datasets.list', {})).toEqual([]);

    await page
      .getByTestId('import-file')
      .setInputFiles({ name: 'good.jsonl', mimeType: 'application/x-ndjson', buffer: jsonl(newsRows(30)) });
    await page.getByTestId('import-result').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('import-result').innerText()).toMatch(/30/);
    await page.getByTestId('dataset-news').waitFor();

    await page.getByTestId('sample-n').fill('5');
    await page.getByTestId('sample-draw').click();
    await page.getByTestId('sample-message').waitFor();
    const batches = await apiCall<Array<{ summaries: number; seed: number }>>(serve, 'sampling.list', {
      dataset: 'news',
    });
    expect(batches).toHaveLength(1);
    expect(batches[0]!.summaries).toBe(5);
    expect(batches[0]!.seed).toBe(0);

    // Annotate asks who is annotating; a new name is typed (the fresh project knows nobody yet).
    await page.getByTestId('nav-annotate').click();
    await pickAnnotator(page, 'ui', 'typed');
    await page.getByTestId('unit-current').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('progress').getAttribute('data-summaries-total')).toBe('5');
  });
});

describe('browser uploads carry bytes', () => {
  it('refuses a Latin-1 file with its line number, as `loupe import` does, and then imports the UTF-8 one with its accents', async () => {
    const dir = tempDir();
    leadServe = await startServe(['--project', join(dir, 'bytes.loupe')], { LOUPE_STATE_DIR: dir });
    browser ??= await launchChromium();
    const page = await browser.newPage();
    await page.goto(leadServe.url);
    await page.getByTestId('nav-project').click();
    await page.getByTestId('datasets-empty').waitFor();

    // file.text() used to turn the Latin-1 é into U+FFFD, and that was stored.
    const row =
      '{"dataset":"news","doc_id":"d","document":"The Caf\xe9 opened on Main Street.","summary_id":"x","summary":"The Caf\xe9 opened."}\n';
    const latin1 = Buffer.concat([jsonl(newsRows(1)), Buffer.from(row, 'latin1')]);
    await page
      .getByTestId('import-file')
      .setInputFiles({ name: 'cafe.jsonl', mimeType: 'application/x-ndjson', buffer: latin1 });
    const problems = page.getByTestId('import-problems');
    await problems.waitFor({ timeout: 20_000 });
    const text = await problems.innerText();
    expect(text).toContain('cafe.jsonl');
    expect(text).toContain('line 2');
    expect(text).toContain('UTF-8 text');
    expect(text).toContain('not valid UTF-8');
    expect(await apiCall<unknown[]>(leadServe, 'datasets.list', {})).toEqual([]);

    const utf8 = Buffer.concat([jsonl(newsRows(1)), Buffer.from(row, 'utf8')]);
    await page
      .getByTestId('import-file')
      .setInputFiles({ name: 'cafe.jsonl', mimeType: 'application/x-ndjson', buffer: utf8 });
    await page.getByTestId('import-result').waitFor({ timeout: 20_000 });
    const datasets = await apiCall<Array<{ name: string; summaries: number }>>(leadServe, 'datasets.list', {});
    expect(datasets).toEqual([expect.objectContaining({ name: 'news', summaries: 2 })]);
  });
});
