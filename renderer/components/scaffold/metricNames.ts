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
