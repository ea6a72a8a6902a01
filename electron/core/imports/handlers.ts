/** imports.*: an import runs as a background job (progress in jobs.get, cancel with jobs.cancel). */
import type { ApiHandlers } from '../../../shared/api';
import { ImportValidationError, type ImportProblem } from '../../../shared/formats/types';
import { requireCapability, type CoreContext } from '../context';
import type { JobRegistry } from '../jobs/registry';
import { ImportCancelled, runImport, type ImportRequest } from './run';

export type ImportsHandlers = Pick<ApiHandlers, 'imports.start'>;

export function startImportJob(ctx: CoreContext, jobs: JobRegistry, request: ImportRequest): string {
  const { repo } = ctx.project();
  return jobs.start('import', (job, signal) =>
    runImport(repo, request, (p) => Object.assign(job, p), signal).then(
      (result) => {
        Object.assign(job, { state: 'done', result, done: job.total });
        ctx.changes.emit({
          namespace: 'imports',
          what: `imports.${result.kind}`,
          dataset: result.datasets.length === 1 ? result.datasets[0]! : null,
        });
      },
      (err: unknown) => {
        if (err instanceof ImportCancelled)
          Object.assign(job, { state: 'cancelled', error: { message: err.message, problems: [] } });
        else {
          const problems: ImportProblem[] = err instanceof ImportValidationError ? err.problems : [];
          Object.assign(job, {
            state: 'failed',
            error: { message: err instanceof Error ? err.message : String(err), problems },
          });
        }
      },
    ),
  );
}

export function createImportsHandlers(ctx: CoreContext, jobs: JobRegistry): ImportsHandlers {
  return {
    'imports.start': async (input) => {
      if (input.source.type === 'path') requireCapability(ctx, 'diskPaths', 'Importing from a path on disk');
      const formatChoice = ctx.options.formatChoice;
      return {
        jobId: startImportJob(ctx, jobs, {
          source: input.source,
          ...(input.as ? { as: input.as } : {}),
          ...(input.dataset ? { dataset: input.dataset } : {}),
          ...(formatChoice ? { formatChoice } : {}),
        }),
      };
    },
  };
}
