/**
 * The Analysis view's data: the settings form, the analysis job followed by polling
 * `analysis.status`, and the newest finished report with its Markdown.
 *
 * Blindness: this store is the only holder of report data in the renderer. The annotation store
 * and the Annotate view never read it, and nothing here writes to them.
 */
import { create } from 'zustand';
import type { AnalysisStartInput, AnalysisStatus } from '../../shared/api';
import { errorMessage } from '../api/errors';
import { formatCount } from '../format';
import type { Statistic } from '../components/analysis/format';
import { bridge } from './session';
import { LIMITS } from '../../shared/limits';
import type { HumanLabelRule, ReferenceSet } from '../../shared/analysis/types';

export interface SettingsDraft {
  bootstrap: string;
  seed: string;
  cap: string;
  /** '' = every dataset. */
  dataset: string;
  /** Whose labels are the human reference, how several resolve, and whether labels given after a reveal count. */
  reference: ReferenceSet;
  humanLabel: HumanLabelRule;
  includeRevealed: boolean;
  /** The source systems are compared by: '' = the default (people when they pair ≥ 5 documents), "people" or a judge. */
  compareSource: string;
}

export type SettingsErrors = Partial<Record<'bootstrap' | 'seed' | 'cap', string>>;

export const DEFAULT_DRAFT: SettingsDraft = {
  bootstrap: '2000',
  seed: '0',
  cap: '25',
  dataset: '',
  reference: 'both',
  humanLabel: 'unanimous',
  includeRevealed: false,
  compareSource: '',
};

/** The contract's bounds (AnalysisStartInputSchema). */
const BOUNDS = {
  bootstrap: { max: LIMITS.analysis.bootstrap.max, what: 'Bootstrap replicates' },
  seed: { max: LIMITS.analysis.seed.max, what: 'The seed' },
  cap: { max: LIMITS.analysis.cap.max, what: 'The review cap' },
} as const;

interface AnalysisViewState {
  /** The project this state belongs to; another project starts from scratch. */
  owner: string | null;
  loaded: boolean;
  draft: SettingsDraft;
  /** The job followed: running, or how the last one ended (done, failed, cancelled). */
  job: AnalysisStatus | null;
  /** The newest finished analysis: report, Markdown and the settings it used. */
  result: AnalysisStatus | null;
  pending: 'start' | 'cancel' | null;
  error: string | null;
  statistic: Statistic;
  /** Judges in the project (from judges.list; null = unknown), for the empty state. */
  judgeCount: number | null;
  /** The suspicious entry shown in the side panel. */
  openEntry: { dataset: string; summaryId: string } | null;
}

const initialState: AnalysisViewState = {
  owner: null,
  loaded: false,
  draft: DEFAULT_DRAFT,
  job: null,
  result: null,
  pending: null,
  error: null,
  statistic: 'pearson',
  judgeCount: null,
  openEntry: null,
};

export const useAnalysis = create<AnalysisViewState>(() => ({ ...initialState }));

/** How often a running analysis is polled; tests shorten it. */
export const analysisPolling = { intervalMs: 400 };

const set = (partial: Partial<AnalysisViewState>): void => useAnalysis.setState(partial);
const get = (): AnalysisViewState => useAnalysis.getState();
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// Settings

export function setDraft(partial: Partial<SettingsDraft>): void {
  set({ draft: { ...get().draft, ...partial } });
}

export function checkDraft(draft: SettingsDraft): { errors: SettingsErrors; input: AnalysisStartInput | null } {
  const errors: SettingsErrors = {};
  const values: Record<'bootstrap' | 'seed' | 'cap', number> = { bootstrap: 0, seed: 0, cap: 0 };
  for (const field of ['bootstrap', 'seed', 'cap'] as const) {
    const text = draft[field].trim();
    const { max, what } = BOUNDS[field];
    if (!/^\d+$/.test(text)) {
      errors[field] = `${what} must be a whole number ≥ 0.`;
      continue;
    }
    const value = Number(text);
    if (!Number.isSafeInteger(value) || value > max) errors[field] = `${what} must be at most ${formatCount(max)}.`;
    else values[field] = value;
  }
  if (Object.keys(errors).length > 0) return { errors, input: null };
  return {
    errors,
    input: {
      ...values,
      ...(draft.dataset ? { dataset: draft.dataset } : {}),
      reference: draft.reference,
      humanLabel: draft.humanLabel,
      includeRevealed: draft.includeRevealed,
      ...(draft.compareSource ? { compareSource: draft.compareSource } : {}),
    },
  };
}

export function setStatistic(statistic: Statistic): void {
  set({ statistic });
}

export function setAnalysisError(error: string | null): void {
  set({ error });
}

export function openSuspicious(dataset: string, summaryId: string): void {
  set({ openEntry: { dataset, summaryId } });
}

export function closeSuspicious(): void {
  set({ openEntry: null });
}

// ---------------------------------------------------------------------------------------------
// Opening the view

/** The view opened (or the project changed): reattach to a running analysis, show the newest report. */
export async function openAnalysis(owner: string): Promise<void> {
  if (get().owner !== owner) {
    stopAnalysisPolling();
    set({ ...initialState, owner });
  }
  const [latest, judges] = await Promise.allSettled([
    bridge().call('analysis.latest', {}),
    bridge().call('judges.list', {}),
  ]);
  if (get().owner !== owner) return;
  if (judges.status === 'fulfilled') set({ judgeCount: judges.value.length });
  if (latest.status === 'fulfilled') {
    const { running, done } = latest.value;
    // A report from this session survives the view closing; a newer one from the core wins.
    if (done && (get().result === null || get().result!.jobId !== done.jobId)) set({ result: done });
    if (running) set({ job: running });
    else if (get().job?.state === 'running') set({ job: null });
  } else {
    set({ error: errorMessage(latest.reason) });
  }
  set({ loaded: true });
  ensurePolling();
}

// ---------------------------------------------------------------------------------------------
// Running

let pollEpoch = 0;
let polling = false;

/** A status of the job followed (callers check the job id). */
function apply(status: AnalysisStatus): void {
  const next: Partial<AnalysisViewState> = { job: status };
  if (status.state === 'done' && status.report) next.result = status;
  if (status.state === 'failed') next.error = `The analysis failed: ${status.error?.message ?? 'no reason given'}`;
  set(next);
}

export function isRunning(): boolean {
  return get().job?.state === 'running';
}

export async function startAnalysis(): Promise<void> {
  if (get().pending || isRunning()) return;
  const { input } = checkDraft(get().draft);
  if (!input) return;
  set({ pending: 'start', error: null, openEntry: null });
  try {
    apply(await bridge().call('analysis.start', input));
  } catch (err) {
    set({ error: errorMessage(err) });
  } finally {
    set({ pending: null });
  }
  ensurePolling();
}

/**
 * The comparison's source picker: the analysis runs again with systems compared by `source`
 * ("people" or a judge), through analysis.start like `loupe analyze --compare-source`.
 */
export async function compareBy(source: string): Promise<void> {
  if (get().pending || isRunning()) return;
  setDraft({ compareSource: source });
  await startAnalysis();
}

export async function cancelAnalysis(): Promise<void> {
  const job = get().job;
  if (!job || job.state !== 'running' || get().pending) return;
  set({ pending: 'cancel' });
  try {
    const status = await bridge().call('analysis.cancel', { jobId: job.jobId });
    // Polls in flight are older than this answer.
    pollEpoch += 1;
    polling = false;
    apply(status);
  } catch (err) {
    set({ error: errorMessage(err) });
  } finally {
    set({ pending: null });
  }
  ensurePolling();
}

function ensurePolling(): void {
  if (polling || !isRunning()) return;
  polling = true;
  void pollLoop(pollEpoch);
}

async function pollLoop(epoch: number): Promise<void> {
  try {
    for (;;) {
      await sleep(analysisPolling.intervalMs);
      if (epoch !== pollEpoch) return;
      const job = get().job;
      if (!job || job.state !== 'running') return;
      let status: AnalysisStatus;
      try {
        status = await bridge().call('analysis.status', { jobId: job.jobId });
      } catch (err) {
        if (epoch === pollEpoch)
          set({ error: `Lost track of the analysis: ${errorMessage(err)}. Open the Analysis view again to reattach.` });
        return;
      }
      if (epoch !== pollEpoch || get().job?.jobId !== job.jobId) return;
      apply(status);
    }
  } finally {
    if (epoch === pollEpoch) polling = false;
  }
}

/** The view closed: stop asking (the job goes on in the core; the view reattaches on return). */
export function stopAnalysisPolling(): void {
  pollEpoch += 1;
  polling = false;
}

/** Test isolation (the store is a module singleton). */
export function resetAnalysis(): void {
  stopAnalysisPolling();
  useAnalysis.setState({ ...initialState });
}
