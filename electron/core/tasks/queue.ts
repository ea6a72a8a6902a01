/**
 * The task engine's bounded-concurrency work queue with pause and resume (no dependency needed).
 *
 * At most `concurrency` workers run at once. `pause()` stops starting new items and aborts the
 * running ones through their AbortSignal; a worker that answers 'requeue' puts its item back at
 * the front, so a resumed queue picks up exactly what was left. `drained` resolves once every
 * item has been handled ('done') while the queue was running.
 */
export type WorkerOutcome = 'done' | 'requeue';
export type Worker<T> = (item: T, signal: AbortSignal) => Promise<WorkerOutcome>;

export class BoundedQueue<T> {
  private readonly pending: T[] = [];
  private readonly running = new Map<number, { item: T; controller: AbortController; settled: Promise<void> }>();
  private nextId = 0;
  private paused = true;
  private idleListeners: Array<() => void> = [];

  constructor(
    private concurrency: number,
    private readonly worker: Worker<T>,
    /** Called when a worker throws (a bug or a storage failure): the queue pauses. */
    private readonly onError: (err: unknown) => void,
  ) {}

  get waiting(): number {
    return this.pending.length;
  }

  get inFlight(): number {
    return this.running.size;
  }

  get isPaused(): boolean {
    return this.paused;
  }

  add(items: Iterable<T>): void {
    for (const item of items) this.pending.push(item);
    this.pump();
  }

  start(): void {
    this.paused = false;
    this.pump();
  }

  setConcurrency(n: number): void {
    this.concurrency = Math.max(1, n);
    this.pump();
  }

  /** Stops starting items and aborts running ones; resolves when every worker has settled. */
  async pause(): Promise<void> {
    this.paused = true;
    const settled = [...this.running.values()].map((r) => {
      r.controller.abort();
      return r.settled;
    });
    await Promise.all(settled);
  }

  /** Resolves the next time the queue is empty with nothing running (and not paused). */
  whenIdle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleListeners.push(resolve));
  }

  private isIdle(): boolean {
    return !this.paused && this.pending.length === 0 && this.running.size === 0;
  }

  private pump(): void {
    while (!this.paused && this.running.size < this.concurrency && this.pending.length > 0) {
      const item = this.pending.shift()!;
      const id = this.nextId++;
      const controller = new AbortController();
      const entry = { item, controller, settled: Promise.resolve() };
      entry.settled = this.worker(item, controller.signal).then(
        (outcome) => {
          this.running.delete(id);
          if (outcome === 'requeue') this.pending.unshift(item);
          this.afterSettle();
        },
        (err: unknown) => {
          this.running.delete(id);
          this.pending.unshift(item);
          this.paused = true;
          this.onError(err);
          this.afterSettle();
        },
      );
      this.running.set(id, entry);
    }
    if (this.isIdle()) this.notifyIdle();
  }

  private afterSettle(): void {
    this.pump();
  }

  private notifyIdle(): void {
    const listeners = this.idleListeners;
    this.idleListeners = [];
    for (const l of listeners) l();
  }
}
