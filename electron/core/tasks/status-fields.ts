/**
 * The part of a run's contract status that is the engine's progress as it is, the same for a
 * judge run (judges.*) and an accuracy run (accuracy.*); each adds what names its own run.
 */
import type { TaskProgress } from './engine';

export function progressStatusFields(p: TaskProgress) {
  return {
    runId: p.runId,
    configHash: p.configHash,
    state: p.state,
    pauseReason: p.pauseReason,
    message: p.message,
    done: p.done,
    total: p.total,
    cached: p.cached,
    reusedParseErrors: p.reusedParseErrors,
    requests: p.requests,
    dropped: p.dropped,
    ok: p.ok,
    parseErrors: p.parseErrors,
    failed: p.failed,
    failuresInARow: p.failuresInARow,
    missing: p.missing,
    ratePerSecond: p.ratePerSecond,
    etaSeconds: p.etaSeconds,
    tokens: p.tokens,
    errors: p.errors,
    startedAt: p.startedAt,
    updatedAt: p.updatedAt,
    finishedAt: p.finishedAt,
  };
}
