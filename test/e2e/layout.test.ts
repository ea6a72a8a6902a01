/**
 * Box sizes in Debian's Chromium at 1024 and 1440 px wide, against the real `loupe serve` on real
 * benchmarks (FRANK and REALSumm, a scaffold per REALSumm document with a judge's and a person's
 * alignments, the offline baseline judge; FRANK and REALSumm sampled for alice):
 * - Annotate (alice's link), in every unit mode, on a FRANK summary with a long id and on a
 *   REALSumm one: nothing is wider than the window or its pane, the right pane does not scroll
 *   sideways, the mode bar shows every mode and "T switch" whole; the scaffold's tier tags
 *   (MAIN / SUPPORTING) hold their text and sit clear of the status badge.
 * - Analysis (lead): the page scrolls, not a box inside it (no second scrollbar, no dead band
 *   below the last dataset); no horizontal scrollbar; each select is as wide as its longest
 *   option; each accuracy source's name is a heading above its own table (never a caption).
 * - Project, Judges and Review: nothing wider than the window either.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmReveal, launchChromium, pickAnnotator } from '../helpers/browser';
import { benchmark } from '../helpers/benchmarks';
import { mustLoupe, writeJsonl } from '../helpers/project';
import { startServe, type ServeProcess } from '../helpers/serve';
import { tempDir } from '../helpers/tmp';

const WIDTHS = [1024, 1440] as const;
const HEIGHT = 800;

const dir = tempDir('loupe-layout-');
const project = join(dir, 'layout.loupe');
let serve: ServeProcess;
let browser: Browser;

/** One scaffold per REALSumm document (long fact texts, both tiers), aligned by a judge and a person. */
function realsummScaffolds(): { scaffolds: unknown[]; alignments: unknown[] } {
  const records = readFileSync(benchmark('realsumm', 'realsumm-data-sample-10.json'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { doc_id: string; model: string });
  const docs = [...new Set(records.map((r) => r.doc_id))];
  const scaffolds = docs.map((doc) => ({
    dataset: 'realsumm',
    doc_id: doc,
    facts: [
      {
        id: 'M1',
        text: `The first main fact of ${doc}, stating who did what to whom, where and when it happened`,
        tier: 'main',
      },
      { id: 'M2', text: `A second main fact of ${doc}`, tier: 'main' },
      { id: 'S1', text: `A supporting fact of ${doc} with some context`, tier: 'supporting' },
    ],
    questions: [
      { id: 'Q1', text: `What happened in ${doc}?`, answer: 'Something notable', tier: 'main' },
      { id: 'Q2', text: 'Who was involved?', answer: 'Several people', tier: 'supporting' },
    ],
    entities: [{ name: 'The subject', attributes: [{ id: 'a1', text: 'is named in the article' }] }],
  }));
  const values = ['preserved', 'partial', 'missing', 'misrepresented'] as const;
  const alignments = ['judge:judge-scaffold', 'human:carol'].flatMap((source, s) =>
    records.map((r, i) => ({
      dataset: 'realsumm',
      summary_id: `${r.doc_id}:${r.model}`,
      source,
      facts: { M1: values[(i + s) % 4], M2: values[(i + s + 1) % 4], S1: values[(i + s + 2) % 4] },
      questions: { Q1: i % 2 ? 'answered' : 'unanswered', Q2: i % 2 ? 'unanswered' : 'answered' },
      attributes: { a1: 'preserved' },
    })),
  );
  return { scaffolds, alignments };
}

beforeAll(async () => {
  mustLoupe(['import', benchmark('frank'), '--project', project]);
  mustLoupe(['import', benchmark('realsumm'), '--project', project, '--as', 'realsumm']);
  const { scaffolds, alignments } = realsummScaffolds();
  mustLoupe(['import', writeJsonl(join(dir, 'scaffolds.jsonl'), scaffolds), '--project', project, '--as', 'scaffold']);
  mustLoupe([
    'import',
    writeJsonl(join(dir, 'alignments.jsonl'), alignments),
    '--project',
    project,
    '--as',
    'scaffold-alignments',
  ]);
  mustLoupe([
    'sample',
    '--project',
    project,
    '--dataset',
    'frank',
    '--n',
    '10',
    '--seed',
    '0',
    '--annotators',
    'alice,bob',
    '--overlap',
    '0.2',
  ]);
  mustLoupe([
    'sample',
    '--project',
    project,
    '--dataset',
    'realsumm',
    '--n',
    '10',
    '--seed',
    '0',
    '--annotator',
    'alice',
  ]);
  mustLoupe(['judges', 'add', '--baseline', '--project', project]);
  mustLoupe(['judge', '--project', project, '--judge', 'baseline (offline rule)']);
  serve = await startServe(['--project', project, '--annotator', 'alice'], { LOUPE_STATE_DIR: dir });
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
});

interface Overflow {
  what: string;
  width: number;
  room: number;
}

/**
 * Every element wider than the window or (for a box that clips or scrolls) wider than itself:
 * scrollWidth > clientWidth on a box that scrolls sideways, or a right edge past the window. Text
 * cut on purpose with an ellipsis (queue titles) is not an overflow.
 */
async function overflows(page: Page): Promise<Overflow[]> {
  return page.evaluate(() => {
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${typeof el.className === 'string' && el.className ? `.${el.className.split(' ').join('.')}` : ''}${el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : ''}`;
    const root = document.documentElement;
    const found: Array<{ what: string; width: number; room: number }> = [];
    if (root.scrollWidth > root.clientWidth)
      found.push({ what: 'the page', width: root.scrollWidth, room: root.clientWidth });
    for (const el of document.querySelectorAll('.app *')) {
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden' || el.closest('.visually-hidden')) continue;
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 && rect.height === 0) continue;
      if (rect.right > root.clientWidth + 1)
        found.push({ what: name(el), width: Math.round(rect.right), room: root.clientWidth });
      const clips = ['auto', 'scroll', 'hidden', 'clip'].includes(style.overflowX);
      if (clips && style.textOverflow !== 'ellipsis' && el.scrollWidth > el.clientWidth + 1)
        found.push({ what: `${name(el)} (scrolls sideways)`, width: el.scrollWidth, room: el.clientWidth });
    }
    return found;
  });
}

async function leadPage(width: number): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: HEIGHT } });
  await page.goto(serve.lead.url);
  await page.getByTestId('nav-project').waitFor({ timeout: 30_000 });
  return page;
}

/** Opens a view through the reveal gate when it asks (the lead's unfinished samples). */
async function openGated(page: Page, view: 'analysis' | 'review', ready: string): Promise<void> {
  await page.getByTestId(`nav-${view}`).click();
  const first = page
    .locator(`[data-testid="${ready}"], [data-testid="reveal-dialog"], [data-testid="annotator-picker"]`)
    .first();
  await first.waitFor({ timeout: 30_000 });
  if ((await first.getAttribute('data-testid')) === 'annotator-picker') await pickAnnotator(page, 'lead', 'typed');
  if (await page.getByTestId('reveal-dialog').count()) await confirmReveal(page);
  await page.getByTestId(ready).waitFor({ timeout: 30_000 });
}

describe.each(WIDTHS)('at %i px wide', (width) => {
  it('Annotate: every mode fits its pane, on a long FRANK id and on REALSumm; tier tags hold their text', async () => {
    const page = await browser.newPage({ viewport: { width, height: HEIGHT } });
    await page.goto(serve.url);
    await page.getByTestId('unit-mode').waitFor({ timeout: 30_000 });
    for (const dataset of ['frank', 'realsumm']) {
      if (dataset === 'realsumm') {
        await page.locator('.queue-item', { hasText: 'cnndm' }).first().click();
        await page.locator('.summary-pane', { hasText: 'realsumm' }).first().waitFor();
      }
      for (let turn = 0; turn < 4; turn += 1) {
        const mode = await page.getByTestId('unit-mode').getAttribute('data-mode');
        await page.locator(`[data-testid="unit-mode"][data-mode="${mode}"]`).waitFor();
        expect(await overflows(page), `${dataset}, ${mode} mode`).toEqual([]);
        const bar = await page.evaluate(() => {
          const barEl = document.querySelector('[data-testid="unit-mode"]')!;
          const pane = document.querySelector('.summary-pane')!;
          const box = pane.getBoundingClientRect();
          const pieces = [...barEl.querySelectorAll('button, .key-hint')].map((el) => {
            const r = el.getBoundingClientRect();
            return {
              text: el.textContent!.trim(),
              cut: el.scrollWidth > el.clientWidth + 1,
              inside: r.left >= box.left - 0.5 && r.right <= box.right + 0.5,
              oneLine: r.height < 2.2 * parseFloat(getComputedStyle(el).lineHeight || '20'),
            };
          });
          return { pieces, paneScrolls: pane.scrollWidth > pane.clientWidth + 1 };
        });
        expect(bar.paneScrolls, `${dataset}, ${mode}: the right pane scrolls sideways`).toBe(false);
        // Each tab is its mode's name, whole, then that mode's progress when it has one ("Sentences 0/3").
        expect(bar.pieces.map((p) => p.text.replace(/\s+(\d+\/\d+|·)$/, ''))).toEqual([
          'Sentences',
          'Claims',
          'Key facts',
          'Scaffold',
          'T switch',
        ]);
        for (const piece of bar.pieces)
          expect(piece, `${dataset}, ${mode}: "${piece.text}"`).toMatchObject({
            cut: false,
            inside: true,
            oneLine: true,
          });
        if (mode === 'scaffold' && dataset === 'realsumm') {
          await page.getByTestId('scaffold-pane').waitFor();
          const tags = await page.evaluate(() =>
            [...document.querySelectorAll('[data-testid="scaffold-pane"] .tag-tier')].map((tag) => {
              const box = tag.getBoundingClientRect();
              const range = document.createRange();
              range.selectNodeContents(tag);
              const text = range.getBoundingClientRect();
              const badge = tag.closest('li')!.querySelector('.badge')!.getBoundingClientRect();
              return {
                text: tag.textContent,
                holdsText:
                  text.left >= box.left - 0.5 &&
                  text.right <= box.right + 0.5 &&
                  text.top >= box.top - 0.5 &&
                  text.bottom <= box.bottom + 0.5,
                clearOfBadge: box.left >= badge.right - 0.5,
                cut: tag.scrollWidth > tag.clientWidth + 1,
              };
            }),
          );
          expect(tags.map((t) => t.text)).toEqual(expect.arrayContaining(['main', 'supporting']));
          for (const tag of tags)
            expect(tag, `tier tag ${tag.text}`).toMatchObject({ holdsText: true, clearOfBadge: true, cut: false });
        }
        await page.keyboard.press('t');
        await page.locator(`[data-testid="unit-mode"]:not([data-mode="${mode}"])`).waitFor();
      }
    }
    await page.close();
  });

  it('Analysis: the page scrolls (no nested box, no dead band), nothing sideways, full selects, headings above accuracy tables', async () => {
    const page = await leadPage(width);
    await openGated(page, 'analysis', 'analysis-settings');
    await page.getByTestId('analysis-bootstrap').fill('200');
    await page.getByTestId('analysis-run').click();
    await page
      .locator('[data-testid="dataset-section"][data-dataset="realsumm"] [data-testid="accuracy-section"]')
      .waitFor({ timeout: 120_000 });

    expect(await overflows(page)).toEqual([]);

    const scrolling = await page.evaluate(() => {
      const root = document.scrollingElement!;
      const view = document.querySelector('[data-testid="analysis-view"]')!;
      // Boxes in the app that scroll vertically on their own, with more than they show.
      const nested = [...document.querySelectorAll('.app *')]
        .filter(
          (el) =>
            ['auto', 'scroll'].includes(getComputedStyle(el).overflowY) &&
            el.scrollHeight > el.clientHeight + 1 &&
            el.tagName !== 'TEXTAREA',
        )
        .map((el) => el.className);
      window.scrollTo(0, root.scrollHeight);
      const viewBottom = view.getBoundingClientRect().bottom + window.scrollY;
      return {
        pageScrolls: root.scrollHeight > window.innerHeight,
        nested,
        deadBand: root.scrollHeight - viewBottom,
        scrolledTo: window.scrollY,
      };
    });
    expect(scrolling.pageScrolls).toBe(true);
    expect(scrolling.nested).toEqual([]);
    expect(scrolling.scrolledTo).toBeGreaterThan(0);
    // Below the view only the page's own end: no band of empty page past the last dataset.
    expect(scrolling.deadBand).toBeLessThan(24);
    // The header stays in sight while the page scrolls.
    expect(await page.locator('.app-header').evaluate((el) => el.getBoundingClientRect().top)).toBe(0);

    const selects = await page.evaluate(() =>
      [...document.querySelectorAll('[data-testid="analysis-settings"] select')].map((select) => {
        const s = select as HTMLSelectElement;
        const longest = [...s.options].reduce((a, b) => (b.text.length > a.text.length ? b : a));
        // The same select holding only its longest option, with nothing constraining its width: the width it needs.
        const probe = s.cloneNode(false) as HTMLSelectElement;
        probe.append(new Option(longest.text));
        probe.style.cssText = 'position:absolute;visibility:hidden;width:auto;max-width:none;min-width:0';
        s.parentElement!.append(probe);
        const needed = probe.getBoundingClientRect().width;
        probe.remove();
        return { testId: s.dataset.testid, longest: longest.text, width: s.getBoundingClientRect().width, needed };
      }),
    );
    expect(selects.map((s) => s.longest)).toEqual(
      expect.arrayContaining(['people and imported label sets', 'majority (a tie is unresolved)']),
    );
    for (const select of selects)
      expect(select.width, `${select.testId} shows "${select.longest}"`).toBeGreaterThanOrEqual(select.needed - 0.5);

    const titled = await page.evaluate(() =>
      [...document.querySelectorAll('[data-testid="accuracy-section"] section.titled-table')].map((section) => {
        const heading = section.querySelector('h4')!;
        const table = section.querySelector('table')!;
        return {
          title: heading.textContent,
          headingFirst: Boolean(heading.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING),
          above: heading.getBoundingClientRect().bottom <= table.getBoundingClientRect().top + 0.5,
          names: table.getAttribute('aria-labelledby') === heading.id,
          captions: table.querySelectorAll('caption').length,
        };
      }),
    );
    expect(titled.map((t) => t.title)).toEqual(
      expect.arrayContaining(['People (human labels)', 'finesure-gpt-4 alignment (imported)', 'Judges vs people']),
    );
    for (const table of titled)
      expect(table, String(table.title)).toMatchObject({ headingFirst: true, above: true, names: true, captions: 0 });
    await page.close();
  });

  it('Project, Judges and Review fit the window', async () => {
    const page = await leadPage(width);
    await page.getByTestId('nav-project').click();
    await page.getByTestId('datasets').waitFor();
    expect(await overflows(page), 'Project').toEqual([]);
    await page.getByTestId('nav-judges').click();
    await page.getByTestId('judges-view').waitFor();
    expect(await overflows(page), 'Judges').toEqual([]);
    await openGated(page, 'review', 'review-counts');
    expect(await overflows(page), 'Review').toEqual([]);
    // The header keeps the annotator and its switch in one row with the tabs.
    const header = await page.locator('.app-header').evaluate((el) => el.getBoundingClientRect().height);
    expect(header).toBeLessThan(50);
    await page.close();
  });
});
