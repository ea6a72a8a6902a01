/**
 * The analysis settings (bootstrap replicates, seed, review cap, dataset) and Run; while it runs,
 * the phase and a progress bar with Cancel. The bounds are the contract's.
 */
import type { AnalysisStatus, DatasetStats } from '../../../shared/api';
import { cancelAnalysis, checkDraft, setDraft, startAnalysis, useAnalysis } from '../../state/analysis';
import { ProgressBar } from '../ProgressBar';

export function SettingsPanel({ datasets, job }: { datasets: readonly DatasetStats[]; job: AnalysisStatus | null }) {
  const draft = useAnalysis((state) => state.draft);
  const pending = useAnalysis((state) => state.pending);
  const { errors, input } = checkDraft(draft);
  const running = job?.state === 'running';
  const noDatasets = datasets.length === 0;

  return (
    <section className="panel analysis-settings" aria-labelledby="analysis-settings-title" data-testid="analysis-settings">
      <h2 id="analysis-settings-title">Judge audit</h2>
      <form
        className="form-row analysis-form"
        onSubmit={(event) => {
          event.preventDefault();
          void startAnalysis();
        }}
      >
        <NumberField id="bootstrap" label="Bootstrap replicates" title="Resampling whole summaries; 0 = no intervals" value={draft.bootstrap} error={errors.bootstrap} disabled={running} />
        <NumberField id="seed" label="Seed" title="Seed of every random stream: same project and seed, same numbers" value={draft.seed} error={errors.seed} disabled={running} />
        <NumberField id="cap" label="Review cap" title="Suspicious summaries listed per dataset" value={draft.cap} error={errors.cap} disabled={running} />
        <label className="form-field">
          <span>Dataset</span>
          <select value={draft.dataset} disabled={running} onChange={(event) => setDraft({ dataset: event.target.value })} data-testid="analysis-dataset">
            <option value="">All datasets</option>
            {datasets.map((d) => (
              <option key={d.name} value={d.name}>
                {d.name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="primary" disabled={!input || running || pending !== null || noDatasets} data-testid="analysis-run">
          {pending === 'start' ? 'Starting…' : 'Run'}
        </button>
        {running && (
          <button type="button" disabled={pending !== null} onClick={() => void cancelAnalysis()} data-testid="analysis-cancel">
            {pending === 'cancel' ? 'Cancelling…' : 'Cancel'}
          </button>
        )}
      </form>
      <p className="muted small analysis-settings-hint">
        Intervals: 95% percentile bootstrap resampling whole summaries (0 replicates = none). The seed fixes every random stream: the same project and seed
        give the same numbers in every host.
      </p>
      {job && job.state !== 'done' && <JobLine job={job} />}
    </section>
  );
}

function NumberField({ id, label, title, value, error, disabled }: { id: 'bootstrap' | 'seed' | 'cap'; label: string; title: string; value: string; error?: string; disabled: boolean }) {
  const errorId = `analysis-${id}-error`;
  return (
    <label className="form-field" title={title}>
      <span>{label}</span>
      <input
        type="text"
        inputMode="numeric"
        className="narrow"
        value={value}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => setDraft({ [id]: event.target.value })}
        data-testid={`analysis-${id}`}
      />
      {error && (
        <span className="field-error" id={errorId} data-testid={errorId}>
          {error}
        </span>
      )}
    </label>
  );
}

function JobLine({ job }: { job: AnalysisStatus }) {
  if (job.state === 'running') {
    return (
      <div className="analysis-progress" data-testid="analysis-progress" data-phase={job.progress.phase}>
        <ProgressBar label={job.progress.phase} done={job.progress.done} total={job.progress.total} testId="analysis-progress-bar" />
      </div>
    );
  }
  if (job.state === 'cancelled') {
    return (
      <p className="muted" role="status" data-testid="analysis-cancelled">
        Cancelled. {`The report below (if any) is from an earlier run.`}
      </p>
    );
  }
  return null;
}
