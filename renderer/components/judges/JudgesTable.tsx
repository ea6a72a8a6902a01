/**
 * The project's judges: what each one is, its version and how many predictions its current
 * version holds (counts only: no prediction is ever shown here).
 */
import type { JudgeInfo, JudgeRunStatus } from '../../../shared/api';
import { isActive, isBaseline, isRunnable, shortHash } from '../../state/judges';
import { formatCount } from '../../format';
import { kindLabel } from './format';

interface JudgesTableProps {
  judges: readonly JudgeInfo[];
  runs: Readonly<Record<string, JudgeRunStatus>>;
  selected: string | null;
  onSelect: (name: string) => void;
  onEdit: (judge: JudgeInfo) => void;
  onRemove: (judge: JudgeInfo) => void;
}

export function JudgesTable({ judges, runs, selected, onSelect, onEdit, onRemove }: JudgesTableProps) {
  return (
    <div className="judges-scroll">
      <table className="data-table judges-table" data-testid="judges-table">
        <thead>
          <tr>
            <th>Judge</th>
            <th>Kind</th>
            <th>Model</th>
            <th>Base URL</th>
            <th>Version</th>
            <th className="num" title="Sentences with a label from the current version">
              Labeled
            </th>
            <th className="num" title="Of those, with a soft label (log-probabilities)">
              Soft
            </th>
            <th className="num" title={'Answers that were not {"faithful": 0|1}; kept with their text, never guessed'}>
              Parse errors
            </th>
            <th className="num" title="Calls that failed after their retries; the next run retries them">
              Failed
            </th>
            <th>API key</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {judges.map((judge) => (
            <JudgeRow
              key={judge.name}
              judge={judge}
              run={runs[judge.name]}
              selected={judge.name === selected}
              onSelect={onSelect}
              onEdit={onEdit}
              onRemove={onRemove}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

interface JudgeRowProps {
  judge: JudgeInfo;
  run: JudgeRunStatus | undefined;
  selected: boolean;
  onSelect: (name: string) => void;
  onEdit: (judge: JudgeInfo) => void;
  onRemove: (judge: JudgeInfo) => void;
}

function JudgeRow({ judge, run, selected, onSelect, onEdit, onRemove }: JudgeRowProps) {
  const config = judge.config;
  const busy = isActive(run) || (run === undefined && judge.activeRunId !== null);
  const p = judge.predictions;
  return (
    <tr
      className={selected ? 'judge-row is-selected' : 'judge-row'}
      aria-selected={selected}
      data-testid={`judge-row-${judge.name}`}
      data-kind={judge.kind}
    >
      <td>
        <button
          type="button"
          className="link-button judge-name"
          onClick={() => onSelect(judge.name)}
          data-testid="judge-select"
        >
          {judge.name}
        </button>
        {isBaseline(judge) && (
          <span
            className="tag tag-baseline"
            data-testid="judge-baseline-tag"
            title="A simple offline rule: a floor to beat, not a judge to trust"
          >
            baseline
          </span>
        )}
        {busy && run && (
          <span className={`tag tag-run tag-run-${run.state}`} data-testid="judge-run-tag">
            {run.state === 'running'
              ? `running ${run.total > 0 ? Math.floor((run.done / run.total) * 100) : 0}%`
              : 'paused'}
          </span>
        )}
        <div className="judge-description muted" title={judge.description}>
          {judge.description}
        </div>
      </td>
      <td data-testid="judge-kind">{kindLabel(judge.kind)}</td>
      <td>
        {config?.kind === 'endpoint' ? (
          config.model
        ) : config?.kind === 'baseline' ? (
          <span className="muted">no model ({config.rule})</span>
        ) : (
          '—'
        )}
      </td>
      <td className="judge-url">
        {config?.kind === 'endpoint' ? (
          config.baseUrl
        ) : (
          <span className="muted">{config?.kind === 'baseline' ? 'offline' : '—'}</span>
        )}
      </td>
      <td>
        <code title={judge.configHash ?? undefined} data-testid="judge-version">
          {shortHash(judge.configHash)}
        </code>
        {judge.versions > 1 && <span className="muted"> ({judge.versions} versions)</span>}
      </td>
      <td className="num" data-testid="judge-ok">
        {formatCount(p.ok)}
      </td>
      <td className="num">{formatCount(p.soft)}</td>
      <td className={p.parseErrors > 0 ? 'num warn' : 'num'}>{formatCount(p.parseErrors)}</td>
      <td className={p.failed > 0 ? 'num warn' : 'num'}>{formatCount(p.failed)}</td>
      <td data-testid="judge-key">{keyText(judge)}</td>
      <td className="judge-actions">
        {isRunnable(judge) && (
          <button
            type="button"
            disabled={busy}
            title={busy ? 'Cancel the run (or let it finish) before changing the judge' : undefined}
            onClick={() => onEdit(judge)}
            data-testid="judge-edit"
          >
            Edit
          </button>
        )}
        <button type="button" onClick={() => onRemove(judge)} data-testid="judge-remove">
          Remove
        </button>
      </td>
    </tr>
  );
}

function keyText(judge: JudgeInfo): string {
  if (judge.kind !== 'endpoint') return '—';
  if (judge.keySource === 'stored') return 'stored in the OS keychain';
  if (judge.keySource === 'stored_other_origin') return 'stored for another address: type it again';
  if (judge.keySource === 'env' && judge.apiKeyEnv) return `from $${judge.apiKeyEnv}`;
  return 'none';
}

interface JudgesEmptyProps {
  /** The contract's defaults arrived (both buttons need them). */
  ready: boolean;
  canAddBaseline: boolean;
  onAddBaseline: () => void;
  onAddEndpoint: () => void;
}

/** No judge yet: what a judge is, and the two ways to get one. */
export function JudgesEmpty({ ready, canAddBaseline, onAddBaseline, onAddEndpoint }: JudgesEmptyProps) {
  return (
    <div className="judges-empty" data-testid="judges-empty">
      <p className="empty-title">No judges in this project yet.</p>
      <p>
        A judge labels every summary sentence faithful (1) or unfaithful (0), so its reliability can be audited against
        human labels. An <strong>endpoint judge</strong> sends one request per sentence to an OpenAI-compatible
        chat-completions server (vLLM, Ollama, a hosted API) with the paper's prompt; answers are cached by content, so
        a rerun never asks twice. The <strong>offline baseline</strong> is a simple rule with no model (numbers, dates
        and names the document lacks, word coverage): a floor to beat, not a judge to trust.
      </p>
      <p className="muted">Predictions stay out of the Annotate view: annotation is blind.</p>
      <div className="row">
        <button
          type="button"
          onClick={onAddBaseline}
          disabled={!ready || !canAddBaseline}
          data-testid="judges-add-baseline"
        >
          Add the offline baseline
        </button>
        <button
          type="button"
          className="primary"
          disabled={!ready}
          onClick={onAddEndpoint}
          data-testid="judges-add-endpoint"
        >
          Add an endpoint judge
        </button>
      </div>
    </div>
  );
}
