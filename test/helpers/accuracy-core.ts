/** A core for the accuracy/scaffold task tests: typed dispatch calls, a run polled to its end, read-only SQL on the project. */
import Database from 'better-sqlite3';
import { createCore, dispatch, type Core } from '../../electron/core/index';
import type { AccuracyRunStatus } from '../../shared/contract/accuracy';
import type { ApiInput, ApiMethod, ApiOutput } from '../../shared/api';

/** A core on `dir` with disk paths allowed, no dialogs and any key environment variable. */
export function taskTestCore(dir: string): Core {
  return createCore({ Database, stateDir: dir, demoDir: dir, host: 'electron', fileDialogs: false, diskPaths: true, canSwitchProjects: false, allowedKeyEnv: 'any', env: {} });
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
