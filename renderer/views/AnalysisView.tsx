/**
 * Analysis: the judge audit of PROTOCOL.md, per dataset, in the paper's layout. Run it
 * with chosen settings, follow its progress, read the tables and figures, export each figure as
 * SVG or PNG and the whole report as JSON or Markdown.
 *
 * Blindness: this view reveals judge predictions, global labels and human labels together. It is
 * a view of its own (never part of Annotate), its data lives in the analysis store only, and the
 * annotation store never receives any of it.
 */
import { useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { AnalysisStatus } from '../../shared/api';
import { ErrorBanner } from '../components/ErrorBanner';
import { DatasetSection } from '../components/analysis/DatasetSection';
import { HUMAN_LABEL_RULE_TEXT, REFERENCE_TEXT } from '../components/analysis/format';
import { formatCount } from '../format';
import { reportOutcome, saveText } from '../components/analysis/save';
import { SettingsPanel } from '../components/analysis/SettingsPanel';
import { SuspiciousPanel } from '../components/analysis/SuspiciousList';
import { PlanCard } from '../components/plan/PlanCard';
import { safeFileName } from '../charts/export';
import { checkDraft, openAnalysis, setAnalysisError, stopAnalysisPolling, useAnalysis } from '../state/analysis';
import { refreshProject, useProject } from '../state/project';
import { useSession } from '../state/session';

export function AnalysisView() {
  const project = useSession((state) => state.info?.project ?? null);
  const { loaded, job, result, error, judgeCount } = useAnalysis(
    useShallow((state) => ({
      loaded: state.loaded,
      job: state.job,
      result: state.result,
      error: state.error,
      judgeCount: state.judgeCount,
    })),
  );
  const datasets = useProject((state) => state.datasets);
  const projectLoading = useProject((state) => state.loading);

  useEffect(() => {
    if (document.activeElement instanceof HTMLElement && document.activeElement !== document.body)
      document.activeElement.blur();
  }, []);

  const projectPath = project?.path ?? null;
  useEffect(() => {
    if (!projectPath) return;
    void openAnalysis(projectPath);
    void refreshProject();
    // The job goes on in the core when the view closes; the view reattaches when it opens.
    return () => stopAnalysisPolling();
  }, [projectPath]);

  const report = result?.report ?? null;

  return (
    <div className="analysis-view" data-testid="analysis-view">
      <ErrorBanner message={error} onDismiss={() => setAnalysisError(null)} />
      <SettingsPanel datasets={datasets} job={job} />

      {loaded && !projectLoading && datasets.length === 0 && (
        <p className="analysis-empty" data-testid="empty-datasets">
          No datasets in this project yet. Import a benchmark in Project (<kbd>S</kbd> from Annotate), draw a sample and
          label some sentences in Annotate, then run the audit.
        </p>
      )}
      {loaded && judgeCount === 0 && (
        <p className="analysis-empty" data-testid="empty-no-judges">
          No judges yet. Add a judge in Judges (<kbd>G</kbd>) and run it (the offline baseline needs no model); without
          predictions the audit reports only the human sample.
        </p>
      )}

      {result && report && (
        <ResultHead result={result} running={job?.state === 'running' && job.jobId !== result.jobId} />
      )}
      {report && report.datasets.length === 0 && (
        <p className="analysis-empty" data-testid="empty-report">
          The analysis found no dataset to report on. Import one in Project.
        </p>
      )}
      {report?.datasets.map((dataset, index) => (
        <DatasetSection
          key={dataset.dataset}
          dataset={dataset}
          bootstrap={report.settings.bootstrap}
          index={index}
          sampled={projectLoading ? null : (datasets.find((d) => d.name === dataset.dataset)?.sampled ?? null)}
        />
      ))}
      {result && report && report.datasets.length > 0 && <PlanCard key={result.jobId} result={result} />}
      {!report && loaded && job?.state !== 'running' && datasets.length > 0 && (
        <p className="muted" data-testid="analysis-none">
          No analysis yet in this session. Choose the settings and press Run.
        </p>
      )}
      {report && <SuspiciousPanel datasets={report.datasets} />}
    </div>
  );
}

function ResultHead({ result, running }: { result: AnalysisStatus; running: boolean }) {
  const draft = useAnalysis((state) => state.draft);
  const report = result.report!;
  const used = result.settings;
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const { input } = checkDraft(draft);
  const differs =
    input !== null &&
    (input.bootstrap !== used.bootstrap ||
      input.seed !== used.seed ||
      input.cap !== used.cap ||
      (input.dataset ?? null) !== used.dataset ||
      (report.settings.reference !== undefined &&
        (input.reference !== report.settings.reference ||
          input.humanLabel !== report.settings.human_label ||
          input.includeRevealed !== report.settings.include_revealed)));
  const base = safeFileName('loupe-analysis', used.dataset ?? 'all-datasets', `seed${used.seed}`);

  async function download(kind: 'json' | 'md') {
    setOutcome(
      await reportOutcome(() =>
        kind === 'json'
          ? saveText(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`, 'application/json')
          : saveText(`${base}.md`, result.markdown ?? '', 'text/markdown'),
      ),
    );
  }

  return (
    <section className="panel analysis-result-head" data-testid="analysis-result">
      <p data-testid="analysis-settings-used">
        <strong>Settings used:</strong> {formatCount(used.bootstrap)} bootstrap replicates · seed {used.seed} · review
        cap {formatCount(used.cap)} ·{' '}
        {used.dataset === null ? (
          'all datasets'
        ) : (
          <>
            dataset <span className="mono">{used.dataset}</span>
          </>
        )}{' '}
        · simulation {report.settings.simulation_points} points of y over ≥{' '}
        {formatCount(report.settings.simulation_min_summaries)} summaries
        {report.settings.reference !== undefined && (
          <span data-testid="analysis-reference-used">
            {' '}
            · human reference: {REFERENCE_TEXT[report.settings.reference]},{' '}
            {HUMAN_LABEL_RULE_TEXT[report.settings.human_label]} ·{' '}
            {report.settings.include_revealed
              ? 'labels given after a reveal included'
              : 'labels given after a reveal left out'}
          </span>
        )}
        {result.finishedAt && <span className="muted"> · finished {new Date(result.finishedAt).toLocaleString()}</span>}
      </p>
      {differs && (
        <p className="muted" data-testid="analysis-settings-differ">
          The form differs from these settings: Run to apply them.
        </p>
      )}
      {running && (
        <p className="muted" data-testid="analysis-previous">
          A new analysis is running; this is the previous report.
        </p>
      )}
      <div className="row">
        <span>Download the report:</span>
        <button type="button" onClick={() => void download('json')} data-testid="download-json">
          JSON
        </button>
        <button
          type="button"
          disabled={!result.markdown}
          onClick={() => void download('md')}
          data-testid="download-markdown"
        >
          Markdown
        </button>
        {outcome && (
          <span
            className={outcome.ok ? 'muted' : 'field-error'}
            role={outcome.ok ? 'status' : 'alert'}
            data-testid="download-message"
          >
            {outcome.text}
          </span>
        )}
      </div>
    </section>
  );
}
