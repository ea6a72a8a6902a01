/**
 * A run's counters, kept in one object by the engine and read by every host through the run
 * status: what became of the items (answered, reused, unparseable, failed, left out) and of the
 * requests (sent, failed by kind, dropped), and the failures in a row. Each event of a run is one
 * method, so the counts agree with each other by construction:
 *
 *   done     = cached + reusedParseErrors + ok + parseErrors + failed
 *   requests = ok + parseErrors + failed attempts by kind (parse_error aside) + dropped
 *
 * A resume keeps counting in the same object (a run's figures never restart).
 */
import { redact } from '../../../shared/judges/redact';
import type { TaskErrorKind } from '../../../shared/contract/tasks';
import type { RunCountFields } from '../../../shared/run-counts';
import type { StoredAnswer, TaskPlan } from './kind';

/** The counters as the run status carries them (the fields shared/run-counts.ts words, and more). */
export interface RunCountsSnapshot extends RunCountFields {
  done: number;
  total: number;
  missing: number;
  tokens: { prompt: number; completion: number };
  errors: Array<{ kind: TaskErrorKind; count: number; lastMessage: string }>;
}

export class RunCounters {
  private total = 0;
  private cached = 0;
  private reusedParseErrors = 0;
  private requests = 0;
  private dropped = 0;
  private ok = 0;
  private parseErrors = 0;
  private failed = 0;
  private failuresInARow = 0;
  private missing = 0;
  private tokensIn = 0;
  private tokensOut = 0;
  private readonly errors = new Map<TaskErrorKind, { count: number; lastMessage: string }>();

  constructor(private readonly secrets: ReadonlyArray<string | null>) {}

  /** The selection: its items to do and those answered before (counted as cached). */
  planned(plan: TaskPlan<unknown>): void {
    this.total = plan.work.length + plan.done;
    this.cached = plan.done;
    this.missing = plan.missing;
  }

  /** An item's input went missing when its turn came: left out of the selection. */
  itemMissing(): void {
    this.missing += 1;
    this.total -= 1;
  }

  /** An item took, without a request, an answer of the same content (stored, or of this run). */
  reused(answer: StoredAnswer<unknown>): void {
    if (answer.output === null) this.reusedParseErrors += 1;
    else this.cached += 1;
  }

  /** A request left for the endpoint. */
  sent(): void {
    this.requests += 1;
  }

  /** A sent request's answer was dropped by a pause or cancel: the item is sent again on resume. */
  droppedRequest(): void {
    this.dropped += 1;
  }

  /** One attempt failed (a retry may follow). */
  attemptFailed(kind: TaskErrorKind, message: string): void {
    this.failuresInARow += 1;
    this.noteError(kind, message);
  }

  /** The item's last attempt failed: it stays to do. */
  itemFailed(): void {
    this.failed += 1;
  }

  /** A request brought an answer (parsed or not): the endpoint answers. */
  answered(answer: StoredAnswer<unknown>): void {
    this.failuresInARow = 0;
    if (answer.output !== null) this.ok += 1;
    else this.parseErrors += 1;
    if (answer.parseError !== null) this.noteError('parse_error', answer.parseError);
    this.tokensIn += answer.tokensIn ?? 0;
    this.tokensOut += answer.tokensOut ?? 0;
  }

  /** Failed attempts since the last answer. */
  get inARow(): number {
    return this.failuresInARow;
  }

  snapshot(): RunCountsSnapshot {
    return {
      done: this.cached + this.reusedParseErrors + this.ok + this.parseErrors + this.failed,
      total: this.total,
      cached: this.cached,
      reusedParseErrors: this.reusedParseErrors,
      requests: this.requests,
      dropped: this.dropped,
      ok: this.ok,
      parseErrors: this.parseErrors,
      failed: this.failed,
      failuresInARow: this.failuresInARow,
      missing: this.missing,
      tokens: { prompt: this.tokensIn, completion: this.tokensOut },
      errors: [...this.errors].map(([kind, e]) => ({ kind, count: e.count, lastMessage: e.lastMessage })),
    };
  }

  private noteError(kind: TaskErrorKind, message: string): void {
    const entry = this.errors.get(kind) ?? { count: 0, lastMessage: '' };
    entry.count += 1;
    entry.lastMessage = redact(message, this.secrets);
    this.errors.set(kind, entry);
  }
}
