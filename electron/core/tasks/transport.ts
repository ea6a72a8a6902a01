/**
 * Sending one chat request to an OpenAI-compatible endpoint through the `openai` package, and
 * what a failure means. The body is built elsewhere (a kind's `buildRequest`): this module only
 * sends it, so a batch-file writer can take the same bodies.
 *
 * The openai client runs with maxRetries 0: retries, backoff and the circuit are the engine's;
 * with replicas (`replicaBackend`), which replica takes a request, its AIMD concurrency,
 * Retry-After and x-ratelimit-* are the replica pool's (replicas.ts), per replica. Errors come
 * back as CallError values with a kind and a redacted, bounded message.
 */
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { redact } from '../../../shared/judges/redact';
import { readRateLimitHeaders, type RateLimitHeaders } from './aimd';
import { NOT_A_COMPLETION, completionFromBody } from './completion';
import { CallAborted, CallError } from './errors';
import type { Answer, ChatRequestBody, Completion, TaskBackend, TaskKind } from './kind';
import { ReplicaPool, type ReplicaOutcome } from './replicas';

export { CallAborted, CallError };

const MAX_MESSAGE = 500;

/** Retry-After in milliseconds: `retry-after-ms`, else `retry-after` as seconds or an HTTP date. */
export function retryAfterMs(
  headers: { get(name: string): string | null } | undefined,
  now = Date.now(),
): number | null {
  if (!headers) return null;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms);
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return null;
  if (Number.isFinite(Number(value)) && Number(value) >= 0) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

export function classifyError(err: unknown, secrets: ReadonlyArray<string | null>): CallError | CallAborted {
  const clean = (text: string) => {
    const r = redact(text, secrets);
    return r.length > MAX_MESSAGE ? `${r.slice(0, MAX_MESSAGE - 1)}…` : r;
  };
  if (err instanceof OpenAI.APIUserAbortError) return new CallAborted();
  if (err instanceof OpenAI.APIConnectionTimeoutError)
    return new CallError('timeout', clean('the request timed out'), true);
  if (err instanceof OpenAI.APIConnectionError) {
    const cause =
      err.cause instanceof Error
        ? (((err.cause as { cause?: { code?: string } }).cause?.code ?? err.cause.message) as string)
        : '';
    return new CallError('connection', clean(`connection failed${cause ? ` (${cause})` : ''}`), true);
  }
  if (err instanceof OpenAI.APIError) {
    const status = typeof err.status === 'number' ? err.status : null;
    const message = clean(`HTTP ${status ?? '?'}: ${err.message}`);
    if (status === 429) {
      const headers = err.headers as Headers | undefined;
      const after = retryAfterMs(headers);
      return new CallError('rate_limited', message, true, after, status, readRateLimitHeaders(headers, after));
    }
    if (status === 408)
      return new CallError('timeout', message, true, retryAfterMs(err.headers as Headers | undefined), status);
    if (status !== null && status >= 500)
      return new CallError('server_error', message, true, retryAfterMs(err.headers as Headers | undefined), status);
    if (status === 401 || status === 403) return new CallError('auth', message, false, null, status);
    return new CallError('client_error', message, false, null, status);
  }
  if (err instanceof SyntaxError)
    return new CallError('malformed_response', clean(`the response body is not valid JSON (${err.message})`), true);
  return new CallError('client_error', clean(err instanceof Error ? err.message : String(err)), false);
}

/** Sends one request body and returns the completion, or throws CallError / CallAborted. */
export interface ChatTransport {
  send(body: ChatRequestBody, signal: AbortSignal): Promise<Completion>;
}

/** A completion with the response's rate-limit headers (for the replica's controller). */
interface SentCompletion {
  completion: Completion;
  headers: RateLimitHeaders;
}

/**
 * The openai client with every setting the package would otherwise read from the environment
 * given explicitly (OPENAI_API_KEY, OPENAI_ADMIN_KEY, OPENAI_ORG_ID, OPENAI_PROJECT_ID,
 * OPENAI_BASE_URL, OPENAI_WEBHOOK_SECRET, OPENAI_LOG), and the headers of OPENAI_CUSTOM_HEADERS,
 * which no option turns off, dropped after construction. A variable of the process that runs
 * Loupe reaches an endpoint only as a judge's named key variable, under the host's key policy.
 */
class EndpointClient extends OpenAI {
  constructor(baseUrl: string, timeoutS: number, apiKey: string | null) {
    super({
      baseURL: baseUrl,
      apiKey: apiKey ?? 'not-needed',
      adminAPIKey: null,
      organization: null,
      project: null,
      webhookSecret: null,
      logLevel: 'warn',
      maxRetries: 0,
      timeout: timeoutS * 1000,
    });
    this._options = { ...this._options, defaultHeaders: undefined };
  }
}

function openaiClient(baseUrl: string, timeoutS: number, apiKey: string | null): OpenAI {
  return new EndpointClient(baseUrl, timeoutS, apiKey);
}

async function sendWith(
  client: OpenAI,
  body: ChatRequestBody,
  signal: AbortSignal,
  secrets: ReadonlyArray<string | null>,
): Promise<SentCompletion> {
  let response: unknown;
  let headers: Headers | undefined;
  try {
    // The body is plain JSON built and validated by Loupe; extra fields pass through as sent.
    const result = await client.chat.completions
      .create(body as unknown as ChatCompletionCreateParamsNonStreaming, { signal })
      .withResponse();
    response = result.data;
    headers = result.response.headers;
  } catch (err) {
    throw classifyError(err, secrets);
  }
  const completion = completionFromBody(response);
  if (!completion) throw new CallError('malformed_response', NOT_A_COMPLETION, true);
  return { completion, headers: readRateLimitHeaders(headers, retryAfterMs(headers)) };
}

export interface ReplicaEndpointOptions {
  baseUrls: readonly string[];
  timeoutS: number;
  /** Each replica's ceiling (the configured concurrency). */
  concurrency: number;
}

export interface ReplicaBackendOptions {
  /** Failures in a row that take a replica out (the engine's circuit threshold). */
  failThreshold: number;
  probeBaseMs?: number;
  probeMaxMs?: number;
  /** Tests: another way to send to one replica (default: the openai client). */
  sendTo?: (baseUrl: string, body: ChatRequestBody, signal: AbortSignal) => Promise<SentCompletion>;
}

/**
 * A remote backend for any kind over one or more replicas: each call takes a slot on the
 * least-loaded healthy replica (waiting while none is free), sends the kind's body there and
 * tells the pool how it went.
 */
export function replicaBackend<C, I, O>(
  kind: TaskKind<C, I, O>,
  config: C,
  endpoint: ReplicaEndpointOptions,
  apiKey: string | null,
  options: ReplicaBackendOptions,
): TaskBackend<I, O> & { pool: ReplicaPool } {
  const pool = new ReplicaPool({
    baseUrls: endpoint.baseUrls,
    ceiling: endpoint.concurrency,
    failThreshold: options.failThreshold,
    ...(options.probeBaseMs !== undefined ? { probeBaseMs: options.probeBaseMs } : {}),
    ...(options.probeMaxMs !== undefined ? { probeMaxMs: options.probeMaxMs } : {}),
  });
  const secrets = [apiKey];
  const clients = new Map(endpoint.baseUrls.map((url) => [url, openaiClient(url, endpoint.timeoutS, apiKey)]));
  const sendTo = options.sendTo ?? ((baseUrl, body, signal) => sendWith(clients.get(baseUrl)!, body, signal, secrets));
  return {
    remote: true,
    pool,
    async call(input, signal, sent): Promise<Answer<O>> {
      const body = kind.buildRequest(config, input);
      let lease;
      try {
        lease = await pool.acquire(signal);
      } catch {
        throw new CallAborted();
      }
      sent();
      const started = Date.now();
      let outcome: ReplicaOutcome = { type: 'aborted' };
      try {
        const sent = await sendTo(lease.baseUrl, body, signal);
        outcome = { type: 'ok', latencyMs: Date.now() - started, headers: sent.headers };
        return { type: 'completion', ...sent.completion };
      } catch (err) {
        if (err instanceof CallError) {
          outcome =
            err.kind === 'rate_limited'
              ? { type: 'rate_limited', headers: err.rateLimit ?? readRateLimitHeaders(undefined, err.retryAfterMs) }
              : { type: 'error', kind: err.kind };
          throw endpoint.baseUrls.length > 1 ? err.onReplica(lease.baseUrl) : err;
        }
        throw err;
      } finally {
        lease.release(outcome);
      }
    },
  };
}

/** A remote backend for any kind: the kind builds the body, the transport sends it. */
export function chatBackend<C, I, O>(kind: TaskKind<C, I, O>, config: C, transport: ChatTransport): TaskBackend<I, O> {
  return {
    remote: true,
    async call(input, signal, sent): Promise<Answer<O>> {
      const body = kind.buildRequest(config, input);
      sent();
      const completion = await transport.send(body, signal);
      return { type: 'completion', ...completion };
    },
  };
}
