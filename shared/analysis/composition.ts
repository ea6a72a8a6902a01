/**
 * Summary composition (App. C.3): all-faithful (K = M), mixed (0 < K < M) or all-unfaithful
 * (K = 0), counting only the units that have a label under the rule in question.
 */
import { predictionOf, usableHumanValue } from './prepare';
import type { AnalysisSummary, AnalysisUnit, Composition, CompositionCounts, CompositionReport } from './types';

/** Classifies summaries by per-unit values (1 faithful, 0 unfaithful, null = no label). */
function compose(summaries: AnalysisSummary[], unitValue: (unit: AnalysisUnit) => 0 | 1 | null): Composition {
  const counts: CompositionCounts = { all_faithful: 0, mixed: 0, all_unfaithful: 0 };
  for (const summary of summaries) {
    let labeled = 0;
    let faithful = 0;
    for (const unit of summary.units) {
      const value = unitValue(unit);
      if (value === null) continue;
      labeled += 1;
      faithful += value;
    }
    if (labeled === 0) continue;
    if (faithful === labeled) counts.all_faithful += 1;
    else if (faithful === 0) counts.all_unfaithful += 1;
    else counts.mixed += 1;
  }
  const n = counts.all_faithful + counts.mixed + counts.all_unfaithful;
  const share = (count: number) => (n > 0 ? count / n : null);
  return {
    all_faithful: share(counts.all_faithful),
    mixed: share(counts.mixed),
    all_unfaithful: share(counts.all_unfaithful),
    n,
    counts,
  };
}

/** Majority of the judges with a hard label on the unit; a tie counts as unfaithful; none → null. */
export function judgeMajority(unit: AnalysisUnit, judges: string[]): 0 | 1 | null {
  let faithful = 0;
  let unfaithful = 0;
  for (const judge of judges) {
    const hard = predictionOf(unit, judge)?.hard ?? null;
    if (hard === 1) faithful += 1;
    else if (hard === 0) unfaithful += 1;
  }
  if (faithful + unfaithful === 0) return null;
  return faithful > unfaithful ? 1 : 0;
}

export function computeComposition(
  analysed: AnalysisSummary[],
  annotated: AnalysisSummary[],
  judges: string[],
): CompositionReport {
  const majority = (unit: AnalysisUnit) => judgeMajority(unit, judges);
  return {
    human: compose(annotated, usableHumanValue),
    judges: { all: compose(analysed, majority), annotated: compose(annotated, majority) },
  };
}
