/** projects.*: open, create, the demo, the recent list. Switching needs the host's canSwitchProjects. */
import { existsSync } from 'node:fs';
import { ApiError, type ApiHandlers } from '../../../shared/api';
import { requireCapability, type CoreContext } from '../context';
import type { JudgeService } from '../judges/service';
import { openDemo } from './demo';
import type { ProjectSession } from './session';

export type ProjectsHandlers = Pick<
  ApiHandlers,
  'projects.recent' | 'projects.open' | 'projects.create' | 'projects.openDemo'
>;

export function createProjectsHandlers(
  ctx: CoreContext,
  session: ProjectSession,
  judges: JudgeService,
): ProjectsHandlers {
  return {
    'projects.recent': async () => session.recent.list(),
    'projects.open': async ({ path }) => {
      requireCapability(ctx, 'canSwitchProjects', 'Opening another project');
      return session.load(path, false);
    },
    'projects.create': async ({ path }) => {
      requireCapability(ctx, 'canSwitchProjects', 'Creating a project');
      if (existsSync(path))
        throw new ApiError({ code: 'conflict', message: `${path} exists already; open it instead.` });
      return session.load(path, true);
    },
    'projects.openDemo': async () => {
      if (session.current()) requireCapability(ctx, 'canSwitchProjects', 'Switching to the demo project');
      return openDemo(ctx, session, judges);
    },
  };
}
