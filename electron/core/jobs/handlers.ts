/** jobs.*: poll and cancel background jobs. */
import type { ApiHandlers } from '../../../shared/api';
import type { JobRegistry } from './registry';

export type JobsHandlers = Pick<ApiHandlers, 'jobs.get' | 'jobs.cancel'>;

export function createJobsHandlers(jobs: JobRegistry): JobsHandlers {
  return {
    'jobs.get': async ({ jobId }) => jobs.get(jobId),
    'jobs.cancel': async ({ jobId }) => jobs.cancel(jobId),
  };
}
