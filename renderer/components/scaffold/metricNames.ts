/** The Semantic Scaffold metrics the renderer shows, by the paper's names (shared/scaffold/metricLabels.ts), in the report's order. */
import { COMPARED_LABELS } from '../../../shared/scaffold/metricLabels';
import { SCAFFOLD_METRICS, type ComparedMetric } from '../../../shared/scaffold/metrics';

export { SCAFFOLD_METRICS };

/** The nine metrics and, when the report has it, App. G.7's holistic direct score (1–10) beside them. */
export type ShownMetric = ComparedMetric;
export const shownName = (m: ShownMetric): string => COMPARED_LABELS[m];

export function shownMetrics(hasDirectScore: boolean): ShownMetric[] {
  return hasDirectScore ? [...SCAFFOLD_METRICS, 'direct_score'] : [...SCAFFOLD_METRICS];
}
