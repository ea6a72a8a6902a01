/**
 * Review queues on a small constructed project, through the core and the dispatcher:
 * queue contents, order, filters and cap; the blind card (its JSON walked); reveal refused before
 * a decision and allowed after; revisions as new events; the fast-decision flag; Table 4; the
 * adjudication rule (what enters the audit) checked against the analysis loader; corrected global
 * labels and flips; exports (labels, review results, the dataset card without keys).
 *
 * The project (dataset "news"; judges J1 then J2; annotators alice then bob):
 *   doc  summary  Y  sentences (J1 / J2 hard)             annotation labels
 *   d0   e1       0  [0,0] / [0,0]                       s0 alice U(entity) bob U; s1 alice F, bob U(number_or_date)
 *   d1   b1       1  [0,1] / [0,1]                       s0 alice F, bob unclear
 *   d1   c1       1  [0,1] / [1,0]                       s0 alice U, s1 alice F
 *   d2   a0       1  [1,0] / [1,0]
 *   d2   a1       1  [1,0,0] / [1,0,0] (s2 a fragment)
 *   d3   d1x      1  [1,1] / [0,1]                       s0 alice F, s1 alice F
 *   d3   f1       1  [0,0] / [0,1]
 *   d4   g1       1  [0] / [0] (one sentence)            s0 alice U(entity)
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import type {
  ApiOutput,
  ReviewCard,
  ReviewQueue,
  ReviewReveal,
  ReviewTable,
  DatasetCorrections,
} from '../../../shared/api';
import { analyzeDataset } from '../../../shared/analysis';
import { createCore, type Core } from '../../../electron/core/index';
import { dispatch } from '../../../electron/core/dispatch';
import { runImport } from '../../../electron/core/imports/run';
import { buildExport } from '../../../electron/core/export/build';
import { AnalysisRepository } from '../../../db/analysisRepository';
import { loadAnalysisDatasets } from '../../../electron/core/analysis/load';
import { tempDir } from '../../helpers/tmp';
import { SCHEMA_VERSION } from '../../../db/migrations';

const dir = tempDir('loupe-review-');
const ENV_SECRET = 'sk-envsecretvalue-0123456789abcdef';
const EXTRA_SECRET = 'sk-extrasecret-abcdef1234567890';
let core: Core;
let db: Database.Database;

const DOC =
  'The city council approved the budget on Tuesday. The plan adds twelve million dollars for schools. Taxes rise.';
interface Spec {
  doc: string;
  id: string;
  label: 0 | 1;
  sentences: string[];
  j1: Array<0 | 1>;
  j2: Array<0 | 1>;
}
const S0 = 'The council approved the budget on Tuesday.';
const S1 = 'The plan adds twelve million dollars for schools.';
const S2 = 'Taxes rise.';
const SPECS: Spec[] = [
  { doc: 'd0', id: 'e1', label: 0, sentences: [S0, S1], j1: [0, 0], j2: [0, 0] },
  { doc: 'd1', id: 'b1', label: 1, sentences: [S0, S1], j1: [0, 1], j2: [0, 1] },
  { doc: 'd1', id: 'c1', label: 1, sentences: [S0, S1], j1: [0, 1], j2: [1, 0] },
  { doc: 'd2', id: 'a0', label: 1, sentences: [S0, S1], j1: [1, 0], j2: [1, 0] },
  { doc: 'd2', id: 'a1', label: 1, sentences: [S0, S1, S2], j1: [1, 0, 0], j2: [1, 0, 0] },
  { doc: 'd3', id: 'd1x', label: 1, sentences: [S0, S1], j1: [1, 1], j2: [0, 1] },
  { doc: 'd3', id: 'f1', label: 1, sentences: [S0, S1], j1: [0, 0], j2: [0, 1] },
  { doc: 'd4', id: 'g1', label: 1, sentences: [S0], j1: [0], j2: [0] },
];
const LABELS = [
  ['e1', 0, 'unfaithful', 'alice', 'entity'],
  ['e1', 1, 'faithful', 'alice', null],
  ['b1', 0, 'faithful', 'alice', null],
  ['c1', 0, 'unfaithful', 'alice', null],
  ['c1', 1, 'faithful', 'alice', null],
  ['d1x', 0, 'faithful', 'alice', null],
  ['d1x', 1, 'faithful', 'alice', null],
  ['g1', 0, 'unfaithful', 'alice', 'entity'],
  ['e1', 0, 'unfaithful', 'bob', null],
  ['e1', 1, 'unfaithful', 'bob', 'number_or_date'],
  ['b1', 0, 'unclear', 'bob', null],
] as const;

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

async function call<M extends Parameters<typeof dispatch>[1] & string>(method: M, input: unknown): Promise<any> {
  const envelope = await dispatch(core.handlers, method, input);
  if (!envelope.ok)
    throw Object.assign(new Error(`${method}: ${envelope.error.code}: ${envelope.error.message}`), {
      code: envelope.error.code,
    });
  return envelope.value;
}

async function callError(method: string, input: unknown): Promise<{ code: string; message: string }> {
  const envelope = await dispatch(core.handlers, method, input);
  if (envelope.ok) throw new Error(`${method} succeeded`);
  return envelope.error;
}

const keyOf = (summaryId: string): number =>
  db.prepare('SELECT id FROM summaries WHERE summary_id = ?').pluck().get(summaryId) as number;
const unitId = (summaryId: string, index: number): number =>
  db
    .prepare('SELECT u.id FROM units u JOIN summaries s ON s.id = u.summary_id WHERE s.summary_id = ? AND u.idx = ?')
    .pluck()
    .get(summaryId, index) as number;

function decide(
  reviewer: string,
  queue: string,
  summaryId: string,
  index: number,
  label: string | null,
  errorType: string | null,
  timeSpentMs: number | null,
  extra: Record<string, unknown> = {},
) {
  return call('review.record', {
    unitId: unitId(summaryId, index),
    queue,
    reviewer,
    state: { label, errorType, note: null },
    timeSpentMs,
    cause: label === null ? 'clear' : 'label',
    ...extra,
  }) as Promise<ApiOutput<'review.record'>>;
}

beforeAll(async () => {
  core = createCore({
    Database,
    stateDir: dir,
    demoDir: dir,
    host: 'web',
    fileDialogs: false,
    diskPaths: false,
    canSwitchProjects: false,
    env: { LOUPE_REVIEW_TEST_KEY: ENV_SECRET },
    allowedKeyEnv: new Set(['LOUPE_REVIEW_TEST_KEY']),
  });
  const path = join(dir, 'review.loupe');
  core.createProject(path);
  const repo = core.repository();
  const summaries = SPECS.map((s) => ({
    dataset: 'news',
    doc_id: s.doc,
    document: DOC,
    summary_id: s.id,
    summary: s.sentences.join(' '),
    label: s.label,
    sentences: s.sentences,
  }));
  await runImport(repo, { source: { type: 'upload', name: 'news.jsonl', text: jsonl(summaries) }, as: 'summaries' });
  const predictions = (['J1', 'J2'] as const).flatMap((judge) =>
    SPECS.flatMap((s) =>
      (judge === 'J1' ? s.j1 : s.j2).map((hard, i) => ({
        dataset: 'news',
        summary_id: s.id,
        sentence_index: i,
        judge,
        hard,
      })),
    ),
  );
  await runImport(repo, {
    source: { type: 'upload', name: 'predictions.jsonl', text: jsonl(predictions) },
    as: 'predictions',
  });
  const labels = LABELS.map(([summary_id, sentence_index, label, annotator, error_type]) => ({
    dataset: 'news',
    summary_id,
    sentence_index,
    label,
    annotator,
    ...(error_type ? { error_type } : {}),
  }));
  await runImport(repo, { source: { type: 'upload', name: 'labels.jsonl', text: jsonl(labels) }, as: 'labels' });
  db = new Database(path, { readonly: true });
});

const ids = (q: ReviewQueue) => q.items.map((i) => [i.docId, i.summaryId, i.marked]);

describe('queues', () => {
  it('suspicious: global label 1, every judge flags ≥ 1 sentence; flagged by all minus fragments; sorted by doc id then summary id; pool before the fragment filter', async () => {
    const q: ReviewQueue = await call('review.queue', { queue: 'suspicious', dataset: 'news' });
    // c1 is suspicious (each judge flags a sentence) but no sentence is flagged by both: in the pool, not listed.
    // a1's s2 ("Taxes rise.") is flagged by both but a fragment; g1 has one sentence (left out like every analysis).
    expect(ids(q)).toEqual([
      ['d1', 'b1', [0]],
      ['d2', 'a0', [1]],
      ['d2', 'a1', [1]],
      ['d3', 'f1', [0]],
    ]);
    expect([q.pool, q.matching, q.cap, q.judgeCount, q.fastMs]).toEqual([5, 4, 25, 2, 2000]);
    const capped: ReviewQueue = await call('review.queue', { queue: 'suspicious', dataset: 'news', cap: 2 });
    expect(ids(capped)).toEqual(ids(q).slice(0, 2));
    expect([capped.pool, capped.matching]).toEqual([5, 4]);
    // A panel of one judge: "every judge" means J1 alone.
    const j1: ReviewQueue = await call('review.queue', { queue: 'suspicious', dataset: 'news', judges: ['J1'] });
    expect(ids(j1)).toEqual([
      ['d1', 'b1', [0]],
      ['d1', 'c1', [0]],
      ['d2', 'a0', [1]],
      ['d2', 'a1', [1]],
      ['d3', 'f1', [0, 1]],
    ]);
  });

  it('human-judge, judges-split and human-human, with judge and error-type filters', async () => {
    const hj: ReviewQueue = await call('review.queue', { queue: 'human-judge', dataset: 'news' });
    expect(ids(hj)).toEqual([
      ['d1', 'c1', [0, 1]],
      ['d3', 'd1x', [0]],
    ]);
    expect(ids(await call('review.queue', { queue: 'human-judge', dataset: 'news', judges: ['J1'] }))).toEqual([]);
    expect(ids(await call('review.queue', { queue: 'human-judge', dataset: 'news', judges: ['J2'] }))).toEqual(ids(hj));
    const split: ReviewQueue = await call('review.queue', { queue: 'judges-split', dataset: 'news' });
    expect(ids(split)).toEqual([
      ['d1', 'c1', [0, 1]],
      ['d3', 'd1x', [0]],
    ]);
    const hh: ReviewQueue = await call('review.queue', { queue: 'human-human', dataset: 'news' });
    expect(ids(hh)).toEqual([
      ['d0', 'e1', [1]],
      ['d1', 'b1', [0]],
    ]);
    expect(hh.judgeCount).toBe(0);
    // Error type of a current human label on a marked sentence: bob's number_or_date on e1 s1; alice's entity is on e1 s0 (not marked).
    expect(
      ids(await call('review.queue', { queue: 'human-human', dataset: 'news', errorType: 'number_or_date' })),
    ).toEqual([['d0', 'e1', [1]]]);
    expect(ids(await call('review.queue', { queue: 'human-human', dataset: 'news', errorType: 'entity' }))).toEqual([]);
    expect(ids(await call('review.queue', { queue: 'human-judge', dataset: 'news', cap: 1 }))).toEqual([
      ['d1', 'c1', [0, 1]],
    ]);
  });

  it('refuses unknown datasets and judges, and summaries outside the queue', async () => {
    expect((await callError('review.queue', { queue: 'suspicious', dataset: 'nope' })).code).toBe('not_found');
    expect((await callError('review.queue', { queue: 'suspicious', dataset: 'news', judges: ['J9'] })).code).toBe(
      'not_found',
    );
    expect((await callError('review.card', { key: keyOf('d1x'), queue: 'suspicious', reviewer: 'rita' })).code).toBe(
      'not_found',
    );
    expect((await callError('review.queue', { queue: 'everything', dataset: 'news' })).code).toBe('invalid_input');
  });
});

/** Every key path of a JSON value ("units[].decision.label"), and every string in it. */
function walk(
  value: unknown,
  path = '',
  keys = new Set<string>(),
  strings: string[] = [],
): { keys: Set<string>; strings: string[] } {
  if (Array.isArray(value)) value.forEach((v) => walk(v, `${path}[]`, keys, strings));
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      keys.add(`${path}.${k}`);
      walk(v, `${path}.${k}`, keys, strings);
    }
  } else if (typeof value === 'string') strings.push(value);
  return { keys, strings };
}

const CARD_KEYS = [
  '.key',
  '.dataset',
  '.summaryId',
  '.docId',
  '.queue',
  '.summary',
  '.document',
  '.splitter',
  '.units',
  '.progress',
  '.progress.marked',
  '.progress.decided',
  ...[
    'id',
    'index',
    'text',
    'start',
    'end',
    'fragment',
    'marked',
    'decision',
    'decision.label',
    'decision.errorType',
    'decision.note',
  ].map((k) => `.units[].${k}`),
].sort();

describe('blind card', () => {
  it("holds no judge label, no other person's label and no global label, before and after others decide", async () => {
    for (const [queue, summaryId] of [
      ['suspicious', 'b1'],
      ['human-human', 'b1'],
      ['human-judge', 'c1'],
      ['judges-split', 'd1x'],
    ] as const) {
      // The handler's own answer (before the contract strips anything) and the dispatched one.
      const raw = await core.handlers['review.card']({ key: keyOf(summaryId), queue, reviewer: 'adam' });
      const sent: ReviewCard = await call('review.card', { key: keyOf(summaryId), queue, reviewer: 'adam' });
      for (const card of [raw, sent]) {
        const { keys, strings } = walk(card);
        expect([...keys].sort()).toEqual(CARD_KEYS);
        for (const s of strings) expect(['J1', 'J2', 'alice', 'bob', 'rita']).not.toContain(s);
        expect(card.units.every((u) => u.decision.label === null && u.decision.errorType === null)).toBe(true);
      }
      expect(sent.units.filter((u) => u.marked).map((u) => u.index)).toEqual(
        ((await call('review.queue', { queue, dataset: 'news' })) as ReviewQueue).items.find(
          (i) => i.summaryId === summaryId,
        )!.marked,
      );
    }
    // rita decides b1 s0 in the suspicious queue: adam's card still shows nothing of it.
    await decide('rita', 'suspicious', 'b1', 0, 'unfaithful', 'entity', 1500);
    const card: ReviewCard = await call('review.card', { key: keyOf('b1'), queue: 'suspicious', reviewer: 'adam' });
    expect(card.units.map((u) => u.decision.label)).toEqual([null, null]);
    expect(card.progress).toEqual({ marked: 1, decided: 0 });
    const own: ReviewCard = await call('review.card', { key: keyOf('b1'), queue: 'suspicious', reviewer: 'rita' });
    expect(own.units.map((u) => [u.index, u.marked, u.decision.label, u.decision.errorType])).toEqual([
      [0, true, 'unfaithful', 'entity'],
      [1, false, null, null],
    ]);
    expect(own.progress).toEqual({ marked: 1, decided: 1 });
    expect([...walk(own).keys].sort()).toEqual(CARD_KEYS);
  });
});

describe('decisions and reveal', () => {
  it('refuses reveal before the decision, allows it after, for decided sentences only; the global label waits for the whole card', async () => {
    const c1 = keyOf('c1');
    const refused = await callError('review.reveal', { key: c1, queue: 'human-judge', reviewer: 'adam' });
    expect(refused.code).toBe('conflict');
    expect(
      (
        await callError('review.reveal', {
          key: c1,
          queue: 'human-judge',
          reviewer: 'adam',
          unitIds: [unitId('c1', 0)],
        })
      ).code,
    ).toBe('conflict');

    const recorded = await decide('adam', 'human-judge', 'c1', 0, 'unfaithful', 'relation', 4000);
    expect(recorded.progress).toEqual({ marked: 2, decided: 1 });
    expect(recorded.reveal).toEqual({
      key: c1,
      dataset: 'news',
      summaryId: 'c1',
      globalLabel: null,
      globalLabelHidden: true,
      sentences: [
        {
          unitId: unitId('c1', 0),
          index: 0,
          decision: { label: 'unfaithful', errorType: 'relation', note: null },
          judges: [
            { judge: 'J1', hard: 0, soft: null },
            { judge: 'J2', hard: 1, soft: null },
          ],
          annotators: [{ annotator: 'alice', label: 'unfaithful', errorType: null }],
        },
      ],
    });
    // The undecided sentence stays refused, alone or with a decided one.
    expect(
      (
        await callError('review.reveal', {
          key: c1,
          queue: 'human-judge',
          reviewer: 'adam',
          unitIds: [unitId('c1', 1)],
        })
      ).code,
    ).toBe('conflict');
    expect(
      (
        await callError('review.reveal', {
          key: c1,
          queue: 'human-judge',
          reviewer: 'adam',
          unitIds: [unitId('c1', 0), unitId('c1', 1)],
        })
      ).code,
    ).toBe('conflict');
    // Another adjudicator's decision does not open it for adam's colleague.
    expect((await callError('review.reveal', { key: c1, queue: 'human-judge', reviewer: 'rita' })).code).toBe(
      'conflict',
    );
    const partial: ReviewReveal = await call('review.reveal', { key: c1, queue: 'human-judge', reviewer: 'adam' });
    expect(partial.sentences.map((s) => s.index)).toEqual([0]);
    expect(partial.globalLabelHidden).toBe(true);

    await decide('adam', 'human-judge', 'c1', 1, 'faithful', null, 3000);
    const full: ReviewReveal = await call('review.reveal', {
      key: c1,
      queue: 'human-judge',
      reviewer: 'adam',
      anonymizeJudges: true,
      anonymizeAnnotators: true,
    });
    expect([full.globalLabel, full.globalLabelHidden]).toEqual([1, false]);
    expect(full.sentences.map((s) => [s.index, s.judges, s.annotators])).toEqual([
      [
        0,
        [
          { judge: 'Judge A', hard: 0, soft: null },
          { judge: 'Judge B', hard: 1, soft: null },
        ],
        [{ annotator: 'Annotator 1', label: 'unfaithful', errorType: null }],
      ],
      [
        1,
        [
          { judge: 'Judge A', hard: 1, soft: null },
          { judge: 'Judge B', hard: 0, soft: null },
        ],
        [{ annotator: 'Annotator 1', label: 'faithful', errorType: null }],
      ],
    ]);
    const { strings } = walk(full);
    for (const s of strings) expect(['J1', 'J2', 'alice', 'bob']).not.toContain(s);
    // The mapping is stable per dataset: J2 is "Judge B" on another card too.
    const d1x = await decide('adam', 'judges-split', 'd1x', 0, 'faithful', null, 2500, { anonymizeJudges: true });
    expect(d1x.reveal!.sentences[0]!.judges).toEqual([
      { judge: 'Judge A', hard: 1, soft: null },
      { judge: 'Judge B', hard: 0, soft: null },
    ]);
    // A panel narrows the judges shown.
    const j2only: ReviewReveal = await call('review.reveal', {
      key: c1,
      queue: 'human-judge',
      reviewer: 'adam',
      judges: ['J2'],
    });
    expect(j2only.sentences.map((s) => s.judges.map((j) => j.judge))).toEqual([['J2'], ['J2']]);
  });

  it('refuses decisions on context sentences, error types on non-unfaithful labels, and reveal of context sentences', async () => {
    expect(
      (
        await callError('review.record', {
          unitId: unitId('b1', 1),
          queue: 'suspicious',
          reviewer: 'rita',
          state: { label: 'faithful', errorType: null, note: null },
          timeSpentMs: 10,
          cause: 'label',
        })
      ).code,
    ).toBe('invalid_input');
    expect(
      (
        await callError('review.record', {
          unitId: unitId('b1', 0),
          queue: 'suspicious',
          reviewer: 'rita',
          state: { label: 'faithful', errorType: 'entity', note: null },
          timeSpentMs: 10,
          cause: 'label',
        })
      ).code,
    ).toBe('invalid_input');
    expect(
      (
        await callError('review.record', {
          unitId: 999_999,
          queue: 'suspicious',
          reviewer: 'rita',
          state: { label: 'faithful', errorType: null, note: null },
          timeSpentMs: 10,
          cause: 'label',
        })
      ).code,
    ).toBe('not_found');
    expect(
      (
        await callError('review.reveal', {
          key: keyOf('b1'),
          queue: 'suspicious',
          reviewer: 'rita',
          unitIds: [unitId('b1', 1)],
        })
      ).code,
    ).toBe('invalid_input');
  });

  it('stores a revision as a new event, keeps the blind time, and flags fast decisions in the queue listing', async () => {
    await decide('rita', 'suspicious', 'a0', 1, 'faithful', null, 5000);
    await decide('rita', 'suspicious', 'a1', 1, 'unclear', null, 3000);
    const revised = await decide('rita', 'suspicious', 'a0', 1, 'unfaithful', 'other', 800);
    const events = db
      .prepare(
        `SELECT e.label, e.error_type AS errorType, e.time_spent_ms AS t, r.queue FROM label_events e JOIN review_events r ON r.event_id = e.id
                JOIN annotators a ON a.id = e.annotator_id WHERE e.unit_id = ? AND a.name = 'rita' AND e.phase = 'review' ORDER BY e.id`,
      )
      .all(unitId('a0', 1));
    expect(events).toEqual([
      { label: 'faithful', errorType: null, t: 5000, queue: 'suspicious' },
      { label: 'unfaithful', errorType: 'other', t: 800, queue: 'suspicious' },
    ]);
    expect(revised.eventId).toBeGreaterThan(0);

    const q: ReviewQueue = await call('review.queue', { queue: 'suspicious', dataset: 'news', reviewer: 'rita' });
    expect(q.items.map((i) => [i.summaryId, i.decided, i.fast])).toEqual([
      ['b1', [0], [0]], // 1.5 s < 2 s
      ['a0', [1], []], // blind decision took 5 s; the 0.8 s revision came after the reveal
      ['a1', [1], []],
      ['f1', [], []],
    ]);
    const strict: ReviewQueue = await call('review.queue', {
      queue: 'suspicious',
      dataset: 'news',
      reviewer: 'rita',
      fastMs: 1000,
    });
    expect(strict.items[0]!.fast).toEqual([]);
    const adam: ReviewQueue = await call('review.queue', { queue: 'suspicious', dataset: 'news', reviewer: 'adam' });
    expect(adam.items.every((i) => i.decided.length === 0)).toBe(true);
    // Clearing is an event too; the sentence is undecided again and reveal is refused.
    await decide('rita', 'suspicious', 'a1', 1, null, null, null);
    expect((await callError('review.reveal', { key: keyOf('a1'), queue: 'suspicious', reviewer: 'rita' })).code).toBe(
      'conflict',
    );
    await decide('rita', 'suspicious', 'a1', 1, 'unclear', null, 900);
    const again: ReviewQueue = await call('review.queue', { queue: 'suspicious', dataset: 'news', reviewer: 'rita' });
    expect(again.items[2]!.fast).toEqual([]); // blind time is the first decision's (3 s)
  });
});

describe('Table 4, adjudication and corrections', () => {
  it('Table 4: pool, reviewed, U, F, unclear, %U and error types over the listed suspicious summaries', async () => {
    const table = ((await call('review.table', { dataset: 'news' })) as ReviewTable[])[0]!;
    expect(table).toEqual({
      dataset: 'news',
      judgeCount: 2,
      pool: 5,
      afterFragmentFilter: 4,
      cap: 25,
      listed: 4,
      reviewed: 3,
      flaggedSentences: 4,
      unfaithful: 2,
      faithful: 0,
      unclear: 1,
      notReviewed: 1,
      pctUnfaithful: 1,
      pctUnfaithfulN: 2,
      errorTypes: {
        entity: 1,
        relation: 0,
        number_or_date: 0,
        not_in_source: 0,
        attribution: 0,
        overstatement: 0,
        boilerplate: 0,
        other: 1,
        untyped: 0,
      },
      fast: 1,
    });
    const capped = ((await call('review.table', { dataset: 'news', cap: 1 })) as ReviewTable[])[0]!;
    expect([
      capped.listed,
      capped.reviewed,
      capped.unfaithful,
      capped.pctUnfaithful,
      capped.errorTypes.entity,
      capped.errorTypes.other,
    ]).toEqual([1, 1, 1, 1, 1, 0]);
  });

  it('only human-human decisions become adjudicated labels for the audit; suspicious-queue decisions stay in Table 4', async () => {
    // b1 s0: alice faithful, bob unclear. rita (suspicious) said unfaithful; adam adjudicates it in the human-human queue.
    await decide('adam', 'human-human', 'b1', 0, 'faithful', null, 6000);
    await decide('adam', 'human-human', 'e1', 1, 'unfaithful', 'number_or_date', 7000);
    const review = core.repository().review;
    expect(review.adjudicatedLabels('news')).toEqual(
      [
        { summaryKey: keyOf('e1'), unitIndex: 1, label: 'unfaithful' },
        { summaryKey: keyOf('b1'), unitIndex: 0, label: 'faithful' },
      ].sort((a, b) => a.summaryKey - b.summaryKey),
    );
    // A second adjudicator who disagrees leaves the unit unresolved.
    await decide('rita', 'human-human', 'e1', 1, 'faithful', null, 6000);
    expect(review.adjudicatedLabels('news').map((r) => r.summaryKey)).toEqual([keyOf('b1')]);
    await decide('rita', 'human-human', 'e1', 1, 'unfaithful', null, 6000);
    expect(review.adjudicatedLabels('news')).toHaveLength(2);

    // The analysis loader plugs the same rule in: the audit sees b1 s0 as adjudicated faithful,
    // rita's suspicious decision on it only as a review label, and Table 4 equals review.table.
    const [dataset] = loadAnalysisDatasets(new AnalysisRepository(db), 'news');
    const b1 = dataset!.summaries.find((s) => s.summaryId === 'b1')!;
    expect([b1.units[0]!.human, b1.units[0]!.humanStatus, b1.units[0]!.review]).toEqual([
      'faithful',
      'adjudicated',
      'unfaithful',
    ]);
    const e1 = dataset!.summaries.find((s) => s.summaryId === 'e1')!;
    expect([e1.units[1]!.human, e1.units[1]!.humanStatus, e1.units[1]!.review]).toEqual([
      'unfaithful',
      'adjudicated',
      null,
    ]);
    const report = analyzeDataset(dataset!, { bootstrap: 0 });
    const table = ((await call('review.table', { dataset: 'news' })) as ReviewTable[])[0]!;
    expect(report.suspicious.review).toEqual({
      pool: table.pool,
      reviewed_summaries: table.reviewed,
      flagged_sentences: table.flaggedSentences,
      unfaithful: table.unfaithful,
      faithful: table.faithful,
      unclear: table.unclear,
      not_reviewed: table.notReviewed,
      pct_unfaithful: { value: table.pctUnfaithful, n: table.pctUnfaithfulN },
    });
    // p̂ counts the adjudicated units, never the suspicious decisions (a0 s1, a1 s1 have no annotation label).
    expect(report.human.n_usable).toBe(7);
  });

  it('corrected global labels by the conjunctive rule, and the flips', async () => {
    const news = ((await call('review.corrections', { dataset: 'news' })) as DatasetCorrections[])[0]!;
    const rows = Object.fromEntries(
      news.summaries.map((c) => [c.summaryId, [c.benchmarkLabel, c.correctedLabel, c.basis, c.flipped]]),
    );
    expect(rows).toEqual({
      e1: [0, 0, 'unfaithful_sentence', false],
      b1: [1, null, 'undetermined', false], // s0 adjudicated faithful, s1 unlabeled
      c1: [1, 0, 'unfaithful_sentence', true], // alice's unfaithful s0 (adam's human-judge decision agrees)
      a0: [1, 0, 'unfaithful_sentence', true], // rita's revised suspicious decision
      a1: [1, null, 'undetermined', false], // unclear is excluded; the other sentences have no label
      d1x: [1, 1, 'all_sentences', false],
      g1: [1, 0, 'unfaithful_sentence', true],
    });
    expect(news.summaries.map((c) => c.summaryId)).toEqual(['e1', 'b1', 'c1', 'a0', 'a1', 'd1x', 'g1']);
    expect(news.flips.map((c) => c.summaryId)).toEqual(['c1', 'a0', 'g1']);
    expect(news.summaries.find((c) => c.summaryId === 'c1')).toMatchObject({
      sentences: 2,
      faithful: 1,
      unfaithful: 1,
      unclear: 0,
      unknown: 0,
      adjudicated: 2,
    });
    expect(news.rule).toMatch(/Conjunctive/);
  });
});

describe('exports', () => {
  it('the label export carries the adjudicated label, its source and the corrected global label', () => {
    const file = buildExport(core.repository(), { format: 'csv', history: false, dataset: 'news' }, 'review');
    const rows = parse(file.content, { columns: true }) as Array<Record<string, string>>;
    const at = (summaryId: string, index: number) =>
      rows.find((r) => r.summary_id === summaryId && r.sentence_index === String(index))!;
    expect([at('e1', 1).adjudicated_label, at('e1', 1).adjudicated_source, at('e1', 1).corrected_global_label]).toEqual(
      ['unfaithful', 'adjudicator', '0'],
    );
    expect([at('e1', 0).adjudicated_label, at('e1', 0).adjudicated_source]).toEqual(['unfaithful', 'agreement']);
    expect([
      at('d1x', 1).adjudicated_label,
      at('d1x', 1).adjudicated_source,
      at('d1x', 1).corrected_global_label,
    ]).toEqual(['faithful', 'annotator', '1']);
    // adam's judges-split decision on d1x s0: a reviewer's label (corrections only).
    expect([at('d1x', 0).adjudicated_label, at('d1x', 0).adjudicated_source]).toEqual(['faithful', 'reviewer']);
    expect([at('a0', 1).adjudicated_label, at('a0', 1).adjudicated_source, at('a0', 1).corrected_global_label]).toEqual(
      ['unfaithful', 'reviewer', '0'],
    );
    expect([at('f1', 0).adjudicated_label, at('f1', 0).adjudicated_source, at('f1', 0).corrected_global_label]).toEqual(
      ['', '', ''],
    );
  });

  it('the review export: one row per current decision with its queue, times, revisions and whether it counts in the audit', () => {
    const file = buildExport(core.repository(), { format: 'jsonl', history: false, review: true }, 'review');
    expect(file.fileName).toBe('review-review.jsonl');
    const rows = file.content
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.map((r) => [r.summary_id, r.sentence_index, r.reviewer, r.queue, r.label, r.counts_in_audit])).toEqual([
      ['e1', 1, 'adam', 'human-human', 'unfaithful', true],
      ['e1', 1, 'rita', 'human-human', 'unfaithful', true],
      ['b1', 0, 'adam', 'human-human', 'faithful', true],
      ['b1', 0, 'rita', 'suspicious', 'unfaithful', false],
      ['c1', 0, 'adam', 'human-judge', 'unfaithful', false],
      ['c1', 1, 'adam', 'human-judge', 'faithful', false],
      ['a0', 1, 'rita', 'suspicious', 'unfaithful', false],
      ['a1', 1, 'rita', 'suspicious', 'unclear', false],
      ['d1x', 0, 'adam', 'judges-split', 'faithful', false],
    ]);
    const a0 = rows.find((r) => r.summary_id === 'a0')!;
    expect(a0).toMatchObject({
      blind_time_ms: 5000,
      time_spent_ms: 5800,
      revisions: 1,
      fast: false,
      global_label: 1,
      corrected_global_label: 0,
      judge_labels: { J1: 0, J2: 0 },
    });
    expect(rows.find((r) => r.summary_id === 'b1' && r.reviewer === 'rita')).toMatchObject({
      fast: true,
      error_type: 'entity',
      annotation_labels: { alice: 'faithful', bob: 'unclear' },
    });
    const csv = buildExport(core.repository(), { format: 'csv', history: false, review: true }, 'review');
    expect(csv.content.split('\n')[0]).toBe(
      'dataset,doc_id,summary_id,global_label,corrected_global_label,sentence_index,sentence,reviewer,queue,label,error_type,note,counts_in_audit,blind_time_ms,time_spent_ms,fast,revisions,first_decided_at,decided_at,judge_labels,annotation_labels,loupe_version',
    );
    expect(csv.rows).toBe(9);
  });

  it('the dataset card: counts, people, dates, version, splitters, judges — and no API key, key source or environment value', async () => {
    await call('judges.add', {
      name: 'endpoint judge',
      config: {
        kind: 'endpoint',
        baseUrl: 'http://127.0.0.1:9/v1?api_key=querysecret0123456789',
        model: 'qwen3-8b',
        apiKeyEnv: 'LOUPE_REVIEW_TEST_KEY',
        extra: {
          api_key: EXTRA_SECRET,
          chat_template_kwargs: { enable_thinking: false },
          note: `Bearer ${ENV_SECRET}`,
        },
      },
    });
    const file: ApiOutput<'export.build'> = await call('export.build', { format: 'jsonl', card: true });
    expect(file.fileName).toBe('review-card.json');
    for (const secret of [ENV_SECRET, EXTRA_SECRET, 'querysecret', 'LOUPE_REVIEW_TEST_KEY', 'apiKeyEnv'])
      expect(file.content).not.toContain(secret);
    const card = JSON.parse(file.content) as Record<string, any>;
    expect(card).toMatchObject({
      format: 'loupe-dataset-card/1',
      project: 'review',
      loupe_version: expect.any(String),
      schema_version: SCHEMA_VERSION,
    });
    const news = card.datasets[0];
    expect(news).toMatchObject({
      name: 'news',
      summaries: 8,
      sentences: 16,
      global_labels: { faithful: 7, unfaithful: 1 },
      corrections: { summaries: 7, flips: 3 },
    });
    expect(news.splitters).toEqual([{ splitter: 'given', version: expect.any(String), sentences: 16 }]);
    expect(news.annotation).toMatchObject({ current_labels: 11, people: 2 });
    expect(news.review.people).toBe(2);
    expect(news.people.map((p: any) => [p.name, p.phase, p.labels])).toEqual([
      ['adam', 'review', 5],
      ['alice', 'annotation', 8],
      ['bob', 'annotation', 3],
      ['rita', 'review', 4],
    ]);
    expect(news.review_table).toMatchObject({ pool: 5, listed: 4, unfaithful: 2 });
    const endpoint = card.judges.find((j: any) => j.name === 'endpoint judge');
    expect(endpoint.settings).toMatchObject({
      base_url: 'http://127.0.0.1:9/v1',
      model: 'qwen3-8b',
      temperature: 0,
      template_is_default: true,
    });
    expect(endpoint.settings.extra).toEqual({
      api_key: '[redacted]',
      chat_template_kwargs: { enable_thinking: false },
      note: 'Bearer [redacted]',
    });
    expect(card.judges.map((j: any) => j.name)).toEqual(['J1', 'J2', 'endpoint judge']);
    expect(card.rules.adjudicated_label).toMatch(/human-vs-human/);
    // Labels and review exports are unchanged by the card (it is its own file).
    const labels: ApiOutput<'export.build'> = await call('export.build', { format: 'jsonl' });
    expect(labels.content.split('\n')[0]).not.toContain('_card');
  });
});
