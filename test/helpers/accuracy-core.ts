/** A core for the accuracy/scaffold task tests: typed dispatch calls, a run polled to its end, read-only SQL on the project. */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { createCore, dispatch, type Core } from '../../electron/core/index';
import { runImport } from '../../electron/core/imports/run';
import { startMockOpenAI, type MockServer, type Responder } from '../mock-openai/server';
import { writeJsonl } from './project';
import type { AccuracyRunStatus } from '../../shared/contract/accuracy';
import type { ApiInput, ApiMethod, ApiOutput } from '../../shared/api';

/** A core on `dir` with disk paths allowed, no dialogs and any key environment variable. */
export function taskTestCore(dir: string): Core {
  return createCore({
    Database,
    stateDir: dir,
    demoDir: dir,
    host: 'electron',
    fileDialogs: false,
    diskPaths: true,
    canSwitchProjects: false,
    allowedKeyEnv: 'any',
    env: {},
  });
}

/** One api call through dispatch (so its input is validated as any host's would be); throws on an error envelope. */
export async function callCore<M extends ApiMethod>(core: Core, method: M, input: ApiInput<M>): Promise<ApiOutput<M>> {
  const envelope = await dispatch(core.handlers, method, input);
  if (!envelope.ok) throw new Error(`${method}: ${envelope.error.message}`);
  return envelope.value as ApiOutput<M>;
}

/** Starts an accuracy run and polls accuracy.status until it has ended. */
export async function finishAccuracyRun(core: Core, input: ApiInput<'accuracy.start'>): Promise<AccuracyRunStatus> {
  let status = await callCore(core, 'accuracy.start', input);
  const started = Date.now();
  while (status.state === 'running') {
    if (Date.now() - started > 20_000) throw new Error(`${input.task} did not finish`);
    await new Promise((r) => setTimeout(r, 10));
    status = await callCore(core, 'accuracy.status', { runId: status.runId });
  }
  return status;
}

/** The rows of a query on the project file, opened read-only and closed again. */
export function readRows<T>(path: string, sql: string, ...params: unknown[]): T[] {
  const d = new Database(path, { readonly: true });
  try {
    return d.prepare(sql).all(...params) as T[];
  } finally {
    d.close();
  }
}

/** A project of the given summary rows on a fresh core, a mock endpoint answering by `respond`, and a judge "checker" on it. */
export interface TaskProject {
  mock: MockServer;
  core: Core;
  path: string;
  call<M extends ApiMethod>(method: M, input: ApiInput<M>): Promise<ApiOutput<M>>;
  finish(input: ApiInput<'accuracy.start'>): Promise<AccuracyRunStatus>;
  rows<T>(sql: string, ...params: unknown[]): T[];
  close(): Promise<void>;
}

export async function openTaskProject(dir: string, respond: Responder, records: unknown[]): Promise<TaskProject> {
  const mock = await startMockOpenAI({ respond });
  const core = taskTestCore(dir);
  const path = join(dir, 'tasks.loupe');
  core.createProject(path);
  await runImport(core.repository(), { source: { type: 'path', path: writeJsonl(join(dir, 'rows.jsonl'), records) } });
  await callCore(core, 'judges.add', {
    name: 'checker',
    config: { kind: 'endpoint', baseUrl: mock.url, model: 'mock-judge', concurrency: 1, retries: 0, temperature: 0 },
  });
  return {
    mock,
    core,
    path,
    call: (method, input) => callCore(core, method, input),
    finish: (input) => finishAccuracyRun(core, input),
    rows: (sql, ...params) => readRows(path, sql, ...params),
    close: async () => {
      core.close();
      await mock.close();
    },
  };
}

/**
 * A task project of `summaries` two-sentence summaries in dataset `acc` (documents d0…, summaries
 * s0…), of which the first `sampled` are the people's sample: the setup of the batch-scope tests.
 */
export async function sampledTaskProject(
  dir: string,
  respond: Responder,
  summaries: number,
  sampled: number,
): Promise<TaskProject> {
  const records = Array.from({ length: summaries }, (_, k) => ({
    dataset: 'acc',
    doc_id: `d${k}`,
    document: `Document ${k} says the park opens in June and the council approved it.`,
    summary_id: `s${k}`,
    summary: `The park opens in June (${k}). The council approved it (${k}).`,
  }));
  const project = await openTaskProject(dir, respond, records);
  const repo = project.core.repository();
  const datasetId = repo.datasetId('acc')!;
  const keys = repo
    .unsampledSummaries(datasetId)
    .slice(0, sampled)
    .map((s) => s.key);
  repo.insertSampleBatch({ datasetId, seed: 0, requested: sampled, annotatorId: null, algorithm: 'test', keys });
  return project;
}
