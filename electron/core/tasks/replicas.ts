/**
 * Replicas of one endpoint (several base URLs serving the same model): which one takes the next
 * request, and whether each is healthy. Kind-agnostic: any chat task kind sends through it.
 *
 * - A request goes to the least-loaded healthy replica that its AIMD controller (aimd.ts) lets
 *   start one; when none may, `acquire` waits for a slot (a release, a hold ending, a probe due).
 * - A replica with `failThreshold` connection errors, timeouts or 5xx in a row is taken out; after
 *   a backoff (doubling up to `probeMaxMs`) one probe request goes to it, and a success brings it
 *   back. `allOut()` says every replica is out: only then does the run's circuit open.
 * - A 429 (and Retry-After, x-ratelimit-*) concerns only the replica that sent it.
 */
import { AimdController, NO_RATE_LIMIT_HEADERS, type AimdOptions, type RateLimitHeaders } from './aimd';
import type { ReplicaStatus, TaskErrorKind } from '../../../shared/contract/tasks';

export interface ReplicaPoolOptions {
  baseUrls: readonly string[];
  /** The configured concurrency: each replica's ceiling. */
  ceiling: number;
  /** Failures in a row that take a replica out. */
  failThreshold: number;
  probeBaseMs?: number;
  probeMaxMs?: number;
  aimd?: Omit<AimdOptions, 'ceiling'>;
  now?: () => number;
}

/** What became of one request sent to a replica. */
export type ReplicaOutcome =
  | { type: 'ok'; latencyMs: number; headers: RateLimitHeaders }
  | { type: 'rate_limited'; headers: RateLimitHeaders }
  | { type: 'error'; kind: TaskErrorKind }
  /** Aborted by a pause or cancel: says nothing about the replica. */
  | { type: 'aborted' };

export interface ReplicaLease {
  readonly baseUrl: string;
  readonly index: number;
  release(outcome: ReplicaOutcome): void;
}

const DOWN_KINDS: ReadonlySet<TaskErrorKind> = new Set(['connection', 'timeout', 'server_error']);

interface Replica {
  baseUrl: string;
  index: number;
  controller: AimdController;
  inFlight: number;
  failuresInARow: number;
  out: boolean;
  probeAt: number;
  probeDelayMs: number;
  probing: boolean;
  sent: number;
  ok: number;
  rateLimited: number;
  failed: number;
}

interface Waiter {
  resolve(lease: ReplicaLease): void;
  reject(err: unknown): void;
  signal: AbortSignal;
  onAbort(): void;
}

export class ReplicaPool {
  private readonly replicas: Replica[];
  private readonly waiters: Waiter[] = [];
  private readonly now: () => number;
  private readonly failThreshold: number;
  private readonly probeBaseMs: number;
  private readonly probeMaxMs: number;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private timerAt = 0;

  constructor(options: ReplicaPoolOptions) {
    if (options.baseUrls.length === 0) throw new Error('A replica pool needs at least one base URL.');
    this.now = options.now ?? Date.now;
    this.failThreshold = Math.max(1, options.failThreshold);
    this.probeBaseMs = options.probeBaseMs ?? 1000;
    this.probeMaxMs = options.probeMaxMs ?? 30_000;
    this.replicas = options.baseUrls.map((baseUrl, index) => ({
      baseUrl,
      index,
      controller: new AimdController({ ...options.aimd, ceiling: options.ceiling }),
      inFlight: 0,
      failuresInARow: 0,
      out: false,
      probeAt: 0,
      probeDelayMs: this.probeBaseMs,
      probing: false,
      sent: 0,
      ok: 0,
      rateLimited: 0,
      failed: 0,
    }));
  }

  /** The most requests the pool may have in flight (every replica at its ceiling). */
  get capacity(): number {
    return this.replicas.reduce((sum, r) => sum + r.controller.snapshot(0).ceiling, 0);
  }

  /** Every replica is out (the run's circuit may open). */
  allOut(): boolean {
    return this.replicas.every((r) => r.out);
  }

  /** Resume after the circuit opened: every replica gets a fresh chance. */
  reset(): void {
    for (const r of this.replicas) {
      r.out = false;
      r.failuresInARow = 0;
      r.probeDelayMs = this.probeBaseMs;
    }
    this.pump();
  }

  status(): ReplicaStatus[] {
    return this.replicas.map((r) => ({
      baseUrl: r.baseUrl,
      healthy: !r.out,
      inFlight: r.inFlight,
      limit: r.controller.limit,
      sent: r.sent,
      ok: r.ok,
      rateLimited: r.rateLimited,
      failed: r.failed,
    }));
  }

  /** A slot on the best replica; waits while none is free. Rejects with the signal's reason when aborted. */
  acquire(signal: AbortSignal): Promise<ReplicaLease> {
    if (signal.aborted) return Promise.reject(new Error('aborted'));
    const lease = this.waiters.length === 0 ? this.tryLease() : null;
    if (lease) return Promise.resolve(lease);
    return new Promise<ReplicaLease>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          const i = this.waiters.indexOf(waiter);
          if (i !== -1) this.waiters.splice(i, 1);
          reject(new Error('aborted'));
        },
      };
      signal.addEventListener('abort', waiter.onAbort, { once: true });
      this.waiters.push(waiter);
      this.pump();
    });
  }

  private tryLease(): ReplicaLease | null {
    const now = this.now();
    let best: Replica | null = null;
    for (const r of this.replicas) {
      if (r.out) {
        // Out: one probe at a time, once its backoff has passed.
        if (r.probing || r.probeAt > now || r.inFlight > 0) continue;
      } else if (!r.controller.canStart(r.inFlight, now)) continue;
      // Least loaded: fewest in flight for its limit; ties to fewer sent (spreads the start).
      if (!best || load(r) < load(best) || (load(r) === load(best) && r.sent < best.sent)) best = r;
    }
    if (!best) return null;
    const replica = best;
    if (replica.out) replica.probing = true;
    replica.inFlight += 1;
    replica.sent += 1;
    replica.controller.started(now);
    const sentAt = now;
    let released = false;
    return {
      baseUrl: replica.baseUrl,
      index: replica.index,
      release: (outcome) => {
        if (released) return;
        released = true;
        replica.inFlight -= 1;
        this.settle(replica, sentAt, outcome);
        this.pump();
      },
    };
  }

  private settle(r: Replica, sentAt: number, outcome: ReplicaOutcome): void {
    const now = this.now();
    const wasProbe = r.probing;
    r.probing = false;
    switch (outcome.type) {
      case 'ok':
        r.ok += 1;
        r.failuresInARow = 0;
        if (r.out) {
          r.out = false;
          r.probeDelayMs = this.probeBaseMs;
        }
        r.controller.onSuccess(sentAt, outcome.latencyMs, now, outcome.headers);
        return;
      case 'rate_limited':
        // The replica answers: it is up, only full.
        r.rateLimited += 1;
        r.failuresInARow = 0;
        if (r.out) r.out = false;
        r.controller.onRateLimited(sentAt, now, outcome.headers);
        return;
      case 'error':
        if (!DOWN_KINDS.has(outcome.kind)) return;
        r.failed += 1;
        r.failuresInARow += 1;
        if (r.out && wasProbe) {
          r.probeDelayMs = Math.min(this.probeMaxMs, r.probeDelayMs * 2);
          r.probeAt = now + r.probeDelayMs;
        } else if (!r.out && r.failuresInARow >= this.failThreshold) {
          r.out = true;
          r.probeAt = now + r.probeDelayMs;
        }
        return;
      case 'aborted':
        return;
    }
  }

  /** Hands free slots to waiters in arrival order; arms a timer for the next hold or probe. */
  private pump(): void {
    while (this.waiters.length > 0) {
      const lease = this.tryLease();
      if (!lease) break;
      const waiter = this.waiters.shift()!;
      waiter.signal.removeEventListener('abort', waiter.onAbort);
      waiter.resolve(lease);
    }
    if (this.waiters.length === 0) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      return;
    }
    const now = this.now();
    let next = Number.POSITIVE_INFINITY;
    for (const r of this.replicas) {
      if (r.out) {
        if (!r.probing && r.inFlight === 0) next = Math.min(next, r.probeAt);
      } else {
        const held = r.controller.heldUntil(now);
        if (held > 0) next = Math.min(next, held);
      }
    }
    if (!Number.isFinite(next)) return; // a release will pump
    if (this.timer && this.timerAt <= next) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = next;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.pump();
      },
      Math.max(0, next - now),
    );
  }
}

function load(r: Replica): number {
  return r.inFlight / Math.max(1, r.controller.limit);
}

export { NO_RATE_LIMIT_HEADERS };
