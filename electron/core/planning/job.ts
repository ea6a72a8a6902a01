/**
 * One plan as the worker thread computes it (shared/analysis/planning.ts): open the project
 * read-only, load its datasets in one snapshot as the analysis does (the same loader, so the same
 * figures as `analyze`), read the time people spent per summary, plan. A plain function, so the
 * unit tests run it in their own thread.
 */
import type { DatabaseConstructor } from '../../../db/open';
import { AnalysisRepository, openProjectReadOnly } from '../../../db/analysisRepository';
import { analyzeAllUnits, type AnalysisDataset } from '../../../shared/analysis';
import { resolveSettings } from '../../../shared/analysis/prepare';
import { PLAN_MIN_SUMMARIES, planDataset, type PlanReport } from '../../../shared/analysis/planning';
import { loadAnalysisDatasets } from '../analysis/load';
import type { AnalysisJobSettings } from '../analysis/job';

/** What the planning handler sends the worker (structured-cloned as workerData). */
export interface PlanJobInput {
  projectPath: string;
  /** null: every dataset. */
  dataset: string | null;
  settings: Omit<AnalysisJobSettings, 'cap'>;
  target: number;
}

/** A dataset to plan, with the time people spent on it (per person and summary, in ms). */
export interface DatasetToPlan {
  dataset: AnalysisDataset;
  timesMs: readonly number[];
}

/** The plan of every dataset given, on the analysis's settings (the same all-units figures as `analyze`). */
export function planProject(
  datasets: readonly DatasetToPlan[],
  settings: Omit<AnalysisJobSettings, 'cap'>,
  target: number,
): PlanReport {
  const resolved = resolveSettings(settings);
  return {
    target,
    min_summaries: PLAN_MIN_SUMMARIES,
    settings: {
      bootstrap: resolved.bootstrap,
      seed: resolved.seed,
      reference: resolved.reference,
      human_label: resolved.humanLabel,
      include_revealed: resolved.includeRevealed,
    },
    datasets: datasets.map(({ dataset, timesMs }) =>
      planDataset(
        dataset.name,
        analyzeAllUnits(dataset, resolved),
        dataset.judges,
        { nSummaries: dataset.summaries.length, draws: dataset.sampling?.draws ?? [], timesMs },
        target,
      ),
    ),
  };
}

export function runPlanJob(Driver: DatabaseConstructor, input: PlanJobInput): PlanReport {
  const db = openProjectReadOnly(Driver, input.projectPath);
  try {
    const repo = new AnalysisRepository(db);
    const { reference, humanLabel, includeRevealed, bootstrap, seed } = input.settings;
    const datasets = repo.snapshot(() =>
      loadAnalysisDatasets(repo, input.dataset, { set: reference, rule: humanLabel, includeRevealed }).map(
        (dataset) => ({ dataset, timesMs: repo.annotationTimes(dataset.name) }),
      ),
    );
    return planProject(datasets, { bootstrap, seed, reference, humanLabel, includeRevealed }, input.target);
  } finally {
    db.close();
  }
}

/** What the worker posts back for a plan (a failure as the analysis job reports one). */
export type PlanWorkerMessage =
  { type: 'plan'; report: PlanReport } | { type: 'failed'; code: 'not_found' | 'internal'; message: string };
