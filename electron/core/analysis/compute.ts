/**
 * The analysis of a loaded project, one dataset at a time so progress can be reported. The
 * result is exactly `analyzeProject(datasets, settings)` (a unit test holds the two equal): the
 * same settings block, the same definitions, each dataset analysed with the same resolved
 * settings and its own random streams.
 */
import {
  analyzeDataset,
  analyzeProject,
  renderMarkdown,
  type AnalysisDataset,
  type AnalysisEngines,
  type AnalysisReport,
  type AnalysisSettings,
} from '../../../shared/analysis';

export interface ComputeProgress {
  phase: string;
  done: number;
  total: number;
}

export interface ComputeResult {
  report: AnalysisReport;
  markdown: string;
}

/** Steps: loading (1, done by the caller before this runs), one per dataset, rendering (1). */
export function computeReport(
  datasets: AnalysisDataset[],
  settings: Pick<
    AnalysisSettings,
    'bootstrap' | 'seed' | 'cap' | 'humanLabel' | 'reference' | 'includeRevealed' | 'compareSource'
  >,
  onProgress: (progress: ComputeProgress) => void = () => undefined,
  engines: AnalysisEngines = {},
): ComputeResult {
  const total = datasets.length + 2;
  // The envelope (settings, definitions) and the checks on names, with no dataset analysed.
  const envelope = analyzeProject([], settings);
  const names = datasets.map((d) => d.name);
  if (new Set(names).size !== names.length) throw new RangeError(`dataset names repeat: ${names.join(', ')}`);
  const resolved: Partial<AnalysisSettings> = {
    bootstrap: envelope.settings.bootstrap,
    seed: envelope.settings.seed,
    cap: envelope.settings.cap,
    simulationPoints: envelope.settings.simulation_points,
    simulationMinSummaries: envelope.settings.simulation_min_summaries,
    humanLabel: envelope.settings.human_label,
    reference: envelope.settings.reference,
    includeRevealed: envelope.settings.include_revealed,
    compareSource: envelope.settings.compare_source,
  };
  const analysed = datasets.map((dataset, i) => {
    onProgress({ phase: `analysing ${dataset.name}`, done: 1 + i, total });
    return analyzeDataset(dataset, resolved, engines);
  });
  onProgress({ phase: 'rendering', done: total - 1, total });
  const report: AnalysisReport = { ...envelope, datasets: analysed };
  return { report, markdown: renderMarkdown(report) };
}
