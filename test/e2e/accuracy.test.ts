/**
 * Claims and key facts end to end in Debian's Chromium against the real `loupe serve`:
 * a project built through the CLI (summaries with benchmark labels, then an accuracy JSON Lines
 * file with claim sets, a key-fact set, a judge's claim and key-fact verdicts and another person's
 * imported labels), sampled for alice. Through alice's annotator link, by keyboard only: T to the
 * claims, F/U (E: an error type)/F on every claim of the first summary, T to the key facts, F with
 * E (a conveying sentence), F, U, U. Then, through the lead's token and the CLI: what claims.load /
 * keyfacts.load return as alice is exactly what was pressed, and `loupe analyze --json` (people's
 * labels) scores that summary with the faithfulness and completeness those labels give. Blindness:
 * no response the page received carries a judge verdict, the benchmark label or bob's labels.
 * Last, the lead link (an annotator picked, the reveal confirmed) runs Analysis and the accuracy
 * table shows the people's faithfulness for the dataset.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClaimAnnotation } from '../../shared/contract/claims';
import type { KeyFactAnnotation } from '../../shared/contract/keyfacts';
import { confirmReveal, labelsStored, launchChromium, pickAnnotator } from '../helpers/browser';
import { mustLoupe, writeJsonl } from '../helpers/project';
import { apiCall, startServe, type ServeProcess } from '../helpers/serve';
import { tempDir } from '../helpers/tmp';

const DATASET = 'card';
const JUDGE = 'judge-secretive';
const JUDGE_RAW = 'judge-raw-answer-text';
const BOB_NOTE = 'bob-private-note';

const DOCUMENT =
  'The city will spend 2 million euros to renovate the central library. Work starts on 1 March 2025 and will last 18 months. ' +
  'During the works, the library moves to a temporary site in the old post office.';
const SUMMARIES = [
  {
    summary_id: 'A',
    summary:
      'The city will spend 2 million euros to renovate the central library. Work starts on 1 March 2025, lasts 18 months, and the library moves to a temporary site meanwhile.',
    label: 1,
  },
  {
    summary_id: 'B',
    summary:
      'The council unanimously approved 2.4 million euros to renovate the central library. Work starts on 1 March 2025.',
    label: 0,
  },
] as const;
const CLAIMS: Record<string, Array<{ sentence_index: number; text: string }>> = {
  A: [
    { sentence_index: 0, text: 'The city will spend 2 million euros.' },
    { sentence_index: 0, text: 'The money is to renovate the central library.' },
    { sentence_index: 1, text: 'Work starts on 1 March 2025.' },
    { sentence_index: 1, text: 'The work lasts 18 months.' },
  ],
  B: [
    { sentence_index: 0, text: 'The council approved the budget unanimously.' },
    { sentence_index: 0, text: 'The budget is 2.4 million euros.' },
    { sentence_index: 1, text: 'Work starts on 1 March 2025.' },
  ],
};
const FACTS = [
  'The budget is 2 million euros.',
  'Work starts on 1 March 2025.',
  'Work lasts 18 months.',
  'The library moves to a temporary site.',
];

/** Keys that would carry a judge output or a benchmark label. */
const FORBIDDEN_KEYS =
  /^(global_?label|globalLabel|judge|judges|prediction|predictions|supported|covered|hard|soft|raw|verdict|panel|meta|corrected_global_label|adjudicated_label)$/;

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

function accuracyRecords(): unknown[] {
  return [
    { type: 'key_facts', dataset: DATASET, doc_id: 'library', facts: FACTS, extractor: 'card' },
    ...SUMMARIES.map((s) => ({
      type: 'claims',
      dataset: DATASET,
      summary_id: s.summary_id,
      decomposer: 'card',
      claims: CLAIMS[s.summary_id],
    })),
    // bob (an imported label set) calls every claim unsupported and every fact not covered: a leak would show.
    ...SUMMARIES.flatMap((s) =>
      CLAIMS[s.summary_id]!.map((_, i) => ({
        type: 'claim_label',
        dataset: DATASET,
        summary_id: s.summary_id,
        claim_index: i,
        annotator: 'bob',
        label: 'unsupported',
        error_type: 'other',
        note: BOB_NOTE,
      })),
    ),
    ...SUMMARIES.flatMap((s) =>
      FACTS.map((_, i) => ({
        type: 'key_fact_label',
        dataset: DATASET,
        summary_id: s.summary_id,
        key_fact_index: i,
        annotator: 'bob',
        label: 'not_covered',
        note: BOB_NOTE,
      })),
    ),
    // A judge's verdicts on every claim and key fact.
    ...SUMMARIES.flatMap((s) =>
      CLAIMS[s.summary_id]!.map((_, i) => ({
        type: 'claim_prediction',
        dataset: DATASET,
        summary_id: s.summary_id,
        claim_index: i,
        judge: JUDGE,
        supported: i % 2,
        raw: JUDGE_RAW,
      })),
    ),
    ...SUMMARIES.flatMap((s) =>
      FACTS.map((_, i) => ({
        type: 'key_fact_prediction',
        dataset: DATASET,
        summary_id: s.summary_id,
        key_fact_index: i,
        judge: JUDGE,
        covered: 1,
        raw: JUDGE_RAW,
      })),
    ),
  ];
}

const dir = tempDir();
const project = join(dir, 'accuracy.loupe');
let browser: Browser;
let serve: ServeProcess;
let page: Page;
const payloads: Array<{ method: string; status: number; body: string }> = [];

/** What the keyboard pass below labels, read back from the page as it goes. */
let summaryId = '';
let summaryKey = 0;
let claimCount = 0;

beforeAll(async () => {
  const summaries = SUMMARIES.map((s) => ({
    dataset: DATASET,
    doc_id: 'library',
    document: DOCUMENT,
    summary_id: s.summary_id,
    summary: s.summary,
    label: s.label,
  }));
  mustLoupe(['import', writeJsonl(join(dir, 'summaries.jsonl'), summaries), '--project', project]);
  mustLoupe([
    'import',
    writeJsonl(join(dir, 'accuracy.jsonl'), accuracyRecords()),
    '--project',
    project,
    '--as',
    'accuracy',
  ]);
  mustLoupe(['sample', '--project', project, '--dataset', DATASET, '--n', '2', '--seed', '0']);

  serve = await startServe(['--project', project, '--annotator', 'alice'], { LOUPE_STATE_DIR: dir });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('response', async (response) => {
    const url = new URL(response.url());
    // Calls only: the change-event stream is no call's answer (the unit tier checks what it carries).
    if (!url.pathname.startsWith('/api/') || url.pathname === '/api/events') return;
    payloads.push({
      method: url.pathname.slice(5),
      status: response.status(),
      body: await response.text().catch(() => ''),
    });
  });
  await page.goto(serve.url);
  await page.getByTestId('unit-current').waitFor({ timeout: 30_000 });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
});

/**
 * Waits until no claim or key-fact write is in flight: the pane's "saving" status gone (as for
 * sentences) and no row marked saving. Called after waiting for the painted label.
 */
async function itemsStored(): Promise<void> {
  await labelsStored(page);
  await page.waitForFunction(() => document.querySelector('[data-write="saving"]') === null, undefined, {
    timeout: 15_000,
  });
}

describe('claims and key facts through alice’s annotator link', () => {
  it('T reaches the claims of the first summary, blind (no label shown, bob’s included)', async () => {
    summaryId = (await page.locator('.summary-pane .pane-title code').innerText()).trim();
    expect(['A', 'B']).toContain(summaryId);
    await page.keyboard.press('t');
    await page.locator('[data-testid="unit-mode"][data-mode="claims"]').waitFor();
    await page.getByTestId('claims-pane').waitFor({ timeout: 15_000 });
    const rows = page.locator('li.claim-row');
    claimCount = await rows.count();
    expect(claimCount).toBe(CLAIMS[summaryId]!.length);
    for (let i = 0; i < claimCount; i += 1) expect(await rows.nth(i).getAttribute('data-label')).toBe('');
  });

  it('labels every claim by keyboard: F, U with an error type (E then 4), F for the rest', async () => {
    const rows = page.locator('li.claim-row');
    await page.keyboard.press('f');
    await page.locator('li.claim-row').nth(0).and(page.locator('[data-label="supported"]')).waitFor();
    await page.keyboard.press('u');
    await rows.nth(1).and(page.locator('[data-label="unsupported"]')).waitFor();
    await page.keyboard.press('e');
    await page.getByTestId('claim-error-type-picker').waitFor();
    await page.keyboard.press('4');
    await page.getByTestId('claim-error-type-picker').waitFor({ state: 'detached' });
    await rows.nth(1).locator('.tag-error').waitFor();
    for (let i = 2; i < claimCount; i += 1) {
      await page.keyboard.press('f');
      await rows.nth(i).and(page.locator('[data-label="supported"]')).waitFor();
    }
    await itemsStored();
    expect(await rows.nth(1).locator('.tag-error').innerText()).toMatch(/not in|source|extrinsic|invented/i);
  });

  it('T reaches the key facts: F then E with sentence 1, F, U, U', async () => {
    await page.keyboard.press('t');
    await page.locator('[data-testid="unit-mode"][data-mode="keyfacts"]').waitFor();
    await page.getByTestId('keyfacts-pane').waitFor({ timeout: 15_000 });
    expect(await page.locator('li.fact-row').count()).toBe(FACTS.length);
    const fact = (i: number) => page.getByTestId(`fact-${i}`);
    await page.keyboard.press('f');
    await fact(0).and(page.locator('[data-label="covered"]')).waitFor();
    await page.keyboard.press('e');
    await page.getByTestId('conveyed-by-picker').waitFor();
    await page.keyboard.press('1');
    await page.locator('[data-testid="convey-sentence-1"] input:checked').waitFor();
    await page.keyboard.press('Enter');
    await page.getByTestId('conveyed-by-picker').waitFor({ state: 'detached' });
    await page.getByTestId('fact-conveyed-0').waitFor();
    expect(await page.getByTestId('fact-conveyed-0').innerText()).toContain('sentence 1');
    await page.keyboard.press('f');
    await fact(1).and(page.locator('[data-label="covered"]')).waitFor();
    await page.keyboard.press('u');
    await fact(2).and(page.locator('[data-label="not_covered"]')).waitFor();
    await page.keyboard.press('u');
    await fact(3).and(page.locator('[data-label="not_covered"]')).waitFor();
    await itemsStored();
  });

  it('stores exactly what was pressed, as alice (claims.load / keyfacts.load through the lead token)', async () => {
    const queue = await apiCall<{ items: Array<{ key: number; summaryId: string }> }>(
      serve,
      'annotation.queue',
      { annotator: 'alice' },
      serve.lead.token,
    );
    summaryKey = queue.items.find((i) => i.summaryId === summaryId)!.key;
    const claims = await apiCall<ClaimAnnotation>(
      serve,
      'claims.load',
      { key: summaryKey, annotator: 'alice' },
      serve.lead.token,
    );
    const states = claims.sentences.flatMap((s) => s.claims.map((c) => ({ text: c.text, ...c.state })));
    expect(states).toEqual(
      CLAIMS[summaryId]!.map((c, i) => ({
        text: c.text,
        label: i === 1 ? 'unsupported' : 'supported',
        errorType: i === 1 ? 'not_in_source' : null,
        note: null,
      })),
    );
    const facts = await apiCall<KeyFactAnnotation>(
      serve,
      'keyfacts.load',
      { key: summaryKey, annotator: 'alice' },
      serve.lead.token,
    );
    const firstSentence = facts.sentences.find((s) => s.index === 0)!.unitId;
    expect(facts.facts.map((f) => ({ text: f.text, ...f.state }))).toEqual([
      { text: FACTS[0], label: 'covered', conveyedBy: { claims: [], sentences: [firstSentence] }, note: null },
      { text: FACTS[1], label: 'covered', conveyedBy: { claims: [], sentences: [] }, note: null },
      { text: FACTS[2], label: 'not_covered', conveyedBy: { claims: [], sentences: [] }, note: null },
      { text: FACTS[3], label: 'not_covered', conveyedBy: { claims: [], sentences: [] }, note: null },
    ]);
  });

  it('`loupe analyze --json` (people’s labels) scores the summary as labeled: faithfulness (n−1)/n, completeness 2/4', () => {
    const report = JSON.parse(
      mustLoupe(['analyze', '--project', project, '--json', '--reference', 'people', '--bootstrap', '0'], {
        LOUPE_STATE_DIR: dir,
      }),
    ) as {
      datasets: Array<{
        dataset: string;
        accuracy?: {
          sources: Record<
            string,
            {
              n_summaries: number;
              faithfulness: { value: number | null } | null;
              per_summary: Array<{ summary_id: string; faithfulness: number | null; completeness: number | null }>;
            }
          >;
        };
      }>;
    };
    const dataset = report.datasets.find((d) => d.dataset === DATASET)!;
    const human = dataset.accuracy!.sources.human!;
    const rows = new Map(human.per_summary.map((r) => [r.summary_id, r]));
    expect(rows.get(summaryId)).toMatchObject({ faithfulness: (claimCount - 1) / claimCount, completeness: 2 / 4 });
    // Only alice is a person here (bob is an imported set, left out by --reference people): the other summary has no figures.
    const other = SUMMARIES.find((s) => s.summary_id !== summaryId)!.summary_id;
    expect(rows.get(other)).toMatchObject({ faithfulness: null, completeness: null });
    expect(human.n_summaries).toBe(1);
    expect(human.faithfulness?.value).toBe((claimCount - 1) / claimCount);
  });

  it('the secrets are in the project, so the blindness check below can fail: bob’s labels, the judge’s verdicts, the benchmark labels', async () => {
    // bob is an imported label set (read-only: nobody annotates as bob); the accuracy export holds his labels and the judge's verdicts.
    const accuracy = await apiCall<{ content: string }>(
      serve,
      'export.build',
      { format: 'jsonl', accuracy: true },
      serve.lead.token,
    );
    const records = accuracy.content
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(
      records.filter(
        (r) =>
          r.type === 'claim_label' &&
          r.annotator === 'bob' &&
          r.label === 'unsupported' &&
          r.error_type === 'other' &&
          r.summary_id === summaryId,
      ),
    ).toHaveLength(claimCount);
    expect(
      records.filter((r) => r.type === 'claim_prediction' && r.judge === JUDGE && r.summary_id === summaryId),
    ).toHaveLength(claimCount);
    const report = JSON.parse(
      mustLoupe(['analyze', '--project', project, '--json', '--bootstrap', '0'], { LOUPE_STATE_DIR: dir }),
    ) as {
      datasets: Array<{ dataset: string; accuracy?: { sources: Record<string, unknown> } }>;
    };
    expect(Object.keys(report.datasets.find((d) => d.dataset === DATASET)!.accuracy!.sources)).toContain(JUDGE);
    const exported = await apiCall<{ content: string }>(serve, 'export.build', { format: 'jsonl' }, serve.lead.token);
    const sentenceRows = exported.content
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((r) => r.summary_id === summaryId);
    expect(sentenceRows.length).toBeGreaterThan(0);
    expect(sentenceRows.every((r) => r.global_label === SUMMARIES.find((x) => x.summary_id === summaryId)!.label)).toBe(
      true,
    );
  });

  it('no payload the page received carries a judge verdict, a benchmark label or bob’s labels', () => {
    expect(payloads.some((p) => p.method === 'claims.load' && p.status === 200)).toBe(true);
    expect(payloads.some((p) => p.method === 'keyfacts.load' && p.status === 200)).toBe(true);
    expect(payloads.filter((p) => p.method === 'claims.record' && p.status === 200).length).toBeGreaterThanOrEqual(
      claimCount,
    );
    expect(payloads.filter((p) => p.method === 'keyfacts.record' && p.status === 200).length).toBeGreaterThanOrEqual(
      FACTS.length,
    );
    for (const p of payloads) {
      if (p.body === '') continue;
      expect(forbiddenKeys(JSON.parse(p.body) as unknown), `${p.method}: ${p.body.slice(0, 200)}`).toEqual([]);
      for (const secret of [JUDGE, JUDGE_RAW, BOB_NOTE, '"bob"', '"other"'])
        expect(p.body, `${p.method} carries ${secret}`).not.toContain(secret);
    }
    // bob's "not_covered" on every fact of this summary would show in keyfacts.load: alice's own are only on facts 2 and 3.
    const loads = payloads
      .filter((p) => p.method === 'keyfacts.load')
      .map((p) => JSON.parse(p.body) as { value: KeyFactAnnotation });
    for (const load of loads)
      expect(load.value.facts.filter((f) => f.state.label === 'not_covered').every((f) => f.index >= 2)).toBe(true);
  });
});

describe('the lead’s Analysis', () => {
  it('runs the analysis and the accuracy table shows the people’s faithfulness for the dataset', async () => {
    const lead = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await lead.goto(serve.lead.url);
    await pickAnnotator(lead, 'lead', 'typed');
    await lead.getByTestId('nav-analysis').click();
    await confirmReveal(lead);
    await lead.getByTestId('analysis-settings').waitFor({ timeout: 30_000 });
    await lead.getByTestId('analysis-reference').selectOption('people');
    await lead.getByTestId('analysis-run').click();
    const people = lead.locator('[data-testid="accuracy-source"][data-source="human"]');
    await people.waitFor({ timeout: 60_000 });
    const all = people.locator('[data-testid="accuracy-row"][data-system="All systems"]');
    const faithfulness = await all.getByTestId('accuracy-faithfulness').innerText();
    expect(faithfulness).toContain(((claimCount - 1) / claimCount).toFixed(3));
    expect(await all.getByTestId('accuracy-completeness').innerText()).toContain((0.5).toFixed(3));
    await lead.close();
  });
});

describe('W edits a set through the annotator link: a proposal, made the next version only by the lead', () => {
  it('W on the claims opens the editor; dropping the last claim is a pending proposal (still version 1) until the lead accepts it as version 2, unlabeled', async () => {
    // alice's page is on the key facts: T three times goes round (scaffold, sentences) to the claims.
    await page.keyboard.press('t');
    await page.locator('[data-testid="unit-mode"][data-mode="scaffold"]').waitFor();
    await page.keyboard.press('t');
    await page.locator('[data-testid="unit-mode"][data-mode="sentences"]').waitFor();
    await page.keyboard.press('t');
    await page.getByTestId('claims-pane').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('claims-pane').getAttribute('data-version')).toBe('1');
    await page.keyboard.press('w');
    await page.getByTestId('set-editor').waitFor();
    expect(await page.getByTestId('set-editor-item').count()).toBe(claimCount);
    await page.getByTestId('set-editor-drop').last().click();
    await page.getByTestId('set-editor-save').click();
    await page.getByTestId('set-editor').waitFor({ state: 'detached' });
    const pending = page.getByTestId('claims-proposed');
    await pending.waitFor({ timeout: 15_000 });
    expect(await pending.innerText()).toContain('You keep labeling version 1.');
    expect(await page.getByTestId('claims-pane').getAttribute('data-version')).toBe('1');
    expect(
      (await apiCall<ClaimAnnotation>(serve, 'claims.load', { key: summaryKey, annotator: 'alice' }, serve.lead.token))
        .version,
    ).toBe(1);

    const id = Number(await pending.getAttribute('data-proposal'));
    expect(await apiCall(serve, 'proposals.accept', { id }, serve.lead.token)).toMatchObject({
      status: 'accepted',
      resultVersion: 2,
    });
    const claims = await apiCall<ClaimAnnotation>(
      serve,
      'claims.load',
      { key: summaryKey, annotator: 'alice' },
      serve.lead.token,
    );
    expect(claims.version).toBe(2);
    expect(claims.sentences.flatMap((s) => s.claims.map((c) => c.state.label))).toEqual(
      CLAIMS[summaryId]!.slice(0, -1).map(() => null),
    );
    expect(claims.sentences.flatMap((s) => s.claims.map((c) => c.text))).toEqual(
      CLAIMS[summaryId]!.slice(0, -1).map((c) => c.text),
    );
  });
});
