/**
 * The lead's Summarization Accuracy tasks in the Judges view: choose a task
 * and the judge (or system under test) that runs it, read its prompt as sent, see what Start
 * sends before it sends it (accuracy.plan), start it, follow its progress, pause, resume or
 * cancel. Counts and progress only: no verdict or alignment is shown here.
 */
import { useEffect } from 'react';
import { ACCURACY_TASKS, type AccuracyRunStatus } from '../../../shared/contract/accuracy';
import type { DatasetStats, JudgeInfo } from '../../../shared/api';
import {
  cancelTask,
  cancelTaskConfirmation,
  currentTaskPlan,
  openAccuracyTasks,
  pauseTask,
  previewTask,
  resumeTask,
  setTaskOptions,
  setTasksError,
  startTask,
  stopTaskPolling,
  TASK_NAME,
  useAccuracyTasks,
} from '../../state/accuracyTasks';
import { ErrorBanner } from '../ErrorBanner';
import { ProgressBar } from '../ProgressBar';
import { formatCount, plural } from '../../format';
import { inARowText, requestsText, unparseableText } from '../../../shared/run-counts';
import { SystemsPanel } from './SystemsPanel';
import { TaskBatch } from './TaskBatch';

export function AccuracyTasksSection({
  judges,
  datasets,
}: {
  judges: readonly JudgeInfo[];
  datasets: readonly DatasetStats[];
}) {
  const state = useAccuracyTasks();
  const plan = currentTaskPlan(state);
  const { options, tasks, runs, pending, confirming } = state;
  const info = tasks.find((t) => t.task === options.task);
  const runners = judges.filter((judge) => judge.kind === 'endpoint');
  const generation = options.task === 'summary_generation';

  useEffect(() => {
    void openAccuracyTasks();
    return () => stopTaskPolling();
  }, []);

  return (
    <section className="panel accuracy-tasks" aria-labelledby="accuracy-tasks-title" data-testid="accuracy-tasks">
      <h2 id="accuracy-tasks-title">Summarization accuracy: claims, key facts, systems under test</h2>
      <ErrorBanner message={state.error} onDismiss={() => setTasksError(null)} />
      <form
        className="form-row"
        onSubmit={(event) => {
          event.preventDefault();
          void startTask();
        }}
      >
        <label>
          Task
          <select
            value={options.task}
            data-testid="accuracy-task"
            onChange={(event) => void setTaskOptions({ task: event.target.value as (typeof ACCURACY_TASKS)[number] })}
          >
            {ACCURACY_TASKS.map((task) => (
              <option key={task} value={task}>
                {TASK_NAME[task]}
              </option>
            ))}
          </select>
        </label>
        {generation ? (
          <label>
            System
            <select
              value={options.system}
              data-testid="accuracy-system"
              onChange={(event) => void setTaskOptions({ system: event.target.value })}
            >
              <option value="">Choose…</option>
              {state.systems
                .filter((s) => s.kind === 'endpoint')
                .map((s) => (
                  <option key={s.name} value={s.name}>
                    {s.name}
                  </option>
                ))}
            </select>
          </label>
        ) : (
          <label>
            Judge
            <select
              value={options.judge}
              data-testid="accuracy-judge"
              onChange={(event) => void setTaskOptions({ judge: event.target.value })}
            >
              <option value="">Choose…</option>
              {runners.map((judge) => (
                <option key={judge.name} value={judge.name}>
                  {judge.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          Dataset
          <select
            value={options.dataset}
            data-testid="accuracy-dataset"
            onChange={(event) => void setTaskOptions({ dataset: event.target.value })}
          >
            {!generation && <option value="">All datasets</option>}
            {generation && <option value="">Choose…</option>}
            {datasets.map((d) => (
              <option key={d.name} value={d.name}>
                {d.name}
              </option>
            ))}
          </select>
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={options.onlySampled}
            data-testid="accuracy-only-sampled"
            onChange={(event) => void setTaskOptions({ onlySampled: event.target.checked })}
          />
          Only sampled summaries
        </label>
        {options.task === 'keyfact_alignment' && (
          <label>
            Align against
            <select
              value={options.lines}
              data-testid="accuracy-lines"
              onChange={(event) => void setTaskOptions({ lines: event.target.value as 'sentences' | 'claims' })}
            >
              <option value="sentences">sentences (FineSurE)</option>
              <option value="claims">claims</option>
            </select>
          </label>
        )}
        <button type="button" onClick={() => void previewTask()} disabled={!plan} data-testid="accuracy-preview">
          Preview a request
        </button>
        <button type="submit" className="primary" disabled={!plan || pending !== null} data-testid="accuracy-start">
          {pending === 'start' ? 'Starting…' : 'Start'}
        </button>
      </form>
      {info && (
        <details className="accuracy-template" data-testid="accuracy-template">
          <summary>
            Prompt of {TASK_NAME[info.task]} (version {info.version}), one request per {info.itemNoun}
          </summary>
          <p className="muted">{info.description}</p>
          <pre>{info.template}</pre>
        </details>
      )}
      {plan ? (
        <p className="muted run-plan" data-testid="accuracy-plan">
          Start sends <strong data-testid="accuracy-plan-requests">{plural(plan.requests, 'request')}</strong>
          {plan.requests > 0 ? ' (paid calls on a hosted API)' : ''} for{' '}
          {plural(plan.selection, info?.itemNoun ?? 'item')}: {formatCount(plan.done)} done before
          {plan.missing > 0 ? `, ${formatCount(plan.missing)} left out` : ''}. Version{' '}
          <code>{plan.configHash.slice(0, 12)}</code>.
          {plan.notes.map((note, i) => (
            <span key={i} className="block">
              {note}
            </span>
          ))}
        </p>
      ) : (
        <p className="muted" data-testid="accuracy-plan-missing">
          {state.planError ?? 'Counting what Start would send…'}
        </p>
      )}
      <TaskBatch enabled={plan !== null} itemNoun={info?.itemNoun ?? 'item'} />
      {confirming && plan && (
        <div className="notice run-confirm" role="alertdialog" data-testid="accuracy-confirm">
          <p>
            This start sends <strong>{plural(plan.requests, 'request')}</strong>: on a hosted API,{' '}
            {plural(plan.requests, 'paid call')}.
          </p>
          <div className="row">
            <button
              type="button"
              className="primary"
              onClick={() => void startTask(true)}
              data-testid="accuracy-confirm-send"
            >
              Send {plural(plan.requests, 'request')}
            </button>
            <button type="button" onClick={cancelTaskConfirmation}>
              Back
            </button>
          </div>
        </div>
      )}
      {state.preview && (
        <div className="accuracy-preview" data-testid="accuracy-preview-text">
          <p className="muted">
            {state.preview.item
              ? `The request for ${state.preview.item} (no key):`
              : 'No item to preview in this selection.'}
          </p>
          {state.preview.prompt !== null && <pre>{state.preview.prompt}</pre>}
        </div>
      )}
      {runs.length > 0 && (
        <ul className="accuracy-runs" data-testid="accuracy-runs">
          {runs.map((run) => (
            <RunRow key={run.runId} run={run} busy={pending !== null} />
          ))}
        </ul>
      )}
      <SystemsPanel systems={state.systems} />
    </section>
  );
}

function RunRow({ run, busy }: { run: AccuracyRunStatus; busy: boolean }) {
  return (
    <li className="run-status" data-testid="accuracy-run" data-state={run.state} data-task={run.task}>
      <p className="run-scope muted">
        {TASK_NAME[run.task]} with {run.model} · {run.dataset ? `dataset ${run.dataset}` : 'all datasets'} · version{' '}
        <code>{run.configHash.slice(0, 12)}</code>
      </p>
      <div className="row run-progress-row">
        <span className={`run-state run-state-${run.state}`} data-testid="accuracy-run-state">
          {run.state}
        </span>
        <ProgressBar label="Items" done={run.done} total={run.total} />
      </div>
      <p className="run-message">{run.message}</p>
      <p className="muted">
        {requestsText(run)} · {formatCount(run.cached)} from the cache · {formatCount(run.ok)} answered ·{' '}
        {unparseableText(run)} · {formatCount(run.failed)} failed
        {run.failuresInARow > 0 ? ` · ${inARowText(run)}` : ''}
        {run.missing > 0 ? ` · ${formatCount(run.missing)} left out` : ''}
      </p>
      <div className="row run-controls">
        <button
          type="button"
          disabled={busy || run.state !== 'running'}
          onClick={() => void pauseTask(run.runId)}
          data-testid="accuracy-run-pause"
        >
          Pause
        </button>
        <button
          type="button"
          disabled={busy || run.state !== 'paused'}
          onClick={() => void resumeTask(run.runId)}
          data-testid="accuracy-run-resume"
        >
          Resume
        </button>
        <button
          type="button"
          disabled={busy || (run.state !== 'running' && run.state !== 'paused')}
          onClick={() => void cancelTask(run.runId)}
          data-testid="accuracy-run-cancel"
        >
          Cancel
        </button>
      </div>
    </li>
  );
}
