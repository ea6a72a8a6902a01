/**
 * A review queue and Table 4 read only the summaries their rule can pick (ReviewRepository
 * queueCandidates) instead of the whole dataset: on a synthetic project with human labels, two
 * annotators on some summaries, three judges and a few review decisions, every queue (uncapped)
 * and Table 4 answer exactly what the rules compute over the whole dataset, from fewer summaries.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDataset } from '../../../electron/core/review/load';
import { REVIEW_QUEUES, type ApiMethod, type ApiInput } from '../../../shared/api';
import { computeQueue, computeTable4, defaultPanel } from '../../../shared/review';
import { buildSyntheticProject } from '../../bench/analyze.bench';
import { callCore, taskTestCore } from '../../helpers/accuracy-core';
import { tempDir } from '../../helpers/tmp';

const D = 'synthetic';

describe('review reads only the candidates of a queue', async () => {
  const dir = tempDir('loupe-review-candidates-');
  const path = join(dir, 'synthetic.loupe');
  await buildSyntheticProject(path, { summaries: 400, annotated: 60, judges: 3, dataset: D });
  const core = taskTestCore(dir);
  core.openProject(path);
  afterAll(() => core.close());
  const call = <M extends ApiMethod>(method: M, input: ApiInput<M>) => callCore(core, method, input);
  // A reviewer decides the marked sentences of the first suspicious summaries (Table 4 counts them).
  const suspicious = await call('review.queue', { queue: 'suspicious', dataset: D, cap: 4 });
  for (const [i, item] of suspicious.items.entries()) {
    const card = await call('review.card', { key: item.key, queue: 'suspicious', reviewer: 'rev' });
    for (const unit of card.units.filter((u) => u.marked))
      await call('review.record', {
        unitId: unit.id,
        queue: 'suspicious',
        reviewer: 'rev',
        state: { label: i % 2 === 0 ? 'unfaithful' : 'faithful', errorType: i === 0 ? 'entity' : null, note: null },
        timeSpentMs: i * 1_500,
        cause: 'label',
      });
  }
  const review = core.repository().review;
  const whole = loadDataset(review, D);
  const panel = defaultPanel(whole);

  it.each(REVIEW_QUEUES)('%s: the same summaries, marks and pool as the rule over the whole dataset', async (queue) => {
    const expected = computeQueue(queue, whole.summaries, panel);
    const answer = await call('review.queue', { queue, dataset: D, cap: 1_000_000, reviewer: 'rev' });
    expect(expected.entries.length).toBeGreaterThan(0);
    expect(answer.pool).toBe(expected.pool);
    expect(answer.items.map((item) => [item.key, item.marked])).toEqual(
      expected.entries.map((e) => [e.summary.row.key, e.marked]),
    );
    expect(review.queueCandidates(D, queue).length).toBeLessThan(whole.summaries.length);
  });

  it('Table 4: every number as over the whole dataset', async () => {
    const [table] = await call('review.table', { dataset: D, fastMs: 2_000 });
    const expected = computeTable4(whole, panel, 25, 2_000);
    expect(expected.reviewed).toBeGreaterThan(0);
    expect(expected.fast).toBeGreaterThan(0);
    expect(table).toEqual(expected);
  });
});
