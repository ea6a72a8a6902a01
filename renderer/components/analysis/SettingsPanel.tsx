/**
 * The analysis settings (bootstrap replicates, seed, review cap, dataset; whose labels are the
 * human reference, the rule that resolves several, labels given after a reveal) and Run; while it
 * runs, the phase and a progress bar with Cancel. The bounds are the contract's.
 */
import type { AnalysisStatus, DatasetStats } from '../../../shared/api';
import type { HumanLabelRule, ReferenceSet } from '../../../shared/analysis/types';
import { HUMAN_LABEL_RULE_TEXT, REFERENCE_TEXT } from './format';
import { cancelAnalysis, checkDraft, setDraft, startAnalysis, useAnalysis } from '../../state/analysis';
import { ProgressBar } from '../ProgressBar';

export function SettingsPanel({ datasets, job }: { datasets: readonly DatasetStats[]; job: AnalysisStatus | null }) {
  const draft = useAnalysis((state) => state.draft);
  const pending = useAnalysis((state) => state.pending);
  const { errors, input } = checkDraft(draft);
  const running = job?.state === 'running';
  const noDatasets = datasets.length === 0;

  return (
    <section
      className="panel analysis-settings"
      aria-labelledby="analysis-settings-title"
      data-testid="analysis-settings"
    >
      <h2 id="analysis-settings-title">Judge audit</h2>
      <form
        className="form-row analysis-form"
        onSubmit={(event) => {
          event.preventDefault();
          void startAnalysis();
        }}
      >
        <NumberField
          id="bootstrap"
          label="Bootstrap replicates"
          title="Resampling whole summaries; 0 = no intervals"
          value={draft.bootstrap}
          error={errors.bootstrap}
          disabled={running}
        />
        <NumberField
          id="seed"
          label="Seed"
          title="Seed of every random stream: same project and seed, same numbers"
          value={draft.seed}
          error={errors.seed}
          disabled={running}
        />
        <NumberField
          id="cap"
          label="Review cap"
          title="Suspicious summaries listed per dataset"
          value={draft.cap}
          error={errors.cap}
          disabled={running}
        />
        <label className="form-field">
          <span>Dataset</span>
          <select
            value={draft.dataset}
            disabled={running}
            onChange={(event) => setDraft({ dataset: event.target.value })}
            data-testid="analysis-dataset"
          >
            <option value="">All datasets</option>
            {datasets.map((d) => (
              <option key={d.name} value={d.name}>
                {d.name}
              </option>
            ))}
          </select>
        </label>
        <label className="form-field" title="Whose annotation-phase labels are the human reference">
          <span>Human reference</span>
          <select
            value={draft.reference}
            disabled={running}
            onChange={(event) => setDraft({ reference: event.target.value as ReferenceSet })}
            data-testid="analysis-reference"
          >
            {(Object.keys(REFERENCE_TEXT) as ReferenceSet[]).map((set) => (
              <option key={set} value={set}>
                {REFERENCE_TEXT[set]}
              </option>
            ))}
          </select>
        </label>
        <label
          className="form-field"
          title="How the labels of several annotators of a sentence resolve (an adjudication wins either way)"
        >
          <span>Human label rule</span>
          <select
            value={draft.humanLabel}
            disabled={running}
            onChange={(event) => setDraft({ humanLabel: event.target.value as HumanLabelRule })}
            data-testid="analysis-human-label"
          >
            {(Object.keys(HUMAN_LABEL_RULE_TEXT) as HumanLabelRule[]).map((rule) => (
              <option key={rule} value={rule}>
                {HUMAN_LABEL_RULE_TEXT[rule]}
              </option>
            ))}
          </select>
        </label>
        <label
          className="form-check"
          title="Labels given on a summary after its judge verdicts were shown to that annotator are not blind; left out by default (counted either way)"
        >
          <input
            type="checkbox"
            checked={draft.includeRevealed}
            disabled={running}
            onChange={(event) => setDraft({ includeRevealed: event.target.checked })}
            data-testid="analysis-include-revealed"
          />
          <span>include labels given after a reveal</span>
        </label>
        <button
          type="submit"
          className="primary"
          disabled={!input || running || pending !== null || noDatasets}
          data-testid="analysis-run"
        >
          {pending === 'start' ? 'Starting…' : 'Run'}
        </button>
        {running && (
          <button
            type="button"
            disabled={pending !== null}
            onClick={() => void cancelAnalysis()}
            data-testid="analysis-cancel"
          >
            {pending === 'cancel' ? 'Cancelling…' : 'Cancel'}
          </button>
        )}
      </form>
      <p className="muted small analysis-settings-hint">
        Intervals: 95% percentile bootstrap resampling whole summaries (0 replicates = none). The seed fixes every
        random stream: the same project and seed give the same numbers in every host.
      </p>
      {job && job.state !== 'done' && <JobLine job={job} />}
    </section>
  );
}

function NumberField({
  id,
  label,
  title,
  value,
  error,
  disabled,
}: {
  id: 'bootstrap' | 'seed' | 'cap';
  label: string;
  title: string;
  value: string;
  error?: string;
  disabled: boolean;
}) {
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
        <ProgressBar
          label={job.progress.phase}
          done={job.progress.done}
          total={job.progress.total}
          testId="analysis-progress-bar"
        />
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
