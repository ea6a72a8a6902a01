/**
 * Items per second over a short recent window, in fixed buckets (constant memory whatever the
 * rate), so a run shows a rate and an ETA from its first completions: before the window has
 * filled, the rate is taken over the time since the run (re)started.
 */
const BUCKET_MS = 250;

export class RateMeter {
  private readonly buckets: number[];
  private readonly stamps: number[];
  private since: number | null = null;

  constructor(private readonly windowMs = 10_000) {
    const n = Math.ceil(windowMs / BUCKET_MS);
    this.buckets = new Array<number>(n).fill(0);
    this.stamps = new Array<number>(n).fill(-1);
  }

  /** The run (re)starts: the rate counts from now. */
  restart(now: number): void {
    this.since = now;
    this.buckets.fill(0);
    this.stamps.fill(-1);
  }

  stop(): void {
    this.since = null;
  }

  add(now: number, n = 1): void {
    const slot = Math.floor(now / BUCKET_MS);
    const i = slot % this.buckets.length;
    if (this.stamps[i] !== slot) {
      this.stamps[i] = slot;
      this.buckets[i] = 0;
    }
    this.buckets[i]! += n;
  }

  /** Items per second; null before the first item or when not running. */
  rate(now: number): number | null {
    if (this.since === null) return null;
    const slot = Math.floor(now / BUCKET_MS);
    const oldest = slot - this.buckets.length + 1;
    let count = 0;
    for (let i = 0; i < this.buckets.length; i += 1)
      if (this.stamps[i]! >= oldest && this.stamps[i]! <= slot) count += this.buckets[i]!;
    if (count === 0) return null;
    const span = Math.min(this.windowMs, Math.max(now - this.since, BUCKET_MS));
    return (count / span) * 1000;
  }
}
