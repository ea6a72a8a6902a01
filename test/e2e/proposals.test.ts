/**
 * Shared sets have owners, in Debian's Chromium against the real `loupe serve`: alice's annotator
 * link edits the key facts of a document she and bob both annotate (W in key-fact mode); the edit
 * is a proposal, shown pending to her (after a reload too) while she keeps labeling version 1, and bob's queue still
 * shows version 1. The lead's tab accepts it in the Project view with the keyboard; only then does
 * bob's queue show the new key facts (version 2).
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyFactAnnotation } from '../../shared/contract/keyfacts';
import type { Proposal, Queue } from '../../shared/api';
import { launchChromium } from '../helpers/browser';
import { mustLoupe, writeJsonl } from '../helpers/project';
import { apiCall, startServe, type ServeProcess } from '../helpers/serve';
import { tempDir } from '../helpers/tmp';

const DATASET = 'card';
const DOCUMENT =
  'The city will spend 2 million euros to renovate the central library. Work starts on 1 March 2025 and will last 18 months. ' +
  'During the works, the library moves to a temporary site in the old post office.';
const FACTS = ['The budget is 2 million euros.', 'Work starts on 1 March 2025.'];
const PROPOSED = 'The library moves to the old post office during the works.';

const dir = tempDir();
const project = join(dir, 'proposals.loupe');
let browser: Browser;
let serve: ServeProcess;
let alice: Page;
let lead: Page;
let bobKey = 0;

/** bob's view of the key facts of his first summary (as his queue would load them). */
const bobsFacts = () =>
  apiCall<KeyFactAnnotation>(serve, 'keyfacts.load', { key: bobKey, annotator: 'bob' }, serve.lead.token);

beforeAll(async () => {
  const summaries = ['A', 'B', 'C', 'D'].map((id) => ({
    dataset: DATASET,
    doc_id: 'library',
    document: DOCUMENT,
    summary_id: id,
    summary: 'The city will spend 2 million euros on the library. Work starts on 1 March 2025.',
  }));
  mustLoupe(['import', writeJsonl(join(dir, 'summaries.jsonl'), summaries), '--project', project]);
  mustLoupe([
    'import',
    writeJsonl(join(dir, 'facts.jsonl'), [
      { type: 'key_facts', dataset: DATASET, doc_id: 'library', facts: FACTS, extractor: 'card' },
    ]),
    '--project',
    project,
    '--as',
    'accuracy',
  ]);
  mustLoupe([
    'sample',
    '--project',
    project,
    '--dataset',
    DATASET,
    '--n',
    '4',
    '--seed',
    '0',
    '--annotators',
    'alice,bob',
  ]);
  serve = await startServe(['--project', project, '--annotator', 'alice'], { LOUPE_STATE_DIR: dir });
  bobKey = (await apiCall<Queue>(serve, 'annotation.queue', { annotator: 'bob' }, serve.lead.token)).items[0]!.key;
  browser = await launchChromium();
  alice = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await alice.goto(serve.url);
  await alice.getByTestId('unit-current').waitFor({ timeout: 30_000 });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
});

describe("an annotator's key-fact proposal, accepted by the lead", () => {
  it("alice's edit is pending for her, she keeps version 1, and bob's queue is unchanged", async () => {
    for (let i = 0; i < 4 && (await alice.getByTestId('unit-mode').getAttribute('data-mode')) !== 'keyfacts'; i += 1)
      await alice.keyboard.press('t');
    await alice.getByTestId('keyfacts-pane').waitFor();
    await alice.keyboard.press('w');
    const editor = alice.getByTestId('set-editor');
    await editor.waitFor();
    await editor.locator('[data-testid^="set-editor-add-"]').last().click();
    await alice.keyboard.type(PROPOSED);
    await editor.getByTestId('set-editor-save').click();
    await editor.waitFor({ state: 'detached' });
    const pending = alice.getByTestId('keyfacts-proposed');
    await pending.waitFor({ timeout: 15_000 });
    expect(await pending.innerText()).toMatch(
      /^Your edit of the key facts is proposal \d+, pending: it changes nothing until the lead accepts it\. You keep labeling version 1\.$/,
    );
    expect(await alice.getByTestId('keyfacts-version').innerText()).toContain('version 1');
    // After a reload the pane still says so (her pending proposals are read with the set).
    await alice.reload();
    await alice.getByTestId('keyfacts-pane').waitFor({ timeout: 30_000 });
    expect(await alice.getByTestId('keyfacts-proposed').innerText({ timeout: 15_000 })).toBe(await pending.innerText());

    const proposals = await apiCall<Proposal[]>(serve, 'proposals.list', {}, serve.lead.token);
    expect(proposals.map((p) => [p.author, p.kind, p.status, p.baseVersion])).toEqual([
      ['alice', 'keyfacts', 'pending', 1],
    ]);
    expect(proposals[0]!.diff.filter((d) => d.op !== 'same')).toEqual([{ op: 'added', text: PROPOSED }]);
    const bob = await bobsFacts();
    expect([bob.version, bob.facts.map((f) => f.text)]).toEqual([1, FACTS]);
  });

  it("alice's page cannot load or label bob's summary (403)", async () => {
    const answers = await alice.evaluate(
      async ([key, token]) => {
        const call = async (method: string, input: unknown) =>
          (
            await fetch(`/api/${method}`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-loupe-token': token },
              body: JSON.stringify(input),
            })
          ).status;
        return [
          await call('annotation.load', { key, annotator: 'alice' }),
          await call('keyfacts.load', { key, annotator: 'alice' }),
        ];
      },
      [bobKey, serve.token] as const,
    );
    expect(answers).toEqual([403, 403]);
  });

  it('the lead accepts it in the Project view with the keyboard; only then bob sees version 2', async () => {
    lead = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await lead.goto(serve.lead.url);
    await lead.getByTestId('nav-project').click();
    const panel = lead.getByTestId('proposals-panel');
    await panel.waitFor({ timeout: 30_000 });
    const item = panel.locator('[data-testid^="proposal-"][data-kind="keyfacts"]');
    expect(await item.innerText()).toContain(
      'alice proposes the key facts of document library (card), made on version 1',
    );
    expect(await item.locator('[data-op="added"]').innerText()).toContain(PROPOSED);
    // Still version 1 for bob while the lead reads it.
    expect((await bobsFacts()).version).toBe(1);
    await item.getByRole('button', { name: /^Accept proposal \d+ by alice$/ }).focus();
    await lead.keyboard.press('Enter');
    await panel.getByTestId('proposals-decided').waitFor({ timeout: 15_000 });
    expect(await panel.getByTestId('proposals-decided').innerText()).toMatch(
      /^Proposal \d+ accepted: version 2 of the key facts of document library is current for everyone\.$/,
    );
    await panel.getByTestId('proposals-empty').waitFor();

    const bob = await bobsFacts();
    expect([bob.version, bob.facts.map((f) => f.text)]).toEqual([2, [...FACTS, PROPOSED]]);
    const versions = await apiCall<Array<{ version: number; createdBy: string | null }>>(
      serve,
      'keyfacts.versions',
      { documentKey: bob.documentKey },
      serve.lead.token,
    );
    expect(versions.map((v) => [v.version, v.createdBy])).toEqual([
      [1, null],
      [2, 'alice'],
    ]);
  });
});
