/**
 * Batch files of the accuracy tasks in the Judges view (Export requests… / Import answers…), as
 * the judges have them: the requests of the task options' selection handed to `save` (the
 * desktop's save dialog or a browser download), and a batch engine's output uploaded as text.
 * Counts only, never an answer (the blindness of accuracyTasks.ts).
 */
import { requestFileName } from '../../shared/batch-file-name';
import { batchSource, chooseSavePath, filesOnDisk, type BatchAnswers } from './diskFiles';
import { create } from 'zustand';
import type { AccuracyBatchImport } from '../../shared/contract/accuracy';
import { errorMessage } from '../api/errors';
import { formatCount, plural } from '../format';
import { refreshTaskPlan, runInput, useAccuracyTasks } from './accuracyTasks';
import { reloadItemsLater } from './claimsAndKeyFacts';
import { bridge } from './session';

interface AccuracyBatchState {
  pending: 'export' | 'import' | null;
  notice: string | null;
  report: AccuracyBatchImport | null;
  /** The task options the notice and report are about: another choice hides them. */
  about: string | null;
  error: string | null;
}

const initialState: AccuracyBatchState = { pending: null, notice: null, report: null, about: null, error: null };

/** The identity of a choice of task options (runInput's answer). */
export const batchSubject = (run: unknown): string => JSON.stringify(run);
export const useAccuracyBatch = create<AccuracyBatchState>(() => ({ ...initialState }));
const set = (partial: Partial<AccuracyBatchState>) => useAccuracyBatch.setState(partial);

export function resetAccuracyBatch(): void {
  useAccuracyBatch.setState({ ...initialState });
}

async function withPending<T>(what: 'export' | 'import', step: () => Promise<T>): Promise<T | null> {
  if (useAccuracyBatch.getState().pending !== null) return null;
  set({
    pending: what,
    error: null,
    notice: null,
    report: null,
    about: batchSubject(runInput(useAccuracyTasks.getState().options)),
  });
  try {
    return await step();
  } catch (err) {
    set({ error: errorMessage(err) });
    return null;
  } finally {
    set({ pending: null });
  }
}

/** Export requests…: as for a judge (state/judges.ts), for the chosen task's items still to do. */
export async function exportTaskRequests(
  save: (fileName: string, content: string) => Promise<string | null>,
): Promise<void> {
  const run = runInput(useAccuracyTasks.getState().options);
  if (typeof run === 'string') return set({ error: run });
  await withPending('export', async () => {
    const onDisk = filesOnDisk();
    const path = onDisk ? await chooseSavePath(requestFileName(run.task, 'accuracy')) : null;
    if (onDisk && path === null) return;
    const out = await bridge().call('accuracy.batchExport', { run, ...(path !== null ? { path } : {}) });
    const counts = `${plural(out.requests, 'request')} (${formatCount(out.done)} answered before, ${formatCount(out.cached)} from the cache${out.missing > 0 ? `, ${formatCount(out.missing)} left out` : ''})`;
    if (out.requests === 0)
      return set({ notice: `Nothing to export: every item of the selection is answered. ${counts}` });
    const where = out.path !== null ? `Saved ${out.path}` : await save(out.fileName, out.content ?? '');
    set({
      notice: where
        ? `${where}: ${counts}. Run it with a batch engine (vllm run-batch, the OpenAI Batch API), then import the answers.`
        : null,
    });
  });
  await refreshTaskPlan();
}

/** Import answers…: a batch engine's output file (a granted path on the desktop, the uploaded text in the browser). */
export async function importTaskAnswers(answers: BatchAnswers): Promise<void> {
  const run = runInput(useAccuracyTasks.getState().options);
  if (typeof run === 'string') return set({ error: run });
  const report = await withPending('import', async () => {
    const source = await batchSource(answers);
    return source === null ? null : bridge().call('accuracy.batchImport', { run, source });
  });
  if (report) {
    set({ report });
    // Claims or key facts may have been made: Annotate loads them again.
    if (report.answered > 0) reloadItemsLater();
  }
  await refreshTaskPlan();
}

export function dismissBatchError(): void {
  set({ error: null });
}
