/**
 * accuracy.*: the LLM tasks of the Summarization Accuracy evaluation on the task
 * engine: what can run (tasks), the exact request of one item (preview), what a start would send
 * (plan), and background runs (start / status / pause / resume / cancel / runs), told like the
 * judge runs. Contract: shared/contract/accuracy.ts.
 *
 * Who answers: a judge of judges.* (an endpoint judge: its base URLs, model, decoding and key;
 * the task's own template) for every task but summary_generation, which runs a system of
 * systems.* (its key from the OS keychain on the desktop, bound to its endpoint origins, else the
 * environment variable it names, under the host's policy: systems/keys.ts).
 */
import { requestFileName } from '../../../shared/batch-file-name';
import { ApiError, type ApiHandlers, type ChangeNamespace } from '../../../shared/api';
import {
  AccuracyRunInputSchema,
  type AccuracyBatchExport,
  type AccuracyBatchImport,
  type AccuracyPlan,
  type AccuracyPreview,
  type AccuracyRunStatus,
  type AccuracyTask,
  type AccuracyTaskInfo,
} from '../../../shared/contract/accuracy';
import { SystemConfigSchema, systemUrls } from '../../../shared/contract/systems';
import { ACCURACY_TASKS } from '../../../shared/contract/accuracy';
import type { z } from 'zod';
import type { CoreContext } from '../context';
import type { JudgeService } from '../judges/service';
import { walkWork, type BatchSetup } from '../tasks/batch';
import { exportBatchToFile, exportBatchToText, importBatchFromFile, importBatchFromText } from '../tasks/batch-files';
import { DEFAULT_TUNING, TaskRun, type RunTuning } from '../tasks/engine';
import { progressStatusFields } from '../tasks/status-fields';
import { ModelConfigSchema, type ModelConfig } from '../tasks/model-config';
import { replicaBackend } from '../tasks/transport';
import { createRunRegistry } from '../tasks/runs';
import type { TaskBackend } from '../tasks/kind';
import { completionsUrl, estimatedTokens } from '../../../shared/judges/request';
import { TASKS, type TaskEntry } from '../tasks/registry';
import type { AnySetup, Judge, System } from '../tasks/setup';
import { systemKeys } from '../systems/keys';

/** The tasks that write a set people annotate: their runs' change events name that set's namespace. */
const SETS_OF_TASK: Partial<Record<AccuracyTask, ChangeNamespace>> = {
  claim_decomposition: 'claims',
  keyfact_extraction: 'keyfacts',
  scaffold_extraction: 'scaffold',
};

export type AccuracyHandlers = Pick<
  ApiHandlers,
  | 'accuracy.tasks'
  | 'accuracy.preview'
  | 'accuracy.plan'
  | 'accuracy.start'
  | 'accuracy.status'
  | 'accuracy.pause'
  | 'accuracy.resume'
  | 'accuracy.cancel'
  | 'accuracy.runs'
  | 'accuracy.batchExport'
  | 'accuracy.batchImport'
>;

type RunInput = z.output<typeof AccuracyRunInputSchema>;

export interface AccuracyServiceOptions {
  /** Tests: faster backoff, a smaller circuit threshold. */
  tuning?: Partial<Omit<RunTuning, 'concurrency' | 'retries'>>;
}

export interface AccuracyService {
  handlers: AccuracyHandlers;
  /** The project is closing: stop every run (what arrived is kept). */
  stopAll(): void;
}

interface AccuracyRun {
  run: TaskRun<unknown, unknown, unknown, unknown>;
  task: AccuracyTask;
  model: string;
  dataset: string | null;
  notes: string[];
  missing: number;
}

const placeholders = (template: string) => [
  ...new Set([...template.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1]!)),
];

export function createAccuracyService(
  ctx: CoreContext,
  judges: JudgeService,
  options: AccuracyServiceOptions = {},
): AccuracyService {
  const runs = createRunRegistry<AccuracyRun>('accuracy', (r) => r.run);
  const repo = () => ctx.project().repo;
  const systems = systemKeys(ctx);

  function requireDataset(dataset: string | undefined): void {
    if (dataset !== undefined && repo().datasetId(dataset) === null)
      throw new ApiError({ code: 'not_found', message: `No dataset "${dataset}" in this project.` });
  }

  /** The judge or system name a task runs with. */
  const modelOf = (input: RunInput): string =>
    TASKS[input.task].answeredBy === 'system' ? input.system! : input.judge!;

  interface Endpoint {
    apiKey: string | null;
    baseUrls: string[];
    timeoutS: number;
    concurrency: number;
    retries: number;
    keyLabel: string;
  }

  /** The system's endpoint, key and answerer, checked. */
  function systemOf(name: string, withKey: boolean): Endpoint & { who: System } {
    const row = repo().systems.systemByName(name);
    if (!row) throw new ApiError({ code: 'not_found', message: `No system "${name}" in this project (systems.add).` });
    if (row.kind !== 'endpoint' || row.config === null)
      throw new ApiError({
        code: 'conflict',
        message: `"${name}" is an imported system (its summaries came with a file); it has no endpoint to ask.`,
      });
    const config = SystemConfigSchema.parse(JSON.parse(row.config));
    return {
      who: { type: 'system', name, systemId: row.id, config },
      // The keychain's key if bound to every base URL, else the environment variable (host policy).
      apiKey: withKey ? systems.keyFor(name, config) : null,
      baseUrls: systemUrls(config),
      timeoutS: config.timeoutS,
      concurrency: config.concurrency,
      retries: config.retries,
      keyLabel: systems.label(name, config),
    };
  }

  /** The judge's endpoint, key and answerer, checked; the judge service resolves the key exactly as for its own runs. */
  function judgeOf(name: string, withKey: boolean): Endpoint & { who: Judge } {
    const { judgeId, config, apiKey } = withKey
      ? judges.endpointOf(name)
      : { ...judges.endpointOf(name), apiKey: null };
    const model: ModelConfig = ModelConfigSchema.parse({
      baseUrls: config.baseUrls,
      model: config.model,
      apiKeyEnv: config.apiKeyEnv,
      temperature: config.temperature,
      topP: config.topP,
      maxTokens: config.maxTokens,
      extra: config.extra,
      concurrency: config.concurrency,
      timeoutS: config.timeoutS,
      retries: config.retries,
    });
    return {
      who: { type: 'judge', name, judgeId, config: model },
      apiKey,
      baseUrls: model.baseUrls,
      timeoutS: model.timeoutS,
      concurrency: model.concurrency,
      retries: model.retries,
      keyLabel: config.apiKeyEnv ? `<key from $${config.apiKeyEnv}>` : "the judge's key, if any",
    };
  }

  /** The task over the input's selection, with the endpoint that answers it (a system or a judge, as the task says). */
  function setupFor(input: RunInput, withKey: boolean): Endpoint & { setup: AnySetup } {
    requireDataset(input.dataset);
    const entry: TaskEntry = TASKS[input.task];
    const selection = {
      dataset: input.dataset ?? null,
      onlySampled: input.onlySampled,
      lines: input.lines,
      prompts: input.prompts,
    };
    if (entry.answeredBy === 'system') {
      const { who, ...endpoint } = systemOf(input.system!, withKey);
      return { ...endpoint, setup: entry.setup(repo(), who, selection) };
    }
    const { who, ...endpoint } = judgeOf(input.judge!, withKey);
    return { ...endpoint, setup: entry.setup(repo(), who, selection) };
  }

  function activeRun(task: AccuracyTask, model: string): AccuracyRun | null {
    return runs.active((r) => r.task === task && r.model === model);
  }

  function statusOf(r: AccuracyRun, now = Date.now()): AccuracyRunStatus {
    const p = r.run.progress(now);
    return {
      ...progressStatusFields(p),
      task: r.task,
      model: r.model,
      dataset: r.dataset,
      notes: [...r.notes, ...p.notes.filter((n) => n !== '')],
      itemNoun: r.run.kind.itemNoun,
    };
  }

  function start(input: RunInput): AccuracyRun {
    const model = modelOf(input);
    const existing = activeRun(input.task, model);
    if (existing)
      throw new ApiError({
        code: 'conflict',
        message: `${input.task} with "${model}" has a ${existing.run.progress().state} run (${existing.run.id}); resume or cancel it first.`,
      });
    const a = setupFor(input, true);
    const setup: AnySetup = a.setup;
    // Outputs stored before a kill, whose sets or predictions were not written yet, are written now.
    setup.repair();
    const tuning: RunTuning = { ...DEFAULT_TUNING, ...options.tuning, concurrency: a.concurrency, retries: a.retries };
    const backend: TaskBackend<unknown, unknown> = replicaBackend(
      setup.kind,
      setup.config,
      { baseUrls: a.baseUrls, timeoutS: a.timeoutS, concurrency: a.concurrency },
      a.apiKey,
      {
        failThreshold: tuning.circuitThreshold,
      },
    );
    const run = new TaskRun<unknown, unknown, unknown, unknown>({
      kind: setup.kind,
      config: setup.config,
      configHash: setup.configHash,
      source: setup.source,
      backend,
      tuning,
      secrets: ctx.keys.known,
    });
    const entry: AccuracyRun = {
      run,
      task: input.task,
      model,
      dataset: input.dataset ?? null,
      notes: setup.notes,
      missing: setup.missing,
    };
    runs.add(entry);
    run.start();
    // The sets a task writes are what annotators see change; the rest is the lead's.
    void run.finished.then(() =>
      ctx.changes.emit({
        namespace: SETS_OF_TASK[input.task] ?? 'accuracy',
        what: 'accuracy.run',
        dataset: input.dataset ?? null,
      }),
    );
    return entry;
  }

  function taskInfos(): AccuracyTaskInfo[] {
    return ACCURACY_TASKS.map((task) => {
      const entry = TASKS[task];
      const template = entry.answeredBy === 'judge' ? entry.kind.spec.template : entry.template;
      return {
        task,
        version: entry.kind.version,
        description: entry.description,
        template,
        placeholders: entry.answeredBy === 'judge' ? placeholders(template) : entry.placeholders,
        itemNoun: entry.kind.itemNoun,
      };
    });
  }

  function preview(input: RunInput): AccuracyPreview {
    const a = setupFor(input, false);
    const first = a.setup.first();
    if (!first) return { task: input.task, configHash: a.setup.configHash, item: null, prompt: null, body: null };
    const body = a.setup.kind.buildRequest(a.setup.config, first.input);
    const messages = body.messages as Array<{ role: string; content: string }>;
    return {
      task: input.task,
      configHash: a.setup.configHash,
      item: `${first.label} · POST ${completionsUrl(a.baseUrls[0]!)} · Authorization: Bearer ${a.keyLabel}`,
      prompt: messages.map((m) => m.content).join('\n\n'),
      body,
    };
  }

  async function plan(input: RunInput): Promise<AccuracyPlan> {
    const a = setupFor(input, false);
    const counts = await walkWork(
      { kind: a.setup.kind, config: a.setup.config, configHash: a.setup.configHash, source: a.setup.source },
      { dryRun: true, countPrompts: true },
    );
    return {
      task: input.task,
      model: modelOf(input),
      configHash: a.setup.configHash,
      dataset: input.dataset ?? null,
      selection: counts.selection,
      done: counts.done,
      requests: counts.requests,
      promptTokens: estimatedTokens(counts.promptChars),
      baseUrls: a.baseUrls,
      missing: counts.missing,
      notes: [
        ...a.setup.notes,
        ...(counts.cached > 0 ? [`${counts.cached} found in the content cache (stored without a request)`] : []),
        ...(counts.shared > 0 ? [`${counts.shared} share a request with another item of the same content`] : []),
      ],
    };
  }

  /** A batch file sends nothing itself, but its answers are stored as a run's: not while a run of the same task and model is active. */
  function batchSetupFor(input: RunInput): {
    setup: BatchSetup<unknown, unknown, unknown, unknown>;
    notes: string[];
    baseUrls: string[];
  } {
    const model = modelOf(input);
    const existing = activeRun(input.task, model);
    if (existing)
      throw new ApiError({
        code: 'conflict',
        message: `${input.task} with "${model}" has a ${existing.run.progress().state} run (${existing.run.id}); pause and cancel it, or wait for it, before a batch file.`,
      });
    const a = setupFor(input, false);
    const setup: AnySetup = a.setup;
    setup.repair();
    const requestFiles = {
      store: repo().batchExports,
      target: `${input.task} with "${model}"`,
      dataset: input.dataset ?? null,
      onlySampled: input.onlySampled,
      sourceFor: (other: { dataset: string | null; onlySampled: boolean }) =>
        other.dataset !== null && repo().datasetId(other.dataset) === null
          ? null
          : setupFor({ ...input, dataset: other.dataset ?? undefined, onlySampled: other.onlySampled }, false).setup
              .source,
    };
    return {
      setup: {
        kind: setup.kind,
        config: setup.config,
        configHash: setup.configHash,
        source: setup.source,
        secrets: ctx.keys.known,
        requestFiles,
      },
      notes: setup.notes,
      baseUrls: a.baseUrls,
    };
  }

  function requireDiskPaths(what: string): void {
    if (!ctx.options.diskPaths)
      throw new ApiError({
        code: 'unsupported',
        message: `${what} is only available in the desktop app and the CLI; here the file is downloaded or uploaded instead.`,
      });
  }

  /** A download name: task and model made safe. */
  const batchFileName = (input: RunInput): string => requestFileName(`${input.task}-${modelOf(input)}`, 'accuracy');

  async function batchExport(input: RunInput, path: string | undefined): Promise<AccuracyBatchExport> {
    if (path !== undefined) requireDiskPaths('Writing a batch file to a path');
    const { setup, notes, baseUrls } = batchSetupFor(input);
    const written =
      path !== undefined
        ? { counts: await exportBatchToFile(setup, path), text: null }
        : await exportBatchToText(setup);
    const { counts } = written;
    return {
      task: input.task,
      model: modelOf(input),
      configHash: setup.configHash,
      dataset: input.dataset ?? null,
      selection: counts.selection,
      done: counts.done,
      cached: counts.cached,
      requests: counts.requests,
      promptTokens: estimatedTokens(counts.promptChars),
      baseUrls,
      missing: counts.missing,
      notes: [
        ...notes,
        ...(counts.shared > 0 ? [`${counts.shared} share a request with another item of the same content`] : []),
      ],
      path: path ?? null,
      fileName: batchFileName(input),
      content: written.text,
    };
  }

  async function batchImport(
    input: RunInput,
    source: { type: 'path'; path: string } | { type: 'upload'; name: string; text: string },
  ): Promise<AccuracyBatchImport> {
    if (source.type === 'path') requireDiskPaths('Reading a batch file from a path');
    // The request file's selection (the run's dataset and sample): an answer outside it is refused.
    const { setup } = batchSetupFor(input);
    const counts =
      source.type === 'path'
        ? await importBatchFromFile(setup, source.path)
        : await importBatchFromText(setup, source.text);
    return { task: input.task, model: modelOf(input), configHash: setup.configHash, ...counts };
  }

  const handlers: AccuracyHandlers = {
    'accuracy.tasks': async () => taskInfos(),
    'accuracy.preview': async (input) => preview(input),
    'accuracy.plan': async (input) => plan(input),
    'accuracy.start': async (input) => statusOf(start(input)),
    'accuracy.status': async ({ runId }) => statusOf(runs.require(runId)),
    'accuracy.pause': async ({ runId }) => statusOf(await runs.pause(runId)),
    'accuracy.resume': async ({ runId }) => statusOf(runs.resume(runId)),
    'accuracy.cancel': async ({ runId }) => statusOf(await runs.cancel(runId)),
    'accuracy.runs': async () => runs.list().map((r) => statusOf(r)),
    'accuracy.batchExport': async ({ run, path }) => batchExport(run, path),
    'accuracy.batchImport': async ({ run, source }) => batchImport(run, source),
  };

  return {
    handlers,
    stopAll: () => runs.stopAll(),
  };
}
