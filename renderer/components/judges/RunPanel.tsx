/**
 * Run one judge over a dataset (or all) in the background: Start, then a progress bar with rate,
 * ETA, tokens, cache hits and the failed attempts grouped by kind; Pause / Resume / Cancel.
 * Counts and progress only: the predictions themselves are never shown here.
 */
import type { DatasetStats, JudgeInfo, JudgeRunStatus } from '../../../shared/api';
import {
  canStart,
  cancelRun,
  isActive,
  isBaseline,
  isRunnable,
  pauseRun,
  resumeRun,
  setRunOptions,
  startRun,
  useJudges,
  type RunControl,
} from '../../state/judges';
import { ProgressBar } from '../ProgressBar';
import { errorKindLabel, formatCount, formatEta, formatRate, pauseInfo } from './format';

interface RunPanelProps {
  judge: JudgeInfo;
  run: JudgeRunStatus | undefined;
  pending: RunControl | undefined;
  datasets: readonly DatasetStats[];
}

export function RunPanel({ judge, run, pending, datasets }: RunPanelProps) {
  const options = useJudges((state) => state.runOptions);
  // Subscribed so Start re-enables when the list catches up with a finished run.
  useJudges((state) => state.judges);
  const startable = canStart(judge.name);
  const runnable = isRunnable(judge);

  return (
    <section className="panel judge-run" aria-labelledby="judge-run-title" data-testid="judge-run" data-judge={judge.name}>
      <h2 id="judge-run-title">
        Run <span className="judge-run-name">{judge.name}</span> {isBaseline(judge) && <span className="tag tag-baseline">baseline</span>}
      </h2>
      {!runnable ? (
        <p className="muted" data-testid="judge-run-unavailable">
          {judge.kind === 'imported'
            ? 'These predictions were imported from a file; there is nothing to run. Add an endpoint judge to run one.'
            : 'The stored configuration of this judge cannot be read; edit or remove it.'}
        </p>
      ) : (
        <form
          className="form-row"
          onSubmit={(event) => {
            event.preventDefault();
            void startRun(judge.name);
          }}
        >
          <label>
            Dataset
            <select value={options.dataset} onChange={(event) => setRunOptions({ dataset: event.target.value })} data-testid="run-dataset">
              <option value="">All datasets</option>
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
              onChange={(event) => setRunOptions({ onlySampled: event.target.checked })}
              data-testid="run-only-sampled"
            />
            Only sampled summaries
          </label>
          <button type="submit" className="primary" disabled={!startable} data-testid="run-start" aria-keyshortcuts="R">
            {pending === 'start' ? 'Starting…' : isBaseline(judge) ? 'Run the baseline' : 'Start'} <kbd>R</kbd>
          </button>
          <span className="muted key-hint">
            {isBaseline(judge)
              ? 'Offline: no request leaves this machine.'
              : 'Sentences answered before (same version, same content) are taken from the cache, not asked again.'}
          </span>
        </form>
      )}
      {run ? <RunStatus run={run} pending={pending} /> : runnable && <p className="muted">No run of this judge in this session yet.</p>}
    </section>
  );
}

function RunStatus({ run, pending }: { run: JudgeRunStatus; pending: RunControl | undefined }) {
  const paused = run.state === 'paused';
  const pause = paused ? pauseInfo(run.pauseReason) : null;
  const busy = pending !== undefined;
  const tokens = run.tokens.prompt + run.tokens.completion;

  return (
    <div className="run-status" data-testid="run-status" data-state={run.state} data-pause-reason={run.pauseReason ?? ''} data-run-id={run.runId}>
      <p className="run-scope muted">
        {run.dataset ? `Dataset ${run.dataset}` : 'All datasets'}
        {run.onlySampled ? ', only sampled summaries' : ''} · version <code>{run.configHash.slice(0, 12)}</code> · started{' '}
        {new Date(run.startedAt).toLocaleTimeString()}
      </p>

      {pause?.circuit && (
        <div className="circuit-banner" role="alert" data-testid="run-circuit">
          {pause.text}
        </div>
      )}

      <div className="row run-progress-row">
        <span className={`run-state run-state-${run.state}`} data-testid="run-state">
          {stateLabel(run, pending)}
        </span>
        <ProgressBar testId="run-progress" label="Sentences" done={run.done} total={run.total} />
        <span className="run-percent">{run.total > 0 ? `${Math.floor((run.done / run.total) * 100)}%` : ''}</span>
      </div>
      <p className="run-message" data-testid="run-message">
        {run.message}
      </p>
      {pause && !pause.circuit && <p className="muted">{pause.text}</p>}

      <div className="row run-controls">
        <button type="button" disabled={busy || run.state !== 'running'} onClick={() => void pauseRun(run.judge)} data-testid="run-pause" aria-keyshortcuts="Space">
          {pending === 'pause' ? 'Pausing…' : 'Pause'}
        </button>
        <button type="button" disabled={busy || !paused} onClick={() => void resumeRun(run.judge)} data-testid="run-resume" aria-keyshortcuts="Space">
          {pending === 'resume' ? 'Resuming…' : 'Resume'}
        </button>
        <button type="button" disabled={busy || !isActive(run)} onClick={() => void cancelRun(run.judge)} data-testid="run-cancel">
          {pending === 'cancel' ? 'Cancelling…' : 'Cancel'}
        </button>
        <span className="muted key-hint">
          <kbd>Space</kbd> pause / resume
        </span>
      </div>

      <dl className="run-figures">
        <Figure label="Rate" testId="run-rate" value={formatRate(run.ratePerSecond)} title="Sentences per second over the last half minute" />
        <Figure label="ETA" testId="run-eta" value={run.state === 'running' ? formatEta(run.etaSeconds) : '—'} />
        <Figure
          label="Tokens"
          testId="run-tokens"
          value={`${formatCount(run.tokens.prompt)} in / ${formatCount(run.tokens.completion)} out`}
          title={`${formatCount(tokens)} tokens in all`}
        />
        <Figure label="Cache hits" testId="run-cached" value={formatCount(run.cached)} title="Answered without a request: stored earlier or found in the content cache" />
        <Figure label="Requests" testId="run-requests" value={formatCount(run.requests)} title="HTTP requests sent, retries included" />
        <Figure
          wide
          label="Answers"
          testId="run-outcomes"
          value={`${formatCount(run.ok)} labeled · ${formatCount(run.parseErrors)} unparsable · ${formatCount(run.failed)} failed`}
        />
        {run.missingDocuments > 0 && (
          <Figure label="Left out" testId="run-missing" value={`${formatCount(run.missingDocuments)} sentences (document missing)`} />
        )}
      </dl>

      {run.notes.length > 0 && (
        <ul className="notes run-notes" data-testid="run-notes">
          {run.notes.map((note, i) => (
            <li key={i} className="notice">
              {note}
            </li>
          ))}
        </ul>
      )}

      {run.errors.length > 0 && <ErrorGroups errors={run.errors} />}
    </div>
  );
}

function stateLabel(run: JudgeRunStatus, pending: RunControl | undefined): string {
  if (pending === 'pause') return 'pausing…';
  if (pending === 'cancel') return 'cancelling…';
  if (run.state === 'paused') return pauseInfo(run.pauseReason).circuit ? 'paused by the circuit' : 'paused';
  return run.state;
}

function Figure({ label, value, testId, title, wide }: { label: string; value: string; testId: string; title?: string; wide?: boolean }) {
  return (
    <div className={wide ? 'run-figure is-wide' : 'run-figure'} title={title}>
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}

/** Failed attempts by kind (retries included), with the latest message; messages come redacted. */
function ErrorGroups({ errors }: { errors: JudgeRunStatus['errors'] }) {
  return (
    <table className="data-table run-errors" data-testid="run-errors">
      <caption>Failed attempts by kind (retries included)</caption>
      <thead>
        <tr>
          <th>Kind</th>
          <th className="num">Count</th>
          <th>Latest message</th>
        </tr>
      </thead>
      <tbody>
        {errors.map((group) => (
          <tr key={group.kind} data-testid={`run-error-${group.kind}`}>
            <td title={group.kind}>{errorKindLabel(group.kind)}</td>
            <td className="num">{formatCount(group.count)}</td>
            <td className="run-error-message">{group.lastMessage}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
