/**
 * One analysis as the worker thread runs it: open the project read-only, load its datasets in
 * one snapshot, analyse, render. Plain functions, so the unit tests can run the same code in the
 * test's own thread and compare it with what the worker returns.
 */
import type { DatabaseConstructor } from '../../../db/open';
import { AnalysisRepository, openProjectReadOnly } from '../../../db/analysisRepository';
import type { AnalysisEngines, AnalysisReport, HumanLabelRule, ReferenceSet } from '../../../shared/analysis';
import { computeReport, type ComputeProgress } from './compute';
import { loadAnalysisDatasets, UnknownDatasetError } from './load';

/** What the service sends the worker (structured-cloned as workerData). */
export interface AnalysisJobInput {
  projectPath: string;
  /** null: every dataset. */
  dataset: string | null;
  settings: AnalysisJobSettings;
}

/** What the analysis is run with (the contract's analysis.start fields, defaults applied). */
export interface AnalysisJobSettings {
  bootstrap: number;
  seed: number;
  cap: number;
  /** Whose labels are the human reference, how several resolve, and whether labels given after a reveal count. */
  reference: ReferenceSet;
  humanLabel: HumanLabelRule;
  includeRevealed: boolean;
  /** The source systems are compared by ("people" or a judge); null or absent: the default choice. */
  compareSource?: string | null;
}

/** What the worker posts back. */
export type AnalysisWorkerMessage =
  | { type: 'progress'; progress: ComputeProgress }
  | { type: 'done'; report: AnalysisReport; markdown: string; timings: AnalysisTimings }
  | { type: 'failed'; code: 'not_found' | 'internal'; message: string };

export interface AnalysisTimings {
  loadMs: number;
  analyseMs: number;
  /** Threads the bootstrap ran on (1: none started besides the worker). */
  threads: number;
}

export function runAnalysisJob(
  Driver: DatabaseConstructor,
  input: AnalysisJobInput,
  onProgress: (progress: ComputeProgress) => void = () => undefined,
  engines: AnalysisEngines = {},
): Extract<AnalysisWorkerMessage, { type: 'done' }> {
  onProgress({ phase: 'loading', done: 0, total: 1 });
  const started = performance.now();
  const db = openProjectReadOnly(Driver, input.projectPath);
  const datasets = (() => {
    try {
      const { reference, humanLabel, includeRevealed } = input.settings;
      const repo = new AnalysisRepository(db);
      engines.expect?.(repo.largestDatasetSize(input.dataset), input.settings.bootstrap);
      return loadAnalysisDatasets(repo, input.dataset, {
        set: reference,
        rule: humanLabel,
        includeRevealed,
      });
    } finally {
      db.close();
    }
  })();
  const loaded = performance.now();
  const { report, markdown } = computeReport(datasets, input.settings, onProgress, engines);
  return {
    type: 'done',
    report,
    markdown,
    timings: {
      loadMs: loaded - started,
      analyseMs: performance.now() - loaded,
      threads: 1 + (engines.threadsStarted?.() ?? 0),
    },
  };
}

/** The failure message the worker posts for an error thrown by runAnalysisJob. */
export function failureOf(err: unknown): Extract<AnalysisWorkerMessage, { type: 'failed' }> {
  if (err instanceof UnknownDatasetError) return { type: 'failed', code: 'not_found', message: err.message };
  return { type: 'failed', code: 'internal', message: err instanceof Error ? err.message : String(err) };
}
