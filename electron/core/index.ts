/**
 * The core every host shares: one open project, the API handlers of shared/api.ts, import jobs,
 * the recent-projects list and the demo project. Plain Node; never imports electron.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import { ApiError, type AnnotatorActivity, type ApiHandlers, type Job, type ProjectInfo, type Progress } from '../../shared/api';
import { LOUPE_VERSION } from '../../shared/domain';
import { ImportValidationError, type ImportProblem } from '../../shared/formats/types';
import { SAMPLING_ALGORITHM, assignWithOverlap, drawSample } from '../../shared/sampling';
import { BASELINE_JUDGE_NAME } from '../../shared/judges/config';
import { openProjectDatabase, ProjectFileError, type Database, type DatabaseConstructor } from '../../db/open';
import { Repository, type QueueRow } from '../../db/repository';
import { buildExport } from './export/build';
import { ImportCancelled, runImport, type ImportRequest } from './imports/run';
import { RecentProjects } from './projects/recent';
import { createJudgeService, type JudgeService } from './judges/service';
import { createAnalysisService, type AnalysisService } from './analysis/service';
import { createReviewHandlers } from './review/service';
import { ensureProjectId, mergeProjects } from './merge/merge';
import type { SecretStore } from './judges/secrets';

export interface CoreOptions {
  Database: DatabaseConstructor;
  stateDir: string;
  demoDir: string;
  host: 'electron' | 'web';
  fileDialogs: boolean;
  canSwitchProjects: boolean;
  annotator?: string | null;
  /** Desktop: API keys in the OS keychain (electron/main/secrets.ts). Absent: keys only from env vars. */
  secrets?: SecretStore | null;
  /** Where judge keys named by `apiKeyEnv` are read (default: process.env). */
  env?: Record<string, string | undefined>;
}

export interface Core {
  handlers: ApiHandlers;
  openProject(path: string): ProjectInfo;
  createProject(path: string): ProjectInfo;
  openDemo(): Promise<ProjectInfo>;
  current(): ProjectInfo | null;
  /** The open project's repository (CLI and tests); throws when none is open. */
  repository(): Repository;
  /** Judge configurations and runs (CLI progress, demo). */
  judges: JudgeService;
  /** The judge audit's background analyses (CLI waits on them). */
  analysis: AnalysisService;
  close(): void;
}

interface OpenProject {
  db: Database;
  repo: Repository;
  info: ProjectInfo;
}

interface JobEntry {
  job: Job;
  controller: AbortController;
  finished: Promise<void>;
}

export const DEMO_DATASET = 'frank';
export const DEMO_SAMPLE = { n: 25, seed: 0 };
const DEMO_FILE = 'demo.loupe';

export function progressOf(rows: QueueRow[]): Progress {
  let unitsDone = 0;
  let unitsTotal = 0;
  let summariesDone = 0;
  for (const r of rows) {
    unitsDone += r.labeled;
    unitsTotal += r.units;
    if (r.labeled === r.units) summariesDone += 1;
  }
  return { unitsDone, unitsTotal, summariesDone, summariesTotal: rows.length };
}

/** Median decision time and fast decisions of one annotator. */
export function activityOf(
  a: ReturnType<Repository['annotatorActivity']>[number],
  fastMs: number,
): AnnotatorActivity {
  const { decisionTimesMs, ...rest } = a;
  const sorted = [...decisionTimesMs].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length === 0 ? null : sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { ...rest, timedDecisions: sorted.length, medianMsPerDecision: median, fastDecisions: sorted.filter((t) => t < fastMs).length };
}

function unsupported(what: string): never {
  throw new ApiError({ code: 'unsupported', message: `${what} is only available in the desktop app.` });
}

export function createCore(options: CoreOptions): Core {
  let project: OpenProject | null = null;
  const jobs = new Map<string, JobEntry>();
  const recent = new RecentProjects(join(options.stateDir, 'recent.json'));
  const judges = createJudgeService({
    repository: () => requireProject().repo,
    secrets: options.secrets ?? null,
    ...(options.env ? { env: options.env } : {}),
  });
  const analysis = createAnalysisService({
    project: () => {
      const { info, repo } = requireProject();
      return { path: info.path, repo };
    },
  });

  function requireProject(): OpenProject {
    if (!project) throw new ApiError({ code: 'no_project', message: 'No project is open. Open or create one first (File › Open).' });
    return project;
  }

  function load(path: string, create: boolean): ProjectInfo {
    const full = resolve(path);
    let db: Database;
    try {
      db = openProjectDatabase(options.Database, full, { create });
    } catch (err) {
      if (err instanceof ProjectFileError) throw new ApiError({ code: err.reason === 'missing' ? 'not_found' : 'conflict', message: err.message });
      throw err;
    }
    closeProject();
    const repo = new Repository(db);
    ensureProjectId(repo);
    if (create && repo.getMeta('created_at') === null) {
      repo.setMeta('created_at', new Date().toISOString());
      repo.setMeta('created_by', `Loupe ${LOUPE_VERSION}`);
    }
    const info: ProjectInfo = {
      path: full,
      name: basename(full, extname(full)),
      schemaVersion: repo.schemaVersion(),
      isDemo: repo.getMeta('demo') === 'ready',
    };
    project = { db, repo, info };
    recent.add(full, info.name);
    return info;
  }

  function closeProject(): void {
    for (const entry of jobs.values()) entry.controller.abort();
    judges.stopAll();
    analysis.stopAll();
    project?.db.close();
    project = null;
  }

  async function openDemo(): Promise<ProjectInfo> {
    mkdirSync(options.stateDir, { recursive: true });
    const path = join(options.stateDir, DEMO_FILE);
    if (existsSync(path)) {
      const info = load(path, false);
      if (info.isDemo) return info;
      closeProject();
      rmSync(path, { force: true });
    }
    try {
      load(path, true);
      const { repo } = requireProject();
      await runImport(repo, { source: { type: 'path', path: join(options.demoDir, 'frank') }, as: 'frank', dataset: DEMO_DATASET });
      draw(DEMO_DATASET, DEMO_SAMPLE.n, DEMO_SAMPLE.seed, undefined);
      // The offline baseline judge over the sample: the judge pipeline is visible without a model.
      judges.ensureBaseline();
      const run = judges.startRun(BASELINE_JUDGE_NAME, { dataset: DEMO_DATASET, onlySampled: true });
      await run.finished;
      if (run.status().state !== 'done') throw new Error(`The demo's baseline judge run ended ${run.status().message}`);
      repo.setMeta('demo', 'ready');
      return load(path, false);
    } catch (err) {
      closeProject();
      for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
      throw err;
    }
  }

  function draw(dataset: string, n: number, seed: number, annotator: string | undefined, annotators?: string[], overlap?: number) {
    const { repo } = requireProject();
    const datasetId = repo.datasetId(dataset);
    if (datasetId === null) throw new ApiError({ code: 'not_found', message: `No dataset "${dataset}" in this project.` });
    const invalid = (message: string) => new ApiError({ code: 'invalid_input', message });
    if (annotators !== undefined && annotator !== undefined) throw invalid('Give either one annotator for the whole batch or annotators to split it among, not both.');
    if (overlap !== undefined && overlap > 0 && annotators === undefined) throw invalid('An overlap needs annotators to split the batch among.');
    if (annotators !== undefined && new Set(annotators).size !== annotators.length) throw invalid('Annotator names repeat.');
    if (annotators !== undefined && annotators.length < 2 && (overlap ?? 0) > 0) throw invalid('An overlap needs at least two annotators.');
    return repo.transaction(() => {
      const annotatorId = annotator ? repo.ensureAnnotator(annotator).id : null;
      const chosen = drawSample(dataset, repo.unsampledSummaries(datasetId), n, seed);
      let assignments: Map<number, number[]> | undefined;
      if (annotators !== undefined) {
        const ids = new Map(annotators.map((name) => [name, repo.ensureAnnotator(name).id]));
        assignments = new Map(assignWithOverlap(dataset, chosen, annotators, overlap ?? 0, seed).map((a) => [a.item.key, a.annotators.map((name) => ids.get(name)!)]));
      }
      const batchId = repo.insertSampleBatch({
        datasetId,
        seed,
        requested: n,
        annotatorId,
        algorithm: SAMPLING_ALGORITHM,
        keys: chosen.map((c) => c.key),
        ...(assignments ? { assignments, overlap: overlap ?? 0 } : {}),
      });
      const batch = repo.sampleBatches(dataset).find((b) => b.id === batchId)!;
      return { ...batch, exhausted: chosen.length < n };
    });
  }

  function jobView(entry: JobEntry): Job {
    return { ...entry.job };
  }

  function startImport(request: ImportRequest): string {
    const { repo } = requireProject();
    const id = randomUUID();
    const controller = new AbortController();
    const job: Job = { id, kind: 'import', state: 'running', phase: 'reading', done: 0, total: 0, result: null, error: null };
    const finished = runImport(repo, request, (p) => Object.assign(job, p), controller.signal).then(
      (result) => {
        Object.assign(job, { state: 'done', result, done: job.total });
      },
      (err: unknown) => {
        if (err instanceof ImportCancelled) Object.assign(job, { state: 'cancelled', error: { message: err.message, problems: [] } });
        else {
          const problems: ImportProblem[] = err instanceof ImportValidationError ? err.problems : [];
          Object.assign(job, { state: 'failed', error: { message: err instanceof Error ? err.message : String(err), problems } });
        }
      },
    );
    jobs.set(id, { job, controller, finished });
    return id;
  }

  function job(jobId: string): JobEntry {
    const entry = jobs.get(jobId);
    if (!entry) throw new ApiError({ code: 'not_found', message: `No job ${jobId}` });
    return entry;
  }

  function annotatorId(name: string): number {
    return requireProject().repo.ensureAnnotator(name).id;
  }

  const handlers: ApiHandlers = {
    'app.info': async () => ({
      version: LOUPE_VERSION,
      host: options.host,
      fileDialogs: options.fileDialogs,
      canSwitchProjects: options.canSwitchProjects,
      project: project?.info ?? null,
      annotator: options.annotator ?? null,
    }),
    'projects.recent': async () => recent.list(),
    'projects.open': async ({ path }) => {
      if (!options.canSwitchProjects) unsupported('Opening another project');
      return load(path, false);
    },
    'projects.create': async ({ path }) => {
      if (!options.canSwitchProjects) unsupported('Creating a project');
      if (existsSync(path)) throw new ApiError({ code: 'conflict', message: `${path} exists already; open it instead.` });
      return load(path, true);
    },
    'projects.openDemo': async () => {
      if (!options.canSwitchProjects && project) unsupported('Switching to the demo project');
      return openDemo();
    },
    'projects.merge': async ({ paths }) => {
      if (options.host === 'web') unsupported('Merging project files from disk');
      const { db, repo, info } = requireProject();
      return mergeProjects({ Database: options.Database, db, repo, projectPath: info.path }, paths);
    },
    'datasets.list': async () => requireProject().repo.datasetStats(),
    'annotators.list': async () => requireProject().repo.listAnnotators(),
    'annotators.ensure': async ({ name }) => requireProject().repo.ensureAnnotator(name),
    'annotators.activity': async ({ fastMs }) => requireProject().repo.annotatorActivity().map((a) => activityOf(a, fastMs)),
    'imports.start': async (input) => {
      if (input.source.type === 'path' && options.host === 'web') unsupported('Importing from a path on disk');
      return { jobId: startImport({ source: input.source, ...(input.as ? { as: input.as } : {}), ...(input.dataset ? { dataset: input.dataset } : {}) }) };
    },
    'jobs.get': async ({ jobId }) => jobView(job(jobId)),
    'jobs.cancel': async ({ jobId }) => {
      const entry = job(jobId);
      entry.controller.abort();
      await entry.finished;
      return jobView(entry);
    },
    'sampling.draw': async ({ dataset, n, seed, annotator, annotators, overlap }) => draw(dataset, n, seed, annotator, annotators, overlap),
    'sampling.list': async ({ dataset }) =>
      requireProject()
        .repo.sampleBatches(dataset ?? null)
        .map((b) => ({ ...b, exhausted: b.summaryIds.length < b.requested })),
    'annotation.queue': async ({ annotator, dataset }) => {
      const rows = requireProject().repo.annotationQueue(annotatorId(annotator), dataset ?? null);
      const resume = rows.findIndex((r) => r.labeled < r.units && !r.documentMissing);
      return { annotator, items: rows, progress: progressOf(rows), resumeAt: resume === -1 ? null : resume };
    },
    'annotation.load': async ({ key, annotator }) => {
      const { repo } = requireProject();
      const summary = repo.summaryForAnnotation(key);
      if (!summary) throw new ApiError({ code: 'not_found', message: `No summary ${key}` });
      const states = repo.currentStates(key, annotatorId(annotator), 'annotation');
      return {
        key: summary.key,
        dataset: summary.dataset,
        summaryId: summary.summaryId,
        docId: summary.docId,
        summary: summary.summary,
        document: summary.document,
        splitter: summary.units[0]?.splitter ?? '',
        units: summary.units.map(({ splitter: _splitter, ...u }) => ({ ...u, state: states.get(u.id) ?? { label: null, errorType: null, note: null } })),
      };
    },
    'annotation.record': async ({ unitId, annotator, state, timeSpentMs, cause }) => {
      const { repo } = requireProject();
      const key = repo.unitSummaryKey(unitId);
      if (key === null) throw new ApiError({ code: 'not_found', message: `No unit ${unitId}` });
      if (state.errorType !== null && state.label !== 'unfaithful') {
        throw new ApiError({ code: 'invalid_input', message: 'An error type applies only to an Unfaithful sentence.' });
      }
      const summary = repo.summaryForAnnotation(key)!;
      if (summary.document === null && state.label !== null) {
        throw new ApiError({ code: 'conflict', message: 'This summary has no document yet; attach its document before labeling.' });
      }
      const id = annotatorId(annotator);
      const eventId = repo.recordLabel({ unitId, annotatorId: id, phase: 'annotation', state, timeSpentMs, cause });
      return { eventId, unitId, state, progress: progressOf(repo.annotationQueue(id, null)) };
    },
    'annotation.attachDocument': async ({ key, text }) => ({ attached: requireProject().repo.attachDocument(key, text) }),
    ...judges.handlers,
    ...analysis.handlers,
    ...createReviewHandlers({ repository: () => requireProject().repo.review }),
    'export.build': async (input) => {
      const { repo, info } = requireProject();
      return buildExport(repo, input, info.name);
    },
    'dialog.openProject': async () => unsupported('The open-project dialog'),
    'dialog.openProjects': async () => unsupported('The open-projects dialog'),
    'dialog.createProject': async () => unsupported('The new-project dialog'),
    'dialog.importFile': async () => unsupported('The import dialog'),
    'dialog.saveExport': async () => unsupported('The save dialog'),
  };

  return {
    handlers,
    openProject: (path) => load(path, false),
    createProject: (path) => load(path, true),
    openDemo,
    current: () => project?.info ?? null,
    repository: () => requireProject().repo,
    judges,
    analysis,
    close: closeProject,
  };
}
