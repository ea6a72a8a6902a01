/** Words and numbers of the Judges view, in one place. */
import type { JudgeInfo, TaskErrorKind } from '../../../shared/api';

/** What each kind of judge is, for people. The baseline always says it is a baseline. */
export function kindLabel(kind: JudgeInfo['kind']): string {
  switch (kind) {
    case 'baseline':
      return 'baseline (offline rule, no model)';
    case 'imported':
      return 'imported predictions';
    default:
      return 'endpoint';
  }
}

const ERROR_KIND_LABELS: Partial<Record<TaskErrorKind, string>> = {
  rate_limited: 'rate limited (429)',
  server_error: 'server error (5xx)',
  timeout: 'timeout',
  connection: 'connection failed',
  auth: 'refused: key (401/403)',
  client_error: 'refused request (4xx)',
  malformed_response: 'malformed response',
  parse_error: 'answer not {"faithful": 0|1}',
};

export function errorKindLabel(kind: string): string {
  return ERROR_KIND_LABELS[kind as TaskErrorKind] ?? kind.replace(/_/g, ' ');
}

/** Why a paused run waits; the circuit reasons are the ones the user must act on. */
const PAUSE_REASONS: Record<string, { circuit: boolean; text: string }> = {
  user: { circuit: false, text: 'Paused. Resume carries on where it stopped; nothing is asked twice.' },
  endpoint_unreachable: {
    circuit: true,
    text: 'Endpoint unreachable — paused (connection failures, timeouts or server errors in a row). Check that the server is up; Resume retries.',
  },
  endpoint_rejects: {
    circuit: true,
    text: 'Endpoint rejects every request — paused (401/403/404 in a row). Check the base URL, the model name and the key; Resume retries.',
  },
};

export function pauseInfo(reason: string | null): { circuit: boolean; text: string } {
  if (reason === null) return PAUSE_REASONS.user!;
  return PAUSE_REASONS[reason] ?? { circuit: true, text: `Paused: ${reason.replace(/_/g, ' ')}. Resume retries.` };
}

export function formatRate(perSecond: number | null): string {
  if (perSecond === null) return '—';
  const digits = perSecond >= 10 ? 0 : perSecond >= 1 ? 1 : 2;
  return `${perSecond.toFixed(digits)} sentences/s`;
}

export function formatEta(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '—';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}
