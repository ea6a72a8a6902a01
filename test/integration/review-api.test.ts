/**
 * The review API end to end: the real `loupe serve` on the demo project (FRANK sample,
 * the offline baseline judge over the sample and the imported FineSurE judge), called over HTTP
 * as the page calls it, then the CLI on the same project file.
 *
 * The demo's suspicious pool is empty with both judges (they share predictions on two summaries
 * only, and neither is suspicious to both), so the suspicious path runs with the FineSurE judge
 * as the panel (pool 1); the human-vs-human queue (FRANK's three annotators) carries the rest.
 */
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ApiOutput,
  ReviewCard,
  ReviewQueue,
  ReviewReveal,
  ReviewTable,
  DatasetCorrections,
} from '../../shared/api';
import { apiCall, startServe, type ServeProcess } from '../helpers/serve';
import { mustLoupe } from '../helpers/project';
import { tempDir } from '../helpers/tmp';

const stateDir = tempDir('loupe-review-e2e-');
const FINESURE = 'finesure-gpt-4o (imported)';
const BASELINE = 'baseline (offline rule)';
const PEOPLE = ['frank-0', 'frank-1', 'frank-2'];
const REVIEWER = 'e2e-adjudicator';
let serve: ServeProcess;

beforeAll(async () => {
  serve = await startServe([], { LOUPE_STATE_DIR: stateDir });
}, 180_000);

afterAll(async () => {
  await serve?.stop();
});

async function apiError(method: string, input: unknown): Promise<string> {
  try {
    await apiCall(serve, method, input);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error(`${method} succeeded`);
}

function strings(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => strings(v, out));
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      strings(v, out);
    }
  else if (typeof value === 'string') out.push(value);
  return out;
}

describe('review over HTTP on the demo project', () => {
  it('lists the queues: suspicious is empty with both judges, not with the FineSurE panel; human-human is not empty', async () => {
    const both = await apiCall<ReviewQueue>(serve, 'review.queue', { queue: 'suspicious', dataset: 'frank' });
    expect([both.judgeCount, both.pool, both.items.length]).toEqual([2, 0, 0]);
    const finesure = await apiCall<ReviewQueue>(serve, 'review.queue', {
      queue: 'suspicious',
      dataset: 'frank',
      judges: [FINESURE],
    });
    expect(finesure.pool).toBeGreaterThan(0);
    expect(finesure.items.length).toBeGreaterThan(0);
    const hh = await apiCall<ReviewQueue>(serve, 'review.queue', { queue: 'human-human', dataset: 'frank' });
    expect(hh.items.length).toBeGreaterThan(0);
    const order = hh.items.map((i) => `${i.docId}\u0000${i.summaryId}`);
    expect(order).toEqual([...order].sort());
    expect(strings(hh).some((s) => [...PEOPLE, FINESURE, BASELINE].includes(s))).toBe(false);
  });

  it('adjudicates a human-human card blind, then reveals the annotators, judges and global label', async () => {
    const hh = await apiCall<ReviewQueue>(serve, 'review.queue', { queue: 'human-human', dataset: 'frank' });
    const item = hh.items[0]!;
    const card = await apiCall<ReviewCard>(serve, 'review.card', {
      key: item.key,
      queue: 'human-human',
      reviewer: REVIEWER,
    });
    expect(card.units.filter((u) => u.marked).map((u) => u.index)).toEqual(item.marked);
    expect(Object.keys(card).sort()).toEqual([
      'dataset',
      'docId',
      'document',
      'key',
      'progress',
      'queue',
      'splitter',
      'summary',
      'summaryId',
      'units',
    ]);
    const seen = strings(card);
    for (const hidden of ['globalLabel', 'judges', 'annotators', 'hard', 'soft', ...PEOPLE, FINESURE, BASELINE])
      expect(seen).not.toContain(hidden);

    expect(await apiError('review.reveal', { key: item.key, queue: 'human-human', reviewer: REVIEWER })).toMatch(
      /decided by e2e-adjudicator yet/,
    );
    let last: ApiOutput<'review.record'> | null = null;
    for (const unit of card.units.filter((u) => u.marked)) {
      last = await apiCall<ApiOutput<'review.record'>>(serve, 'review.record', {
        unitId: unit.id,
        queue: 'human-human',
        reviewer: REVIEWER,
        state: { label: 'unfaithful', errorType: 'entity', note: null },
        timeSpentMs: 700,
        cause: 'label',
        anonymizeAnnotators: true,
      });
      expect(last.reveal!.sentences.map((s) => s.unitId)).toEqual([unit.id]);
      expect(last.reveal!.sentences[0]!.annotators.length).toBeGreaterThanOrEqual(2);
      expect(last.reveal!.sentences[0]!.annotators.every((a) => /^Annotator \d+$/.test(a.annotator))).toBe(true);
    }
    expect(last!.progress).toEqual({ marked: item.marked.length, decided: item.marked.length });
    expect(last!.reveal!.globalLabelHidden).toBe(false);
    expect([0, 1]).toContain(last!.reveal!.globalLabel);
    const reveal = await apiCall<ReviewReveal>(serve, 'review.reveal', {
      key: item.key,
      queue: 'human-human',
      reviewer: REVIEWER,
    });
    expect(reveal.sentences.map((s) => s.index)).toEqual(item.marked);
    expect(reveal.sentences[0]!.annotators.map((a) => a.annotator).every((n) => PEOPLE.includes(n))).toBe(true);

    const after = await apiCall<ReviewQueue>(serve, 'review.queue', {
      queue: 'human-human',
      dataset: 'frank',
      reviewer: REVIEWER,
    });
    expect(after.items[0]).toMatchObject({ key: item.key, decided: item.marked, fast: item.marked });
  });

  it('reviews the suspicious summary (FineSurE panel): Table 4, the flip and the exports follow', async () => {
    const queue = await apiCall<ReviewQueue>(serve, 'review.queue', {
      queue: 'suspicious',
      dataset: 'frank',
      judges: [FINESURE],
    });
    const item = queue.items[0]!;
    const card = await apiCall<ReviewCard>(serve, 'review.card', {
      key: item.key,
      queue: 'suspicious',
      reviewer: REVIEWER,
      judges: [FINESURE],
    });
    for (const unit of card.units.filter((u) => u.marked)) {
      const out = await apiCall<ApiOutput<'review.record'>>(serve, 'review.record', {
        unitId: unit.id,
        queue: 'suspicious',
        reviewer: REVIEWER,
        judges: [FINESURE],
        state: { label: 'unfaithful', errorType: 'not_in_source', note: 'checked against the article' },
        timeSpentMs: 9000,
        cause: 'label',
        anonymizeJudges: true,
      });
      expect(out.reveal!.sentences[0]!.judges).toEqual([
        { judge: expect.stringMatching(/^Judge [A-Z]$/), hard: 0, soft: null },
      ]);
      expect(out.reveal!.globalLabel).toBe(1);
    }
    const [table] = await apiCall<ReviewTable[]>(serve, 'review.table', { dataset: 'frank', judges: [FINESURE] });
    expect(table).toMatchObject({
      pool: queue.pool,
      listed: queue.items.length,
      reviewed: 1,
      unfaithful: item.marked.length,
      faithful: 0,
      pctUnfaithful: 1,
    });
    expect(table!.errorTypes.not_in_source).toBe(item.marked.length);

    const [corrections] = await apiCall<DatasetCorrections[]>(serve, 'review.corrections', { dataset: 'frank' });
    expect(corrections!.flips.map((c) => c.summaryId)).toContain(item.summaryId);
    expect(corrections!.flips.find((c) => c.summaryId === item.summaryId)).toMatchObject({
      benchmarkLabel: 1,
      correctedLabel: 0,
      basis: 'unfaithful_sentence',
    });

    const review = await apiCall<ApiOutput<'export.build'>>(serve, 'export.build', { format: 'jsonl', review: true });
    const rows = review.content
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.filter((r) => r.queue === 'suspicious').map((r) => r.summary_id)).toEqual(
      item.marked.map(() => item.summaryId),
    );
    expect(
      rows.filter((r) => r.queue === 'human-human').every((r) => r.counts_in_audit === true && r.fast === true),
    ).toBe(true);
    const card2 = await apiCall<ApiOutput<'export.build'>>(serve, 'export.build', { format: 'jsonl', card: true });
    const parsed = JSON.parse(card2.content) as {
      datasets: Array<{ name: string; review: { people: number } }>;
      judges: Array<{ name: string }>;
    };
    expect(parsed.datasets[0]).toMatchObject({ name: 'frank', review: { people: 1 } });
    expect(parsed.judges.map((j) => j.name)).toEqual(expect.arrayContaining([FINESURE, BASELINE]));
  });

  it('the CLI lists the same queue and writes the review export and the card', () => {
    const project = join(stateDir, 'demo.loupe');
    const listed = JSON.parse(
      mustLoupe([
        'review',
        '--project',
        project,
        '--queue',
        'human-human',
        '--dataset',
        'frank',
        '--reviewer',
        REVIEWER,
        '--json',
      ]),
    ) as ReviewQueue;
    expect(listed.items[0]!.decided.length).toBeGreaterThan(0);
    const text = mustLoupe([
      'review',
      '--project',
      project,
      '--queue',
      'suspicious',
      '--dataset',
      'frank',
      '--judge',
      FINESURE,
      '--cap',
      '5',
    ]);
    expect(text.split('\n')[0]).toMatch(
      /^suspicious queue of frank, 1 judge\(s\): pool \d+, \d+ matching, \d+ listed \(cap 5\)$/,
    );
    expect(mustLoupe(['review-table', '--project', project, '--judge', FINESURE])).toMatch(/^frank\t\d+\t1\t/m);
    const out = join(stateDir, 'review.csv');
    const card = join(stateDir, 'card.json');
    expect(mustLoupe(['export', '--project', project, '--review', '--out', out, '--card', card])).toMatch(
      /Wrote \d+ rows .*\nWrote the dataset card/,
    );
    expect(readFileSync(out, 'utf8').split('\n')[0]).toMatch(
      /^dataset,doc_id,summary_id,global_label,corrected_global_label,/,
    );
    expect(JSON.parse(readFileSync(card, 'utf8'))).toMatchObject({ format: 'loupe-dataset-card/1', project: 'demo' });
  });
});
