// @vitest-environment happy-dom
/**
 * The Review view on the real core (summaries with their benchmark labels, judges' predictions and
 * an imported label set, seeded through imports; the suspicious queue is the core's): blind until
 * the decision is stored (no reveal call, no judge, annotator or global label in the DOM before),
 * the reveal after, R revising as a second record, context sentences never decidable, filters
 * passed through, the fast-decision flag, Table 4 and the corrections on their own tab, durability
 * (a failing write through the transport), undo, the Analysis link, and markup as text.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from '../../../renderer/App';
import { deferred, resetRendererState } from '../../../renderer/testing/transport';
import { openReviewAt, resetReview, useReview } from '../../../renderer/state/review';
import { showView } from '../../../renderer/state/session';
import type { UnitLabelState } from '../../../shared/api';
import type { HumanLabel } from '../../../shared/domain';
import {
  changeEvent,
  createRendererCore,
  type RendererCore,
  type RendererCoreOptions,
  type SummarySeed,
} from '../../helpers/renderer-core';

// ───────────────────────────── the seeded project ─────────────────────────────

const HOSTILE = '<img src=x onerror="window.pwned=1">';
const DOC_A =
  'The council met on Tuesday to discuss the new bridge.\n\nMayor Alice Brown said construction would start in March. ' +
  'The bridge will cost 40 million dollars.\n\nResidents raised concerns about traffic.';
const DOC_B = `Heavy rain flooded the northern valley overnight. ${HOSTILE} Two villages were evacuated by the fire brigade.`;
const DOC_X = 'The festival drew 4,000 visitors on Saturday.';

const QWEN = 'qwen-8b';
const EVIL_JUDGE = `judge${HOSTILE}`;

/**
 * cnn: s-bridge (benchmark faithful; both judges flag sentences 1 and 2, so those are marked, 0 is
 * context) with frank-0's labels, and s-rain (both flag sentence 1). xsum: one summary qwen calls
 * faithful. The reviewer "ann" labeled every sentence faithful (her annotation is finished: the
 * reveal gate does not ask, tested in renderer-reveal).
 */
const SEEDS: SummarySeed[] = [
  {
    dataset: 'cnn',
    summaryId: 's-bridge',
    docId: 'd1',
    document: DOC_A,
    sentences: [
      'The council discussed a new bridge.',
      'Construction starts in March, the mayor said.',
      'It costs 90 million dollars.',
    ],
  },
  {
    dataset: 'cnn',
    summaryId: 's-rain',
    docId: 'd2',
    document: DOC_B,
    sentences: ['Rain flooded a valley overnight.', `Villages were evacuated by the army ${HOSTILE}.`],
  },
  {
    dataset: 'xsum',
    summaryId: 'x-festival',
    docId: 'x1',
    document: DOC_X,
    sentences: ['The festival drew 5,000 visitors on Saturday.'],
  },
].map((s): SummarySeed => ({ ...s, label: 1, labels: s.sentences.map(() => 'faithful' as const) }));

const OPTIONS: RendererCoreOptions = {
  predictions: {
    [QWEN]: { 1: [1, 0, 0], 2: [1, 0], 3: [1] },
    [EVIL_JUDGE]: { 1: [1, 0, 0], 2: [1, 0], 3: [0] },
  },
  labelSets: { 'frank-0': { 1: ['faithful', 'faithful', 'unfaithful'] } },
};

// ───────────────────────────── helpers ─────────────────────────────

let core: RendererCore;

const unitId = (key: number, index: number) => core.summaries[key - 1]!.units[index]!.id;

/** The reviewer's stored decision on a sentence, as the card reads it back. */
async function decisionOf(key: number, index: number): Promise<UnitLabelState> {
  const card = await core.lead('review.card', { key, queue: 'suspicious', reviewer: 'ann' });
  return card.units[index]!.decision;
}

/** A decision the reviewer stored earlier, with its blind time. */
async function decided(key: number, index: number, label: HumanLabel, ms: number): Promise<void> {
  await core.lead('review.record', {
    unitId: unitId(key, index),
    queue: 'suspicious',
    reviewer: 'ann',
    state: { label, errorType: null, note: null },
    timeSpentMs: ms,
    cause: 'label',
  });
}

async function start(): Promise<void> {
  core = await createRendererCore(SEEDS, {}, OPTIONS);
  // s-rain's flagged sentence was decided before, in 900 ms (implausibly fast).
  await decided(2, 1, 'unfaithful', 900);
  render(<App bridge={core.bridge} />);
  await screen.findByTestId('unit-current'); // Annotate, the first view
  press('v');
  // The view is its own chunk: its first import in a file (a module transform) can take seconds on a loaded machine.
  await screen.findByTestId('review-card', {}, { timeout: 30_000 });
  await waitFor(() => expect(screen.getByTestId('unit-current')).toBeTruthy());
}

function press(key: string, init: Partial<KeyboardEventInit> = {}, target: Element | Window = document.body) {
  fireEvent.keyDown(target, { key, ...init });
}

const currentIndex = () => screen.getByTestId('unit-current').getAttribute('data-index');
const records = () => core.callsTo('review.record');
const reveals = () => core.callsTo('review.reveal');
/** The card, the queue and the document (the filters list judges by name: names are not labels). */
const bodyText = () => document.querySelector('.review-body')?.textContent ?? '';
/** Anything a reveal could put on screen. */
const REVEALED = [QWEN, 'Judge A', 'Judge B', 'frank-0', 'Annotator 1', 'Global label (benchmark)', 'faithful (1)'];

beforeEach(() => {
  resetRendererState();
  resetReview();
});
afterEach(() => cleanup());

// ───────────────────────────── tests ─────────────────────────────

describe('opening the view', () => {
  it('V and the nav entry open it on the suspicious queue of the first dataset, at the first undecided marked sentence', async () => {
    await start();
    expect(screen.getByTestId('nav-review').textContent).toContain('V');
    expect(core.callsTo('review.queue')[0]).toMatchObject({
      queue: 'suspicious',
      dataset: 'cnn',
      cap: 25,
      reviewer: 'ann',
    });
    expect(core.callsTo('review.queue')[0]).not.toHaveProperty('judges');
    expect(core.callsTo('review.card')[0]).toEqual({ key: 1, queue: 'suspicious', reviewer: 'ann' });
    expect(currentIndex()).toBe('1');
    const counts = screen.getByTestId('review-counts');
    expect([
      counts.dataset.pool,
      counts.dataset.listed,
      counts.dataset.reviewed,
      counts.dataset.decided,
      counts.dataset.marked,
    ]).toEqual(['2', '2', '1', '1', '3']);
    expect(counts.textContent).toContain('Pool 2');
    expect(screen.getByTestId('key-legend').textContent).toContain('revise the decision');
  });
});

describe('blindness', () => {
  it('shows no judge, annotator or global label and asks for no reveal until the decision is stored; then reveals it beside the decision', async () => {
    await start();
    expect(reveals()).toHaveLength(0);
    for (const text of REVEALED) expect(bodyText()).not.toContain(text);
    expect(screen.getByTestId('review-global-label').dataset.state).toBe('hidden');
    expect(screen.getByTestId('review-blind')).toBeTruthy();

    const gate = deferred();
    const stored = core.base('review.record');
    core.override('review.record', async (input) => {
      await gate.promise;
      return stored(input);
    });

    press('u');
    await waitFor(() => expect(records()).toHaveLength(1));
    expect(records()[0]).toMatchObject({
      unitId: unitId(1, 1),
      queue: 'suspicious',
      reviewer: 'ann',
      state: { label: 'unfaithful', errorType: null, note: null },
      cause: 'label',
      anonymizeJudges: true,
      anonymizeAnnotators: true,
    });
    expect(typeof records()[0]!.timeSpentMs).toBe('number');
    // In flight: nothing stored yet, so nothing revealed, nothing asked for, nothing moved.
    expect(reveals()).toHaveLength(0);
    for (const text of REVEALED) expect(bodyText()).not.toContain(text);
    expect(currentIndex()).toBe('1');
    expect(screen.getByTestId('review-saving')).toBeTruthy();
    expect(core.callsTo('review.table')).toHaveLength(0);
    expect(core.callsTo('review.corrections')).toHaveLength(0);

    await act(async () => gate.resolve());
    // Stored: the cursor moves to the next undecided marked sentence; sentence 1's row shows the reveal.
    await waitFor(() => expect(currentIndex()).toBe('2'));
    const row = within(screen.getByTestId('unit-1')).getByTestId('review-reveal-1');
    expect(
      within(row)
        .getAllByTestId('review-judge-label')
        .map((j) => [j.dataset.judge, j.dataset.label]),
    ).toEqual([
      ['Judge A', 'unfaithful'],
      ['Judge B', 'unfaithful'],
    ]);
    expect(within(row).getByTestId('review-annotator-label').dataset.annotator).toBe('Annotator 1');
    expect(bodyText()).not.toContain(QWEN);
    // The global label is summary-wide: still hidden while sentence 2 is undecided.
    expect(screen.getByTestId('review-global-label').dataset.state).toBe('hidden');

    press('f');
    await waitFor(() => expect(records()).toHaveLength(2));
    await waitFor(() => expect(screen.getByTestId('review-global-label').dataset.state).toBe('1'));
    expect(screen.getByTestId('review-global-label').textContent).toContain('faithful (1)');
    // The current sentence (the last one decided) shows its reveal under it.
    expect(screen.getByTestId('review-reveal-current').dataset.index).toBe('2');
    expect(screen.getByTestId('review-decided').textContent).toContain('R');
    // Everything came from the record answers: no reveal call was needed.
    expect(reveals()).toHaveLength(0);
  });

  it('names the judges and annotators when asked, through the backend flag', async () => {
    await start();
    press('c');
    await waitFor(() => expect(screen.getByTestId('review-reveal-1')).toBeTruthy());
    fireEvent.click(screen.getByTestId('review-show-judge-names'));
    await waitFor(() => expect(reveals()).toHaveLength(1));
    expect(reveals()[0]).toMatchObject({
      key: 1,
      queue: 'suspicious',
      reviewer: 'ann',
      anonymizeJudges: false,
      anonymizeAnnotators: true,
    });
    const row = await screen.findByTestId('review-reveal-1');
    await waitFor(() => expect(within(row).getAllByTestId('review-judge-label')[0]!.dataset.judge).toBe(QWEN));
    // Markup in a judge's name is text.
    expect(within(row).getAllByTestId('review-judge-label')[1]!.textContent).toContain(HOSTILE);
    expect(document.querySelector('img')).toBeNull();
    fireEvent.click(screen.getByTestId('review-show-annotator-names'));
    await waitFor(() =>
      expect(
        within(screen.getByTestId('review-reveal-1')).getByTestId('review-annotator-label').dataset.annotator,
      ).toBe('frank-0'),
    );
    // Later records ask for names too.
    press('f');
    await waitFor(() => expect(records()).toHaveLength(2));
    expect(records()[1]).toMatchObject({ anonymizeJudges: false, anonymizeAnnotators: false });
  });

  it('a card reopened with decided sentences asks reveal for them (after the card), and shows the fast flag', async () => {
    await start();
    press('Enter');
    await waitFor(() => expect(screen.getByTestId('review-card').dataset.summary).toBe('s-rain'));
    await waitFor(() => expect(reveals()).toHaveLength(1));
    expect(reveals()[0]).toMatchObject({ key: 2, queue: 'suspicious', reviewer: 'ann', anonymizeJudges: true });
    const cardCall = core.calls.findIndex((c) => c.method === 'review.card' && (c.input as { key: number }).key === 2);
    const revealCall = core.calls.findIndex((c) => c.method === 'review.reveal');
    expect(revealCall).toBeGreaterThan(cardCall);
    await screen.findByTestId('review-reveal-current');
    expect(screen.getByTestId('review-global-label').dataset.state).toBe('1');
  });
});

describe('fast decisions', () => {
  it('flags decisions taken in < 2 s in the queue list, the counts and beside the sentence', async () => {
    await start();
    const item = screen.getByTestId('review-queue-item-2');
    expect(item.dataset.fast).toBe('1');
    expect(within(item).getByTestId('review-fast-flag').textContent).toContain('< 2 s');
    expect(within(item).getByTestId('review-fast-flag').getAttribute('title')).toMatch(/implausibly fast/);
    expect(screen.getByTestId('review-counts').dataset.fast).toBe('1');
    expect(screen.getByTestId('review-counts').textContent).toContain('decided in < 2 s');
    fireEvent.click(item);
    await waitFor(() => expect(screen.getByTestId('review-card').dataset.summary).toBe('s-rain'));
    expect(within(screen.getByTestId('unit-1')).getByTestId('review-fast-sentence').textContent).toContain(
      'decided in < 2 s',
    );
  });

  it('a quick blind decision is flagged at once in the list', async () => {
    await start();
    press('f');
    await waitFor(() => expect(records()).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId('review-queue-item-1').dataset.fast).toBe('1'));
  });
});

describe('revising', () => {
  it('R opens the F/U/C choice again; the revision is a second record of the sentence; F on a decided sentence records nothing', async () => {
    await start();
    press('f');
    await waitFor(() => expect(currentIndex()).toBe('2'));
    press('k');
    await waitFor(() => expect(currentIndex()).toBe('1'));
    press('u');
    await screen.findByTestId('review-notice');
    expect(records()).toHaveLength(1);

    press('r');
    const prompt = await screen.findByTestId('review-revise');
    expect(prompt.textContent).toContain('Construction starts in March');
    // While the choice is open, the card's keys do nothing else.
    press('j');
    expect(currentIndex()).toBe('1');
    press('u');
    await waitFor(() => expect(records()).toHaveLength(2));
    expect(records()[1]).toMatchObject({ unitId: unitId(1, 1), state: { label: 'unfaithful' }, cause: 'label' });
    expect(records().map((r) => r.unitId)).toEqual([unitId(1, 1), unitId(1, 1)]);
    await waitFor(() => expect(screen.queryByTestId('review-revise')).toBeNull());
    expect(screen.getByTestId('unit-1').getAttribute('data-label')).toBe('unfaithful');
    expect(currentIndex()).toBe('1');
    expect((await decisionOf(1, 1)).label).toBe('unfaithful');

    // Esc keeps the decision.
    press('r');
    await screen.findByTestId('review-revise');
    press('Escape');
    await waitFor(() => expect(screen.queryByTestId('review-revise')).toBeNull());
    expect(records()).toHaveLength(2);
  });

  it('E after U sets the error type of the sentence just decided', async () => {
    await start();
    press('u');
    press('e');
    const picker = await screen.findByTestId('error-type-picker');
    expect(picker.textContent).toContain('Construction starts');
    press('1');
    await waitFor(() => expect(records()).toHaveLength(2));
    expect(records()[1]).toMatchObject({
      unitId: unitId(1, 1),
      state: { label: 'unfaithful', errorType: 'entity' },
      cause: 'error_type',
      timeSpentMs: null,
    });
    await screen.findByTestId('error-type-1');
  });
});

describe('context sentences', () => {
  it('are dimmed and never decided: J/K and clicks skip them, F acts only on marked sentences', async () => {
    await start();
    const context = screen.getByTestId('unit-0');
    expect(context.dataset.context).toBe('true');
    expect(context.getAttribute('aria-disabled')).toBe('true');
    expect(context.className).toContain('is-context');
    expect(screen.getByTestId('unit-1').dataset.context).toBeUndefined();
    // Clicks and keys act synchronously: the cursor would have moved by now.
    fireEvent.click(context);
    press('k');
    expect(currentIndex()).toBe('1');
    press('j');
    await waitFor(() => expect(currentIndex()).toBe('2'));
    press('j');
    press('f');
    press('k');
    press('f');
    press('k');
    press('c');
    await waitFor(() => expect(records()).toHaveLength(2));
    // Every write settled (nothing saving): no third record is on its way.
    await waitFor(() => expect(screen.queryByTestId('review-saving')).toBeNull());
    expect(records().map((r) => r.unitId)).toEqual([unitId(1, 2), unitId(1, 1)]);
    expect((await decisionOf(1, 0)).label).toBeNull();
  });
});

describe('durability', () => {
  it('a failed write shows the error, moves nothing and reveals nothing', async () => {
    await start();
    core.override('review.record', async () => {
      throw new Error('disk full');
    });
    press('u');
    press('f'); // queued behind the failing write: dropped
    const banner = await screen.findByTestId('error-banner');
    expect(banner.textContent).toContain('disk full');
    // The failed write settled (nothing saving): the queued F was dropped, not sent.
    await waitFor(() => expect(screen.queryByTestId('review-saving')).toBeNull());
    expect(records()).toHaveLength(1);
    expect(currentIndex()).toBe('1');
    expect(screen.getByTestId('unit-1').getAttribute('data-label')).toBe('');
    for (const text of REVEALED) expect(bodyText()).not.toContain(text);
  });

  it('Ctrl+Z undoes a decision as a new event and hides its reveal again; Ctrl+Y redoes it', async () => {
    await start();
    press('f');
    await waitFor(() => expect(screen.getByTestId('review-reveal-1')).toBeTruthy());
    press('z', { ctrlKey: true });
    await waitFor(() => expect(records()).toHaveLength(2));
    expect(records()[1]).toMatchObject({
      unitId: unitId(1, 1),
      state: { label: null },
      cause: 'undo',
      timeSpentMs: null,
    });
    await waitFor(() => expect(screen.queryByTestId('review-reveal-1')).toBeNull());
    expect(currentIndex()).toBe('1');
    press('y', { ctrlKey: true });
    await waitFor(() => expect(records()).toHaveLength(3));
    expect(records()[2]).toMatchObject({ unitId: unitId(1, 1), state: { label: 'faithful' }, cause: 'redo' });
    await screen.findByTestId('review-reveal-1');
  });
});

describe('filters', () => {
  it('list a judge added elsewhere (another tab, the CLI) once its change event arrives, without a reload', async () => {
    await start();
    const names = () => (screen.getAllByTestId('review-filter-judge') as HTMLInputElement[]).map((b) => b.value);
    // In the order judges.list gives them (by name).
    expect(names()).toEqual([EVIL_JUDGE, QWEN]);
    // Predictions of another judge imported elsewhere, then the event the bus sends.
    await core.upload(
      'more-predictions.jsonl',
      [{ dataset: 'cnn', summary_id: 's-bridge', sentence_index: 0, judge: 'added-later', hard: 1 }],
      'predictions',
    );
    act(() => core.change(changeEvent({ namespace: 'judges', what: 'judges.add' })));
    await waitFor(() => expect(names()).toEqual(['added-later', EVIL_JUDGE, QWEN]));
    // A run ending adds no judge: nothing is fetched for it.
    const lists = core.callsTo('judges.list').length;
    act(() => core.change(changeEvent({ namespace: 'judges', what: 'judges.run' })));
    expect(core.callsTo('judges.list')).toHaveLength(lists);
  });

  it('pass queue, dataset, judge panel, error type and cap to review.queue, and the panel to card and record', async () => {
    await start();
    // ann revises her label of the xsum summary: unfaithful, a number; qwen called it faithful (human-judge marks it).
    await core.lead('annotation.record', {
      unitId: unitId(3, 0),
      annotator: 'ann',
      state: { label: 'unfaithful', errorType: 'number_or_date', note: null },
      timeSpentMs: 4200,
      cause: 'label',
    });
    const last = () => core.callsTo('review.queue').at(-1)!;
    fireEvent.change(screen.getByTestId('review-filter-queue'), { target: { value: 'human-judge' } });
    await waitFor(() => expect(last().queue).toBe('human-judge'));
    fireEvent.change(screen.getByTestId('review-filter-dataset'), { target: { value: 'xsum' } });
    await waitFor(() => expect(last()).toMatchObject({ queue: 'human-judge', dataset: 'xsum' }));
    const boxes = screen.getAllByTestId('review-filter-judge') as HTMLInputElement[];
    expect(boxes.map((b) => [b.value, b.checked])).toEqual([
      [EVIL_JUDGE, true],
      [QWEN, true],
    ]);
    fireEvent.click(boxes[0]!);
    await waitFor(() => expect(last().judges).toEqual([QWEN]));
    fireEvent.change(screen.getByTestId('review-filter-error-type'), { target: { value: 'number_or_date' } });
    await waitFor(() => expect(last()).toMatchObject({ errorType: 'number_or_date', judges: [QWEN] }));
    const cap = screen.getByTestId('review-filter-cap');
    fireEvent.change(cap, { target: { value: '1' } });
    fireEvent.keyDown(cap, { key: 'Enter' });
    await waitFor(() =>
      expect(last()).toMatchObject({
        queue: 'human-judge',
        dataset: 'xsum',
        judges: [QWEN],
        errorType: 'number_or_date',
        cap: 1,
        reviewer: 'ann',
      }),
    );
    await waitFor(() => expect(screen.getByTestId('review-counts').dataset.listed).toBe('1'));
    await waitFor(() =>
      expect(core.callsTo('review.card').at(-1)).toEqual({
        key: 3,
        queue: 'human-judge',
        reviewer: 'ann',
        judges: [QWEN],
      }),
    );
    press('f');
    await waitFor(() => expect(records()).toHaveLength(1));
    expect(records()[0]).toMatchObject({ queue: 'human-judge', judges: [QWEN] });
    // Ticking every judge again goes back to the backend's default panel (no judges field).
    fireEvent.click((screen.getAllByTestId('review-filter-judge') as HTMLInputElement[])[0]!);
    await waitFor(() => expect(last()).not.toHaveProperty('judges'));
  });

  it('says why a queue is empty', async () => {
    // A summary its one judge calls faithful: nothing is suspicious.
    core = await createRendererCore(
      [{ dataset: 'cnn', document: DOC_X, sentences: ['A festival took place.'], labels: ['faithful'], label: 1 }],
      {},
      { predictions: { [QWEN]: { 1: [1] } } },
    );
    render(<App bridge={core.bridge} />);
    await screen.findByTestId('unit-current');
    press('v');
    const empty = await screen.findByTestId('review-empty', {}, { timeout: 30_000 });
    expect(within(empty).getByTestId('review-empty-why').textContent).toMatch(/missing prediction is not a flag/);
    expect(within(empty).getByTestId('review-counts').dataset.pool).toBe('0');
  });
});

describe('results', () => {
  it('Table 4 and the corrections load only on their tab, with every column', async () => {
    await start();
    // Decided elsewhere before: s-bridge's sentence 1 unfaithful (an entity), sentence 2 faithful.
    for (const [index, state] of [
      [1, { label: 'unfaithful', errorType: 'entity', note: null }],
      [2, { label: 'faithful', errorType: null, note: null }],
    ] as const)
      await core.lead('review.record', {
        unitId: unitId(1, index),
        queue: 'suspicious',
        reviewer: 'ann',
        state,
        timeSpentMs: 5000,
        cause: 'label',
      });
    expect(core.callsTo('review.table')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('review-tab-results'));
    const table = await screen.findByTestId('review-table-4');
    expect(core.callsTo('review.table')[0]).toEqual({ cap: 25 });
    expect(core.callsTo('review.corrections')[0]).toEqual({});
    const rows = within(table).getAllByTestId('review-table-row');
    expect(rows.map((r) => r.dataset.dataset)).toEqual(['cnn', 'xsum']);
    const row = rows[0]!;
    expect(within(row).getByTestId('review-table-pool').textContent).toBe('2');
    expect(within(row).getByTestId('review-table-reviewed').textContent).toBe('2');
    expect(within(row).getByTestId('review-table-u').textContent).toBe('2');
    expect(within(row).getByTestId('review-table-f').textContent).toBe('1');
    expect(within(row).getByTestId('review-table-pct').textContent).toContain('66.7%');
    expect(row.textContent).toContain('1'); // fast
    const types = screen.getByTestId('review-error-types').querySelector<HTMLElement>('tr[data-dataset="cnn"]')!;
    expect(within(types).getByTestId('review-error-type-entity').textContent).toBe('1');
    expect(within(types).getByTestId('review-error-type-number_or_date').textContent).toBe('0');
    expect(within(types).getByTestId('review-error-type-untyped').textContent).toBe('1');

    const corrections = screen
      .getAllByTestId('review-corrections')
      .find((section) => section.dataset.dataset === 'cnn')!;
    expect(corrections.textContent).toContain('2 flips among 2 summaries');
    const flips = within(corrections).getByTestId('review-flips');
    expect(
      within(flips)
        .getAllByTestId('correction-row')
        .map((flip) => [flip.dataset.summary, flip.dataset.benchmark, flip.dataset.corrected]),
    ).toEqual([
      ['s-bridge', '1', '0'],
      ['s-rain', '1', '0'],
    ]);
    const all = within(corrections).getByTestId('review-corrections-all');
    expect(
      within(all)
        .getAllByTestId('correction-row')
        .map((r) => r.dataset.summary),
    ).toEqual(['s-bridge', 's-rain']);
    expect(document.querySelector('img')).toBeNull();

    // Back on the card the keys work again; the results never reached the card's store.
    fireEvent.click(screen.getByTestId('review-tab-review'));
    await screen.findByTestId('review-card');
    expect(useReview.getState().card?.units.some((u) => 'globalLabel' in u)).toBe(false);
  });
});

describe('markup and links', () => {
  it('renders document, summary and ids with markup as text', async () => {
    await start();
    press('Enter');
    await waitFor(() => expect(screen.getByTestId('review-card').dataset.summary).toBe('s-rain'));
    expect(screen.getByTestId('document').textContent).toContain(HOSTILE);
    expect(screen.getByTestId('summary').textContent).toContain(HOSTILE);
    expect(document.querySelector('img')).toBeNull();
    expect((window as unknown as { pwned?: number }).pwned).toBeUndefined();
  });

  it('the Analysis link opens the suspicious queue of that dataset at that summary', async () => {
    await start();
    fireEvent.change(screen.getByTestId('review-filter-queue'), { target: { value: 'human-human' } });
    await waitFor(() => expect(core.callsTo('review.queue').at(-1)!.queue).toBe('human-human'));
    act(() => {
      showView('project');
      openReviewAt('cnn', 's-rain', 40);
    });
    act(() => showView('review'));
    await waitFor(() => expect(screen.getByTestId('review-card').dataset.summary).toBe('s-rain'));
    expect(core.callsTo('review.queue').at(-1)).toMatchObject({ queue: 'suspicious', dataset: 'cnn', cap: 40 });
  });
});
