/**
 * The Semantic Scaffold metrics by the Semantic Scaffold paper's names (§4), and App. G.7's direct score:
 * one list for the Markdown report and the renderer's charts and tables (no zod, so the renderer imports it as is).
 */
import type { ComparedMetric, ScaffoldMetric } from './metrics';

export const METRIC_LABELS: Record<ScaffoldMetric, string> = {
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

/** The compared metrics' labels: the scaffold metrics and App. G.7's direct score. */
export const COMPARED_LABELS: Record<ComparedMetric, string> = {
  ...METRIC_LABELS,
  direct_score: 'Direct score (1–10)',
};
