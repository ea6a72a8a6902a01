/**
 * Run one judge over a dataset (or all) in the background: what a start sends (requests, before
 * it sends them; a large start asks first), Start, then a progress bar with rate, ETA, tokens,
 * cache hits, the replicas and the failed attempts grouped by kind; Pause / Resume / Cancel.
 * Batch files: export the requests for a batch engine, import its answers.
 * Counts and progress only: the predictions themselves are never shown here.
 */
import { useEffect } from 'react';
import type { DatasetStats, JudgeInfo, JudgePlan, JudgeRunStatus } from '../../../shared/api';
import { saveText } from '../analysis/save';
import { BatchFileButtons, BatchImportReport } from '../BatchFiles';
import {
  canStart,
  cancelRun,
  cancelStartConfirmation,
  currentPlan,
  exportBatchRequests,
  importBatchAnswers,
  refreshPlan,
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
import { formatCount, plural } from '../../format';
import { errorKindLabel, formatEta, formatRate, pauseInfo } from './format';
import { unparseableText } from '../../../shared/run-counts';

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
  useJudges((state) => state.plans);
  const plan = currentPlan(judge.name);
  const confirming = useJudges((state) => state.confirming === judge.name);
  const batchPending = useJudges((state) => state.batchPending[judge.name]);
  const imported = useJudges((state) => state.batchImports[judge.name]);
  const remote = judge.kind === 'endpoint';

  useEffect(() => {
    if (runnable) void refreshPlan(judge.name);
  }, [judge.name, judge.configHash, runnable, options.dataset, options.onlySampled]);

  return (
    <section
      className="panel judge-run"
      aria-labelledby="judge-run-title"
      data-testid="judge-run"
      data-judge={judge.name}
    >
      <h2 id="judge-run-title">
        Run <span className="judge-run-name">{judge.name}</span>{' '}
        {isBaseline(judge) && <span className="tag tag-baseline">baseline</span>}
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
            <select
              value={options.dataset}
              onChange={(event) => setRunOptions({ dataset: event.target.value })}
              data-testid="run-dataset"
            >
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
      {runnable && plan && (
        <PlanLine plan={plan} baseUrls={judge.config?.kind === 'endpoint' ? judge.config.baseUrls : []} />
      )}
      {confirming && plan && (
        <div
          className="notice run-confirm"
          role="alertdialog"
          aria-labelledby="run-confirm-text"
          data-testid="run-confirm"
        >
          <p id="run-confirm-text">
            This start sends <strong>{plural(plan.requests, 'request')}</strong> to{' '}
            {judge.config?.kind === 'endpoint' ? judge.config.baseUrl : 'the endpoint'}
            {judge.config?.kind === 'endpoint' && judge.config.baseUrls.length > 1
              ? ` and ${plural(judge.config.baseUrls.length - 1, 'more replica')}`
              : ''}
            : on a hosted API, {plural(plan.requests, 'paid call')}.
          </p>
          <div className="row">
            <button
              type="button"
              className="primary"
              onClick={() => void startRun(judge.name, true)}
              data-testid="run-confirm-send"
            >
              Send {plural(plan.requests, 'request')}
            </button>
            <button type="button" onClick={() => cancelStartConfirmation()} data-testid="run-confirm-back">
              Back
            </button>
          </div>
        </div>
      )}
      {runnable && remote && (
        <div className="row judge-batch" data-testid="judge-batch">
          <BatchFileButtons
            disabled={!startable}
            pending={batchPending}
            exportTitle="A JSONL file of OpenAI Batch requests for the selection's sentences still to judge (vllm run-batch, the OpenAI Batch API)"
            onExport={() =>
              void exportBatchRequests(judge.name, (fileName, content) =>
                saveText(fileName, content, 'application/jsonl'),
              )
            }
            onImport={(answers) => void importBatchAnswers(judge.name, answers)}
            testIdPrefix="batch"
          />
        </div>
      )}
      {imported && <BatchImportReport report={imported} itemNoun="sentence" testId="batch-import-report" />}
      {run ? (
        <RunStatus run={run} pending={pending} />
      ) : (
        runnable && <p className="muted">No run of this judge in this session yet.</p>
      )}
    </section>
  );
}

function RunStatus({ run, pending }: { run: JudgeRunStatus; pending: RunControl | undefined }) {
  const paused = run.state === 'paused';
  const pause = paused ? pauseInfo(run.pauseReason) : null;
  const busy = pending !== undefined;
  const tokens = run.tokens.prompt + run.tokens.completion;

  return (
    <div
      className="run-status"
      data-testid="run-status"
      data-state={run.state}
      data-pause-reason={run.pauseReason ?? ''}
      data-run-id={run.runId}
    >
      <p className="run-scope muted">
        {run.dataset ? `Dataset ${run.dataset}` : 'All datasets'}
        {run.onlySampled ? ', only sampled summaries' : ''} · version <code>{run.configHash.slice(0, 12)}</code> ·
        started {new Date(run.startedAt).toLocaleTimeString()}
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
        <button
          type="button"
          disabled={busy || run.state !== 'running'}
          onClick={() => void pauseRun(run.judge)}
          data-testid="run-pause"
          aria-keyshortcuts="Space"
        >
          {pending === 'pause' ? 'Pausing…' : 'Pause'}
        </button>
        <button
          type="button"
          disabled={busy || !paused}
          onClick={() => void resumeRun(run.judge)}
          data-testid="run-resume"
          aria-keyshortcuts="Space"
        >
          {pending === 'resume' ? 'Resuming…' : 'Resume'}
        </button>
        <button
          type="button"
          disabled={busy || !isActive(run)}
          onClick={() => void cancelRun(run.judge)}
          data-testid="run-cancel"
        >
          {pending === 'cancel' ? 'Cancelling…' : 'Cancel'}
        </button>
        <span className="muted key-hint">
          <kbd>Space</kbd> pause / resume
        </span>
      </div>

      <dl className="run-figures">
        <Figure
          label="Rate"
          testId="run-rate"
          value={formatRate(run.ratePerSecond)}
          title="Sentences per second over the last 10 seconds (since the start in the first ones)"
        />
        <Figure label="ETA" testId="run-eta" value={run.state === 'running' ? formatEta(run.etaSeconds) : '—'} />
        <Figure
          label="Tokens"
          testId="run-tokens"
          value={`${formatCount(run.tokens.prompt)} in / ${formatCount(run.tokens.completion)} out`}
          title={`${formatCount(tokens)} tokens in all`}
        />
        <Figure
          label="Cache hits"
          testId="run-cached"
          value={formatCount(run.cached)}
          title="Answered without a request: stored earlier or found in the content cache"
        />
        <Figure
          label="Requests"
          testId="run-requests"
          value={
            run.dropped > 0
              ? `${formatCount(run.requests)} (${formatCount(run.dropped)} dropped by a pause)`
              : formatCount(run.requests)
          }
          title="HTTP requests sent, retries included: answers, failed attempts and requests a pause dropped (sent again on resume)"
        />
        {run.failuresInARow > 0 && (
          <Figure
            label="Failures in a row"
            testId="run-in-a-row"
            value={formatCount(run.failuresInARow)}
            title="Failed attempts since the last answer, across resumes"
          />
        )}
        <Figure
          wide
          label="Answers"
          testId="run-outcomes"
          value={`${formatCount(run.ok)} labeled · ${unparseableText(run)} · ${formatCount(run.failed)} failed`}
        />
        {run.missing > 0 && (
          <Figure
            label="Left out"
            testId="run-missing"
            value={`${plural(run.missing, 'sentence')} (document missing)`}
          />
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

      {run.replicas && run.replicas.length > 1 && <Replicas replicas={run.replicas} />}
      {run.errors.length > 0 && <ErrorGroups errors={run.errors} />}
    </div>
  );
}

/** What Start sends, and where (the judge's base URLs: whoever configured it chose them), before it sends it. */
function PlanLine({ plan, baseUrls }: { plan: JudgePlan; baseUrls: readonly string[] }) {
  const left = plan.selection - plan.done - plan.missing;
  return (
    <p className="muted run-plan" data-testid="run-plan">
      {plan.remote ? (
        <>
          Start sends <strong data-testid="run-plan-requests">{plural(plan.requests, 'request')}</strong> to{' '}
          <code data-testid="run-plan-url">{baseUrls[0] ?? 'the endpoint'}</code>
          {baseUrls.length > 1
            ? ` and ${plural(baseUrls.length - 1, 'more replica')} (${baseUrls.slice(1).join(', ')})`
            : ''}
          {plan.requests > 0 ? ' (paid calls on a hosted API)' : ''} for {plural(plan.selection, 'sentence')}:{' '}
          {formatCount(plan.done)} answered before, {formatCount(plan.cached)} from the cache
          {plan.shared > 0 ? `, ${formatCount(plan.shared)} sharing a request` : ''}
          {plan.missing > 0 ? `, ${formatCount(plan.missing)} without a document` : ''}.
        </>
      ) : (
        <>
          {formatCount(Math.max(0, left))} of {plural(plan.selection, 'sentence')} to judge offline; no request is sent.
        </>
      )}
    </p>
  );
}

/** Each replica of an endpoint judge: health, its adaptive limit, what it answered. */
function Replicas({ replicas }: { replicas: NonNullable<JudgeRunStatus['replicas']> }) {
  return (
    <table className="data-table run-replicas" data-testid="run-replicas">
      <caption>Replicas</caption>
      <thead>
        <tr>
          <th>Base URL</th>
          <th>Health</th>
          <th className="num">In flight / limit</th>
          <th className="num">Answered</th>
          <th className="num">429s</th>
          <th className="num">Failures</th>
        </tr>
      </thead>
      <tbody>
        {replicas.map((r) => (
          <tr key={r.baseUrl}>
            <td>{r.baseUrl}</td>
            <td>{r.healthy ? 'healthy' : 'out (probed again soon)'}</td>
            <td className="num">
              {r.inFlight} / {r.limit}
            </td>
            <td className="num">{formatCount(r.ok)}</td>
            <td className="num">{formatCount(r.rateLimited)}</td>
            <td className="num">{formatCount(r.failed)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function stateLabel(run: JudgeRunStatus, pending: RunControl | undefined): string {
  if (pending === 'pause') return 'pausing…';
  if (pending === 'cancel') return 'cancelling…';
  if (run.state === 'paused') return pauseInfo(run.pauseReason).circuit ? 'paused by the circuit' : 'paused';
  return run.state;
}

function Figure({
  label,
  value,
  testId,
  title,
  wide,
}: {
  label: string;
  value: string;
  testId: string;
  title?: string;
  wide?: boolean;
}) {
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
