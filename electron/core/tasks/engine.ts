/**
 * The task engine: one run of one task kind and configuration over a source's items, in the
 * background. Every kind gets the same machinery by being declared (kind.ts):
 *
 * - Items the configuration has answered are skipped (the source's plan); an answer with the same
 *   content key anywhere in the source is reused without a request, and two items with the same
 *   key in one run share one request (in-flight dedupe).
 * - Bounded concurrency; each attempt that fails with 429, 5xx, a timeout, a reset or a malformed
 *   body is retried with exponential backoff and full jitter, honouring Retry-After /
 *   retry-after-ms (a 429 holds every worker until then). A backend over replicas (`pool`,
 *   replicas.ts) instead chooses the replica and limits each one adaptively: its 429 holds only
 *   that replica and the item is sent again at once (it waits for a free slot).
 * - A circuit: N failures in a row that say "endpoint down" (connection, timeout, 5xx) pause the
 *   run as "endpoint unreachable" (with replicas: when every replica is out); N auth / not-found
 *   rejections pause it as "endpoint rejects". Resume tries again. Nothing of the queue is burnt
 *   meanwhile.
 * - Local work (a rule, the cache) yields to the event loop every few milliseconds, so progress
 *   is seen (and written) while a run of 20,000 cached or offline items goes on.
 * - Each result is committed as it arrives (results of one event-loop turn share a transaction),
 *   so a killed run (SIGKILL) loses only the calls in flight; the next run sends only those.
 * - Keys never reach a stored or shown text: error messages and stored raw answers are redacted,
 *   and an output that contains a known key is refused (stored as a parse error).
 */
import { randomUUID } from 'node:crypto';
import { redact } from '../../../shared/judges/redact';
import { contentKey } from './hashing';
import { RunNotes, storedAnswer } from './interpret';
import type { Answer, StoredAnswer, TaskBackend, TaskErrorKind, TaskKind, TaskResult, TaskSource } from './kind';
import { BoundedQueue, type WorkerOutcome } from './queue';
import { RateMeter } from './rate';
import type { PauseReason, ReplicaStatus, RunState } from '../../../shared/contract/tasks';
import { CallAborted, CallError } from './errors';
import { RunCounters, type RunCountsSnapshot } from './counters';
import { unparseableText } from '../../../shared/run-counts';

export interface RunTuning {
  concurrency: number;
  retries: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** A Retry-After longer than this is capped (a server asking for an hour is not waited for). */
  maxRetryAfterMs: number;
  /** Failures in a row that open the circuit. */
  circuitThreshold: number;
  random: () => number;
}

export const DEFAULT_TUNING: Omit<RunTuning, 'concurrency' | 'retries'> = {
  backoffBaseMs: 500,
  backoffMaxMs: 30_000,
  maxRetryAfterMs: 120_000,
  circuitThreshold: 8,
  random: Math.random,
};

/** Progress of a run, for any kind (the judges map it to JudgeRunStatus): its counters (counters.ts) and state. */
export interface TaskProgress extends RunCountsSnapshot {
  runId: string;
  kind: string;
  configHash: string;
  state: RunState;
  pauseReason: PauseReason | null;
  message: string;
  ratePerSecond: number | null;
  etaSeconds: number | null;
  /** A backend over replicas: each replica's health, adaptive limit and counts. */
  replicas: ReplicaStatus[] | null;
  notes: string[];
  startedAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

export interface TaskRunSetup<C, Item, I, O> {
  kind: TaskKind<C, I, O>;
  config: C;
  /** The kind's configHash(config), computed once by the caller. */
  configHash: string;
  source: TaskSource<Item, I, O>;
  backend: TaskBackend<I, O>;
  tuning: RunTuning;
  /** Known secrets (the API key), redacted from every message and stored raw answer. */
  secrets?: ReadonlyArray<string | null>;
}

const RATE_WINDOW_MS = 10_000;
/** Local work yields to the event loop after this long (progress polls and writes get a turn). */
const YIELD_EVERY_MS = 8;
/** With replicas, a 429 is sent again without spending an attempt, this many times per item. */
const RATE_LIMITED_RESENDS = 200;
const DOWN_KINDS: ReadonlySet<TaskErrorKind> = new Set(['connection', 'timeout', 'server_error']);

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<boolean>((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

/** Exponential backoff with full jitter: uniform in [base·2^attempt / 2, base·2^attempt], capped. */
export function backoffMs(
  attempt: number,
  tuning: Pick<RunTuning, 'backoffBaseMs' | 'backoffMaxMs' | 'random'>,
): number {
  const ceiling = Math.min(tuning.backoffMaxMs, tuning.backoffBaseMs * 2 ** attempt);
  return ceiling / 2 + tuning.random() * (ceiling / 2);
}

export class TaskRun<C, Item, I, O> {
  readonly id = randomUUID();
  readonly kind: TaskKind<C, I, O>;
  readonly configHash: string;
  private readonly config: C;
  private readonly source: TaskSource<Item, I, O>;
  private readonly backend: TaskBackend<I, O>;
  private readonly tuning: RunTuning;
  private readonly secrets: ReadonlyArray<string | null>;
  private state: RunState = 'paused';
  private pauseReason: PauseReason | null = null;
  private failure: string | null = null;
  private readonly queue: BoundedQueue<Item>;
  private readonly pendingWrites: Array<TaskResult<Item, O>> = [];
  private flushScheduled = false;
  private writable = true;
  private holdUntil = 0;
  /** Failures in a row since the run (re)started, by what they say: the circuit's own count. */
  private downInARow = 0;
  private rejectedInARow = 0;
  private circuitCause: { message: string; everyReplica: boolean } | null = null;
  /** Answers of this run by content key (a later item with the same key reuses them). */
  private readonly answered = new Map<string, StoredAnswer<O>>();
  private readonly inFlightKeys = new Map<string, Promise<StoredAnswer<O> | null>>();
  private readonly meter = new RateMeter(RATE_WINDOW_MS);
  private lastYield = Date.now();
  private readonly notes = new RunNotes();
  private readonly listeners = new Set<() => void>();
  private finishedResolve!: () => void;
  /** Resolves when the run ends (done, cancelled or failed); never for a paused run. */
  readonly finished: Promise<void>;
  private readonly counters: RunCounters;
  private readonly startedAt = new Date().toISOString();
  private updatedAt = this.startedAt;
  private finishedAt: string | null = null;

  constructor(setup: TaskRunSetup<C, Item, I, O>) {
    this.kind = setup.kind;
    this.config = setup.config;
    this.configHash = setup.configHash;
    this.source = setup.source;
    this.backend = setup.backend;
    this.tuning = setup.tuning;
    this.secrets = setup.secrets ?? [];
    this.counters = new RunCounters(this.secrets);
    this.finished = new Promise((resolve) => (this.finishedResolve = resolve));
    // Over replicas the pool limits each one; the queue only needs enough workers for all of them.
    const workers = this.backend.pool
      ? Math.max(this.tuning.concurrency, this.backend.pool.capacity)
      : this.tuning.concurrency;
    this.queue = new BoundedQueue<Item>(
      workers,
      (item, signal) => this.process(item, signal),
      (err) => this.fail(err),
    );
    const plan = this.source.plan();
    this.counters.planned(plan);
    this.queue.add(plan.work);
  }

  // --- control ---------------------------------------------------------------------------------

  start(): void {
    if (this.state !== 'paused') return;
    this.state = 'running';
    this.pauseReason = null;
    this.downInARow = 0;
    this.rejectedInARow = 0;
    this.backend.pool?.reset();
    this.meter.restart(Date.now());
    this.touch();
    this.queue.start();
    void this.queue.whenIdle().then(() => this.complete());
  }

  resume(): void {
    this.start();
  }

  async pause(reason: PauseReason = 'user'): Promise<void> {
    if (this.state !== 'running') return;
    this.state = 'paused';
    this.pauseReason = reason;
    this.touch();
    await this.queue.pause();
    this.flush();
  }

  async cancel(): Promise<void> {
    if (this.state !== 'running' && this.state !== 'paused') return;
    this.state = 'cancelled';
    this.pauseReason = null;
    await this.queue.pause();
    this.flush();
    this.end();
  }

  /** The project is closing: stop at once, keep what arrived, write nothing afterwards. */
  stop(): void {
    if (this.state === 'running') {
      this.state = 'paused';
      this.pauseReason = 'user';
      void this.queue.pause();
    }
    this.flush();
    this.writable = false;
  }

  get active(): boolean {
    return this.state === 'running' || this.state === 'paused';
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // --- progress --------------------------------------------------------------------------------

  progress(now = Date.now()): TaskProgress {
    const c = this.counters.snapshot();
    const rate = this.state === 'running' ? this.meter.rate(now) : null;
    const remaining = c.total - c.done;
    const eta = this.state === 'running' && rate && rate > 0 ? remaining / rate : remaining === 0 ? 0 : null;
    const notes: string[] = [];
    if (c.missing > 0)
      notes.push(
        this.source.missingNote?.(c.missing) ??
          `${c.missing} ${this.kind.itemNoun}(s) left out: their input is missing.`,
      );
    notes.push(...this.notes.lines(this.kind));
    return {
      ...c,
      runId: this.id,
      kind: this.kind.name,
      configHash: this.configHash,
      state: this.state,
      pauseReason: this.state === 'paused' ? this.pauseReason : null,
      message: this.message(c),
      ratePerSecond: this.state === 'running' ? rate : null,
      etaSeconds: eta,
      replicas: this.backend.pool?.status() ?? null,
      notes,
      startedAt: this.startedAt,
      updatedAt: this.updatedAt,
      finishedAt: this.finishedAt,
    };
  }

  private message(c: RunCountsSnapshot): string {
    switch (this.state) {
      case 'running':
        return this.queue.inFlight === 0 && this.holdUntil > Date.now()
          ? 'running (waiting for the rate limit)'
          : 'running';
      case 'paused':
        if (this.pauseReason === 'endpoint_unreachable')
          return `paused: endpoint unreachable (${this.circuitText(c)}); resume to retry`;
        if (this.pauseReason === 'endpoint_rejects')
          return `paused: endpoint rejects requests (${this.circuitText(c)}); fix the ${this.kind.answererNoun ?? 'configuration'}, then resume`;
        return `paused at ${c.done}/${c.total}`;
      case 'cancelled':
        return `cancelled at ${c.done}/${c.total}; answers so far are kept`;
      case 'failed':
        return `failed: ${this.failure ?? 'unknown error'}`;
      case 'done': {
        const parts = [`${c.cached + c.ok} answered`];
        if (c.parseErrors + c.reusedParseErrors > 0) {
          parts.push(
            unparseableText(
              c,
              this.kind.parseErrors === 'final'
                ? 'kept with their text'
                : 'stored with their text; run again to retry them',
            ),
          );
        }
        if (c.failed > 0) parts.push(`${c.failed} failed calls (run again to retry them)`);
        return `done: ${parts.join(', ')}`;
      }
    }
  }

  /** Why the circuit opened, with the run's own count of failures in a row. */
  private circuitText(c: RunCountsSnapshot): string {
    const cause = this.circuitCause;
    if (!cause) return `${c.failuresInARow} failures in a row`;
    return cause.everyReplica
      ? `every replica is out after ${c.failuresInARow} failures in a row, last: ${cause.message}`
      : `${c.failuresInARow} failures in a row, last: ${cause.message}`;
  }

  // --- work ------------------------------------------------------------------------------------

  private touch(): void {
    this.updatedAt = new Date().toISOString();
    for (const l of this.listeners) l();
  }

  private complete(): void {
    if (this.state !== 'running') return;
    this.flush();
    this.state = 'done';
    this.end();
  }

  private end(): void {
    this.finishedAt = new Date().toISOString();
    this.touch();
    this.finishedResolve();
  }

  private fail(err: unknown): void {
    if (this.state === 'failed') return;
    this.failure = redact(err instanceof Error ? err.message : String(err), this.secrets);
    this.state = 'failed';
    void this.queue.pause();
    this.writable = false;
    this.end();
  }

  private async process(item: Item, signal: AbortSignal): Promise<WorkerOutcome> {
    if (Date.now() - this.lastYield >= YIELD_EVERY_MS) {
      this.lastYield = Date.now();
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (signal.aborted) return 'requeue';
    }
    const input = this.source.resolve(item);
    if (input === null) {
      this.counters.itemMissing();
      return 'done';
    }
    const key = contentKey(this.kind.cacheTag, this.configHash, this.kind.keyMaterial(input));
    // Looked up before any await: an item with the same key started in this same turn shares its request.
    const sharing = this.inFlightKeys.get(key);
    const reused = this.answered.get(key) ?? this.source.cached(key) ?? (sharing ? await sharing : null);
    if (reused) {
      if (signal.aborted) return 'requeue';
      this.counters.reused(reused);
      this.meter.add(Date.now());
      this.write({
        ...reused,
        item,
        errorKind: null,
        errorMessage: null,
        latencyMs: null,
        cacheKey: key,
        source: 'cache',
      });
      return 'done';
    }
    let settle!: (answer: StoredAnswer<O> | null) => void;
    this.inFlightKeys.set(key, new Promise((resolve) => (settle = resolve)));
    try {
      const outcome = await this.call(item, input, key, signal);
      settle(outcome === 'requeue' ? null : (this.answered.get(key) ?? null));
      return outcome;
    } finally {
      this.inFlightKeys.delete(key);
      settle(null);
    }
  }

  private async call(item: Item, input: I, key: string, signal: AbortSignal): Promise<WorkerOutcome> {
    const attempts = this.tuning.retries + 1;
    let resends = 0;
    for (let attempt = 0; attempt < attempts; attempt += 1) {
      const wait = this.holdUntil - Date.now();
      if (wait > 0 && !(await sleep(wait, signal))) return 'requeue';
      if (signal.aborted) return 'requeue';
      const started = Date.now();
      let sent = false;
      const onSent = () => {
        sent = true;
        this.counters.sent();
      };
      let answer: Answer<O>;
      try {
        answer = await this.backend.call(input, signal, onSent);
      } catch (err) {
        if (err instanceof CallAborted) {
          if (sent) this.counters.droppedRequest();
          return 'requeue';
        }
        // A failure that came back is counted even when a pause began meanwhile.
        const e =
          err instanceof CallError ? err : new CallError('client_error', redact(String(err), this.secrets), false);
        this.counters.attemptFailed(e.kind, e.message);
        if (signal.aborted) return 'requeue';
        if (this.tripCircuit(e)) return 'requeue';
        if (e.kind === 'rate_limited' && this.backend.pool && resends < RATE_LIMITED_RESENDS) {
          // The pool held that replica; the item waits for a free slot on any replica.
          resends += 1;
          attempt -= 1;
          continue;
        }
        if (!e.retryable || attempt === attempts - 1) {
          this.counters.itemFailed();
          this.meter.add(Date.now());
          this.write({
            item,
            output: null,
            raw: null,
            parseError: null,
            errorKind: e.kind,
            errorMessage: redact(e.message, this.secrets),
            tokensIn: null,
            tokensOut: null,
            latencyMs: Date.now() - started,
            cacheKey: key,
            source: 'run',
          });
          return 'done';
        }
        const delay =
          e.retryAfterMs !== null
            ? Math.min(e.retryAfterMs, this.tuning.maxRetryAfterMs)
            : backoffMs(attempt, this.tuning);
        if (e.kind === 'rate_limited' && e.retryAfterMs !== null)
          this.holdUntil = Math.max(this.holdUntil, Date.now() + delay);
        if (!(await sleep(delay, signal))) return 'requeue';
        continue;
      }
      this.downInARow = 0;
      this.rejectedInARow = 0;
      if (signal.aborted) {
        if (sent) this.counters.droppedRequest();
        return 'requeue';
      }
      const stored = storedAnswer(this.kind, this.config, answer, this.secrets, this.notes, { input });
      this.answered.set(key, stored);
      this.counters.answered(stored);
      this.meter.add(Date.now());
      this.write({
        ...stored,
        item,
        errorKind: null,
        errorMessage: null,
        latencyMs: Date.now() - started,
        cacheKey: key,
        source: 'run',
      });
      return 'done';
    }
    return 'done'; // unreachable: the last attempt returns above
  }

  /** Counts failures in a row; opens the circuit (pauses the run) at the threshold. */
  private tripCircuit(e: CallError): boolean {
    if (DOWN_KINDS.has(e.kind)) {
      this.downInARow += 1;
      this.rejectedInARow = 0;
    } else if (e.kind === 'auth' || e.status === 404) {
      this.rejectedInARow += 1;
      this.downInARow = 0;
    } else {
      this.downInARow = 0;
      this.rejectedInARow = 0;
      return false;
    }
    if (this.state !== 'running') return true; // already pausing: give the item back
    const pool = this.backend.pool;
    // Over replicas, "down" means every replica is out (each is taken out after failures in a row).
    const down = pool && DOWN_KINDS.has(e.kind) ? pool.allOut() : this.downInARow >= this.tuning.circuitThreshold;
    const reason = down
      ? 'endpoint_unreachable'
      : this.rejectedInARow >= this.tuning.circuitThreshold
        ? 'endpoint_rejects'
        : null;
    if (!reason) return false;
    this.circuitCause = {
      message: redact(e.message, this.secrets),
      everyReplica: Boolean(pool && reason === 'endpoint_unreachable' && pool.status().length > 1),
    };
    void this.pause(reason);
    return true;
  }

  private write(result: TaskResult<Item, O>): void {
    if (!this.writable) return;
    this.pendingWrites.push(result);
    this.touch();
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => {
        this.flushScheduled = false;
        try {
          this.flush();
        } catch (err) {
          this.fail(err);
        }
      });
    }
  }

  private flush(): void {
    if (!this.writable || this.pendingWrites.length === 0) return;
    const batch = this.pendingWrites.splice(0);
    this.source.save(batch);
  }
}
