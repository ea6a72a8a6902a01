/**
 * The analysis worker thread's entry (worker_threads), the same source in every host:
 * - Electron: bundled by scripts/build-electron.mjs to out/main/analysis-worker.cjs, next to
 *   main.cjs; it loads the N-API SQLite driver the main process uses (better-sqlite3-napi);
 * - Node under tsx (CLI, `loupe serve`) and the tests: started through worker-tsx.mjs, which
 *   registers tsx in the thread first; it loads better-sqlite3 (Node's driver).
 * It receives an AnalysisJobInput (or a PlanJobInput) as workerData and posts AnalysisWorkerMessages (PlanWorkerMessages).
 * With `helpers` it may start that many more threads of this same script, in helper mode
 * (`replicateHelper`), for the correlation bootstrap (replicate-pool.ts).
 */
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import type { DatabaseConstructor } from '../../db/open';
import { failureOf, runAnalysisJob, type AnalysisJobInput, type AnalysisWorkerMessage } from '../core/analysis/job';
import { runPlanJob, type PlanJobInput, type PlanWorkerMessage } from '../core/planning/job';
import { serveReplicates, startReplicatePool, type HelperEntry, type HelperWiring } from './replicate-pool';

function driver(): DatabaseConstructor {
  // Dynamic on purpose: each runtime has its own driver (docs/native-modules.md), and the bundle
  // must not pull either in.
  const name = process.versions.electron ? 'better-sqlite3-napi' : 'better-sqlite3';
  return createRequire(import.meta.url)(name) as DatabaseConstructor;
}

type AnalysisWorkerData =
  | { job: AnalysisJobInput; helpers?: { entry: HelperEntry; threads: number } }
  | { plan: PlanJobInput }
  | { replicateHelper: HelperWiring };

const port = parentPort;
if (port) {
  const data = workerData as AnalysisWorkerData;
  const post = (message: AnalysisWorkerMessage | PlanWorkerMessage) => port.postMessage(message);
  if ('replicateHelper' in data) serveReplicates(data.replicateHelper);
  else {
    // An analysis (`job`) or a plan of the annotation (`plan`, planning.plan), which bootstraps the same figures.
    const pool = 'job' in data && data.helpers ? startReplicatePool(data.helpers.entry, data.helpers.threads) : null;
    try {
      if ('plan' in data) post({ type: 'plan', report: runPlanJob(driver(), data.plan) });
      else
        post(
          runAnalysisJob(driver(), data.job, (progress) => post({ type: 'progress', progress }), {
            ...(pool ? { correlations: pool.replicator, threadsStarted: pool.started, expect: pool.expect } : {}),
          }),
        );
    } catch (err) {
      post(failureOf(err));
    } finally {
      void pool?.close();
    }
  }
}
