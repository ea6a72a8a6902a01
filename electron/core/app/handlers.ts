/** app.*: what the host is and can do, and the open project. */
import { LEAD, type ApiHandlers } from '../../../shared/api';
import { LOUPE_VERSION } from '../../../shared/domain';
import type { CoreContext } from '../context';

export type AppHandlers = Pick<ApiHandlers, 'app.info'>;

export function createAppHandlers(ctx: CoreContext): AppHandlers {
  const { options } = ctx;
  return {
    'app.info': async (_input, caller = LEAD) => ({
      version: LOUPE_VERSION,
      host: options.host,
      fileDialogs: options.fileDialogs,
      diskPaths: options.diskPaths,
      canSwitchProjects: options.canSwitchProjects,
      keychain: options.secrets?.available() ?? false,
      project: ctx.currentProject()?.info ?? null,
      role: caller.role,
      annotator: caller.role === 'annotator' ? caller.annotator : (options.annotator ?? null),
    }),
  };
}
