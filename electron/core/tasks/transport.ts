/**
 * Sending one chat request to an OpenAI-compatible endpoint through the `openai` package, and
 * what a failure means. The body is built elsewhere (a kind's `buildRequest`): this module only
 * sends it, so a batch-file writer can take the same bodies.
 *
 * The openai client runs with maxRetries 0: retries, backoff, Retry-After and the circuit are the
 * engine's. Errors come back as CallError values with a kind and a redacted, bounded message.
 */
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { redact } from '../../../shared/judges/redact';
import { ChatCompletionSchema } from '../../../shared/judges/request';
import { CallAborted, CallError } from './errors';
import type { Answer, ChatRequestBody, Completion, TaskBackend, TaskKind } from './kind';

export { CallAborted, CallError };

const MAX_MESSAGE = 500;

/** Retry-After in milliseconds: `retry-after-ms`, else `retry-after` as seconds or an HTTP date. */
export function retryAfterMs(headers: { get(name: string): string | null } | undefined, now = Date.now()): number | null {
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
  if (err instanceof OpenAI.APIConnectionTimeoutError) return new CallError('timeout', clean('the request timed out'), true);
  if (err instanceof OpenAI.APIConnectionError) {
    const cause = err.cause instanceof Error ? (((err.cause as { cause?: { code?: string } }).cause?.code ?? err.cause.message) as string) : '';
    return new CallError('connection', clean(`connection failed${cause ? ` (${cause})` : ''}`), true);
  }
  if (err instanceof OpenAI.APIError) {
    const status = typeof err.status === 'number' ? err.status : null;
    const message = clean(`HTTP ${status ?? '?'}: ${err.message}`);
    if (status === 429) return new CallError('rate_limited', message, true, retryAfterMs(err.headers as Headers | undefined), status);
    if (status === 408) return new CallError('timeout', message, true, retryAfterMs(err.headers as Headers | undefined), status);
    if (status !== null && status >= 500) return new CallError('server_error', message, true, retryAfterMs(err.headers as Headers | undefined), status);
    if (status === 401 || status === 403) return new CallError('auth', message, false, null, status);
    return new CallError('client_error', message, false, null, status);
  }
  if (err instanceof SyntaxError) return new CallError('malformed_response', clean(`the response body is not valid JSON (${err.message})`), true);
  return new CallError('client_error', clean(err instanceof Error ? err.message : String(err)), false);
}

/** Sends one request body and returns the completion, or throws CallError / CallAborted. */
export interface ChatTransport {
  send(body: ChatRequestBody, signal: AbortSignal): Promise<Completion>;
}

export interface EndpointOptions {
  baseUrl: string;
  timeoutS: number;
}

export function openaiTransport(endpoint: EndpointOptions, apiKey: string | null): ChatTransport {
  const client = new OpenAI({ baseURL: endpoint.baseUrl, apiKey: apiKey ?? 'not-needed', maxRetries: 0, timeout: endpoint.timeoutS * 1000 });
  const secrets = [apiKey];
  return {
    async send(body, signal) {
      let response: unknown;
      try {
        // The body is plain JSON built and validated by Loupe; extra fields pass through as sent.
        response = await client.chat.completions.create(body as unknown as ChatCompletionCreateParamsNonStreaming, { signal });
      } catch (err) {
        throw classifyError(err, secrets);
      }
      const parsed = ChatCompletionSchema.safeParse(response);
      if (!parsed.success) throw new CallError('malformed_response', 'the response is not a chat completion (no choices[0].message)', true);
      const choice = parsed.data.choices[0]!;
      return {
        content: choice.message.content ?? null,
        finishReason: choice.finish_reason ?? null,
        logprobs: choice.logprobs?.content ?? null,
        tokensIn: parsed.data.usage?.prompt_tokens ?? null,
        tokensOut: parsed.data.usage?.completion_tokens ?? null,
      };
    },
  };
}

/** A remote backend for any kind: the kind builds the body, the transport sends it. */
export function chatBackend<C, I, O>(kind: TaskKind<C, I, O>, config: C, transport: ChatTransport): TaskBackend<I, O> {
  return {
    remote: true,
    async call(input, signal): Promise<Answer<O>> {
      const completion = await transport.send(kind.buildRequest(config, input), signal);
      return { type: 'completion', ...completion };
    },
  };
}
