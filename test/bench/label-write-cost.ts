/**
 * The label write's own cost: one durable `annotation.record` through dispatch
 * (validation, one committed transaction with synchronous=FULL, the progress answer), in process,
 * on a small project and on a big one in the same run. The cost should not grow with the project
 * or the queue. Beside it: what the old answer cost, a full recount of the annotator's queue.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dispatch } from '../../electron/core/index';
import { webCore } from '../helpers/web-core';
import { progressOf } from '../../electron/core/annotation/progress';
import { runImport } from '../../electron/core/imports/run';
import { halulikeRows } from './generate';

export interface WriteCost {
  summaries: number;
  sampled: number;
  labels: number;
  p50: number;
  p95: number;
  /** The full queue recount each label used to pay (progressOf(annotationQueue)). */
  recountP50: number;
}

function percentile(sorted: number[], p: number): number {
  const i = (sorted.length - 1) * p;
  const lo = Math.floor(i);
  return sorted[lo]! + (sorted[Math.min(lo + 1, sorted.length - 1)]! - sorted[lo]!) * (i - lo);
}

export async function measureWriteCost(
  dir: string,
  summaries: number,
  sampled: number,
  labels = 300,
): Promise<WriteCost> {
  const source = join(dir, `write-${summaries}.jsonl`);
  writeFileSync(source, [...halulikeRows(summaries, 3)].map((r) => JSON.stringify(r)).join('\n'));
  const core = webCore(dir);
  core.createProject(join(dir, `write-${summaries}.loupe`));
  try {
    await runImport(core.repository(), { source: { type: 'path', path: source } });
    const dataset = core.repository().datasetStats()[0]!.name;
    await core.handlers['sampling.draw']({ dataset, n: sampled, seed: 0 });
    // As the UI does: the queue first, then labels down its summaries.
    const queue = await core.handlers['annotation.queue']({ annotator: 'writer' });
    const unitIds: number[] = [];
    for (const item of queue.items) {
      if (unitIds.length >= labels) break;
      const summary = await core.handlers['annotation.load']({ key: item.key, annotator: 'writer' });
      unitIds.push(...summary.units.map((u) => u.id));
    }
    const times: number[] = [];
    for (const [i, unitId] of unitIds.slice(0, labels).entries()) {
      const label = i % 7 === 0 ? 'unfaithful' : 'faithful';
      const started = performance.now();
      const answer = await dispatch(core.handlers, 'annotation.record', {
        unitId,
        annotator: 'writer',
        state: { label, errorType: null, note: null },
        timeSpentMs: 800,
        cause: 'label',
      });
      times.push(performance.now() - started);
      if (!answer.ok) throw new Error(answer.error.message);
    }
    const repo = core.repository();
    const id = repo.annotatorId('writer')!;
    const recounts: number[] = [];
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      progressOf(repo.annotationQueue(id, null));
      recounts.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    recounts.sort((a, b) => a - b);
    return {
      summaries,
      sampled,
      labels: times.length,
      p50: percentile(times, 0.5),
      p95: percentile(times, 0.95),
      recountP50: percentile(recounts, 0.5),
    };
  } finally {
    core.close();
  }
}

export function describeWriteCost(costs: readonly WriteCost[]): string {
  return [
    '  label write (annotation.record through dispatch, in process, one committed transaction, synchronous=FULL), same run:',
    ...costs.map(
      (c) =>
        `    ${String(c.summaries).padStart(6)} summaries (${c.sampled} sampled), ${c.labels} labels: p50 ${c.p50.toFixed(2)} ms, p95 ${c.p95.toFixed(2)} ms` +
        `  (a full queue recount, which each label used to pay: ${c.recountP50.toFixed(2)} ms)`,
    ),
  ].join('\n');
}
