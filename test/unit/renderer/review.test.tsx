// @vitest-environment happy-dom
/**
 * The Review view against a fake bridge that records every call and answers the
 * review.* methods the way the backend does (outputs parsed by the contract's schemas, so their
 * shape is the real one): blind until the decision is stored (no reveal call, no judge, annotator
 * or global label in the DOM before), the reveal after, R revising as a second record, context
 * sentences never decidable, filters passed through, the fast-decision flag, Table 4 and the
 * corrections on their own tab, durability, undo, the Analysis link, and markup as text.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from '../../../renderer/App';
import { createFakeCore, deferred, resetRendererState, type FakeCore } from '../../../renderer/testing/fakeCore';
import { judgeInfo } from '../../../renderer/testing/fakeJudges';
import { openReviewAt, resetReview, useReview } from '../../../renderer/state/review';
import { showView } from '../../../renderer/state/session';
import {
  API,
  ApiError,
  type ApiInput,
  type ApiMethod,
  type ApiOutput,
  type DatasetCorrections,
  type ReviewReveal,
  type ReviewTable,
  type UnitLabelState,
} from '../../../shared/api';
import type { GlobalLabel, HumanLabel } from '../../../shared/domain';

// ───────────────────────────── a fake review backend ─────────────────────────────

const HOSTILE = '<img src=x onerror="window.pwned=1">';
const DOC_A =
  'The council met on Tuesday to discuss the new bridge.\n\nMayor Alice Brown said construction would start in March. ' +
  'The bridge will cost 40 million dollars.\n\nResidents raised concerns about traffic.';
const DOC_B = `Heavy rain flooded the northern valley overnight. ${HOSTILE} Two villages were evacuated by the fire brigade.`;

interface CardSpec {
  key: number;
  summaryId: string;
  dataset?: string;
  document: string | null;
  sentences: string[];
  marked: number[];
  global: GlobalLabel | null;
  /** Hard labels per judge, one per sentence. */
  judges: Record<string, Array<0 | 1>>;
  annotators?: Record<string, HumanLabel[]>;
  /** Decisions already stored for the reviewer, by sentence index, with their blind time. */
  decided?: Record<number, { label: HumanLabel; ms: number }>;
}

const QWEN = 'qwen-8b';
const EVIL_JUDGE = `judge${HOSTILE}`;

function specs(): CardSpec[] {
  return [
    {
      key: 1,
      summaryId: 's-bridge',
      document: DOC_A,
      sentences: [
        'The council discussed a new bridge.',
        'Construction starts in March, the mayor said.',
        'It costs 90 million dollars.',
      ],
      marked: [1, 2],
      global: 1,
      judges: { [QWEN]: [1, 0, 0], [EVIL_JUDGE]: [1, 0, 0] },
      annotators: { 'frank-0': ['faithful', 'faithful', 'unfaithful'] },
    },
    {
      key: 2,
      summaryId: 's-rain',
      document: DOC_B,
      sentences: ['Rain flooded a valley overnight.', `Villages were evacuated by the army ${HOSTILE}.`],
      marked: [1],
      global: 1,
      judges: { [QWEN]: [1, 0], [EVIL_JUDGE]: [1, 0] },
      decided: { 1: { label: 'unfaithful', ms: 900 } },
    },
  ];
}

const TABLE: ReviewTable = {
  dataset: 'cnn',
  judgeCount: 2,
  pool: 7,
  afterFragmentFilter: 6,
  cap: 25,
  listed: 6,
  reviewed: 3,
  flaggedSentences: 9,
  unfaithful: 4,
  faithful: 2,
  unclear: 1,
  notReviewed: 2,
  pctUnfaithful: 4 / 6,
  pctUnfaithfulN: 6,
  errorTypes: {
    entity: 2,
    relation: 0,
    number_or_date: 1,
    not_in_source: 0,
    attribution: 0,
    overstatement: 0,
    boilerplate: 0,
    other: 0,
    untyped: 1,
  },
  fast: 1,
};

const CORRECTIONS: DatasetCorrections = {
  dataset: 'cnn',
  rule: 'Conjunctive rule: unfaithful (0) as soon as one sentence is unfaithful.',
  summaries: [
    {
      key: 1,
      summaryId: 's-bridge',
      docId: 'd1',
      benchmarkLabel: 1,
      correctedLabel: 0,
      basis: 'unfaithful_sentence',
      sentences: 3,
      faithful: 1,
      unfaithful: 1,
      unclear: 0,
      unknown: 1,
      adjudicated: 1,
      flipped: true,
    },
    {
      key: 3,
      summaryId: `s-ok${HOSTILE}`,
      docId: 'd3',
      benchmarkLabel: 1,
      correctedLabel: 1,
      basis: 'all_sentences',
      sentences: 2,
      faithful: 2,
      unfaithful: 0,
      unclear: 0,
      unknown: 0,
      adjudicated: 0,
      flipped: false,
    },
  ],
  flips: [],
};
CORRECTIONS.flips = CORRECTIONS.summaries.filter((c) => c.flipped);

const letters = (i: number) => String.fromCharCode(65 + i);

interface ReviewFake {
  core: FakeCore;
  /** The fake's review.record, for overrides that wrap it (a gate, a failure). */
  record(input: ApiInput<'review.record'>): ApiOutput<'review.record'>;
  unitId(key: number, index: number): number;
  decision(unitId: number): UnitLabelState;
}

function installReview(core: FakeCore, cards: CardSpec[]): ReviewFake {
  const decisions = new Map<number, UnitLabelState>();
  const blindMs = new Map<number, number>();
  const byKey = new Map(cards.map((c) => [c.key, c]));
  const summary = (key: number) => core.summaries.find((s) => s.key === key)!;
  const unitId = (key: number, index: number) => summary(key).units[index]!.id;
  const decided = (id: number) => (decisions.get(id)?.label ?? null) !== null;
  for (const card of cards) {
    for (const [index, d] of Object.entries(card.decided ?? {})) {
      const id = unitId(card.key, Number(index));
      decisions.set(id, { label: d.label, errorType: null, note: null });
      blindMs.set(id, d.ms);
    }
  }
  const judgeOrder = [QWEN, EVIL_JUDGE];
  const parse = <M extends ApiMethod>(method: M, value: unknown): ApiOutput<M> =>
    API[method].output.parse(value) as ApiOutput<M>;

  function revealOf(key: number, ids: number[], anonJudges: boolean, anonAnnotators: boolean): ReviewReveal {
    const card = byKey.get(key)!;
    const all = card.marked.every((i) => decided(unitId(key, i)));
    return {
      key,
      dataset: card.dataset ?? 'cnn',
      summaryId: card.summaryId,
      globalLabel: all ? card.global : null,
      globalLabelHidden: !all,
      sentences: ids.map((id) => {
        const index = summary(key).units.findIndex((u) => u.id === id);
        return {
          unitId: id,
          index,
          decision: decisions.get(id)!,
          judges: Object.entries(card.judges).map(([judge, labels]) => ({
            judge: anonJudges ? `Judge ${letters(judgeOrder.indexOf(judge))}` : judge,
            hard: labels[index]!,
            soft: null,
          })),
          annotators: Object.entries(card.annotators ?? {}).map(([name, labels], i) => ({
            annotator: anonAnnotators ? `Annotator ${i + 1}` : name,
            label: labels[index]!,
            errorType: null,
          })),
        };
      }),
    };
  }

  core.override('datasets.list', () =>
    ['cnn', 'xsum'].map((name) => ({
      name,
      documents: 2,
      documentsMissing: 0,
      summaries: 2,
      units: 5,
      sampled: 0,
      batches: 0,
    })),
  );
  core.override('judges.list', () => judgeOrder.map((name) => judgeInfo(name, null)));
  core.override('review.queue', (input) => {
    const fastMs = input.fastMs ?? 2000;
    const items = cards.slice(0, input.cap ?? 25).map((card) => {
      const ids = card.marked.map((i) => unitId(card.key, i));
      return {
        key: card.key,
        summaryId: card.summaryId,
        docId: `d${card.key}`,
        sentences: card.sentences.length,
        marked: card.marked,
        decided: card.marked.filter((_, j) => decided(ids[j]!)),
        fast: card.marked.filter((_, j) => decided(ids[j]!) && (blindMs.get(ids[j]!) ?? Infinity) < fastMs),
        documentMissing: card.document === null,
      };
    });
    return parse('review.queue', {
      queue: input.queue,
      dataset: input.dataset,
      judgeCount: input.queue === 'human-human' ? 0 : (input.judges?.length ?? 2),
      pool: cards.length > 0 ? 9 : 0,
      matching: cards.length,
      cap: input.cap ?? 25,
      fastMs,
      items,
    });
  });
  core.override('review.card', ({ key, queue }) => {
    const card = byKey.get(key)!;
    const s = summary(key);
    return parse('review.card', {
      key,
      dataset: card.dataset ?? 'cnn',
      summaryId: card.summaryId,
      docId: `d${key}`,
      queue,
      summary: s.summary,
      document: card.document,
      splitter: 'given@1',
      units: s.units.map((u) => ({
        ...u,
        marked: card.marked.includes(u.index),
        decision: decisions.get(u.id) ?? { label: null, errorType: null, note: null },
      })),
      progress: { marked: card.marked.length, decided: card.marked.filter((i) => decided(unitId(key, i))).length },
    });
  });
  const record = (input: ApiInput<'review.record'>): ApiOutput<'review.record'> => {
    const key = core.summaries.find((s) => s.units.some((u) => u.id === input.unitId))!.key;
    const card = byKey.get(key)!;
    const index = summary(key).units.findIndex((u) => u.id === input.unitId);
    if (!card.marked.includes(index))
      throw new ApiError({ code: 'invalid_input', message: `Sentence ${index} is context` });
    if (input.state.label !== null && !blindMs.has(input.unitId) && input.timeSpentMs !== null)
      blindMs.set(input.unitId, input.timeSpentMs);
    decisions.set(input.unitId, { ...input.state });
    return parse('review.record', {
      eventId: core.calls.length,
      unitId: input.unitId,
      state: input.state,
      progress: { marked: card.marked.length, decided: card.marked.filter((i) => decided(unitId(key, i))).length },
      reveal:
        input.state.label === null
          ? null
          : revealOf(key, [input.unitId], input.anonymizeJudges ?? false, input.anonymizeAnnotators ?? false),
    });
  };
  core.override('review.record', record);
  core.override('review.reveal', ({ key, unitIds, anonymizeJudges, anonymizeAnnotators }) => {
    const card = byKey.get(key)!;
    const ids = unitIds ?? card.marked.map((i) => unitId(key, i)).filter(decided);
    if (ids.length === 0 || ids.some((id) => !decided(id)))
      throw new ApiError({ code: 'conflict', message: 'not decided yet' });
    return parse('review.reveal', revealOf(key, ids, anonymizeJudges ?? false, anonymizeAnnotators ?? false));
  });
  core.override('review.table', () => parse('review.table', [TABLE]));
  core.override('review.corrections', () => parse('review.corrections', [CORRECTIONS]));
  return { core, record, unitId, decision: (id) => decisions.get(id) ?? { label: null, errorType: null, note: null } };
}

// ───────────────────────────── helpers ─────────────────────────────

let fake: ReviewFake;
let core: FakeCore;

async function start(cards: CardSpec[] = specs()): Promise<void> {
  // The reviewer's own annotation is finished (labels given): the reveal gate does not ask (tested in renderer-reveal).
  core = createFakeCore(
    cards.map((c) => ({
      key: c.key,
      summaryId: c.summaryId,
      dataset: c.dataset ?? 'cnn',
      document: c.document,
      sentences: c.sentences,
      labels: c.sentences.map(() => 'faithful' as const),
    })),
  );
  fake = installReview(core, cards);
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
    ]).toEqual(['9', '2', '1', '1', '3']);
    expect(counts.textContent).toContain('Pool 9');
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
    core.override('review.record', async (input) => {
      await gate.promise;
      return fake.record(input);
    });

    press('u');
    await waitFor(() => expect(records()).toHaveLength(1));
    expect(records()[0]).toMatchObject({
      unitId: fake.unitId(1, 1),
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
    expect(records()[1]).toMatchObject({ unitId: fake.unitId(1, 1), state: { label: 'unfaithful' }, cause: 'label' });
    expect(records().map((r) => r.unitId)).toEqual([fake.unitId(1, 1), fake.unitId(1, 1)]);
    await waitFor(() => expect(screen.queryByTestId('review-revise')).toBeNull());
    expect(screen.getByTestId('unit-1').getAttribute('data-label')).toBe('unfaithful');
    expect(currentIndex()).toBe('1');
    expect(fake.decision(fake.unitId(1, 1)).label).toBe('unfaithful');

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
      unitId: fake.unitId(1, 1),
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
    fireEvent.click(context);
    press('k');
    await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));
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
    await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(records().map((r) => r.unitId)).toEqual([fake.unitId(1, 2), fake.unitId(1, 1)]);
    expect(fake.decision(fake.unitId(1, 0)).label).toBeNull();
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
    await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));
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
      unitId: fake.unitId(1, 1),
      state: { label: null },
      cause: 'undo',
      timeSpentMs: null,
    });
    await waitFor(() => expect(screen.queryByTestId('review-reveal-1')).toBeNull());
    expect(currentIndex()).toBe('1');
    press('y', { ctrlKey: true });
    await waitFor(() => expect(records()).toHaveLength(3));
    expect(records()[2]).toMatchObject({ unitId: fake.unitId(1, 1), state: { label: 'faithful' }, cause: 'redo' });
    await screen.findByTestId('review-reveal-1');
  });
});

describe('filters', () => {
  it('list a judge added elsewhere (another tab, the CLI) once its change event arrives, without a reload', async () => {
    await start();
    const names = () => (screen.getAllByTestId('review-filter-judge') as HTMLInputElement[]).map((b) => b.value);
    expect(names()).toEqual([QWEN, EVIL_JUDGE]);
    core.override('judges.list', () => [QWEN, EVIL_JUDGE, 'added-later'].map((name) => judgeInfo(name, null)));
    act(() => core.change({ namespace: 'judges', what: 'judges.add' }));
    await waitFor(() => expect(names()).toEqual([QWEN, EVIL_JUDGE, 'added-later']));
    // A run ending adds no judge: nothing is fetched for it.
    const lists = core.callsTo('judges.list').length;
    act(() => core.change({ namespace: 'judges', what: 'judges.run' }));
    expect(core.callsTo('judges.list')).toHaveLength(lists);
  });

  it('pass queue, dataset, judge panel, error type and cap to review.queue, and the panel to card and record', async () => {
    await start();
    const last = () => core.callsTo('review.queue').at(-1)!;
    fireEvent.change(screen.getByTestId('review-filter-queue'), { target: { value: 'human-judge' } });
    await waitFor(() => expect(last().queue).toBe('human-judge'));
    fireEvent.change(screen.getByTestId('review-filter-dataset'), { target: { value: 'xsum' } });
    await waitFor(() => expect(last()).toMatchObject({ queue: 'human-judge', dataset: 'xsum' }));
    const boxes = screen.getAllByTestId('review-filter-judge') as HTMLInputElement[];
    expect(boxes.map((b) => [b.value, b.checked])).toEqual([
      [QWEN, true],
      [EVIL_JUDGE, true],
    ]);
    fireEvent.click(boxes[1]!);
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
        key: 1,
        queue: 'human-judge',
        reviewer: 'ann',
        judges: [QWEN],
      }),
    );
    press('f');
    await waitFor(() => expect(records()).toHaveLength(1));
    expect(records()[0]).toMatchObject({ queue: 'human-judge', judges: [QWEN] });
    // Ticking every judge again goes back to the backend's default panel (no judges field).
    fireEvent.click((screen.getAllByTestId('review-filter-judge') as HTMLInputElement[])[1]!);
    await waitFor(() => expect(last()).not.toHaveProperty('judges'));
  });

  it('says why a queue is empty', async () => {
    core = createFakeCore([]);
    fake = installReview(core, []);
    render(<App bridge={core.bridge} />);
    await screen.findByTestId('queue-empty');
    press('v');
    const empty = await screen.findByTestId('review-empty');
    expect(within(empty).getByTestId('review-empty-why').textContent).toMatch(/missing prediction is not a flag/);
    expect(within(empty).getByTestId('review-counts').dataset.pool).toBe('0');
  });
});

describe('results', () => {
  it('Table 4 and the corrections load only on their tab, with every column', async () => {
    await start();
    expect(core.callsTo('review.table')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('review-tab-results'));
    const table = await screen.findByTestId('review-table-4');
    expect(core.callsTo('review.table')[0]).toEqual({ cap: 25 });
    expect(core.callsTo('review.corrections')[0]).toEqual({});
    const row = within(table).getByTestId('review-table-row');
    expect(row.dataset.dataset).toBe('cnn');
    expect(within(row).getByTestId('review-table-pool').textContent).toBe('7');
    expect(within(row).getByTestId('review-table-reviewed').textContent).toBe('3');
    expect(within(row).getByTestId('review-table-u').textContent).toBe('4');
    expect(within(row).getByTestId('review-table-f').textContent).toBe('2');
    expect(within(row).getByTestId('review-table-pct').textContent).toContain('66.7%');
    expect(row.textContent).toContain('1'); // unclear, fast
    const types = screen.getByTestId('review-error-types');
    expect(within(types).getByTestId('review-error-type-entity').textContent).toBe('2');
    expect(within(types).getByTestId('review-error-type-number_or_date').textContent).toBe('1');
    expect(within(types).getByTestId('review-error-type-untyped').textContent).toBe('1');

    const corrections = screen.getByTestId('review-corrections');
    expect(corrections.textContent).toContain('1 flip among 2 summaries');
    const flips = within(corrections).getByTestId('review-flips');
    const flip = within(flips).getByTestId('correction-row');
    expect([flip.dataset.summary, flip.dataset.benchmark, flip.dataset.corrected]).toEqual(['s-bridge', '1', '0']);
    const all = within(corrections).getByTestId('review-corrections-all');
    expect(
      within(all)
        .getAllByTestId('correction-row')
        .map((r) => r.dataset.summary),
    ).toEqual(['s-bridge', `s-ok${HOSTILE}`]);
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
