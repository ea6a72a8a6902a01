/** Background jobs of the open project (imports today): started, polled (jobs.get) and cancelled. */
import { randomUUID } from 'node:crypto';
import { ApiError, type Job } from '../../../shared/api';

interface JobEntry {
  job: Job;
  controller: AbortController;
  finished: Promise<void>;
}

export interface JobRegistry {
  /** Runs `work` in the background; it updates the job it is given and settles it. */
  start(kind: Job['kind'], work: (job: Job, signal: AbortSignal) => Promise<void>): string;
  get(jobId: string): Job;
  cancel(jobId: string): Promise<Job>;
  /** The project is closing: abort every job. */
  abortAll(): void;
}

export function createJobRegistry(): JobRegistry {
  const jobs = new Map<string, JobEntry>();

  function entry(jobId: string): JobEntry {
    const found = jobs.get(jobId);
    if (!found) throw new ApiError({ code: 'not_found', message: `No job ${jobId}` });
    return found;
  }

  return {
    start(kind, work) {
      const id = randomUUID();
      const controller = new AbortController();
      const job: Job = { id, kind, state: 'running', phase: 'reading', done: 0, total: 0, result: null, error: null };
      jobs.set(id, { job, controller, finished: work(job, controller.signal) });
      return id;
    },
    get: (jobId) => ({ ...entry(jobId).job }),
    async cancel(jobId) {
      const found = entry(jobId);
      found.controller.abort();
      await found.finished;
      return { ...found.job };
    },
    abortAll() {
      for (const e of jobs.values()) e.controller.abort();
    },
  };
}
