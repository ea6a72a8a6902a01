/**
 * From a project's rows to the analysis input (`AnalysisDataset`): the one loader. The
 * core's analysis service and worker (electron/core/analysis/load.ts) and the review queues,
 * tables and exports (shared/review/dataset.ts) build their units here, so `analyze --json` and
 * review.table read the same labels.
 *
 * Labels follow shared/analysis/human-label.ts (`unitHumanLabels`, by `rows.rule`; the caller
 * picks the reference's labels first, shared/analysis/reference.ts). Order, so the same project
 * content gives the same numbers whatever the import order: summaries by summary_id and judges in
 * code-unit order; units in summary order. Judges of a dataset: every judge with at least one
 * prediction on it. Rows of a unit the summaries do not hold are ignored.
 */
import type { GlobalLabel, HumanLabel } from '../domain';
import { unitHumanLabels, type CurrentLabelEvent } from './human-label';
import { compareCodeUnits } from './prepare';
import type {
  AnalysisDataset,
  AnalysisSummary,
  AnalysisUnit,
  HumanLabelRule,
  JudgePrediction,
  ReferenceInput,
} from './types';

export interface SummaryRow {
  /** The summary's row id (joins units, labels and predictions). */
  key: number;
  summaryId: string;
  docId: string;
  globalLabel: GlobalLabel | null;
}

export interface UnitRow {
  summaryKey: number;
  index: number;
  text: string;
}

/** Where a label or prediction row belongs. */
export interface UnitRef {
  summaryKey: number;
  unitIndex: number;
}

/** The current event of one (unit, person, phase); a cleared one (label null) counts as none. */
export type CurrentLabelRow = UnitRef & CurrentLabelEvent;

export type PredictionRow = UnitRef & JudgePrediction & { judge: string };

/** An adjudicated label: the one that settles a disagreement between annotators. */
export type AdjudicatedLabelRow = UnitRef & { label: HumanLabel };

export interface DatasetRows {
  name: string;
  summaries: readonly SummaryRow[];
  /** In summary and unit order. */
  units: readonly UnitRow[];
  labels: readonly CurrentLabelRow[];
  predictions: readonly PredictionRow[];
  /** Adjudicated labels from elsewhere (a repository hook); omitted: the rule of human-label.ts over `labels`. */
  adjudicated?: readonly AdjudicatedLabelRow[];
  /** How several annotators resolve (default `unanimous`). */
  rule?: HumanLabelRule;
  /** The account of how `labels` were chosen (selectReferenceLabels), carried into the dataset. */
  reference?: ReferenceInput;
}

interface UnitDraft {
  row: UnitRow;
  labels: CurrentLabelRow[];
  adjudicated: HumanLabel | null;
  judges: Array<[string, JudgePrediction]>;
}

/** Per summary key, in the order of `rows.summaries`: its AnalysisSummary. */
export function analysisSummariesByKey(rows: DatasetRows): Map<number, AnalysisSummary> {
  const unitsBySummary = new Map<number, UnitDraft[]>(rows.summaries.map((s) => [s.key, []]));
  for (const row of rows.units)
    unitsBySummary.get(row.summaryKey)?.push({ row, labels: [], adjudicated: null, judges: [] });
  // Units are stored with consecutive indexes from 0; look them up by index all the same.
  const unitAt = ({ summaryKey, unitIndex }: UnitRef): UnitDraft | undefined => {
    const units = unitsBySummary.get(summaryKey);
    if (!units) return undefined;
    const direct = units[unitIndex];
    return direct?.row.index === unitIndex ? direct : units.find((u) => u.row.index === unitIndex);
  };
  for (const label of rows.labels) unitAt(label)?.labels.push(label);
  for (const row of rows.adjudicated ?? []) {
    const unit = unitAt(row);
    if (unit) unit.adjudicated = row.label;
  }
  for (const p of rows.predictions)
    unitAt(p)?.judges.push([
      p.judge,
      { hard: p.hard, soft: p.soft, ...(p.errorType ? { errorType: p.errorType } : {}) },
    ]);

  const out = new Map<number, AnalysisSummary>();
  for (const row of rows.summaries) {
    const units = (unitsBySummary.get(row.key) ?? []).map((draft): AnalysisUnit => {
      const labels = unitHumanLabels(
        draft.labels,
        rows.adjudicated === undefined ? undefined : draft.adjudicated,
        rows.rule,
      );
      // fromEntries defines own properties, so a judge named like an Object member stays data.
      return { index: draft.row.index, text: draft.row.text, ...labels, judges: Object.fromEntries(draft.judges) };
    });
    out.set(row.key, {
      summaryId: row.summaryId,
      docId: row.docId,
      globalLabel: row.globalLabel,
      units,
      annotated: units.some((unit) => unit.humanStatus !== 'none'),
    });
  }
  return out;
}

/** The analysis input of one dataset (module comment). */
export function datasetFromRows(rows: DatasetRows): AnalysisDataset {
  const summaries = [...analysisSummariesByKey(rows).values()].sort((a, b) =>
    compareCodeUnits(a.summaryId, b.summaryId),
  );
  const judges = new Set<string>();
  for (const summary of summaries)
    for (const unit of summary.units) for (const judge of Object.keys(unit.judges)) judges.add(judge);
  const dataset: AnalysisDataset = { name: rows.name, summaries, judges: [...judges].sort(compareCodeUnits) };
  if (rows.reference) dataset.reference = rows.reference;
  return dataset;
}
