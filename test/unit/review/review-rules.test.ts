/**
 * The pure rules kept in one place, case by case: the human-label rules
 * (shared/analysis/human-label.ts), the current-event order (shared/latest-event.ts), and Table 4's
 * one builder with its projections (shared/analysis/review-table.ts, shared/review/table4.ts),
 * checked against the analysis report and review.table's row built from the same rows.
 */
import { describe, expect, it } from 'vitest';
import {
  adjudicatedLabelRows,
  auditAdjudicatedLabel,
  resolveHumanLabel,
  reviewLabel,
  unitHumanLabels,
  type CurrentLabelEvent,
} from '../../../shared/analysis/human-label';
import { buildReviewTable, reviewSummary } from '../../../shared/analysis/review-table';
import { analyzeDataset, datasetFromRows } from '../../../shared/analysis';
import { compareCurrentFirst, currentEvent } from '../../../shared/latest-event';
import {
  assembleReviewDataset,
  computeTable4,
  defaultPanel,
  table4Row,
  type ReviewDatasetRows,
  type ReviewLabelRow,
} from '../../../shared/review';
import type { HumanLabel } from '../../../shared/domain';
import type { ReviewQueueKind } from '../../../shared/api';

const F = 'faithful';
const U = 'unfaithful';
const C = 'unclear';
const ann = (annotator: string, label: HumanLabel | null): CurrentLabelEvent => ({
  annotator,
  phase: 'annotation',
  label,
  queue: null,
});
const dec = (annotator: string, label: HumanLabel | null, queue: ReviewQueueKind | null): CurrentLabelEvent => ({
  annotator,
  phase: 'review',
  label,
  queue,
});

describe('the human-label rules (one table of cases)', () => {
  const cases: Array<
    [string, CurrentLabelEvent[], { human: HumanLabel | null; humanStatus: string; review: HumanLabel | null }]
  > = [
    ['nobody labeled it', [], { human: null, humanStatus: 'none', review: null }],
    ['one annotator', [ann('a', F)], { human: F, humanStatus: 'single', review: null }],
    ['annotators agree', [ann('a', U), ann('b', U)], { human: U, humanStatus: 'agreed', review: null }],
    [
      'annotators disagree (unclear counts)',
      [ann('a', F), ann('b', C)],
      { human: null, humanStatus: 'disagreement', review: null },
    ],
    [
      'a cleared annotation label is no label',
      [ann('a', F), ann('b', null)],
      { human: F, humanStatus: 'single', review: null },
    ],
    [
      'a human-human decision settles a disagreement',
      [ann('a', F), ann('b', U), dec('x', U, 'human-human')],
      { human: U, humanStatus: 'adjudicated', review: null },
    ],
    [
      'human-human adjudicators who agree',
      [ann('a', F), ann('b', U), dec('x', F, 'human-human'), dec('y', F, 'human-human')],
      { human: F, humanStatus: 'adjudicated', review: null },
    ],
    [
      'human-human adjudicators who disagree leave it unresolved',
      [ann('a', F), ann('b', U), dec('x', F, 'human-human'), dec('y', U, 'human-human')],
      { human: null, humanStatus: 'disagreement', review: null },
    ],
    [
      'a cleared human-human decision does not count',
      [ann('a', F), ann('b', U), dec('x', null, 'human-human'), dec('y', U, 'human-human')],
      { human: U, humanStatus: 'adjudicated', review: null },
    ],
    [
      'adjudication needs ≥ 2 annotators',
      [ann('a', F), dec('x', U, 'human-human')],
      { human: F, humanStatus: 'single', review: null },
    ],
    [
      'two agreeing annotators can still be adjudicated',
      [ann('a', F), ann('b', F), dec('x', U, 'human-human')],
      { human: U, humanStatus: 'adjudicated', review: null },
    ],
    [
      'a suspicious-queue decision is a review label, never the audit label',
      [ann('a', F), ann('b', U), dec('x', U, 'suspicious')],
      { human: null, humanStatus: 'disagreement', review: U },
    ],
    [
      'an imported review label (no queue) is a review label',
      [ann('a', F), dec('x', U, null)],
      { human: F, humanStatus: 'single', review: U },
    ],
    [
      'reviewers of other queues who agree',
      [dec('x', U, 'human-judge'), dec('y', U, 'judges-split')],
      { human: null, humanStatus: 'none', review: U },
    ],
    [
      'reviewers who disagree give no review label',
      [dec('x', F, 'suspicious'), dec('y', U, 'human-judge')],
      { human: null, humanStatus: 'none', review: null },
    ],
    [
      'human-human decisions beside others: each counts in its own place',
      [ann('a', F), ann('b', U), dec('x', F, 'human-human'), dec('y', U, 'suspicious')],
      { human: F, humanStatus: 'adjudicated', review: U },
    ],
  ];
  it.each(cases)('%s', (_name, events, expected) => {
    const labels = unitHumanLabels(events);
    expect({ human: labels.human, humanStatus: labels.humanStatus, review: labels.review }).toEqual(expected);
    expect(auditAdjudicatedLabel(events)).toBe(expected.humanStatus === 'adjudicated' ? expected.human : null);
    expect(reviewLabel(events)).toBe(expected.review);
  });

  it('ratings are the annotators’ own labels only, as data even for odd names', () => {
    const labels = unitHumanLabels([
      ann('__proto__', F),
      ann('b', U),
      ann('c', null),
      dec('x', U, 'human-human'),
      dec('y', F, 'suspicious'),
    ]);
    expect(Object.keys(labels.ratings)).toEqual(['__proto__', 'b']);
    expect(Object.hasOwn(labels.ratings, '__proto__')).toBe(true);
    expect(labels.ratings.b).toBe(U);
  });

  it('an adjudicated label given from elsewhere replaces the rule (null: none)', () => {
    const disputed = [ann('a', F), ann('b', U), dec('x', U, 'human-human')];
    expect(unitHumanLabels(disputed, F)).toMatchObject({ human: F, humanStatus: 'adjudicated' });
    expect(unitHumanLabels(disputed, null)).toMatchObject({ human: null, humanStatus: 'disagreement' });
    expect(resolveHumanLabel({ a: F, b: U }, U)).toEqual({ label: U, status: 'adjudicated' });
  });

  it('adjudicatedLabelRows applies the rule per unit, by summary key then unit index', () => {
    const at = (summaryKey: number, unitIndex: number, e: CurrentLabelEvent) => ({ summaryKey, unitIndex, ...e });
    const rows = [
      at(2, 0, ann('a', F)),
      at(2, 0, ann('b', U)),
      at(2, 0, dec('x', F, 'human-human')),
      at(1, 3, ann('a', F)),
      at(1, 3, ann('b', U)),
      at(1, 3, dec('x', U, 'human-human')),
      at(1, 1, ann('a', F)),
      at(1, 1, dec('x', U, 'human-human')),
      at(1, 0, ann('a', F)),
      at(1, 0, ann('b', U)),
      at(1, 0, dec('x', U, 'suspicious')),
    ];
    expect(adjudicatedLabelRows(rows)).toEqual([
      { summaryKey: 1, unitIndex: 3, label: U },
      { summaryKey: 2, unitIndex: 0, label: F },
    ]);
  });
});

describe('the current event (TypeScript statement of db/latest.ts)', () => {
  it('latest created_at first; the larger id breaks a tie; ids alone do not decide', () => {
    const older = { createdAt: '2025-01-01T00:00:00.000Z', id: 9 };
    const newer = { createdAt: '2025-01-01T00:00:00.001Z', id: 2 };
    const tie = { createdAt: '2025-01-01T00:00:00.001Z', id: 5 };
    expect(compareCurrentFirst(newer, older)).toBeLessThan(0);
    expect(compareCurrentFirst(tie, newer)).toBeLessThan(0);
    expect(currentEvent([older, newer])).toBe(newer);
    expect(currentEvent([newer, tie, older])).toBe(tie);
    expect(currentEvent([])).toBeUndefined();
    expect([older, tie, newer].sort(compareCurrentFirst)).toEqual([tie, newer, older]);
  });
});

describe('Table 4: one builder, every shape a projection', () => {
  it('counts the listed flagged sentences; the issue’s shape and review.table’s row project it', () => {
    const table = buildReviewTable(7, [
      { review_labels: [U, null] },
      { review_labels: [F] },
      { review_labels: [null, null] },
      { review_labels: [C, U, U] },
    ]);
    expect(table).toEqual({
      pool: 7,
      reviewed_summaries: 3,
      flagged_sentences: 8,
      unfaithful: 3,
      faithful: 1,
      unclear: 1,
      not_reviewed: 3,
      pct_unfaithful: { value: 0.75, n: 4 },
    });
    expect(reviewSummary(table)).toEqual({ pool: 7, reviewed: 3, U: 3, F: 1, unclear: 1, pct_U: 75 });
    expect(reviewSummary(buildReviewTable(2, [{ review_labels: [C, null] }]))).toEqual({
      pool: 2,
      reviewed: 1,
      U: 0,
      F: 0,
      unclear: 1,
      pct_U: null,
    });
    const row = table4Row({ dataset: 'd', judgeCount: 2, afterFragmentFilter: 5, cap: 4, listed: 4 }, table, {
      errorTypes: {
        entity: 0,
        relation: 0,
        number_or_date: 0,
        not_in_source: 0,
        attribution: 0,
        overstatement: 0,
        boilerplate: 0,
        other: 0,
        untyped: 3,
      },
      fast: 1,
    });
    expect(row).toMatchObject({
      pool: 7,
      reviewed: 3,
      flaggedSentences: 8,
      unfaithful: 3,
      faithful: 1,
      unclear: 1,
      notReviewed: 3,
      pctUnfaithful: 0.75,
      pctUnfaithfulN: 4,
      listed: 4,
      cap: 4,
    });
  });

  it('review.table’s row and the analysis report agree on rows read once (the same loader)', () => {
    const S = 'The council approved the new budget on Tuesday.';
    const T = 'The plan adds twelve million dollars for schools.';
    let eventId = 0;
    const label = (
      unitId: number,
      summaryKey: number,
      unitIndex: number,
      annotator: string,
      phase: 'annotation' | 'review',
      l: HumanLabel,
      queue: ReviewQueueKind | null,
      errorType: ReviewLabelRow['errorType'] = null,
      blindTimeMs = 5000,
    ): ReviewLabelRow => ({
      unitId,
      summaryKey,
      unitIndex,
      annotator,
      annotatorId: annotator.charCodeAt(0),
      phase,
      label: l,
      queue,
      eventId: ++eventId,
      errorType,
      note: null,
      blindTimeMs,
      totalTimeMs: blindTimeMs,
      events: 1,
      firstAt: '2025-01-01T00:00:00.000Z',
      lastAt: `2025-01-01T00:00:0${eventId % 10}.000Z`,
    });
    // Three suspicious summaries (global label 1, both judges flag sentence 0), one not suspicious.
    const summaries = [1, 2, 3, 4].map((key) => ({
      key,
      dataset: 'news',
      summaryId: `s${key}`,
      docId: `d${5 - key}`,
      summary: '',
      document: '',
      globalLabel: 1 as const,
    }));
    const units = summaries.flatMap((s) =>
      [0, 1].map((index) => ({
        id: s.key * 10 + index,
        summaryKey: s.key,
        index,
        text: index === 0 ? S : T,
        start: 0,
        end: 1,
        fragment: false,
        splitter: 'given f',
      })),
    );
    const predictions = units.flatMap((u) =>
      ['J1', 'J2'].map((judge) => ({
        unitId: u.id,
        summaryKey: u.summaryKey,
        unitIndex: u.index,
        judge,
        hard: (u.index === 0 && u.summaryKey < 4 ? 0 : 1) as 0 | 1,
        soft: null,
      })),
    );
    const labels = [
      label(10, 1, 0, 'rita', 'review', U, 'suspicious', 'entity', 900),
      label(20, 2, 0, 'rita', 'review', F, 'suspicious'),
      label(20, 2, 0, 'alice', 'annotation', U, null),
      label(20, 2, 0, 'bob', 'annotation', F, null),
      label(20, 2, 0, 'adam', 'review', U, 'human-human'), // adjudication: not a review label
      label(30, 3, 0, 'alice', 'annotation', F, null),
    ];
    const rows: ReviewDatasetRows = {
      name: 'news',
      summaries,
      units,
      labels,
      predictions,
      judgesByCreation: ['J2', 'J1'],
    };
    const loaded = assembleReviewDataset(rows);
    const panel = defaultPanel(loaded);
    const report = analyzeDataset(datasetFromRows(rows), { bootstrap: 0, cap: 2 });
    const row = computeTable4(loaded, panel, 2, 2000);

    expect(report.suspicious.listed.map((e) => e.summary_id)).toEqual(['s3', 's2']); // by doc id, capped at 2
    expect(report.suspicious.review).toEqual(buildReviewTable(3, report.suspicious.listed));
    expect(report.review).toEqual(reviewSummary(report.suspicious.review));
    expect(row).toEqual(
      table4Row(
        { dataset: 'news', judgeCount: 2, afterFragmentFilter: 3, cap: 2, listed: 2 },
        report.suspicious.review,
        { errorTypes: row.errorTypes, fast: 0 },
      ),
    );
    expect([row.reviewed, row.faithful, row.unfaithful, row.notReviewed]).toEqual([1, 1, 0, 1]);
    // Uncapped, rita's fast unfaithful decision on s1 shows up with its error type.
    const all = computeTable4(loaded, panel, 25, 2000);
    expect([all.listed, all.unfaithful, all.errorTypes.entity, all.fast]).toEqual([3, 1, 1, 1]);
  });
});
