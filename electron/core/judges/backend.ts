/**
 * Backends answer one sentence: an OpenAI-compatible endpoint through the `openai` package, or the
 * offline baseline rule. The runner treats both alike (same queue, cache and storage).
 *
 * The openai client runs with maxRetries 0: retries, backoff, Retry-After and the circuit are the
 * runner's. Errors come back as CallError values with a kind and a redacted message.
 */
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { JudgeErrorKind } from '../../../shared/api';
import { analyseDocument, baselineVerdict, type DocumentAnalysis } from '../../../shared/judges/baseline';
import type { BaselineConfig, EndpointConfig } from '../../../shared/judges/config';
import { redact } from '../../../shared/judges/redact';
import { ChatCompletionSchema, buildRequestBody } from '../../../shared/judges/request';
import type { LogprobToken } from '../../../shared/judges/soft';

export type Answer =
  | {
      type: 'completion';
      content: string | null;
      finishReason: string | null;
      /** null: the endpoint sent no log-probabilities. */
      logprobs: LogprobToken[] | null;
      tokensIn: number | null;
      tokensOut: number | null;
    }
  | { type: 'verdict'; hard: 0 | 1; soft: number | null; raw: string };

export interface JudgeBackend {
  /** True when the backend sends requests (progress shows requests and tokens). */
  readonly remote: boolean;
  call(document: string, sentence: string, signal: AbortSignal): Promise<Answer>;
}

/** A failed attempt. `retryable`: 429, 5xx, timeouts, resets, malformed bodies. */
export class CallError extends Error {
  constructor(
    readonly kind: JudgeErrorKind,
    message: string,
    readonly retryable: boolean,
    readonly retryAfterMs: number | null = null,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'CallError';
  }
}

/** The attempt was aborted by a pause or cancel (not an endpoint failure). */
export class CallAborted extends Error {
  constructor() {
    super('aborted');
    this.name = 'CallAborted';
  }
}

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

export function endpointBackend(config: EndpointConfig, apiKey: string | null): JudgeBackend {
  const client = new OpenAI({ baseURL: config.baseUrl, apiKey: apiKey ?? 'not-needed', maxRetries: 0, timeout: config.timeoutS * 1000 });
  const secrets = [apiKey];
  return {
    remote: true,
    async call(document, sentence, signal) {
      const body = buildRequestBody(config, document, sentence);
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
        type: 'completion',
        content: choice.message.content ?? null,
        finishReason: choice.finish_reason ?? null,
        logprobs: choice.logprobs?.content ?? null,
        tokensIn: parsed.data.usage?.prompt_tokens ?? null,
        tokensOut: parsed.data.usage?.completion_tokens ?? null,
      };
    },
  };
}

/** The offline baseline: local and deterministic; documents are analysed once per run. */
export function baselineBackend(config: BaselineConfig): JudgeBackend {
  const analyses = new Map<string, DocumentAnalysis>();
  return {
    remote: false,
    async call(document, sentence) {
      let analysis = analyses.get(document);
      if (!analysis) {
        if (analyses.size >= 32) analyses.delete(analyses.keys().next().value!);
        analyses.set(document, (analysis = analyseDocument(document, config.passageSentences)));
      }
      const v = baselineVerdict(analysis, sentence, config);
      return { type: 'verdict', hard: v.hard, soft: v.soft, raw: v.rationale };
    },
  };
}
