/**
 * The lead's Summarization Accuracy tasks in the Judges view: the task
 * kinds with their prompts, the systems under test, what a start would send (accuracy.plan,
 * before Start), and the runs with their progress, polled while they run.
 *
 * Blindness: counts and progress only, never a claim verdict or an alignment; nothing here is read
 * by the Annotate view except "a run that makes claims or key facts finished" (reload them).
 */
import { create } from 'zustand';
import type {
  AccuracyPlan,
  AccuracyPreview,
  AccuracyRunInput,
  AccuracyRunStatus,
  AccuracyTask,
  AccuracyTaskInfo,
} from '../../shared/contract/accuracy';
import type { SystemInfo } from '../../shared/contract/systems';
import type { ApiInput } from '../../shared/api';
import { errorMessage } from '../api/errors';
import { reloadItemsLater } from './claimsAndKeyFacts';
import { CONFIRM_REQUESTS_AT } from './judges';
import { bridge } from './session';

export type TaskControl = 'start' | 'pause' | 'resume' | 'cancel';

export const TASK_NAME: Record<AccuracyTask, string> = {
  claim_decomposition: 'Claim decomposition',
  keyfact_extraction: 'Key-fact extraction',
  claim_verdict: 'Claim verdicts',
  keyfact_alignment: 'Key-fact alignment',
  keyfact_alignment_per_fact: 'Key-fact alignment, one fact per request',
  summary_generation: 'Summaries by a system under test',
  scaffold_extraction: 'Semantic Scaffold extraction',
  scaffold_alignment: 'Semantic Scaffold alignment',
  direct_score: 'Direct score (holistic 1–10 baseline)',
};

export interface TaskOptions {
  task: AccuracyTask;
  judge: string;
  system: string;
  /** '' = every dataset. */
  dataset: string;
  onlySampled: boolean;
  lines: 'sentences' | 'claims';
}

interface AccuracyTasksState {
  loaded: boolean;
  tasks: AccuracyTaskInfo[];
  systems: SystemInfo[];
  runs: AccuracyRunStatus[];
  options: TaskOptions;
  /** What Start would send for `options` (null: not known yet or refused, see planError). */
  plan: AccuracyPlan | null;
  planFor: string | null;
  planError: string | null;
  preview: AccuracyPreview | null;
  confirming: boolean;
  pending: TaskControl | null;
  error: string | null;
}

const initialOptions: TaskOptions = {
  task: 'claim_decomposition',
  judge: '',
  system: '',
  dataset: '',
  onlySampled: false,
  lines: 'sentences',
};

const initialState: AccuracyTasksState = {
  loaded: false,
  tasks: [],
  systems: [],
  runs: [],
  options: initialOptions,
  plan: null,
  planFor: null,
  planError: null,
  preview: null,
  confirming: false,
  pending: null,
  error: null,
};

export const useAccuracyTasks = create<AccuracyTasksState>(() => ({ ...initialState }));
const get = () => useAccuracyTasks.getState();
const set = (partial: Partial<AccuracyTasksState>) => useAccuracyTasks.setState(partial);

/** How often a running task is polled; tests need no timing (the fake finishes on the first poll). */
export const taskPolling = { intervalMs: 500 };
let pollTimer: ReturnType<typeof setTimeout> | null = null;

export function resetAccuracyTasks(): void {
  stopTaskPolling();
  useAccuracyTasks.setState({ ...initialState, options: { ...initialOptions } });
}

/** What the run input is for these options, or why there is none yet. */
export function runInput(options: TaskOptions = get().options): AccuracyRunInput | string {
  const base = {
    task: options.task,
    onlySampled: options.onlySampled,
    ...(options.dataset ? { dataset: options.dataset } : {}),
  };
  if (options.task === 'summary_generation') {
    if (!options.system) return 'Choose a system under test (add one below).';
    if (!options.dataset) return 'Choose the dataset whose documents the system summarises.';
    return { ...base, system: options.system };
  }
  if (!options.judge) return 'Choose the judge that runs this task (its endpoint, model and key).';
  return { ...base, judge: options.judge, ...(options.task === 'keyfact_alignment' ? { lines: options.lines } : {}) };
}

const optionsKey = (options: TaskOptions) => JSON.stringify(options);

export async function openAccuracyTasks(): Promise<void> {
  try {
    const [tasks, systems, runs] = await Promise.all([
      bridge().call('accuracy.tasks', {}),
      bridge().call('systems.list', {}),
      bridge().call('accuracy.runs', {}),
    ]);
    set({ loaded: true, tasks, systems, runs, error: null });
    if (runs.some((run) => run.state === 'running')) schedulePoll();
    await refreshTaskPlan();
  } catch (err) {
    set({ loaded: true, error: errorMessage(err) });
  }
}

/** From Annotate's empty state: this task, this dataset, ready to plan. */
export function prepareTask(task: AccuracyTask, dataset: string): void {
  set({ options: { ...get().options, task, dataset }, plan: null, planFor: null, preview: null, confirming: false });
}

export function setTaskOptions(change: Partial<TaskOptions>): Promise<void> {
  set({ options: { ...get().options, ...change }, confirming: false, preview: null });
  return refreshTaskPlan();
}

/** Asks what a start would send for the current options; nothing is sent or stored. */
export async function refreshTaskPlan(): Promise<void> {
  const options = get().options;
  const input = runInput(options);
  if (typeof input === 'string') return set({ plan: null, planFor: null, planError: input });
  try {
    const plan = await bridge().call('accuracy.plan', input);
    if (optionsKey(get().options) === optionsKey(options)) set({ plan, planFor: optionsKey(options), planError: null });
  } catch (err) {
    if (optionsKey(get().options) === optionsKey(options))
      set({ plan: null, planFor: null, planError: errorMessage(err) });
  }
}

/** The plan, if it is for the options on screen. */
export function currentTaskPlan(state: AccuracyTasksState = get()): AccuracyPlan | null {
  return state.planFor === optionsKey(state.options) ? state.plan : null;
}

export async function previewTask(): Promise<void> {
  const input = runInput();
  if (typeof input === 'string') return set({ error: input });
  try {
    set({ preview: await bridge().call('accuracy.preview', input), error: null });
  } catch (err) {
    set({ error: errorMessage(err) });
  }
}

export function activeRun(state: AccuracyTasksState = get()): AccuracyRunStatus | undefined {
  return state.runs.find((run) => run.state === 'running' || run.state === 'paused');
}

/** Start: only with a plan on screen; a start of CONFIRM_REQUESTS_AT requests or more asks first. */
export async function startTask(confirmed = false): Promise<void> {
  const plan = currentTaskPlan();
  const input = runInput();
  if (typeof input === 'string' || !plan || get().pending) return;
  if (!confirmed && plan.requests >= CONFIRM_REQUESTS_AT) return set({ confirming: true });
  set({ pending: 'start', confirming: false, error: null });
  try {
    const run = await bridge().call('accuracy.start', input);
    upsertRun(run);
    schedulePoll();
  } catch (err) {
    set({ error: errorMessage(err) });
  } finally {
    set({ pending: null });
  }
}

export function cancelTaskConfirmation(): void {
  set({ confirming: false });
}

async function control(kind: Exclude<TaskControl, 'start'>, runId: string): Promise<void> {
  set({ pending: kind, error: null });
  try {
    const method = kind === 'pause' ? 'accuracy.pause' : kind === 'resume' ? 'accuracy.resume' : 'accuracy.cancel';
    upsertRun(await bridge().call(method, { runId }));
    schedulePoll();
  } catch (err) {
    set({ error: errorMessage(err) });
  } finally {
    set({ pending: null });
  }
}

export const pauseTask = (runId: string) => control('pause', runId);
export const resumeTask = (runId: string) => control('resume', runId);
export const cancelTask = (runId: string) => control('cancel', runId);

function upsertRun(run: AccuracyRunStatus): void {
  const runs = get().runs;
  const before = runs.find((r) => r.runId === run.runId);
  set({ runs: before ? runs.map((r) => (r.runId === run.runId ? run : r)) : [run, ...runs] });
  const finished = before?.state !== 'done' && run.state === 'done';
  if (finished && (run.task === 'claim_decomposition' || run.task === 'keyfact_extraction')) reloadItemsLater();
  if (finished) void refreshTaskPlan();
}

function schedulePoll(): void {
  if (pollTimer !== null) return;
  pollTimer = setTimeout(() => {
    pollTimer = null;
    void pollRunning();
  }, 0);
}

async function pollRunning(): Promise<void> {
  const running = get().runs.filter((run) => run.state === 'running');
  for (const run of running) {
    try {
      upsertRun(await bridge().call('accuracy.status', { runId: run.runId }));
    } catch (err) {
      set({ error: errorMessage(err) });
      return;
    }
  }
  if (get().runs.some((run) => run.state === 'running')) {
    pollTimer = setTimeout(() => {
      pollTimer = null;
      void pollRunning();
    }, taskPolling.intervalMs);
  }
}

export function stopTaskPolling(): void {
  if (pollTimer !== null) clearTimeout(pollTimer);
  pollTimer = null;
}

// --- systems under test ------------------------------------------------------------------------

export async function addSystem(input: ApiInput<'systems.add'>): Promise<boolean> {
  try {
    await bridge().call('systems.add', input);
    set({ systems: await bridge().call('systems.list', {}), error: null });
    return true;
  } catch (err) {
    set({ error: errorMessage(err) });
    return false;
  }
}

export async function removeSystem(name: string): Promise<void> {
  try {
    await bridge().call('systems.remove', { name });
    const systems = await bridge().call('systems.list', {});
    set({
      systems,
      error: null,
      options: get().options.system === name ? { ...get().options, system: '' } : get().options,
    });
  } catch (err) {
    set({ error: errorMessage(err) });
  }
}

export function setTasksError(error: string | null): void {
  set({ error });
}
