/**
 * The demo project: built on first use from demo/frank (the FRANK sample), sampled with n = 25,
 * seed 0, and judged by the offline baseline so every view has something to show without a model.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError, type ProjectInfo } from '../../../shared/api';
import { BASELINE_JUDGE_NAME } from '../../../shared/judges/config';
import type { CoreContext } from '../context';
import { runImport } from '../imports/run';
import type { JudgeService } from '../judges/service';
import { drawBatch } from '../sampling/handlers';
import type { ProjectSession } from './session';

export const DEMO_DATASET = 'frank';
export const DEMO_SAMPLE = { n: 25, seed: 0 };
const DEMO_FILE = 'demo.loupe';

export async function openDemo(ctx: CoreContext, session: ProjectSession, judges: JudgeService): Promise<ProjectInfo> {
  const { stateDir, demoDir } = ctx.options;
  mkdirSync(stateDir, { recursive: true });
  const path = join(stateDir, DEMO_FILE);
  if (existsSync(path)) {
    // The demo is Loupe's own file, rebuilt from demo/ whenever it is unfinished or unreadable
    // (a crash mid-build, a damaged or newer file): nothing of the user's is lost.
    let ready = false;
    try {
      ready = session.load(path, false).isDemo;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
    }
    if (ready) return session.require().info;
    session.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  }
  try {
    session.load(path, true);
    const { repo } = session.require();
    await runImport(repo, {
      source: { type: 'path', path: join(demoDir, 'frank') },
      as: 'frank',
      dataset: DEMO_DATASET,
    });
    drawBatch(ctx, { dataset: DEMO_DATASET, n: DEMO_SAMPLE.n, seed: DEMO_SAMPLE.seed });
    judges.ensureBaseline();
    const run = judges.startRun(BASELINE_JUDGE_NAME, { dataset: DEMO_DATASET, onlySampled: true });
    await run.finished;
    if (run.status().state !== 'done') throw new Error(`The demo's baseline judge run ended ${run.status().message}`);
    repo.setMeta('demo', 'ready');
    return session.load(path, false);
  } catch (err) {
    session.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
    throw err;
  }
}
