/**
 * The Judges view's data: the project's judges, the contract's defaults for a new one, and the
 * latest run of each judge in this session, followed by polling `judges.status` while it runs.
 *
 * Blindness (ARCHITECTURE.md rule 1): this store holds configurations, counts and run progress,
 * never a prediction for a sentence, and nothing here is read by the annotation store or the
 * Annotate view.
 */
import { requestFileName } from '../../shared/batch-file-name';
import { batchSource, chooseSavePath, filesOnDisk, type BatchAnswers } from './diskFiles';
import { create } from 'zustand';
import type { ApiInput, ApiOutput, JudgeBatchImport, JudgeInfo, JudgePlan, JudgeRunStatus } from '../../shared/api';
import { errorMessage } from '../api/errors';
import { formatCount, plural } from '../format';
import { bridge } from './session';

export type JudgeDefaults = ApiOutput<'judges.defaults'>;
export type RunControl = 'start' | 'pause' | 'resume' | 'cancel';

export interface RunOptions {
  /** '' = every dataset. */
  dataset: string;
  onlySampled: boolean;
}

interface JudgesState {
  /** The project these judges belong to; another project starts from scratch. */
  owner: string | null;
  loaded: boolean;
  judges: JudgeInfo[];
  defaults: JudgeDefaults | null;
  /** The judge the run panel is about. */
  selected: string | null;
  /** The latest run of each judge in this session, by judge name. */
  runs: Record<string, JudgeRunStatus>;
  /** A start/pause/resume/cancel call in flight, by judge name. */
  pending: Record<string, RunControl>;
  runOptions: RunOptions;
  error: string | null;
  /** What the last action did ("Added …", "new judge version …"). */
  notice: string | null;
  /** What a start would send for the run options, by judge name (null: not known). */
  plans: Record<string, PlanEntry>;
  /** The judge whose Start waits for the user to confirm the requests it sends. */
  confirming: string | null;
  /** A batch export or import in flight, by judge name. */
  batchPending: Record<string, 'export' | 'import'>;
  /** The last batch import's report, by judge name. */
  batchImports: Record<string, JudgeBatchImport>;
}

export interface PlanEntry {
  /** The selection it was computed for ("<dataset>|<onlySampled>"). */
  key: string;
  plan: JudgePlan | null;
}

const initialState: JudgesState = {
  owner: null,
  loaded: false,
  judges: [],
  defaults: null,
  selected: null,
  runs: {},
  pending: {},
  runOptions: { dataset: '', onlySampled: false },
  error: null,
  notice: null,
  plans: {},
  confirming: null,
  batchPending: {},
  batchImports: {},
};

/** A start that sends this many requests or more asks first (a hosted API bills each one). */
export const CONFIRM_REQUESTS_AT = 1000;

export const useJudges = create<JudgesState>(() => ({ ...initialState }));

/** How often a running run is polled; tests shorten it. */
export const judgePolling = { intervalMs: 500 };

const set = (partial: Partial<JudgesState>): void => useJudges.setState(partial);
const get = (): JudgesState => useJudges.getState();
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A run that still owns its judge: running, or paused and resumable. */
export function isActive(run: JudgeRunStatus | undefined): boolean {
  return run?.state === 'running' || run?.state === 'paused';
}

export function isBaseline(judge: Pick<JudgeInfo, 'kind'>): boolean {
  return judge.kind === 'baseline';
}

/** Imported judges (predictions from a file) have no configuration to run or edit. */
export function isRunnable(judge: JudgeInfo): boolean {
  return judge.kind !== 'imported' && judge.config !== null;
}

// ---------------------------------------------------------------------------------------------
// Loading

/** The view opened (or the project changed): judges, defaults and the runs to reattach to. */
export async function openJudges(owner: string): Promise<void> {
  if (get().owner !== owner) {
    stopJudgePolling();
    set({ ...initialState, owner });
  }
  try {
    const [defaults, judges, runs] = await Promise.all([
      bridge().call('judges.defaults', {}),
      bridge().call('judges.list', {}),
      bridge().call('judges.runs', {}),
    ]);
    if (get().owner !== owner) return;
    // Newest first: the first run seen for a judge is its latest.
    const latest: Record<string, JudgeRunStatus> = {};
    for (const run of runs) if (!latest[run.judge]) latest[run.judge] = run;
    set({ defaults, judges, runs: { ...get().runs, ...latest }, loaded: true, error: null });
    keepSelection();
    ensurePolling();
  } catch (err) {
    set({ loaded: true, error: errorMessage(err) });
  }
}

export async function refreshJudges(): Promise<void> {
  const owner = get().owner;
  try {
    const judges = await bridge().call('judges.list', {});
    if (get().owner !== owner) return;
    set({ judges });
    keepSelection();
  } catch (err) {
    set({ error: errorMessage(err) });
  }
}

/** Keeps the selection on a judge that exists; prefers one with a run, then a runnable one. */
function keepSelection(): void {
  const { judges, selected, runs } = get();
  if (selected && judges.some((j) => j.name === selected)) return;
  const withRun = judges.find((j) => isActive(runs[j.name]) || j.activeRunId !== null);
  const runnable = judges.find(isRunnable);
  set({ selected: (withRun ?? runnable ?? judges[0])?.name ?? null });
}

export function selectJudge(name: string): void {
  set({ selected: name });
}

export function setRunOptions(options: Partial<RunOptions>): void {
  set({ runOptions: { ...get().runOptions, ...options } });
}

export function setJudgesError(error: string | null): void {
  set({ error });
}

export function dismissJudgesNotice(): void {
  set({ notice: null });
}

// ---------------------------------------------------------------------------------------------
// Configurations (errors are thrown to the form, which shows them beside the fields)

export async function addJudge(input: ApiInput<'judges.add'>): Promise<JudgeInfo> {
  const judge = await bridge().call('judges.add', input);
  set({ notice: `Added the judge "${judge.name}".`, selected: judge.name, error: null });
  await refreshJudges();
  return judge;
}

export async function updateJudge(input: ApiInput<'judges.update'>): Promise<ApiOutput<'judges.update'>> {
  const result = await bridge().call('judges.update', input);
  set({
    notice: result.newVersion
      ? `Saved "${result.judge.name}". Answer-affecting fields changed: this is a new judge version (${shortHash(result.judge.configHash)}); earlier predictions are kept under the old version and never mixed.`
      : `Saved "${result.judge.name}" (same judge version: only run settings or the key changed).`,
    error: null,
  });
  await refreshJudges();
  return result;
}

/** The offline baseline under its default name, with the contract's defaults. */
export async function addBaseline(): Promise<void> {
  const defaults = get().defaults;
  if (!defaults) return;
  try {
    await addJudge({ name: defaults.baselineName, config: defaults.baseline });
  } catch (err) {
    set({ error: errorMessage(err) });
  }
}

export async function removeJudge(name: string): Promise<void> {
  try {
    const result = await bridge().call('judges.remove', { name });
    const runs = { ...get().runs };
    delete runs[name];
    set({
      runs,
      selected: get().selected === name ? null : get().selected,
      notice: result.removed
        ? `Removed the judge "${name}" and ${plural(result.predictionsRemoved, 'stored prediction')}.`
        : `There was no judge "${name}" to remove.`,
      error: null,
    });
    await refreshJudges();
  } catch (err) {
    set({ error: errorMessage(err) });
  }
}

export function shortHash(hash: string | null): string {
  if (!hash) return '—';
  return hash === 'imported' ? hash : hash.slice(0, 12);
}

// ---------------------------------------------------------------------------------------------
// Runs

/** Bumped by every start/pause/resume/cancel answer: a poll sent before it is stale. */
const controlGeneration = new Map<string, number>();
let pollEpoch = 0;
let polling = false;

function applyStatus(status: JudgeRunStatus, fromControl: boolean): void {
  const previous = get().runs[status.judge];
  if (fromControl) controlGeneration.set(status.runId, (controlGeneration.get(status.runId) ?? 0) + 1);
  set({ runs: { ...get().runs, [status.judge]: status } });
  // Counts in the list change when a run stops (finished, paused or cancelled).
  if (previous?.state !== status.state && status.state !== 'running') {
    void refreshJudges();
    void refreshPlan(status.judge);
  }
}

async function control(name: string, kind: RunControl, call: () => Promise<JudgeRunStatus>): Promise<void> {
  if (get().pending[name]) return;
  set({ pending: { ...get().pending, [name]: kind }, error: null });
  try {
    applyStatus(await call(), true);
  } catch (err) {
    set({ error: errorMessage(err) });
  } finally {
    const pending = { ...get().pending };
    delete pending[name];
    set({ pending });
  }
  ensurePolling();
}

export function canStart(name: string): boolean {
  const { judges, runs, pending } = get();
  const judge = judges.find((j) => j.name === name);
  if (!judge || !isRunnable(judge) || pending[name]) return false;
  const run = runs[name];
  // The list may lag behind the run we follow; a run we do not follow counts as active.
  if (run) return !isActive(run) && (judge.activeRunId === null || judge.activeRunId === run.runId);
  return judge.activeRunId === null;
}

const planKey = (options: RunOptions) => `${options.dataset}|${options.onlySampled}`;

/** The plan of `name` for the current run options, if known. */
export function currentPlan(name: string): JudgePlan | null {
  const entry = get().plans[name];
  return entry && entry.key === planKey(get().runOptions) ? entry.plan : null;
}

/** Asks the core what a start would send (counts only; nothing is sent). A host without it says nothing. */
export async function refreshPlan(name: string): Promise<void> {
  const options = get().runOptions;
  const key = planKey(options);
  let plan: JudgePlan | null;
  try {
    plan = await bridge().call('judges.plan', {
      name,
      onlySampled: options.onlySampled,
      ...(options.dataset ? { dataset: options.dataset } : {}),
    });
  } catch {
    plan = null;
  }
  if (planKey(get().runOptions) !== key) return; // the options changed meanwhile
  set({ plans: { ...get().plans, [name]: { key, plan } } });
}

/**
 * Start: a start that sends many requests asks first (the confirmation shows how many, see
 * CONFIRM_REQUESTS_AT); `confirmed` is the answer.
 */
export function startRun(name: string, confirmed = false): Promise<void> {
  if (!canStart(name)) return Promise.resolve();
  const plan = currentPlan(name);
  if (!confirmed && plan && plan.remote && plan.requests >= CONFIRM_REQUESTS_AT) {
    set({ confirming: name });
    return Promise.resolve();
  }
  set({ confirming: null });
  const { dataset, onlySampled } = get().runOptions;
  return control(name, 'start', () =>
    bridge().call('judges.start', { name, onlySampled, ...(dataset ? { dataset } : {}) }),
  ).then(() => refreshPlan(name));
}

export function cancelStartConfirmation(): void {
  set({ confirming: null });
}

async function batch<T>(name: string, kind: 'export' | 'import', action: () => Promise<T>): Promise<T | null> {
  if (get().batchPending[name]) return null;
  set({ batchPending: { ...get().batchPending, [name]: kind }, error: null });
  try {
    return await action();
  } catch (err) {
    set({ error: errorMessage(err) });
    return null;
  } finally {
    const pending = { ...get().batchPending };
    delete pending[name];
    set({ batchPending: pending });
  }
}

/**
 * Export requests…: the batch request file of the run options' selection. On the desktop the Save
 * dialog picks the path first and the core streams the file there (any size); in the browser the
 * text is handed to `save` (a download). Cache hits are stored on the way.
 */
export async function exportBatchRequests(
  name: string,
  save: (fileName: string, content: string) => Promise<string | null>,
): Promise<void> {
  const { dataset, onlySampled } = get().runOptions;
  await batch(name, 'export', async () => {
    const onDisk = filesOnDisk();
    const path = onDisk ? await chooseSavePath(requestFileName(name, 'judge')) : null;
    if (onDisk && path === null) return;
    const out = await bridge().call('judges.batchExport', {
      name,
      onlySampled,
      ...(dataset ? { dataset } : {}),
      ...(path !== null ? { path } : {}),
    });
    const counts = `${plural(out.requests, 'request')} (${formatCount(out.done)} answered before, ${formatCount(out.cached)} from the cache, ${formatCount(out.shared)} sharing a request)`;
    if (out.requests === 0) {
      set({ notice: `Nothing to export for "${name}": every sentence of the selection is answered. ${counts}` });
      return;
    }
    const where = out.path !== null ? `Saved ${out.path}` : await save(out.fileName, out.content ?? '');
    set({
      notice: where
        ? `${where}: ${counts}. Run it with a batch engine (vllm run-batch, the OpenAI Batch API), then import the answers.`
        : null,
    });
  });
  await refreshPlan(name);
  void refreshJudges();
}

/**
 * Import answers…: a batch engine's output file (a granted path on the desktop, read line by line
 * by the core; the uploaded text in the browser), stored for the judge's current version, within
 * the run options' selection (the export's).
 */
export async function importBatchAnswers(name: string, answers: BatchAnswers): Promise<void> {
  const { dataset, onlySampled } = get().runOptions;
  const result = await batch(name, 'import', async () => {
    const source = await batchSource(answers);
    if (source === null) return null;
    return bridge().call('judges.batchImport', { name, source, onlySampled, ...(dataset ? { dataset } : {}) });
  });
  if (result) set({ batchImports: { ...get().batchImports, [name]: result } });
  await refreshPlan(name);
  void refreshJudges();
}

function runOf(name: string, state: JudgeRunStatus['state'] | JudgeRunStatus['state'][]): JudgeRunStatus | null {
  const run = get().runs[name];
  const states = Array.isArray(state) ? state : [state];
  return run && states.includes(run.state) ? run : null;
}

export function pauseRun(name: string): Promise<void> {
  const run = runOf(name, 'running');
  if (!run) return Promise.resolve();
  return control(name, 'pause', () => bridge().call('judges.pause', { runId: run.runId }));
}

export function resumeRun(name: string): Promise<void> {
  const run = runOf(name, 'paused');
  if (!run) return Promise.resolve();
  return control(name, 'resume', () => bridge().call('judges.resume', { runId: run.runId }));
}

export function cancelRun(name: string): Promise<void> {
  const run = runOf(name, ['running', 'paused']);
  if (!run) return Promise.resolve();
  return control(name, 'cancel', () => bridge().call('judges.cancel', { runId: run.runId }));
}

/** Space: pause a running run, resume a paused one. */
export function togglePause(name: string): Promise<void> {
  const run = get().runs[name];
  if (run?.state === 'running') return pauseRun(name);
  if (run?.state === 'paused') return resumeRun(name);
  return Promise.resolve();
}

/** Polls every running run until none is left (paused runs wait for Resume). */
function ensurePolling(): void {
  if (polling) return;
  if (!Object.values(get().runs).some((run) => run.state === 'running')) return;
  polling = true;
  void pollLoop(pollEpoch);
}

async function pollLoop(epoch: number): Promise<void> {
  try {
    for (;;) {
      await sleep(judgePolling.intervalMs);
      if (epoch !== pollEpoch) return;
      const running = Object.values(get().runs).filter((run) => run.state === 'running');
      if (running.length === 0) return;
      for (const run of running) {
        const generation = controlGeneration.get(run.runId) ?? 0;
        let status: JudgeRunStatus;
        try {
          status = await bridge().call('judges.status', { runId: run.runId });
        } catch (err) {
          if (epoch === pollEpoch)
            set({
              error: `Lost track of the run of "${run.judge}": ${errorMessage(err)}. Open the Judges view again to reattach.`,
            });
          return;
        }
        if (epoch !== pollEpoch) return;
        // A pause or cancel answered meanwhile is newer than this poll.
        if ((controlGeneration.get(run.runId) ?? 0) !== generation) continue;
        if (get().runs[run.judge]?.runId !== run.runId) continue;
        applyStatus(status, false);
      }
    }
  } finally {
    if (epoch === pollEpoch) polling = false;
  }
}

/** The view closed: stop asking (runs go on in the core; the view reattaches on return). */
export function stopJudgePolling(): void {
  pollEpoch += 1;
  polling = false;
}

/** Test isolation (the store is a module singleton). */
export function resetJudges(): void {
  stopJudgePolling();
  controlGeneration.clear();
  useJudges.setState({ ...initialState });
}
