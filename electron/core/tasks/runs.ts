/**
 * The background runs of one kind of caller (judges.*, accuracy.*) in this session: kept by id so
 * status, pause, resume and cancel find them; the newest first when listed; the oldest finished
 * ones forgotten beyond a bound (a running or paused run is never forgotten); all stopped when the
 * project closes (what arrived is kept).
 */
import { ApiError } from '../../../shared/api';
import type { TaskRun } from './engine';

/** The engine's control of a run, whatever its kind. */
type Controlled = Pick<
  TaskRun<unknown, unknown, unknown, unknown>,
  'id' | 'active' | 'pause' | 'resume' | 'cancel' | 'stop' | 'progress'
>;

/** How many runs a registry keeps at most (finished ones go first). */
export const MAX_RUNS_KEPT = 50;

export interface RunRegistry<E> {
  /** Keeps a new run; forgets the oldest finished ones beyond MAX_RUNS_KEPT. */
  add(entry: E): void;
  /** The run, or `not_found` naming what runs this registry keeps ("judge", "accuracy"). */
  require(runId: string): E;
  /** The first active (running or paused) run that matches. */
  active(matches: (entry: E) => boolean): E | null;
  /** Newest first. */
  list(): E[];
  pause(runId: string): Promise<E>;
  /** Only a paused run resumes (`conflict` otherwise). */
  resume(runId: string): E;
  cancel(runId: string): Promise<E>;
  /** Stops every run and forgets them (the project is closing). */
  stopAll(): void;
}

export function createRunRegistry<E>(what: string, runOf: (entry: E) => Controlled): RunRegistry<E> {
  const runs = new Map<string, E>();
  const registry: RunRegistry<E> = {
    add(entry) {
      runs.set(runOf(entry).id, entry);
      for (const [id, e] of runs) {
        if (runs.size <= MAX_RUNS_KEPT) break;
        if (!runOf(e).active) runs.delete(id);
      }
    },
    require(runId) {
      const entry = runs.get(runId);
      if (entry === undefined)
        throw new ApiError({ code: 'not_found', message: `No ${what} run ${runId} in this session.` });
      return entry;
    },
    active(matches) {
      for (const e of runs.values()) if (runOf(e).active && matches(e)) return e;
      return null;
    },
    list: () => [...runs.values()].reverse(),
    async pause(runId) {
      const entry = registry.require(runId);
      await runOf(entry).pause('user');
      return entry;
    },
    resume(runId) {
      const entry = registry.require(runId);
      const run = runOf(entry);
      const state = run.progress().state;
      if (state !== 'paused')
        throw new ApiError({ code: 'conflict', message: `The run is ${state}; only a paused run resumes.` });
      run.resume();
      return entry;
    },
    async cancel(runId) {
      const entry = registry.require(runId);
      await runOf(entry).cancel();
      return entry;
    },
    stopAll() {
      for (const e of runs.values()) runOf(e).stop();
      runs.clear();
    },
  };
  return registry;
}
