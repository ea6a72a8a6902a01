/**
 * From the project's rows to the analysis input (shared/analysis/types.ts `AnalysisDataset`).
 *
 * Human labels (PROTOCOL.md "Conventions where the paper is silent"):
 * - annotation-phase labels only count for p̂, ε̂ and the human composition: per unit, the
 *   current label of each annotator goes through `resolveHumanLabel` (an adjudicated label
 *   wins; else one annotator's label or the label all agree on; unresolved disagreement is left
 *   out and counted);
 * - review-phase labels (suspicious-example adjudication) only feed the review table: per unit,
 *   the label the reviewers agree on (several reviewers who disagree: no review label);
 *   decisions recorded from the human-vs-human disagreement queue are adjudications, not review
 *   labels: they never reach the review table;
 * - adjudicated labels come from `AnalysisRepository.adjudicatedLabels` (the review store of
 *   issue 5 decides which human-vs-human decisions count).
 *
 * Order, so the same project content gives the same numbers whatever the import order: datasets,
 * summaries (by summary_id) and judges sorted in code-unit order; units in summary order.
 * Judges of a dataset: every judge with at least one prediction (current version) on it.
 */
import { resolveHumanLabel, type AnalysisDataset, type AnalysisSummary, type AnalysisUnit, type JudgePrediction } from '../../../shared/analysis';
import type { HumanLabel } from '../../../shared/domain';
import type { AnalysisRepository } from '../../../db/analysisRepository';
import type { ReviewQueueName } from '../../../db/reviewRepository';

export class UnknownDatasetError extends Error {
  constructor(readonly dataset: string) {
    super(`No dataset "${dataset}" in this project`);
    this.name = 'UnknownDatasetError';
  }
}

/** The review queue whose decisions settle annotator disagreements (adjudicatedLabels reads them). */
const ADJUDICATION_QUEUE: ReviewQueueName = 'human-human';

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Reads every dataset (or one) in one snapshot and builds the analysis input. */
export function loadAnalysisDatasets(repo: AnalysisRepository, dataset: string | null): AnalysisDataset[] {
  return repo.snapshot(() => {
    const names = repo.datasetNames();
    if (dataset !== null && !names.includes(dataset)) throw new UnknownDatasetError(dataset);
    return (dataset === null ? names : [dataset]).map((name) => loadDataset(repo, name));
  });
}

interface UnitDraft {
  index: number;
  text: string;
  annotation: Map<string, HumanLabel> | null;
  review: Map<string, HumanLabel> | null;
  adjudicated: HumanLabel | null;
  judges: Array<[string, JudgePrediction]> | null;
}

function loadDataset(repo: AnalysisRepository, name: string): AnalysisDataset {
  const summaryRows = repo.summaries(name);
  const unitsBySummary = new Map<number, UnitDraft[]>(summaryRows.map((s) => [s.key, []]));
  for (const unit of repo.units(name)) {
    unitsBySummary.get(unit.summaryKey)?.push({ index: unit.index, text: unit.text, annotation: null, review: null, adjudicated: null, judges: null });
  }
  // Units are stored with consecutive indexes from 0; look them up by index all the same.
  const unitAt = (summaryKey: number, index: number): UnitDraft | undefined => {
    const units = unitsBySummary.get(summaryKey);
    if (!units) return undefined;
    const direct = units[index];
    return direct?.index === index ? direct : units.find((u) => u.index === index);
  };

  for (const row of repo.currentLabels(name)) {
    const unit = unitAt(row.summaryKey, row.unitIndex);
    if (!unit) continue;
    if (row.phase === 'annotation') (unit.annotation ??= new Map()).set(row.annotator, row.label);
    else if (row.queue !== ADJUDICATION_QUEUE) (unit.review ??= new Map()).set(row.annotator, row.label);
  }
  for (const row of repo.adjudicatedLabels(name)) {
    const unit = unitAt(row.summaryKey, row.unitIndex);
    if (unit) unit.adjudicated = row.label;
  }
  const judgeNames = new Set<string>();
  for (const row of repo.predictions(name)) {
    const unit = unitAt(row.summaryKey, row.unitIndex);
    if (!unit) continue;
    judgeNames.add(row.judge);
    (unit.judges ??= []).push([row.judge, { hard: row.hard, soft: row.soft }]);
  }

  const noLabels = new Map<string, HumanLabel>();
  const summaries: AnalysisSummary[] = summaryRows
    .map((row): AnalysisSummary => {
      const units = (unitsBySummary.get(row.key) ?? []).map((draft): AnalysisUnit => {
        const human = resolveHumanLabel(draft.annotation ?? noLabels, draft.adjudicated);
        const review = draft.review ? resolveHumanLabel(draft.review).label : null;
        // fromEntries defines own properties, so a judge named like an Object member stays data.
        // The annotators' own current labels (annotation phase) feed the agreement block.
        const ratings = Object.fromEntries(draft.annotation ?? noLabels);
        return { index: draft.index, text: draft.text, human: human.label, humanStatus: human.status, review, ratings, judges: Object.fromEntries(draft.judges ?? []) };
      });
      return {
        summaryId: row.summaryId,
        docId: row.docId,
        globalLabel: row.globalLabel,
        units,
        annotated: units.some((unit) => unit.humanStatus !== 'none'),
      };
    })
    .sort((a, b) => compare(a.summaryId, b.summaryId));
  return { name, summaries, judges: [...judgeNames].sort(compare) };
}
