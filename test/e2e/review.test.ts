/**
 * The Review view end to end in Debian's Chromium against the real `loupe serve` on the
 * demo project (FRANK): open the suspicious queue, decide two sentences by keyboard with no judge
 * label, other annotator's label or global label in any payload before each decision, see them
 * revealed after, revise one, read Table 4 and the flips, then export with the CLI and find the
 * corrected global labels.
 *
 * Why the baseline is run first: the demo ships two judges — the offline baseline, run on the
 * 25 sampled summaries only, and the imported FineSurE judge, which covers 10 summaries. The
 * suspicious queue needs every judge of the panel to flag a sentence, and a missing prediction
 * is not a flag, so with both judges the pool is empty (no summary is covered and flagged by
 * both), and even the baseline alone flags no faithful-labelled summary of the sample. So before
 * serving, the test runs the baseline over every summary of the dataset (`loupe judge`, offline,
 * deterministic — what an auditor does before reviewing), then, in the UI, shows that the
 * default two-judge panel is empty with its reason and narrows the panel to the baseline with
 * the judge filter (pool 4). Nothing is faked or removed: the FineSurE judge stays in the project.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmReveal, launchChromium, pickAnnotator } from '../helpers/browser';
import { mustLoupe } from '../helpers/project';
import { apiCall, startServe, type ServeProcess } from '../helpers/serve';
import { tempDir } from '../helpers/tmp';

const BASELINE = 'baseline (offline rule)';
const FINESURE = 'finesure-gpt-4o (imported)';
const REVIEWER = 'e2e-reviewer';
const stateDir = tempDir('loupe-review-ui-');
const project = join(stateDir, 'demo.loupe');
const env = { LOUPE_STATE_DIR: stateDir };

/** Keys that carry a label the adjudicator must not see before deciding. */
const LABEL_KEYS =
  /^(hard|soft|globalLabel|global_label|benchmarkLabel|correctedLabel|corrected_global_label|annotators|judge_labels|annotation_labels|review_labels|label_derived|factuality|Factuality|pred_.*|llm_output)$/;

/** judges.list's per-judge counts ({ ok, parseErrors, failed, soft }) are numbers of predictions, not labels. */
const isCounts = (k: string, v: unknown) =>
  k === 'predictions' &&
  v !== null &&
  typeof v === 'object' &&
  !Array.isArray(v) &&
  Object.values(v).every((n) => typeof n === 'number');

function labelKeys(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => labelKeys(v, `${path}[${i}]`));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) =>
      isCounts(k, v) ? [] : [...(LABEL_KEYS.test(k) ? [`${path}.${k}`] : []), ...labelKeys(v, `${path}.${k}`)],
    );
  }
  return [];
}

interface Payload {
  method: string;
  body: string;
}
interface RevealBody {
  key: number;
  globalLabel: 0 | 1 | null;
  globalLabelHidden: boolean;
  sentences: Array<{
    unitId: number;
    index: number;
    judges: Array<{ judge: string; hard: 0 | 1 | null }>;
    annotators: unknown[];
  }>;
}
interface Card {
  key: number;
  summaryId: string;
  units: Array<{ id: number; index: number; marked: boolean }>;
}

let browser: Browser;
let serve: ServeProcess;
let page: Page;
const payloads: Payload[] = [];
/** Unit ids decided so far (by this test's reviewer), as the page acknowledged them. */
const decided = new Set<number>();
/** Marked unit ids per card key. */
const markedOf = new Map<number, number[]>();

const valueOf = <T>(p: Payload): T => (JSON.parse(p.body) as { value: T }).value;
const cards = (): Card[] => payloads.filter((p) => p.method === 'review.card').map((p) => valueOf<Card>(p));
const recordCount = () => payloads.filter((p) => p.method === 'review.record').length;

/**
 * The card payload for the summary on screen. Response bodies are recorded asynchronously, so the
 * DOM can show a card before its payload has been pushed: wait for it rather than take the last.
 */
async function shownCard(): Promise<Card> {
  const summaryId = await page.getByTestId('review-card').getAttribute('data-summary');
  const deadline = Date.now() + 15_000;
  for (;;) {
    const found = cards()
      .filter((c) => c.summaryId === summaryId)
      .at(-1);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no review.card payload for ${summaryId}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function waitForRecords(n: number): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (recordCount() < n) {
    if (Date.now() > deadline) throw new Error(`expected ${n} review.record answers, saw ${recordCount()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Every payload so far: a label key only in a review.record / review.reveal answer, only for
 * sentences decided before it, and the global label only once all marked sentences of that card were.
 */
function expectBlindSoFar(): void {
  for (const p of payloads) {
    const body = JSON.parse(p.body) as { ok: boolean; value: unknown };
    if (p.method !== 'review.record' && p.method !== 'review.reveal') {
      expect(labelKeys(body), `${p.method} carries a label`).toEqual([]);
      expect(p.body.includes('pred_faithfulness') || p.body.includes('llm_output'), p.method).toBe(false);
      continue;
    }
    const reveal =
      p.method === 'review.reveal' ? (body.value as RevealBody) : (body.value as { reveal: RevealBody | null }).reveal;
    if (!reveal) continue;
    for (const sentence of reveal.sentences)
      expect(decided.has(sentence.unitId), `${p.method} revealed undecided unit ${sentence.unitId}`).toBe(true);
    if (!reveal.globalLabelHidden) expect(markedOf.get(reveal.key)!.every((id) => decided.has(id))).toBe(true);
  }
}

async function reviewBodyText(): Promise<string> {
  return page.locator('.review-body').innerText();
}

const unitRow = (i: number) => page.locator(`[data-testid="unit-${i}"]`);
const card = () => page.getByTestId('review-card');

beforeAll(async () => {
  // 1. Build the demo project (the first serve does), 2. run the baseline over every summary.
  const first = await startServe([], env);
  await first.stop();
  mustLoupe(['judge', '--project', project, '--judge', BASELINE], env);

  // The reviewer is a person of the project (offered in the lead's picker) without a link of their
  // own: a reveal belongs to the person who looks, and someone with an annotator link can be
  // revealed to only through it (test/unit/security/reveal-owner.test.ts). Review is the lead's.
  serve = await startServe([], env);
  expect(serve.links).toHaveLength(1);
  await apiCall(serve, 'annotators.ensure', { name: REVIEWER }, serve.lead.token);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('response', async (response) => {
    const url = new URL(response.url());
    // Calls only: the change-event stream is no call's answer (the unit tier checks what it carries).
    if (!url.pathname.startsWith('/api/') || url.pathname === '/api/events') return;
    payloads.push({ method: url.pathname.slice(5), body: await response.text().catch(() => '{}') });
  });
  await page.goto(serve.lead.url);
  // The lead has no preselected annotator: Annotate asks who is annotating.
  await pickAnnotator(page, REVIEWER, 'choice');
  await page.getByTestId('unit-current').waitFor({ timeout: 30_000 });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
});

describe('reviewing the demo project in Chromium', () => {
  let first: Card;
  let second: Card;

  it('V asks before revealing the unfinished sample, then opens the suspicious queue: empty with both judges (and says why), 4 summaries with the baseline panel', async () => {
    const progress = page.getByTestId('progress');
    const unfinished =
      Number(await progress.getAttribute('data-summaries-total')) -
      Number(await progress.getAttribute('data-summaries-done'));
    expect(unfinished).toBeGreaterThan(0);
    await page.keyboard.press('v');
    // The reviewer has not annotated their sample: Review would show judge verdicts on it, so the gate asks first, naming how many.
    const asked = await confirmReveal(page);
    expect(asked).toMatchObject({ count: unfinished, annotator: REVIEWER });
    expect(asked.text).toContain('Opening Review');
    const empty = page.getByTestId('review-empty');
    await empty.waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('review-filter-queue').inputValue()).toBe('suspicious');
    expect(await page.getByTestId('review-filter-dataset').inputValue()).toBe('frank');
    expect(await page.getByTestId('review-counts').getAttribute('data-pool')).toBe('0');
    expect(await page.getByTestId('review-empty-why').innerText()).toMatch(/missing prediction is not a flag/);

    await page.locator(`[data-testid="review-filter-judge"][value="${FINESURE}"]`).uncheck();
    await card().waitFor({ timeout: 30_000 });
    const counts = page.getByTestId('review-counts');
    expect(await counts.getAttribute('data-pool')).toBe('4');
    expect(await counts.getAttribute('data-listed')).toBe('4');
    expect(await counts.getAttribute('data-decided')).toBe('0');
    const lastQueue = payloads.filter((p) => p.method === 'review.queue').at(-1)!;
    expect(valueOf<{ judgeCount: number }>(lastQueue).judgeCount).toBe(1);

    for (const c of cards())
      markedOf.set(
        c.key,
        c.units.filter((u) => u.marked).map((u) => u.id),
      );
    first = await shownCard();
    expect(await card().getAttribute('data-summary')).toBe(first.summaryId);
    // The first card: sentence 0 is context (dimmed, never current), sentence 1 is to decide.
    expect(first.units.map((u) => u.marked)).toEqual([false, true]);
    expect(await unitRow(0).getAttribute('data-context')).toBe('true');
    expect(await page.getByTestId('unit-current').getAttribute('data-index')).toBe('1');
    expect(await page.locator('[data-testid="document"]').innerText()).not.toBe('');
  });

  it('decides the first sentence blind (F) and sees the judges and the global label after the write', async () => {
    expectBlindSoFar();
    expect(payloads.filter((p) => p.method === 'review.reveal')).toHaveLength(0);
    const text = await reviewBodyText();
    for (const hidden of [BASELINE, FINESURE, 'Judge A', 'Judge B', 'Global label (benchmark)'])
      expect(text).not.toContain(hidden);
    expect(await page.getByTestId('review-global-label').getAttribute('data-state')).toBe('hidden');

    await page.keyboard.press('f');
    await waitForRecords(1);
    decided.add(first.units[1]!.id);
    await page.locator('[data-testid="unit-1"][data-label="faithful"]').waitFor();
    const reveal = page.getByTestId('review-reveal-1');
    await reveal.waitFor();
    const judge = reveal.getByTestId('review-judge-label');
    expect(await judge.count()).toBe(1);
    expect(await judge.getAttribute('data-judge')).toMatch(/^Judge [A-Z]$/);
    // Suspicious: the baseline flagged it.
    expect(await judge.getAttribute('data-label')).toBe('unfaithful');
    // Every marked sentence of this card is decided: the global label shows (faithful, or it would not be suspicious).
    await page.locator('[data-testid="review-global-label"][data-state="1"]').waitFor();

    const answer = valueOf<{ reveal: RevealBody }>(payloads.find((p) => p.method === 'review.record')!);
    expect(answer.reveal.sentences.map((s) => s.unitId)).toEqual([first.units[1]!.id]);
    expect(answer.reveal.sentences[0]!.judges).toEqual([
      { judge: expect.stringMatching(/^Judge [A-Z]$/), hard: 0, soft: expect.any(Number) },
    ]);
    expect(answer.reveal.globalLabel).toBe(1);
    expectBlindSoFar();
  });

  it('Enter opens the next card, blind again; U and E decide its first sentence, the second stays hidden', async () => {
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      (before) => document.querySelector('[data-testid="review-card"]')?.getAttribute('data-summary') !== before,
      first.summaryId,
    );
    second = await shownCard();
    markedOf.set(
      second.key,
      second.units.filter((u) => u.marked).map((u) => u.id),
    );
    expect(second.units.filter((u) => u.marked).map((u) => u.index)).toEqual([0, 1]);
    expect(await page.getByTestId('unit-current').getAttribute('data-index')).toBe('0');
    expect(await page.getByTestId('review-global-label').getAttribute('data-state')).toBe('hidden');
    expect(await page.getByTestId('review-blind').count()).toBe(1);
    expect(await page.locator('[data-testid^="review-reveal-"]').count()).toBe(0);
    expectBlindSoFar();

    await page.keyboard.press('u');
    await waitForRecords(2);
    decided.add(second.units[0]!.id);
    await page.locator('[data-testid="unit-0"][data-label="unfaithful"]').waitFor();
    await page.keyboard.press('e');
    await page.getByTestId('error-type-picker').waitFor();
    await page.keyboard.press('1');
    await page.getByTestId('error-type-0').waitFor();
    await page.getByTestId('review-reveal-0').waitFor();
    // Sentence 1 is undecided: no label of it anywhere, and the global label stays hidden.
    expect(await page.getByTestId('review-reveal-1').count()).toBe(0);
    expect(await page.getByTestId('review-global-label').getAttribute('data-state')).toBe('hidden');
    expect(await page.getByTestId('unit-current').getAttribute('data-index')).toBe('1');
    expectBlindSoFar();
  });

  it('revises the first decision with R (a new event) and names the judge on request', async () => {
    await page.keyboard.press('p');
    await page.waitForFunction(
      (id) => document.querySelector('[data-testid="review-card"]')?.getAttribute('data-summary') === id,
      first.summaryId,
    );
    // Reopened with a decided sentence: its reveal is asked for (and only now).
    await page.getByTestId('review-reveal-current').waitFor();
    // The page can paint the reveal before this test's response listener has recorded its payload.
    await expect
      .poll(() => payloads.filter((p) => p.method === 'review.reveal').length, { timeout: 30_000 })
      .toBeGreaterThanOrEqual(1);
    expectBlindSoFar();

    const before = recordCount();
    await page.keyboard.press('r');
    await page.getByTestId('review-revise').waitFor();
    await page.keyboard.press('u');
    await waitForRecords(before + 1);
    await page.locator('[data-testid="unit-1"][data-label="unfaithful"]').waitFor();
    await page.getByTestId('review-revise').waitFor({ state: 'detached' });

    await page.getByTestId('review-show-judge-names').check();
    await page
      .locator(`[data-testid="review-reveal-current"] [data-testid="review-judge-label"][data-judge="${BASELINE}"]`)
      .waitFor();
    expectBlindSoFar();
    // The panel's other judge never appeared: it is not in this queue's panel.
    expect(
      payloads.some((p) => (p.method === 'review.record' || p.method === 'review.reveal') && p.body.includes(FINESURE)),
    ).toBe(false);
  });

  it('shows Table 4 and the flips on the Results tab', async () => {
    expect(payloads.some((p) => p.method === 'review.table' || p.method === 'review.corrections')).toBe(false);
    await page.getByTestId('review-tab-results').click();
    const row = page.locator('[data-testid="review-table-row"][data-dataset="frank"]');
    await row.waitFor();
    expect(await row.getByTestId('review-table-pool').innerText()).toBe('4');
    expect(await row.getByTestId('review-table-reviewed').innerText()).toBe('2');
    expect(await row.getByTestId('review-table-u').innerText()).toBe('2');
    expect(await row.getByTestId('review-table-f').innerText()).toBe('0');
    expect(await row.getByTestId('review-table-pct').innerText()).toContain('100.0%');
    expect(
      await page
        .locator('[data-testid="review-error-types"] [data-dataset="frank"] [data-testid="review-error-type-entity"]')
        .innerText(),
    ).toBe('1');
    const flips = page.locator(
      '[data-testid="review-corrections"][data-dataset="frank"] [data-testid="review-flips"] [data-testid="correction-row"]',
    );
    const flipped = await flips.evaluateAll((rows) =>
      rows.map((r) => [
        r.getAttribute('data-summary'),
        r.getAttribute('data-benchmark'),
        r.getAttribute('data-corrected'),
      ]),
    );
    expect(flipped).toEqual(
      expect.arrayContaining([
        [first.summaryId, '1', '0'],
        [second.summaryId, '1', '0'],
      ]),
    );
  });

  it('the CLI export carries the decisions, the revision and the corrected global labels', () => {
    const reviewOut = join(stateDir, 'review.jsonl');
    mustLoupe(['export', '--project', project, '--review', '--out', reviewOut], env);
    const rows = readFileSync(reviewOut, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const mine = rows.filter((r) => r.reviewer === REVIEWER);
    expect(mine.map((r) => [r.summary_id, r.sentence_index, r.queue, r.label, r.error_type])).toEqual(
      expect.arrayContaining([
        [first.summaryId, 1, 'suspicious', 'unfaithful', null],
        [second.summaryId, 0, 'suspicious', 'unfaithful', 'entity'],
      ]),
    );
    expect(mine).toHaveLength(2);
    const revised = mine.find((r) => r.summary_id === first.summaryId)!;
    expect(revised).toMatchObject({ global_label: 1, corrected_global_label: 0, revisions: 1 });
    expect(typeof revised.blind_time_ms).toBe('number');
    expect(mine.find((r) => r.summary_id === second.summaryId)).toMatchObject({
      global_label: 1,
      corrected_global_label: 0,
    });

    const labelsOut = join(stateDir, 'labels.jsonl');
    mustLoupe(['export', '--project', project, '--out', labelsOut], env);
    const labels = readFileSync(labelsOut, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const id of [first.summaryId, second.summaryId]) {
      const summaryRows = labels.filter((r) => r.summary_id === id);
      expect(summaryRows.length).toBeGreaterThan(0);
      expect(new Set(summaryRows.map((r) => `${r.global_label}->${r.corrected_global_label}`))).toEqual(
        new Set(['1->0']),
      );
    }
  });
});
