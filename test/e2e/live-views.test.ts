/**
 * Live views in Debian's Chromium against the real `loupe serve`: two tabs, the lead's (on Judges)
 * and alice's annotator link (in Annotate's Scaffold mode, with no scaffold yet). The lead tab
 * imports a scaffold and adds a judge through its own calls; alice's tab shows the scaffold and the
 * lead's Judges list the judge, neither reloading (waited for as conditions, the pages' own load
 * count checked). Alice's page never hears the judge's name.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, pickAnnotator } from '../helpers/browser';
import { mustLoupe, writeJsonl } from '../helpers/project';
import { b4Scaffold, b4Summaries, B4_DATASET } from '../helpers/scaffold-b4';
import { startServe, type ServeProcess } from '../helpers/serve';
import { tempDir } from '../helpers/tmp';

const JUDGE = 'judge-added-live';
const dir = tempDir();
const project = join(dir, 'live.loupe');
let browser: Browser;
let serve: ServeProcess;
let lead: Page;
let alice: Page;
const loads = { lead: 0, alice: 0 };
const aliceBodies: string[] = [];

/** A call from the lead's page itself: same origin, the token it holds. */
async function leadCall(
  method: string,
  input: unknown,
): Promise<{ ok: boolean; value?: unknown; error?: { message: string } }> {
  return lead.evaluate(
    async ([m, i]) => {
      const token = window.sessionStorage.getItem('loupe.token') ?? '';
      const res = await fetch(`/api/${m}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-loupe-token': token },
        body: JSON.stringify(i),
      });
      return res.json();
    },
    [method, input] as const,
  );
}

beforeAll(async () => {
  mustLoupe(['import', writeJsonl(join(dir, 'summaries.jsonl'), b4Summaries()), '--project', project]);
  mustLoupe(['sample', '--project', project, '--dataset', B4_DATASET, '--n', '2', '--seed', '0']);
  serve = await startServe(['--project', project, '--annotator', 'alice'], { LOUPE_STATE_DIR: dir });
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  alice = await context.newPage();
  lead = await context.newPage();
  alice.on('load', () => (loads.alice += 1));
  lead.on('load', () => (loads.lead += 1));
  alice.on('response', async (response) => {
    if (new URL(response.url()).pathname.startsWith('/api/') && !response.url().endsWith('/api/events'))
      aliceBodies.push(await response.text().catch(() => ''));
  });

  await alice.goto(serve.url);
  await alice.getByTestId('unit-current').waitFor({ timeout: 30_000 });
  for (let i = 0; i < 3; i += 1) await alice.keyboard.press('t');
  await alice.getByTestId('scaffold-empty').waitFor({ timeout: 15_000 });

  await lead.goto(serve.lead.url);
  await pickAnnotator(lead, 'lead-person', 'typed');
  await lead.getByTestId('nav-judges').click();
  await lead.getByTestId('judges-view').waitFor({ timeout: 30_000 });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
});

describe('two tabs on one loupe serve', () => {
  it('a scaffold the lead tab imports appears in alice’s Scaffold mode without a reload', async () => {
    const text = `${JSON.stringify(b4Scaffold())}\n`;
    const started = await leadCall('imports.start', {
      source: { type: 'upload', name: 'scaffold.jsonl', base64: Buffer.from(text).toString('base64') },
      as: 'scaffold',
    });
    expect(started.ok).toBe(true);
    await alice.getByTestId('scaffold-item-M1').waitFor({ timeout: 30_000 });
    expect(await alice.getByTestId('scaffold-empty').count()).toBe(0);
    expect(loads.alice).toBe(1);
  });

  it('a judge the lead adds appears in the lead’s Judges list of the other tab, and alice’s page never hears of it', async () => {
    expect(await lead.getByTestId(`judge-row-${JUDGE}`).count()).toBe(0);
    const added = await leadCall('judges.add', { name: JUDGE, config: { kind: 'baseline' } });
    expect(added.ok).toBe(true);
    await lead.getByTestId(`judge-row-${JUDGE}`).waitFor({ timeout: 30_000 });
    expect(loads.lead).toBe(1);
    // Alice's page refetched what she may see (the scaffold) and nothing that names the judge.
    expect(aliceBodies.length).toBeGreaterThan(0);
    expect(aliceBodies.some((body) => body.includes(JUDGE))).toBe(false);
  });
});
