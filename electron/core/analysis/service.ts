/**
 * The judge-audit part of the core: analysis.* handlers. An analysis runs in a
 * worker_threads Worker with its own read-only connection to the project file, so neither the
 * Electron main process nor `loupe serve` blocks while it loads and bootstraps; the UI starts it,
 * polls analysis.status and may cancel it (the worker is terminated).
 *
 * Where the worker comes from (`defaultWorkerEntry`): in the Electron bundle this module is part
 * of out/main/main.cjs and the worker is its sibling out/main/analysis-worker.cjs; from the
 * TypeScript sources (tsx, Vitest) it is electron/worker/analysis-worker.ts, started through analysis-worker-tsx.mjs.
 */
import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { ApiError, type AnalysisStatus, type ApiHandlers, type ApiParsedInput } from '../../../shared/api';
import type { Repository } from '../../../db/repository';
import type { AnalysisJobInput, AnalysisJobSettings, AnalysisTimings, AnalysisWorkerMessage } from './job';

export type AnalysisMethod = Extract<keyof ApiHandlers, `analysis.${string}`>;
export type AnalysisHandlers = Pick<ApiHandlers, AnalysisMethod>;

/** The script a Worker runs, and what it needs in workerData besides the job. */
export interface WorkerEntry {
  script: URL;
  data: Record<string, string>;
}

export function defaultWorkerEntry(moduleUrl: string = import.meta.url): WorkerEntry {
  if (new URL(moduleUrl).pathname.endsWith('.cjs'))
    return { script: new URL('./analysis-worker.cjs', moduleUrl), data: {} };
  return {
    script: new URL('../../worker/analysis-worker-tsx.mjs', moduleUrl),
    data: { entry: new URL('../../worker/analysis-worker.ts', moduleUrl).href },
  };
}

export interface AnalysisServiceOptions {
  /** The open project (throws an ApiError when none is open). */
  project: () => { path: string; repo: Repository };
  /** Tests: another worker script. */
  worker?: WorkerEntry;
}

export interface AnalysisService {
  handlers: AnalysisHandlers;
  /** Resolves when the job has finished (done, failed or cancelled): the CLI waits on this. */
  wait(jobId: string): Promise<AnalysisStatus>;
  /** Load and analysis times of a finished job (CLI --timings, the benchmark). */
  timings(jobId: string): AnalysisTimings | null;
  /** The project is closing: cancel every running analysis. */
  stopAll(): void;
}

interface Job {
  status: AnalysisStatus;
  projectPath: string;
  worker: Worker | null;
  finished: Promise<void>;
  timings: AnalysisTimings | null;
}

const MAX_JOBS_KEPT = 20;

/** Threads of an analysis when none is asked for: one per core, up to 8. */
export function defaultThreads(): number {
  return Math.min(availableParallelism(), 8);
}

export function createAnalysisService(options: AnalysisServiceOptions): AnalysisService {
  const jobs = new Map<string, Job>();

  function job(jobId: string): Job {
    const entry = jobs.get(jobId);
    if (!entry) throw new ApiError({ code: 'not_found', message: `No analysis ${jobId} in this session` });
    return entry;
  }

  const view = (entry: Job): AnalysisStatus => ({ ...entry.status, progress: { ...entry.status.progress } });

  function finish(entry: Job, change: Partial<AnalysisStatus>): void {
    if (entry.status.state !== 'running') return;
    entry.status = { ...entry.status, ...change, finishedAt: new Date().toISOString() };
    const worker = entry.worker;
    entry.worker = null;
    if (worker) void worker.terminate();
  }

  function forgetOld(): void {
    const finished = [...jobs.values()].filter((j) => j.status.state !== 'running');
    for (const old of finished.slice(0, Math.max(0, finished.length - MAX_JOBS_KEPT))) jobs.delete(old.status.jobId);
  }

  function start(input: ApiParsedInput<'analysis.start'>): AnalysisStatus {
    const { path, repo } = options.project();
    const running = [...jobs.values()].find((j) => j.status.state === 'running' && j.projectPath === path);
    if (running) {
      throw new ApiError({
        code: 'conflict',
        message: `An analysis of this project is running (${running.status.jobId}); wait for it or cancel it first.`,
      });
    }
    const dataset = input.dataset ?? null;
    if (dataset !== null && repo.datasetId(dataset) === null)
      throw new ApiError({ code: 'not_found', message: `No dataset "${dataset}" in this project` });
    const compareSource = input.compareSource ?? null;
    if (compareSource !== null && compareSource !== 'people' && repo.judges.judgeByName(compareSource) === null) {
      const judges = repo.judges.listJudges().map((j) => j.name);
      throw new ApiError({
        code: 'not_found',
        message: `No judge "${compareSource}" to compare systems by: give "people"${judges.length > 0 ? ` or one of the judges ${judges.join(', ')}` : ' (the project has no judge)'}.`,
      });
    }

    const settings: AnalysisJobSettings = {
      bootstrap: input.bootstrap,
      seed: input.seed,
      cap: input.cap,
      reference: input.reference,
      humanLabel: input.humanLabel,
      includeRevealed: input.includeRevealed,
      compareSource,
    };
    const jobInput: AnalysisJobInput = { projectPath: path, dataset, settings };
    const entryPoint = options.worker ?? defaultWorkerEntry();
    const jobId = randomUUID();
    const helpers = {
      entry: { script: entryPoint.script.href, data: entryPoint.data },
      threads: input.threads ?? defaultThreads(),
    };
    const worker = new Worker(entryPoint.script, { workerData: { ...entryPoint.data, job: jobInput, helpers } });
    let settle: () => void = () => undefined;
    const entry: Job = {
      status: {
        jobId,
        state: 'running',
        // The settings echoed as asked: compareSource only when one was asked for.
        settings: {
          bootstrap: settings.bootstrap,
          seed: settings.seed,
          cap: settings.cap,
          dataset,
          ...(compareSource !== null ? { compareSource } : {}),
        },
        progress: { phase: 'starting', done: 0, total: 1 },
        report: null,
        markdown: null,
        error: null,
        startedAt: new Date().toISOString(),
        finishedAt: null,
      },
      projectPath: path,
      worker,
      finished: new Promise<void>((resolve) => (settle = resolve)),
      timings: null,
    };
    jobs.set(jobId, entry);
    forgetOld();

    worker.on('message', (message: AnalysisWorkerMessage) => {
      if (entry.status.state !== 'running') return;
      if (message.type === 'progress') entry.status = { ...entry.status, progress: message.progress };
      else if (message.type === 'done') {
        entry.timings = message.timings;
        const total = entry.status.progress.total;
        finish(entry, {
          state: 'done',
          report: message.report,
          markdown: message.markdown,
          progress: { phase: 'done', done: total, total },
        });
      } else finish(entry, { state: 'failed', error: { message: message.message } });
    });
    worker.on('error', (err) =>
      finish(entry, { state: 'failed', error: { message: `The analysis stopped: ${err.message}` } }),
    );
    worker.on('exit', (code) => {
      finish(entry, {
        state: 'failed',
        error: { message: `The analysis worker exited (code ${code}) without a result.` },
      });
      settle();
    });
    return view(entry);
  }

  async function cancel(jobId: string, reason: string | null = null): Promise<AnalysisStatus> {
    const entry = job(jobId);
    if (entry.status.state === 'running') {
      const worker = entry.worker;
      finish(entry, { state: 'cancelled', ...(reason ? { error: { message: reason } } : {}) });
      if (worker) await entry.finished;
    }
    return view(entry);
  }

  function newest(path: string | null, state: AnalysisStatus['state']): AnalysisStatus | null {
    let found: Job | null = null;
    for (const entry of jobs.values()) if (entry.projectPath === path && entry.status.state === state) found = entry;
    return found ? view(found) : null;
  }

  function currentPath(): string | null {
    try {
      return options.project().path;
    } catch {
      return null;
    }
  }

  return {
    handlers: {
      'analysis.start': async (input) => start(input),
      'analysis.status': async ({ jobId }) => view(job(jobId)),
      'analysis.cancel': async ({ jobId }) => cancel(jobId),
      'analysis.latest': async () => {
        const path = currentPath();
        return { running: newest(path, 'running'), done: newest(path, 'done') };
      },
    },
    wait: async (jobId) => {
      const entry = job(jobId);
      await entry.finished;
      return view(entry);
    },
    timings: (jobId) => jobs.get(jobId)?.timings ?? null,
    stopAll: () => {
      for (const entry of jobs.values()) {
        if (entry.status.state === 'running') void cancel(entry.status.jobId, 'The project was closed.');
      }
    },
  };
}
