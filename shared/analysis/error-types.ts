/**
 * The error types of the judges' unfaithful sentence predictions (docs/methods.md, "Objects and
 * labels"), over every unit of the dataset each judge labeled: a judge that names a type (or whose
 * file does, as FineSurE's fact-checking categories) fills its row, one that does not counts under
 * `untyped`. Beside Table 4's error types of the people's review decisions.
 */
import { emptyErrorTypeCounts } from '../domain';
import type { AnalysisDataset, ErrorTypesReport, JudgeErrorTypes } from './types';

/** The judges, in the given order, that predict at least one unfaithful sentence (the rows of the table). */
export function judgesWithErrorTypes(report: ErrorTypesReport | undefined, judges: readonly string[]): string[] {
  return judges.filter((judge) => (report?.judges[judge]?.n_unfaithful ?? 0) > 0);
}

export function computeErrorTypes(dataset: Pick<AnalysisDataset, 'summaries' | 'judges'>): ErrorTypesReport {
  const judges: Record<string, JudgeErrorTypes> = Object.fromEntries(
    dataset.judges.map((judge) => [judge, { n_unfaithful: 0, counts: emptyErrorTypeCounts() }]),
  );
  for (const summary of dataset.summaries) {
    for (const unit of summary.units) {
      for (const [judge, prediction] of Object.entries(unit.judges)) {
        const row = judges[judge];
        if (!row || prediction.hard !== 0) continue;
        row.n_unfaithful += 1;
        row.counts[prediction.errorType ?? 'untyped'] += 1;
      }
    }
  }
  return { judges };
}
