/**
 * planning.*: how many more summaries to annotate (shared/analysis/planning.ts). The plan
 * bootstraps the all-units figures, so it runs like the analysis: in a worker_threads Worker (the
 * analysis worker's script) with its own read-only connection, never blocking the process that
 * serves the UI; the call answers when the worker does. Closing the project stops running plans.
 */
import { Worker } from 'node:worker_threads';
import { ApiError, type ApiHandlers } from '../../../shared/api';
import type { PlanReport } from '../../../shared/analysis/planning';
import { defaultWorkerEntry, type WorkerEntry } from '../analysis/service';
import type { CoreContext } from '../context';
import type { PlanJobInput, PlanWorkerMessage } from './job';

export type PlanningHandlers = Pick<ApiHandlers, 'planning.plan'>;

export interface PlanningService {
  handlers: PlanningHandlers;
  /** The project is closing: stop every running plan (its call answers with an error). */
  stopAll(): void;
}

function runInWorker(entry: WorkerEntry, job: PlanJobInput, running: Set<Worker>): Promise<PlanReport> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(entry.script, { workerData: { ...entry.data, plan: job } });
    running.add(worker);
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      running.delete(worker);
      outcome();
      void worker.terminate();
    };
    worker.on('message', (message: PlanWorkerMessage) => {
      if (message.type === 'plan') settle(() => resolve(message.report));
      else settle(() => reject(new ApiError({ code: message.code, message: message.message })));
    });
    worker.on('error', (err) =>
      settle(() => reject(new ApiError({ code: 'internal', message: `The plan stopped: ${err.message}` }))),
    );
    worker.on('exit', (code) =>
      settle(() =>
        reject(
          new ApiError({ code: 'internal', message: `The planning worker exited (code ${code}) without a result.` }),
        ),
      ),
    );
  });
}

export function createPlanningService(ctx: CoreContext, entry: WorkerEntry = defaultWorkerEntry()): PlanningService {
  const running = new Set<Worker>();
  return {
    handlers: {
      'planning.plan': async ({ dataset, target, bootstrap, seed, reference, humanLabel, includeRevealed }) => {
        const { info, repo } = ctx.project();
        if (dataset !== undefined && repo.datasetId(dataset) === null)
          throw new ApiError({ code: 'not_found', message: `No dataset "${dataset}" in this project` });
        return runInWorker(
          entry,
          {
            projectPath: info.path,
            dataset: dataset ?? null,
            settings: { bootstrap, seed, reference, humanLabel, includeRevealed },
            target,
          },
          running,
        );
      },
    },
    stopAll: () => {
      for (const worker of running) void worker.terminate();
    },
  };
}
