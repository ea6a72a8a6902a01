/**
 * The keyboard in Debian's Chromium against the real `loupe serve`, through alice's annotator
 * link on a project with claims, key facts and a scaffold: one mixed flow (labels, U E 3 pressed
 * back to back, T to the claims with a label right after it, W's editor — focus inside, "+ Add"
 * then a claim typed with spaces, Esc asking before it discards —, T through the four modes, and
 * a reload that comes back to the mode, summary and claim it was on), each checked against what
 * the core stored. Then the scaffold editor's layout at 1024 and 1440 px: every item's text field
 * wide enough for its text (nothing cut), and the Drop button on the item's line.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnnotationSummary } from '../../shared/api';
import type { ClaimAnnotation } from '../../shared/contract/claims';
import { labelsStored, launchChromium } from '../helpers/browser';
import { mustLoupe, writeJsonl } from '../helpers/project';
import { apiCall, startServe, type ServeProcess } from '../helpers/serve';
import { tempDir } from '../helpers/tmp';

const DATASET = 'card';
const DOCUMENT =
  'The city will spend 2 million euros to renovate the central library. Work starts on 1 March 2025 and will last 18 months. ' +
  'During the works, the library moves to a temporary site in the old post office.';
const SUMMARIES = [
  {
    summary_id: 'A',
    summary:
      'The city will spend 2 million euros to renovate the central library. Work starts on 1 March 2025, lasts 18 months, and the library moves meanwhile.',
  },
  { summary_id: 'B', summary: 'The council approved 2.4 million euros for the library. Work starts on 1 March 2025.' },
];
const CLAIMS: Record<string, Array<{ sentence_index: number; text: string }>> = {
  A: [
    { sentence_index: 0, text: 'The city will spend 2 million euros.' },
    { sentence_index: 0, text: 'The money is to renovate the central library.' },
    { sentence_index: 1, text: 'Work starts on 1 March 2025.' },
  ],
  B: [
    { sentence_index: 0, text: 'The budget is 2.4 million euros.' },
    { sentence_index: 1, text: 'Work starts on 1 March 2025.' },
  ],
};
/** Real-length facts (a CNN/DM scaffold's), so a field too narrow for them shows. */
const SCAFFOLD = {
  dataset: DATASET,
  doc_id: 'library',
  extractor: 'card',
  extractor_version: '1',
  facts: [
    {
      id: 'M1',
      text: 'The city will spend 2 million euros to renovate the central library, which has not been renovated since it opened in 1974.',
      tier: 'main',
    },
    {
      id: 'M2',
      text: 'Work starts on 1 March 2025 and will last 18 months, according to the city council’s planning department.',
      tier: 'main',
    },
    {
      id: 'S1',
      text: 'During the works, the library moves to a temporary site in the old post office on the market square.',
      tier: 'supporting',
    },
  ],
  questions: [
    {
      id: 'Q1',
      text: 'How long will the renovation of the central library take?',
      answer: 'Eighteen months, from 1 March 2025.',
      tier: 'main',
    },
  ],
  entities: [
    { name: 'central library', attributes: [{ id: 'lib1', text: 'moves to the old post office during the works' }] },
  ],
};

const dir = tempDir();
const project = join(dir, 'keyboard.loupe');
/** Where the layout check also saves what it measured, for a human eye (optional). */
const SCREENS = process.env.LOUPE_SCREENSHOTS_DIR;
let browser: Browser;
let serve: ServeProcess;
let page: Page;

beforeAll(async () => {
  const summaries = SUMMARIES.map((s) => ({ dataset: DATASET, doc_id: 'library', document: DOCUMENT, ...s }));
  mustLoupe(['import', writeJsonl(join(dir, 'summaries.jsonl'), summaries), '--project', project]);
  const accuracy = [
    {
      type: 'key_facts',
      dataset: DATASET,
      doc_id: 'library',
      facts: ['The budget is 2 million euros.', 'Work starts on 1 March 2025.'],
      extractor: 'card',
    },
    ...SUMMARIES.map((s) => ({
      type: 'claims',
      dataset: DATASET,
      summary_id: s.summary_id,
      decomposer: 'card',
      claims: CLAIMS[s.summary_id],
    })),
  ];
  mustLoupe(['import', writeJsonl(join(dir, 'accuracy.jsonl'), accuracy), '--project', project, '--as', 'accuracy']);
  mustLoupe(['import', writeJsonl(join(dir, 'scaffold.jsonl'), [SCAFFOLD]), '--project', project, '--as', 'scaffold']);
  mustLoupe(['sample', '--project', project, '--dataset', DATASET, '--n', '2', '--seed', '0']);
  serve = await startServe(['--project', project, '--annotator', 'alice'], { LOUPE_STATE_DIR: dir });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(serve.url);
  await page.getByTestId('unit-current').waitFor({ timeout: 30_000 });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
});

const mode = () => page.getByTestId('unit-mode').getAttribute('data-mode');
/** The queue key of the summary on screen (its queue row is the current one), in any mode. */
const summaryKey = async () => {
  const row = page.locator('[data-testid^="queue-item-"][aria-current="true"]');
  return Number((await row.getAttribute('data-testid', { timeout: 10_000 }))!.replace('queue-item-', ''));
};

/** Until no write is in flight (the pane's "saving" gone and no row marked saving). */
async function stored(): Promise<void> {
  await labelsStored(page);
  await page.waitForFunction(() => document.querySelector('[data-write="saving"]') === null, undefined, {
    timeout: 15_000,
  });
}

/** T until `target` is the mode. */
async function toMode(target: string): Promise<void> {
  for (let i = 0; i < 4 && (await mode()) !== target; i += 1) await page.keyboard.press('t');
  await page.locator(`[data-testid="unit-mode"][data-mode="${target}"]`).waitFor();
}

describe('one mixed keyboard flow in Chromium', () => {
  let key = 0;

  it('F, then U E 3 back to back: sentence 2 is Unfaithful with error type 3, sentence 3 untouched', async () => {
    key = await summaryKey();
    await page.keyboard.press('f');
    // No wait between these three: the digit must reach the picker E opens.
    await page.keyboard.press('u');
    await page.keyboard.press('e');
    await page.keyboard.press('3');
    await page.locator('[data-testid="unit-1"][data-label="unfaithful"]').waitFor();
    await page.getByTestId('error-type-1').waitFor();
    await stored();
    await page.getByTestId('error-type-picker').waitFor({ state: 'detached' });
    const summary = await apiCall<AnnotationSummary>(
      serve,
      'annotation.load',
      { key, annotator: 'alice' },
      serve.lead.token,
    );
    expect(summary.units.map((u) => [u.state.label, u.state.errorType])).toEqual([
      ['faithful', null],
      ['unfaithful', 'number_or_date'],
      ...summary.units.slice(2).map(() => [null, null]),
    ]);
  });

  it('T then F at once: the label goes to the first claim, not to a sentence', async () => {
    await page.keyboard.press('t');
    await page.keyboard.press('f');
    await page.getByTestId('claims-pane').waitFor();
    await page.locator('[data-testid="claim-0-0"][data-label="supported"]').waitFor();
    await stored();
    const claims = await apiCall<ClaimAnnotation>(serve, 'claims.load', { key, annotator: 'alice' }, serve.lead.token);
    expect(claims.sentences.flatMap((s) => s.claims.map((c) => c.state.label))).toEqual(['supported', null, null]);
    // The only claim of sentence 2 is numbered under its sentence.
    expect(await page.getByTestId(`claim-number-${claims.sentences[1]!.claims[0]!.id}`).innerText()).toBe('2.1');
  });

  it('W: the focus is in the editor, "+ Add" takes a claim typed with spaces, Esc asks before discarding it', async () => {
    await page.keyboard.press('w');
    const editor = page.getByTestId('set-editor');
    await editor.waitFor();
    const focusInEditor = () =>
      page.evaluate(
        () =>
          document.activeElement?.closest('[data-testid="set-editor"]') !== null &&
          document.activeElement?.tagName === 'INPUT',
      );
    expect(await focusInEditor()).toBe(true);
    const before = await editor.getByTestId('set-editor-item').count();
    await editor.locator('[data-testid^="set-editor-add-"]').last().click();
    expect(await focusInEditor()).toBe(true);
    const typed = 'The library moves to a temporary site meanwhile.';
    await page.keyboard.type(typed);
    expect(await editor.getByTestId('set-editor-item').count()).toBe(before + 1);
    expect(await editor.getByTestId('set-editor-text').last().inputValue()).toBe(typed);
    expect(await editor.getByText('needs a text').count()).toBe(0);
    // Tab cycles inside the dialog.
    for (let i = 0; i < 12; i += 1) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.closest('[data-testid="set-editor"]') !== null)).toBe(
        true,
      );
    }

    await page.keyboard.press('Escape');
    await page.getByTestId('discard-confirm').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('discard-confirm').waitFor({ state: 'detached' });
    expect(await editor.getByTestId('set-editor-text').last().inputValue()).toBe(typed);
    await page.keyboard.press('Escape');
    await page.getByTestId('discard-confirm').waitFor();
    await page.keyboard.press('Enter');
    await editor.waitFor({ state: 'detached' });
    const claims = await apiCall<ClaimAnnotation>(serve, 'claims.load', { key, annotator: 'alice' }, serve.lead.token);
    expect(claims.version).toBe(1);
  });

  it('T through key facts, the scaffold and back to the sentences', async () => {
    await page.keyboard.press('t');
    await page.getByTestId('keyfacts-pane').waitFor();
    await page.keyboard.press('t');
    await page.getByTestId('scaffold-pane').waitFor();
    await page.keyboard.press('t');
    await page.getByTestId('unit-current').waitFor();
    expect(await mode()).toBe('sentences');
  });

  it('a reload comes back to claims mode, the same summary and the same claim', async () => {
    const first = await page.getByTestId('summary-position').innerText();
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      (was) => document.querySelector('[data-testid="summary-position"]')?.textContent !== was,
      first,
      { timeout: 10_000 },
    );
    const second = await summaryKey();
    expect(second).not.toBe(key);
    await toMode('claims');
    await page.getByTestId('claims-pane').waitFor();
    await page.keyboard.press('j');
    const claims = await apiCall<ClaimAnnotation>(
      serve,
      'claims.load',
      { key: second, annotator: 'alice' },
      serve.lead.token,
    );
    const secondClaim = String(claims.sentences[1]!.claims[0]!.id);
    await page.locator(`[data-testid="claim-current"][data-claim-id="${secondClaim}"]`).waitFor({ timeout: 10_000 });
    await page.reload();
    await page.getByTestId('claims-pane').waitFor({ timeout: 30_000 });
    expect(await mode()).toBe('claims');
    await page.locator(`[data-testid="claim-current"][data-claim-id="${secondClaim}"]`).waitFor();
    expect(await summaryKey()).toBe(second);
  });
});

describe('the scaffold editor laid out for real text', () => {
  for (const width of [1024, 1440]) {
    it(`at ${width} px: each text field shows its whole text, wide enough, with Drop on the item's line`, async () => {
      await page.setViewportSize({ width, height: 900 });
      await toMode('scaffold');
      await page.getByTestId('scaffold-pane').waitFor();
      await page.keyboard.press('w');
      const editor = page.getByTestId('scaffold-editor');
      await editor.waitFor();
      const rows = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('.scaffold-edit-row')].map((row) => {
          const box = (el: Element | null) => (el ? el.getBoundingClientRect() : null);
          const text = row.querySelector<HTMLTextAreaElement>('.scaffold-edit-text')!;
          const fields = [...row.querySelectorAll<HTMLElement>('textarea, input')];
          const drop = row.querySelector<HTMLButtonElement>('.scaffold-edit-drop')!;
          const line = parseFloat(getComputedStyle(drop).lineHeight) || 20;
          return {
            id: row.dataset.testid,
            row: box(row)!.toJSON() as DOMRect,
            text: box(text)!.toJSON() as DOMRect,
            drop: box(drop)!.toJSON() as DOMRect,
            dropLines: Math.round((drop.getBoundingClientRect().height - 8) / line),
            cut: fields.some((f) => f.scrollHeight > f.clientHeight + 1 || f.scrollWidth > f.clientWidth + 1),
          };
        }),
      );
      expect(rows.length).toBe(5);
      for (const r of rows) {
        // Wide enough: the text field takes most of the row, and at least 400 px.
        expect(r.text.width, r.id).toBeGreaterThanOrEqual(Math.max(400, r.row.width * 0.5));
        expect(r.cut, `${r.id}: a field's text is cut`).toBe(false);
        // Drop on the item's line, on one line of its own.
        expect(r.drop.top, r.id).toBeLessThan(r.text.top + 30);
        expect(r.drop.right, r.id).toBeLessThanOrEqual(r.row.right + 1);
        expect(r.dropLines, r.id).toBeLessThanOrEqual(1);
      }
      const card = await editor.locator('.overlay-card').boundingBox();
      expect(card!.width).toBeLessThanOrEqual(width);
      if (SCREENS) {
        mkdirSync(SCREENS, { recursive: true });
        await page.screenshot({ path: join(SCREENS, `scaffold-editor-after-${width}.png`) });
      }
      await page.keyboard.press('Escape');
      await editor.waitFor({ state: 'detached' });
    });
  }
});
