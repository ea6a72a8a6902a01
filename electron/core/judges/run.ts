/**
 * One run of one judge version over a selection of sentences, in the background.
 *
 * - Sentences already answered by this version are skipped; an answer with the same content key
 *   (configuration + document + sentence) anywhere in the project is reused without a request.
 * - Bounded concurrency; each attempt that fails with 429, 5xx, a timeout, a reset or a malformed
 *   body is retried with exponential backoff and full jitter, honouring Retry-After /
 *   retry-after-ms (a 429 holds every worker until then).
 * - A circuit: N failures in a row that say "endpoint down" (connection, timeout, 5xx) pause the
 *   run as "endpoint unreachable"; N auth / not-found rejections pause it as "endpoint rejects".
 *   Resume tries again. Nothing of the queue is burnt meanwhile.
 * - Each result is committed as it arrives (results of one event-loop turn share a transaction),
 *   so a killed run loses only the calls in flight; the next run sends only those.
 */
import { randomUUID } from 'node:crypto';
import type { JudgeErrorKind, JudgeRunStatus } from '../../../shared/api';
import type { JudgeConfig } from '../../../shared/judges/config';
import { parseVerdict } from '../../../shared/judges/parse';
import { redact } from '../../../shared/judges/redact';
import { softLabel } from '../../../shared/judges/soft';
import type { JudgeRepository, PredictionResult, SelectedUnit } from '../../../db/judgeRepository';
import { CallAborted, CallError, type Answer, type JudgeBackend } from './backend';
import { cacheKey, sha256Hex } from './hashing';
import { BoundedQueue, type WorkerOutcome } from './queue';

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

export interface RunSpec {
  judge: string;
  versionId: number;
  configHash: string;
  config: JudgeConfig;
  dataset: string | null;
  onlySampled: boolean;
}

interface WorkItem {
  unitId: number;
  documentId: number;
  sentence: string;
}

type Core = Pick<PredictionResult, 'hard' | 'soft' | 'raw' | 'parseError' | 'tokensIn' | 'tokensOut'>;

const RATE_WINDOW_MS = 30_000;
const DOWN_KINDS: ReadonlySet<JudgeErrorKind> = new Set(['connection', 'timeout', 'server_error']);

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
export function backoffMs(attempt: number, tuning: Pick<RunTuning, 'backoffBaseMs' | 'backoffMaxMs' | 'random'>): number {
  const ceiling = Math.min(tuning.backoffMaxMs, tuning.backoffBaseMs * 2 ** attempt);
  return ceiling / 2 + tuning.random() * (ceiling / 2);
}

export class JudgeRun {
  readonly id = randomUUID();
  private state: JudgeRunStatus['state'] = 'paused';
  private pauseReason: JudgeRunStatus['pauseReason'] = null;
  private failure: string | null = null;
  private readonly queue: BoundedQueue<WorkItem>;
  private readonly pendingWrites: PredictionResult[] = [];
  private flushScheduled = false;
  private writable = true;
  private holdUntil = 0;
  private downInARow = 0;
  private rejectedInARow = 0;
  private lastCircuitError = '';
  private readonly documents = new Map<number, { text: string; hash: string }>();
  private readonly answered = new Map<string, Core>();
  private readonly inFlightKeys = new Map<string, Promise<Core | null>>();
  private readonly completions: number[] = [];
  private readonly errors = new Map<JudgeErrorKind, { count: number; lastMessage: string }>();
  private readonly notes: string[] = [];
  private readonly softProblems = new Map<string, number>();
  private noLogprobsNoted = false;
  private readonly listeners = new Set<() => void>();
  private finishedResolve!: () => void;
  /** Resolves when the run ends (done, cancelled or failed); never for a paused run. */
  readonly finished: Promise<void>;
  private readonly counts = { total: 0, cached: 0, requests: 0, ok: 0, parseErrors: 0, failed: 0, missingDocuments: 0, tokensIn: 0, tokensOut: 0 };
  private readonly startedAt = new Date().toISOString();
  private updatedAt = this.startedAt;
  private finishedAt: string | null = null;

  constructor(
    readonly spec: RunSpec,
    private readonly judges: JudgeRepository,
    private readonly backend: JudgeBackend,
    private readonly tuning: RunTuning,
    /** Known secrets (the API key), redacted from every message. */
    private readonly secrets: ReadonlyArray<string | null> = [],
  ) {
    this.finished = new Promise((resolve) => (this.finishedResolve = resolve));
    this.queue = new BoundedQueue<WorkItem>(tuning.concurrency, (item, signal) => this.process(item, signal), (err) => this.fail(err));
    const units: SelectedUnit[] = judges.selectUnits(spec.dataset, spec.onlySampled);
    const completed = judges.completedUnitIds(spec.versionId);
    const work: WorkItem[] = [];
    for (const u of units) {
      if (!u.hasDocument) {
        this.counts.missingDocuments += 1;
        continue;
      }
      this.counts.total += 1;
      if (completed.has(u.unitId)) this.counts.cached += 1;
      else work.push({ unitId: u.unitId, documentId: u.documentId, sentence: u.sentence });
    }
    if (this.counts.missingDocuments > 0) {
      this.notes.push(`${this.counts.missingDocuments} sentence(s) left out: their document is missing (attach it, then run again).`);
    }
    this.queue.add(work);
  }

  // --- control ---------------------------------------------------------------------------------

  start(): void {
    if (this.state !== 'paused') return;
    this.state = 'running';
    this.pauseReason = null;
    this.downInARow = 0;
    this.rejectedInARow = 0;
    this.touch();
    this.queue.start();
    void this.queue.whenIdle().then(() => this.complete());
  }

  resume(): void {
    this.start();
  }

  async pause(reason: 'user' | 'endpoint_unreachable' | 'endpoint_rejects' = 'user'): Promise<void> {
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

  // --- status -----------------------------------------------------------------------------------

  status(now = Date.now()): JudgeRunStatus {
    const c = this.counts;
    const done = c.cached + c.ok + c.parseErrors + c.failed;
    while (this.completions.length > 0 && this.completions[0]! < now - RATE_WINDOW_MS) this.completions.shift();
    let rate: number | null = null;
    if (this.completions.length >= 2) {
      const span = Math.max(now - this.completions[0]!, 1);
      rate = (this.completions.length / span) * 1000;
    }
    const remaining = c.total - done;
    const eta = this.state === 'running' && rate && rate > 0 ? remaining / rate : remaining === 0 ? 0 : null;
    const notes = [...this.notes];
    for (const [problem, n] of this.softProblems) notes.push(`No soft label for ${n} sentence(s): ${problem}.`);
    return {
      runId: this.id,
      judge: this.spec.judge,
      configHash: this.spec.configHash,
      dataset: this.spec.dataset,
      onlySampled: this.spec.onlySampled,
      state: this.state,
      pauseReason: this.state === 'paused' ? this.pauseReason : null,
      message: this.message(done),
      done,
      total: c.total,
      cached: c.cached,
      requests: c.requests,
      ok: c.ok,
      parseErrors: c.parseErrors,
      failed: c.failed,
      missingDocuments: c.missingDocuments,
      ratePerSecond: this.state === 'running' ? rate : null,
      etaSeconds: eta,
      tokens: { prompt: c.tokensIn, completion: c.tokensOut },
      errors: [...this.errors].map(([kind, e]) => ({ kind, count: e.count, lastMessage: e.lastMessage })),
      notes,
      startedAt: this.startedAt,
      updatedAt: this.updatedAt,
      finishedAt: this.finishedAt,
    };
  }

  private message(done: number): string {
    const c = this.counts;
    switch (this.state) {
      case 'running':
        return this.queue.inFlight === 0 && this.holdUntil > Date.now() ? 'running (waiting for the rate limit)' : 'running';
      case 'paused':
        if (this.pauseReason === 'endpoint_unreachable') return `paused: endpoint unreachable (${this.lastCircuitError}); resume to retry`;
        if (this.pauseReason === 'endpoint_rejects') return `paused: endpoint rejects requests (${this.lastCircuitError}); fix the judge, then resume`;
        return `paused at ${done}/${c.total}`;
      case 'cancelled':
        return `cancelled at ${done}/${c.total}; answers so far are kept`;
      case 'failed':
        return `failed: ${this.failure ?? 'unknown error'}`;
      case 'done': {
        const parts = [`${c.cached + c.ok} answered`];
        if (c.parseErrors > 0) parts.push(`${c.parseErrors} unparseable answers (kept with their text)`);
        if (c.failed > 0) parts.push(`${c.failed} failed calls (run again to retry them)`);
        return `done: ${parts.join(', ')}`;
      }
    }
  }

  // --- work ---------------------------------------------------------------------------------------

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

  private document(documentId: number): { text: string; hash: string } | null {
    let doc = this.documents.get(documentId);
    if (!doc) {
      const text = this.judges.documentText(documentId);
      if (text === null) return null;
      if (this.documents.size >= 64) this.documents.delete(this.documents.keys().next().value!);
      this.documents.set(documentId, (doc = { text, hash: sha256Hex(text) }));
    }
    return doc;
  }

  private async process(item: WorkItem, signal: AbortSignal): Promise<WorkerOutcome> {
    const doc = this.document(item.documentId);
    if (!doc) {
      this.counts.missingDocuments += 1;
      this.counts.total -= 1;
      return 'done';
    }
    const key = cacheKey(this.spec.configHash, doc.hash, item.sentence);
    const reused = this.answered.get(key) ?? this.judges.cachedAnswer(key) ?? (await this.inFlightKeys.get(key)) ?? null;
    if (reused) {
      if (signal.aborted) return 'requeue';
      this.counts.cached += 1;
      this.write({ ...reused, unitId: item.unitId, versionId: this.spec.versionId, errorKind: null, errorMessage: null, latencyMs: null, cacheKey: key, source: 'cache' });
      return 'done';
    }
    let settle!: (core: Core | null) => void;
    this.inFlightKeys.set(key, new Promise((resolve) => (settle = resolve)));
    try {
      const outcome = await this.call(item, doc.text, key, signal);
      settle(outcome === 'requeue' ? null : (this.answered.get(key) ?? null));
      return outcome;
    } finally {
      this.inFlightKeys.delete(key);
      settle(null);
    }
  }

  private async call(item: WorkItem, document: string, key: string, signal: AbortSignal): Promise<WorkerOutcome> {
    const attempts = this.tuning.retries + 1;
    for (let attempt = 0; attempt < attempts; attempt += 1) {
      const wait = this.holdUntil - Date.now();
      if (wait > 0 && !(await sleep(wait, signal))) return 'requeue';
      if (signal.aborted) return 'requeue';
      const started = Date.now();
      if (this.backend.remote) this.counts.requests += 1;
      let answer: Answer;
      try {
        answer = await this.backend.call(document, item.sentence, signal);
      } catch (err) {
        if (err instanceof CallAborted || signal.aborted) return 'requeue';
        const e = err instanceof CallError ? err : new CallError('client_error', redact(String(err), this.secrets), false);
        this.noteError(e.kind, e.message);
        if (this.tripCircuit(e)) return 'requeue';
        if (!e.retryable || attempt === attempts - 1) {
          this.counts.failed += 1;
          this.completions.push(Date.now());
          this.write({
            unitId: item.unitId, versionId: this.spec.versionId, hard: null, soft: null, raw: null, parseError: null,
            errorKind: e.kind, errorMessage: e.message, tokensIn: null, tokensOut: null, latencyMs: Date.now() - started, cacheKey: key, source: 'run',
          });
          return 'done';
        }
        const delay = e.retryAfterMs !== null ? Math.min(e.retryAfterMs, this.tuning.maxRetryAfterMs) : backoffMs(attempt, this.tuning);
        if (e.kind === 'rate_limited' && e.retryAfterMs !== null) this.holdUntil = Math.max(this.holdUntil, Date.now() + delay);
        if (!(await sleep(delay, signal))) return 'requeue';
        continue;
      }
      this.downInARow = 0;
      this.rejectedInARow = 0;
      if (signal.aborted) return 'requeue';
      const core = this.interpret(answer);
      this.answered.set(key, core);
      if (core.hard !== null) this.counts.ok += 1;
      else this.counts.parseErrors += 1;
      if (core.parseError !== null) this.noteError('parse_error', core.parseError);
      this.counts.tokensIn += core.tokensIn ?? 0;
      this.counts.tokensOut += core.tokensOut ?? 0;
      this.completions.push(Date.now());
      this.write({ ...core, unitId: item.unitId, versionId: this.spec.versionId, errorKind: null, errorMessage: null, latencyMs: Date.now() - started, cacheKey: key, source: 'run' });
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
    const reason = this.downInARow >= this.tuning.circuitThreshold ? 'endpoint_unreachable' : this.rejectedInARow >= this.tuning.circuitThreshold ? 'endpoint_rejects' : null;
    if (!reason) return false;
    this.lastCircuitError = `${this.tuning.circuitThreshold} failures in a row, last: ${e.message}`;
    void this.pause(reason);
    return true;
  }

  private interpret(answer: Answer): Core {
    if (answer.type === 'verdict') return { hard: answer.hard, soft: answer.soft, raw: answer.raw, parseError: null, tokensIn: null, tokensOut: null };
    const base = { raw: answer.content, tokensIn: answer.tokensIn, tokensOut: answer.tokensOut };
    const verdict = parseVerdict(answer.content);
    if (!verdict.ok) {
      const cut = answer.finishReason === 'length' ? ' (finish_reason "length": the answer was cut off at max tokens)' : '';
      return { ...base, hard: null, soft: null, parseError: `${verdict.error}${cut}` };
    }
    let soft: number | null = null;
    if (this.spec.config.kind === 'endpoint' && this.spec.config.soft) {
      if (!answer.logprobs || answer.logprobs.length === 0) {
        if (!this.noLogprobsNoted) {
          this.noLogprobsNoted = true;
          this.notes.push('The endpoint returned no log-probabilities: hard labels only.');
        }
      } else {
        const s = softLabel(answer.content ?? '', answer.logprobs, verdict.valueOffset);
        if (s.ok) soft = s.soft;
        else this.softProblems.set(s.error, (this.softProblems.get(s.error) ?? 0) + 1);
      }
    }
    return { ...base, hard: verdict.hard, soft, parseError: null };
  }

  private noteError(kind: JudgeErrorKind, message: string): void {
    const entry = this.errors.get(kind) ?? { count: 0, lastMessage: '' };
    entry.count += 1;
    entry.lastMessage = redact(message, this.secrets);
    this.errors.set(kind, entry);
  }

  private write(result: PredictionResult): void {
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
    this.judges.savePredictions(batch);
  }
}
