/**
 * The core every host shares (plain Node; never imports electron). It only composes: each API
 * namespace `x` has its handlers in `./x/` (method `x.y` lives in `electron/core/x/`), the open
 * project is one session, and what a host can do is a set of capabilities, never its name.
 * Hosts (electron/main, serve, cli, worker) use the core through this file only.
 */
import type { ApiHandlers, ProjectInfo } from '../../shared/api';
import type { Repository } from '../../db/repository';
import type { CoreContext, CoreOptions } from './context';
import { createAnalysisService, type AnalysisService } from './analysis/service';
import { createAnnotationHandlers } from './annotation/handlers';
import { createAnnotatorsHandlers } from './annotators/handlers';
import { createAppHandlers } from './app/handlers';
import { createDatasetsHandlers } from './datasets/handlers';
import { createDialogFallbacks } from './dialog/handlers';
import { createExportHandlers } from './export/handlers';
import { createImportsHandlers } from './imports/handlers';
import { createJobsHandlers } from './jobs/handlers';
import { createJobRegistry } from './jobs/registry';
import { createJudgeService, type JudgeService } from './judges/service';
import { createLinksHandlers } from './links/handlers';
import { createMergeHandlers } from './merge/handlers';
import { openDemo } from './projects/demo';
import { createProjectsHandlers } from './projects/handlers';
import { createProjectSession } from './projects/session';
import { createReviewHandlers } from './review/service';
import { createSamplingHandlers } from './sampling/handlers';
import { createPlanningService } from './planning/handlers';
import { createClaimsHandlers } from './claims/handlers';
import { createKeyfactsHandlers } from './keyfacts/handlers';
import { createScaffoldHandlers } from './scaffold/handlers';
import { createProposalsHandlers } from './proposals/handlers';
import { createSystemsHandlers } from './systems/handlers';
import { createAccuracyService } from './accuracy/handlers';
import { createKeyAccess, NO_KEY_ENV } from './keys';
import { createChangeBus, withChangeEvents, type ChangeListener } from './changes';

export type { CoreOptions, HostCapabilities, LinkRegistry } from './context';

export interface Core {
  handlers: ApiHandlers;
  openProject(path: string): ProjectInfo;
  createProject(path: string): ProjectInfo;
  openDemo(): Promise<ProjectInfo>;
  current(): ProjectInfo | null;
  /** The open project's repository (tests); throws when none is open. */
  repository(): Repository;
  /** Judge configurations and runs (demo, tests). */
  judges: JudgeService;
  /** The judge audit's background analyses. */
  analysis: AnalysisService;
  /** Every change event, unfiltered: a host filters each by its receiver's role (`changeFor`). */
  onChange(listener: ChangeListener): () => void;
  close(): void;
}

export function createCore(options: CoreOptions): Core {
  const session = createProjectSession(options);
  const keys = createKeyAccess({ env: options.env ?? process.env, allowedKeyEnv: options.allowedKeyEnv ?? NO_KEY_ENV });
  const changes = createChangeBus();
  const ctx: CoreContext = { options, keys, project: session.require, currentProject: session.current, changes };
  const jobs = createJobRegistry();
  const judges = createJudgeService({
    repository: () => session.require().repo,
    secrets: options.secrets ?? null,
    diskPaths: options.diskPaths,
    keys,
    changes,
  });
  const analysis = createAnalysisService({
    project: () => {
      const { info, repo } = session.require();
      return { path: info.path, repo };
    },
  });
  const accuracy = createAccuracyService(ctx, judges);
  const planning = createPlanningService(ctx);
  session.onClose(() => {
    jobs.abortAll();
    judges.stopAll();
    analysis.stopAll();
    planning.stopAll();
    accuracy.stopAll();
  });

  const handlers: ApiHandlers = withChangeEvents(
    {
      ...createAppHandlers(ctx),
      ...createProjectsHandlers(ctx, session, judges),
      ...createDatasetsHandlers(ctx),
      ...createAnnotatorsHandlers(ctx),
      ...createImportsHandlers(ctx, jobs),
      ...createJobsHandlers(jobs),
      ...createSamplingHandlers(ctx),
      ...createAnnotationHandlers(ctx),
      ...judges.handlers,
      ...analysis.handlers,
      ...planning.handlers,
      ...createReviewHandlers({ repository: () => session.require().repo.review }),
      ...createExportHandlers(ctx),
      ...createMergeHandlers(ctx),
      ...createLinksHandlers(ctx),
      ...createClaimsHandlers(ctx),
      ...createKeyfactsHandlers(ctx),
      ...createScaffoldHandlers(ctx),
      ...createProposalsHandlers(ctx),
      ...createSystemsHandlers(ctx),
      ...accuracy.handlers,
      ...createDialogFallbacks(),
    },
    changes,
  );

  return {
    handlers,
    openProject: (path) => session.load(path, false),
    createProject: (path) => session.load(path, true),
    openDemo: () => openDemo(ctx, session, judges),
    current: () => session.current()?.info ?? null,
    repository: () => session.require().repo,
    judges,
    analysis,
    onChange: changes.subscribe,
    close: session.close,
  };
}

// --- what hosts use besides createCore ----------------------------------------------------------
export { dispatch, toErrorBody } from './dispatch';
export { DEMO_DATASET, DEMO_SAMPLE } from './projects/demo';
export { writeTextAtomically } from './atomic-file';

// --- re-exports the layer rule needs (hosts import the core only from this file; test/unit/core/layers.test.ts)
export type { SecretStore, StoredKey } from './judges/secrets';
export type { KeyEnvPolicy } from './keys';
