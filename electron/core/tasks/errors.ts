/**
 * What a failed attempt is, for the engine: a CallError with a kind (transport classification),
 * a redacted message and whether to retry; or CallAborted when a pause or cancel stopped it.
 * Kept apart from the transport so the engine does not depend on the openai client.
 */
import type { RateLimitHeaders } from './aimd';
import type { TaskErrorKind } from './kind';

/** A failed attempt. `retryable`: 429, 5xx, timeouts, resets, malformed bodies. */
export class CallError extends Error {
  constructor(
    readonly kind: TaskErrorKind,
    message: string,
    readonly retryable: boolean,
    readonly retryAfterMs: number | null = null,
    readonly status: number | null = null,
    /** A 429's rate-limit headers (for the replica's controller). */
    readonly rateLimit: RateLimitHeaders | null = null,
  ) {
    super(message);
    this.name = 'CallError';
  }

  /** The same failure, its message naming the replica that answered. */
  onReplica(baseUrl: string): CallError {
    return new CallError(
      this.kind,
      `${this.message} [replica ${baseUrl}]`,
      this.retryable,
      this.retryAfterMs,
      this.status,
      this.rateLimit,
    );
  }
}

/** The attempt was aborted by a pause or cancel (not an endpoint failure). */
export class CallAborted extends Error {
  constructor() {
    super('aborted');
    this.name = 'CallAborted';
  }
}
