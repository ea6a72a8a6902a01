/**
 * A dataset (or one summary of it) as the review rules read it: each unit's rows beside its
 * analysis view, which comes from the one loader (shared/analysis/from-rows.ts), so review.table,
 * the queues and `analyze --json` see the same labels.
 */
import { analysisSummariesByKey } from '../analysis/from-rows';
import { compareCodeUnits } from '../analysis/prepare';
import type { AnalysisSummary, AnalysisUnit } from '../analysis/types';
import type { HumanLabel } from '../domain';
import type { ReviewDatasetRows, ReviewLabelRow, ReviewSummaryRow, ReviewUnitRow } from './rows';

export interface LoadedUnit {
  row: ReviewUnitRow;
  /** What shared/analysis reads (human = annotation label with the audit-adjudicated one first; review = Table 4 label). */
  analysis: AnalysisUnit;
  /** Current annotation-phase labels (non-null), one per annotator. */
  annotations: ReviewLabelRow[];
  /** Current review-phase events, one per adjudicator (label null: cleared). */
  decisions: ReviewLabelRow[];
  /** The audit-adjudicated label (shared/analysis/human-label.ts), the one that may enter p̂ and ε̂. */
  auditAdjudicated: HumanLabel | null;
}

export interface LoadedSummary {
  row: ReviewSummaryRow;
  analysis: AnalysisSummary;
  units: LoadedUnit[];
}

export interface LoadedDataset {
  name: string;
  /** In summary row (key) order. */
  summaries: LoadedSummary[];
  /** Judges with a prediction in the dataset, in creation order (letters for anonymised reveal). */
  judgesByCreation: string[];
}

/** The default judge panel: every judge with a prediction in the dataset, in code-unit order (as the analysis). */
export function defaultPanel(dataset: { judgesByCreation: readonly string[] }): string[] {
  return [...dataset.judgesByCreation].sort(compareCodeUnits);
}

export function assembleReviewDataset(rows: ReviewDatasetRows): LoadedDataset {
  const analysisByKey = analysisSummariesByKey(rows);
  const labelsByUnit = new Map<number, ReviewLabelRow[]>();
  for (const l of rows.labels) {
    const list = labelsByUnit.get(l.unitId);
    if (list) list.push(l);
    else labelsByUnit.set(l.unitId, [l]);
  }
  const unitsBySummary = new Map<number, ReviewUnitRow[]>(rows.summaries.map((s) => [s.key, []]));
  for (const u of rows.units) unitsBySummary.get(u.summaryKey)?.push(u);
  return {
    name: rows.name,
    judgesByCreation: [...rows.judgesByCreation],
    summaries: rows.summaries.map((row): LoadedSummary => {
      const analysis = analysisByKey.get(row.key)!;
      const units = (unitsBySummary.get(row.key) ?? []).map((unitRow, i): LoadedUnit => {
        const own = labelsByUnit.get(unitRow.id) ?? [];
        const unit = analysis.units[i]!;
        return {
          row: unitRow,
          analysis: unit,
          annotations: own.filter((l) => l.phase === 'annotation' && l.label !== null),
          decisions: own.filter((l) => l.phase === 'review'),
          auditAdjudicated: unit.humanStatus === 'adjudicated' ? unit.human : null,
        };
      });
      return { row, analysis, units };
    }),
  };
}
