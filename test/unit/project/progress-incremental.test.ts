/**
 * `annotation.record` keeps progress incrementally (no queue rebuild per label). The
 * progress it answers must equal a full recount of the queue after any sequence of labels,
 * clears, undos and relabels, across summaries in and out of the annotator's queue, and after
 * what else changes a queue: a new sample batch, an import of the annotator's labels, another
 * connection's commit.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../electron/core/index';
import { progressOf } from '../../../electron/core/annotation/progress';
import { runImport } from '../../../electron/core/imports/run';
import { createStream } from '../../../shared/stats/prng';
import type { HumanLabel } from '../../../shared/domain';
import { newsRows, writeJsonl } from '../../helpers/project';
import { tempDir } from '../../helpers/tmp';

const dir = tempDir();
const LABELS: Array<HumanLabel | null> = ['faithful', 'unfaithful', 'unclear', null];

function fullRecount(core: Core, annotator: string) {
  const repo = core.repository();
  const id = repo.annotatorId(annotator);
  return progressOf(id === null ? [] : repo.annotationQueue(id, null));
}

async function setup(name: string): Promise<{ core: Core; path: string; unitIds: number[] }> {
  const core = createCore({
    Database,
    stateDir: dir,
    demoDir: dir,
    host: 'web',
    fileDialogs: false,
    diskPaths: false,
    canSwitchProjects: false,
  });
  const path = join(dir, `${name}.loupe`);
  core.createProject(path);
  await runImport(core.repository(), {
    source: { type: 'path', path: writeJsonl(join(dir, `${name}.jsonl`), newsRows(12)) },
  });
  await core.handlers['sampling.draw']({ dataset: 'news', n: 3, seed: 1 });
  await core.handlers['sampling.draw']({ dataset: 'news', n: 3, seed: 2, annotator: 'bob' });
  const unitIds = newsRows(12).flatMap((r) => core.repository().unitIdsBySummary(r.summary_id, 'news')[0]!.unitIds);
  return { core, path, unitIds };
}

describe('incremental progress', () => {
  it.each([1, 2, 3])(
    'equals the full recount after a random sequence of labels, clears and undos (seed %i)',
    async (seed) => {
      const { core, path, unitIds } = await setup(`random-${seed}`);
      const rng = createStream(seed, 'progress-test');
      const annotators = ['alice', 'bob'];
      // Warm alice's cache the way the UI does (annotation.queue); bob starts cold.
      await core.handlers['annotation.queue']({ annotator: 'alice' });
      for (let step = 0; step < 300; step++) {
        if (step === 100) await core.handlers['sampling.draw']({ dataset: 'news', n: 3, seed: 3 }); // a new batch for everyone
        if (step === 150) await core.handlers['sampling.draw']({ dataset: 'news', n: 2, seed: 4, annotator: 'alice' });
        if (step === 200) {
          // alice's labels arrive by import (e.g. from her own export elsewhere).
          const file = writeJsonl(
            join(dir, `import-${seed}.jsonl`),
            [0, 1, 2].map((i) => ({
              dataset: 'news',
              summary_id: `sum-00${i + 3}`,
              sentence_index: 0,
              label: 'faithful',
              annotator: 'alice',
            })),
          );
          await runImport(core.repository(), { source: { type: 'path', path: file } });
        }
        if (step === 250) {
          // Another connection (another Loupe process on the same file) records one of alice's labels.
          const other = new Database(path);
          const alice = core.repository().annotatorId('alice')!;
          other
            .prepare(
              `INSERT INTO label_events (unit_id, annotator_id, phase, label, cause, created_at) VALUES (?, ?, 'annotation', 'unclear', 'label', ?)`,
            )
            .run(unitIds[0], alice, new Date().toISOString());
          other.close();
        }
        const annotator = annotators[rng.nextInt(annotators.length)]!;
        const unitId = unitIds[rng.nextInt(unitIds.length)]!;
        const label = LABELS[rng.nextInt(LABELS.length)]!;
        const cause =
          label === null ? (rng.nextBernoulli(0.5) ? 'clear' : 'undo') : rng.nextBernoulli(0.2) ? 'redo' : 'label';
        const answer = await core.handlers['annotation.record']({
          unitId,
          annotator,
          state: { label, errorType: null, note: null },
          timeSpentMs: 7,
          cause,
        });
        expect(answer.progress, `step ${step}: ${annotator} ${cause} ${label} on unit ${unitId}`).toEqual(
          fullRecount(core, annotator),
        );
      }
      // The run crossed summaries being finished and unfinished again.
      expect(fullRecount(core, 'alice').summariesTotal).toBeGreaterThan(3);
      core.close();
    },
  );

  it('says a summary is done when its last sentence is labeled and undone when one is cleared', async () => {
    const { core } = await setup('edges');
    const queue = await core.handlers['annotation.queue']({ annotator: 'carol' });
    const summary = await core.handlers['annotation.load']({ key: queue.items[0]!.key, annotator: 'carol' });
    const record = (unitId: number, label: HumanLabel | null) =>
      core.handlers['annotation.record']({
        unitId,
        annotator: 'carol',
        state: { label, errorType: null, note: null },
        timeSpentMs: 1,
        cause: label === null ? 'clear' : 'label',
      });
    let last;
    for (const u of summary.units) last = await record(u.id, 'faithful');
    expect(last!.progress).toMatchObject({ unitsDone: summary.units.length, summariesDone: 1 });
    // A relabel changes nothing; a clear undoes the summary.
    expect((await record(summary.units[0]!.id, 'unclear')).progress).toMatchObject({
      unitsDone: summary.units.length,
      summariesDone: 1,
    });
    expect((await record(summary.units[0]!.id, null)).progress).toMatchObject({
      unitsDone: summary.units.length - 1,
      summariesDone: 0,
    });
    expect((await record(summary.units[0]!.id, null)).progress).toMatchObject({
      unitsDone: summary.units.length - 1,
      summariesDone: 0,
    });
    core.close();
  });
});
