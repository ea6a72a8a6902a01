/** merge.*: annotators' copies of the project merged into it (reads files on disk: desktop and CLI). */
import type { ApiHandlers } from '../../../shared/api';
import { requireCapability, type CoreContext } from '../context';
import { mergeProjects } from './merge';

export type MergeHandlers = Pick<ApiHandlers, 'merge.projects'>;

export function createMergeHandlers(ctx: CoreContext): MergeHandlers {
  return {
    'merge.projects': async ({ paths }) => {
      requireCapability(ctx, 'diskPaths', 'Merging project files from disk');
      const { db, repo, info } = ctx.project();
      return mergeProjects({ Database: ctx.options.Database, db, repo, projectPath: info.path }, paths);
    },
  };
}
