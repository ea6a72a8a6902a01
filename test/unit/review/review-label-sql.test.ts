/**
 * The rules SQL still applies, against their TypeScript statements, on the same rows:
 * - which event of a (unit, person, phase) is current: db/latest.ts in every repository read vs
 *   shared/latest-event.ts, on events whose ids do not follow their times (merged copies) and
 *   whose times tie;
 * - the adjudication rule has no SQL copy left: both repositories' adjudicatedLabels are the rule
 *   of shared/analysis/human-label.ts over the current events, checked against a hand-stated list;
 * - the two row readers (the analysis worker's and the review store's) give the one loader the
 *   same labels, so every unit's analysis view is the same on both paths.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openProjectDatabase } from '../../../db/open';
import { Repository } from '../../../db/repository';
import { AnalysisRepository } from '../../../db/analysisRepository';
import { loadAnalysisDatasets } from '../../../electron/core/analysis/load';
import { loadDataset } from '../../../electron/core/review/load';
import { currentEvent } from '../../../shared/latest-event';
import { adjudicatedLabelRows } from '../../../shared/analysis/human-label';
import type { HumanLabel, Phase } from '../../../shared/domain';
import type { ReviewQueueKind } from '../../../shared/api';
import { tempDir } from '../../helpers/tmp';

const dir = tempDir('loupe-label-sql-');
let db: Database.Database;
let repo: Repository;

interface Event {
  id: number;
  unitId: number;
  annotatorId: number;
  phase: Phase;
  label: HumanLabel | null;
  createdAt: string;
  queue: ReviewQueueKind | null;
}

const PEOPLE = ['alice', 'bob', 'carol', 'adam', 'rita'] as const;
/** Units of the generated events (summary 3); summaries 1 and 2 hold the hand-placed cases. */
const GENERATED_UNITS = [30, 31, 32, 33] as const;
const unitRef = (unitId: number) => ({ summaryKey: Math.floor(unitId / 10), unitIndex: unitId % 10 });
/** Few distinct times, so many events tie on created_at and the id must break the tie. */
const TIMES = [
  '2025-03-01T10:00:00.000Z',
  '2025-03-01T10:00:00.001Z',
  '2025-03-02T09:59:59.999Z',
  '2025-03-02T10:00:00.000Z',
];
const LABELS: Array<HumanLabel | null> = ['faithful', 'unfaithful', 'unclear', null];
const QUEUES: Array<ReviewQueueKind | null> = ['human-human', 'suspicious', 'human-judge', null];

/** A small deterministic generator (the test's own, so the rows never change). */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const events: Event[] = [];

beforeAll(() => {
  db = openProjectDatabase(Database, join(dir, 'p.loupe'), { create: true });
  db.exec(`
    INSERT INTO datasets (id, name, created_at) VALUES (1, 'news', '2025-01-01T00:00:00.000Z');
    INSERT INTO documents (id, dataset_id, doc_id, text) VALUES (1, 1, 'd1', 'The council met on Tuesday and voted.');
    INSERT INTO summaries (id, dataset_id, document_id, summary_id, text, global_label) VALUES
      (1, 1, 1, 's1', 'a b c d', 1), (2, 1, 1, 's2', 'e f', 1), (3, 1, 1, 's3', 'g h i j', 1);
    INSERT INTO units (id, summary_id, idx, text, start, end, fragment, splitter, splitter_version) VALUES
      (10, 1, 0, 'The council met on Tuesday.', 0, 1, 0, 'given', 'f'), (11, 1, 1, 'It voted for the plan.', 0, 1, 0, 'given', 'f'),
      (12, 1, 2, 'The vote was close.', 0, 1, 0, 'given', 'f'), (13, 1, 3, 'Taxes rise.', 0, 1, 1, 'given', 'f'),
      (20, 2, 0, 'The mayor spoke.', 0, 1, 0, 'given', 'f'), (21, 2, 1, 'She thanked everyone.', 0, 1, 0, 'given', 'f'),
      (30, 3, 0, 'One more sentence here.', 0, 1, 0, 'given', 'f'), (31, 3, 1, 'And another one follows.', 0, 1, 0, 'given', 'f'),
      (32, 3, 2, 'A third sentence now.', 0, 1, 0, 'given', 'f'), (33, 3, 3, 'The last one.', 0, 1, 0, 'given', 'f');
  `);
  PEOPLE.forEach((name, i) =>
    db.prepare('INSERT INTO annotators (id, name, created_at) VALUES (?, ?, ?)').run(i + 1, name, 'x'),
  );

  // Generated events, inserted in an order unrelated to their times (as a merge does).
  const random = lcg(8);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const drafts: Array<Omit<Event, 'id'>> = [];
  for (let i = 0; i < 400; i++) {
    const annotatorId = 1 + Math.floor(random() * PEOPLE.length);
    const phase: Phase = annotatorId <= 3 ? 'annotation' : random() < 0.8 ? 'review' : 'annotation';
    drafts.push({
      unitId: pick(GENERATED_UNITS),
      annotatorId,
      phase,
      label: pick(LABELS),
      createdAt: pick(TIMES),
      queue: phase === 'review' ? pick(QUEUES) : null,
    });
  }
  const insert = db.prepare(
    `INSERT INTO label_events (unit_id, annotator_id, phase, label, error_type, note, time_spent_ms, cause, created_at) VALUES (?, ?, ?, ?, NULL, NULL, 1000, 'label', ?)`,
  );
  const insertQueue = db.prepare('INSERT INTO review_events (event_id, queue, judges) VALUES (?, ?, ?)');
  for (const d of drafts) {
    const id = Number(insert.run(d.unitId, d.annotatorId, d.phase, d.label, d.createdAt).lastInsertRowid);
    if (d.queue !== null) insertQueue.run(id, d.queue, '[]');
    events.push({ ...d, id });
  }

  // Hand-placed cases (summaries 1 and 2), whose outcome is known:
  // unit 12: alice F, bob U, adam (human-human) says U, rita (human-human) says U → adjudicated U.
  // unit 13: alice F, bob F; adam (human-human) U still adjudicates (≥ 2 annotators).
  // unit 20: only alice (bob cleared) → adam's human-human decision does not count (< 2 annotators).
  // unit 21: alice F, bob U; adam U, rita F (both human-human) → adjudicators disagree: none.
  // unit 10: alice F, bob U; adam U (human-human) then cleared → none; rita U from suspicious → a review label only.
  // unit 11: alice F, bob U; adam's later-inserted decision (larger id) has the earlier time: F is current.
  const late = (n: number) => `2025-04-01T00:00:00.${String(n).padStart(3, '0')}Z`;
  const add = (
    unitId: number,
    person: (typeof PEOPLE)[number],
    phase: Phase,
    label: HumanLabel | null,
    at: string,
    queue: ReviewQueueKind | null = null,
  ) => {
    const annotatorId = PEOPLE.indexOf(person) + 1;
    const id = Number(insert.run(unitId, annotatorId, phase, label, at).lastInsertRowid);
    if (queue !== null) insertQueue.run(id, queue, '[]');
    events.push({ id, unitId, annotatorId, phase, label, createdAt: at, queue });
  };
  for (const [unit, alice, bob] of [
    [12, 'faithful', 'unfaithful'],
    [13, 'faithful', 'faithful'],
    [21, 'faithful', 'unfaithful'],
    [10, 'faithful', 'unfaithful'],
    [11, 'faithful', 'unfaithful'],
  ] as const) {
    add(unit, 'alice', 'annotation', alice, late(2));
    add(unit, 'bob', 'annotation', bob, late(2));
  }
  add(20, 'alice', 'annotation', 'faithful', late(2));
  add(20, 'bob', 'annotation', null, late(2));
  add(12, 'adam', 'review', 'unfaithful', late(3), 'human-human');
  add(12, 'rita', 'review', 'unfaithful', late(3), 'human-human');
  add(13, 'adam', 'review', 'unfaithful', late(3), 'human-human');
  add(20, 'adam', 'review', 'unfaithful', late(3), 'human-human');
  add(21, 'adam', 'review', 'unfaithful', late(3), 'human-human');
  add(21, 'rita', 'review', 'faithful', late(3), 'human-human');
  add(10, 'adam', 'review', 'unfaithful', late(3), 'human-human');
  add(10, 'adam', 'review', null, late(4), 'human-human');
  add(10, 'rita', 'review', 'unfaithful', late(4), 'suspicious');
  // Unit 11: the later-inserted event (larger id) carries the earlier time: the faithful one is current.
  add(11, 'adam', 'review', 'faithful', late(6), 'human-human');
  add(11, 'adam', 'review', 'unfaithful', late(5), 'human-human');
  repo = new Repository(db);
});

/** The TypeScript rule's current event of every (unit, person, phase). */
function currentByTs(): Map<string, Event> {
  const groups = new Map<string, Event[]>();
  for (const e of events) {
    const key = `${e.unitId}/${e.annotatorId}/${e.phase}`;
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  return new Map([...groups].map(([key, list]) => [key, currentEvent(list)!]));
}

describe('the current event: SQL (db/latest.ts) and TypeScript (shared/latest-event.ts) agree', () => {
  it('current events tied on created_at and ids out of time order are really there', () => {
    const groups = new Map<string, Event[]>();
    for (const e of events)
      groups.set(`${e.unitId}/${e.annotatorId}/${e.phase}`, [
        ...(groups.get(`${e.unitId}/${e.annotatorId}/${e.phase}`) ?? []),
        e,
      ]);
    const tiedAtTheTop = [...groups.values()].filter((list) => {
      const latest = list.reduce((max, e) => (e.createdAt > max ? e.createdAt : max), '');
      return new Set(list.filter((e) => e.createdAt === latest).map((e) => e.label)).size > 1;
    });
    expect(tiedAtTheTop.length).toBeGreaterThan(0);
    const outOfOrder = events.filter((a) =>
      events.some(
        (b) =>
          b.id > a.id &&
          b.createdAt < a.createdAt &&
          b.unitId === a.unitId &&
          b.annotatorId === a.annotatorId &&
          b.phase === a.phase,
      ),
    );
    expect(outOfOrder.length).toBeGreaterThan(0);
  });

  it('the review store picks the same event for every (unit, person, phase)', () => {
    const ts = currentByTs();
    const sql = repo.review.currentLabels('news');
    expect(sql).toHaveLength(ts.size);
    for (const row of sql) {
      const expected = ts.get(`${row.unitId}/${row.annotatorId}/${row.phase}`)!;
      expect({ id: row.eventId, label: row.label, queue: row.queue, lastAt: row.lastAt }).toEqual({
        id: expected.id,
        label: expected.label,
        queue: expected.queue,
        lastAt: expected.createdAt,
      });
    }
  });

  it('the analysis reader and the annotation state read the same current labels', () => {
    const ts = currentByTs();
    const labelled = [...ts.values()].filter((e) => e.label !== null);
    const analysis = new AnalysisRepository(db).currentLabels('news');
    const name = (id: number) => PEOPLE[id - 1]!;
    const key = (r: { summaryKey: number; unitIndex: number; annotator: string; phase: Phase }) =>
      `${r.summaryKey}/${r.unitIndex}/${r.annotator}/${r.phase}`;
    expect(new Map(analysis.map((r) => [key(r), [r.label, r.queue]]))).toEqual(
      new Map(
        labelled.map((e) => [
          key({ ...unitRef(e.unitId), annotator: name(e.annotatorId), phase: e.phase }),
          [e.label, e.queue],
        ]),
      ),
    );
    for (const [person, phase] of [
      [1, 'annotation'],
      [2, 'annotation'],
      [4, 'review'],
      [5, 'review'],
      [4, 'annotation'],
    ] as const) {
      const states = repo.currentStates(3, person, phase);
      for (const unitId of GENERATED_UNITS) {
        const expected = ts.get(`${unitId}/${person}/${phase}`);
        expect(states.get(unitId)?.label ?? null).toBe(expected?.label ?? null);
      }
    }
  });
});

describe('adjudicated labels: one rule, no SQL copy', () => {
  it('both repositories give the hand-stated units (human-human decisions agreeing, ≥ 2 annotators)', () => {
    const expected = [
      { summaryKey: 1, unitIndex: 1, label: 'faithful' },
      { summaryKey: 1, unitIndex: 2, label: 'unfaithful' },
      { summaryKey: 1, unitIndex: 3, label: 'unfaithful' },
    ];
    const handPlaced = (rows: Array<{ summaryKey: number }>) => rows.filter((r) => r.summaryKey < 3);
    const fromReview = repo.review.adjudicatedLabels('news');
    const fromAnalysis = new AnalysisRepository(db).adjudicatedLabels('news');
    expect(handPlaced(fromReview)).toEqual(expected);
    // On the generated units too, both equal the rule over the TypeScript-picked current events.
    const ts = [...currentByTs().values()].map((e) => ({
      ...unitRef(e.unitId),
      annotator: PEOPLE[e.annotatorId - 1]!,
      phase: e.phase,
      label: e.label,
      queue: e.queue,
    }));
    expect(fromReview).toEqual(adjudicatedLabelRows(ts));
    expect(fromAnalysis).toEqual(fromReview);
  });
});

describe('one loader: the analysis path and the review path build the same units', () => {
  it('human label, status, review label, ratings and judges are equal unit by unit', () => {
    const [analysis] = loadAnalysisDatasets(new AnalysisRepository(db), 'news');
    const review = loadDataset(repo.review, 'news');
    expect(review.summaries.map((s) => s.analysis.summaryId).sort()).toEqual(
      analysis!.summaries.map((s) => s.summaryId),
    );
    for (const summary of review.summaries) {
      expect(summary.analysis).toEqual(analysis!.summaries.find((s) => s.summaryId === summary.row.summaryId));
    }
    // The hand-placed cases, read back through the review path.
    const unit = (key: number, index: number) => review.summaries.find((s) => s.row.key === key)!.units[index]!;
    expect([unit(1, 2).analysis.human, unit(1, 2).analysis.humanStatus, unit(1, 2).auditAdjudicated]).toEqual([
      'unfaithful',
      'adjudicated',
      'unfaithful',
    ]);
    expect([unit(2, 1).analysis.human, unit(2, 1).analysis.humanStatus]).toEqual([null, 'disagreement']);
    expect([unit(2, 0).analysis.human, unit(2, 0).analysis.humanStatus, unit(2, 0).auditAdjudicated]).toEqual([
      'faithful',
      'single',
      null,
    ]);
    expect([unit(1, 0).analysis.humanStatus, unit(1, 0).analysis.review]).toEqual(['disagreement', 'unfaithful']);
  });
});
