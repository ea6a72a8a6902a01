/** The Semantic Scaffold metrics by the paper's names (seed 000 §4), in the report's order. */
import { SCAFFOLD_METRICS, type ScaffoldMetric } from '../../../shared/scaffold/metrics';

export const METRIC_NAME: Record<ScaffoldMetric, string> = {
  f: 'F',
  fc: 'FC',
  qc: 'QC',
  main_fc: 'Main FC',
  supp_fc: 'Supp FC',
  fact_focus: 'Fact Focus',
  fps: 'FPS',
  qps: 'QPS',
  eps: 'EPS',
};

export { SCAFFOLD_METRICS };

/** The nine metrics and, when the report has it, App. G.7's holistic direct score (1–10) beside them. */
export type ShownMetric = ScaffoldMetric | 'direct_score';
export const DIRECT_SCORE_NAME = 'Direct score (1–10)';
export const shownName = (m: ShownMetric): string => (m === 'direct_score' ? DIRECT_SCORE_NAME : METRIC_NAME[m]);

export function shownMetrics(hasDirectScore: boolean): ShownMetric[] {
  return hasDirectScore ? [...SCAFFOLD_METRICS, 'direct_score'] : [...SCAFFOLD_METRICS];
}
