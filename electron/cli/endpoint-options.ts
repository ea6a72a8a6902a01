/**
 * The command-line options an OpenAI-compatible endpoint takes, the same for `judges add` and
 * `systems add`: a text file read for the prompt or template, and the tuning options with --extra
 * as JSON. The contract alone judges the values.
 */
import { readFileSync } from 'node:fs';
import { UsageError } from './client';

export interface EndpointTuningOptions {
  concurrency?: number;
  timeout?: number;
  retries?: number;
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  extra?: string;
}

/** A prompt or template file's text, without a byte-order mark (`what`: "prompt", "template"). */
export function readTextOption(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
  } catch {
    throw new UsageError(`Cannot read the ${what} file ${path}`);
  }
}

export function endpointTuning(opts: EndpointTuningOptions) {
  let extra: unknown;
  if (opts.extra !== undefined) {
    try {
      extra = JSON.parse(opts.extra);
    } catch {
      throw new UsageError(
        `--extra must be a JSON object, e.g. '{"chat_template_kwargs": {"enable_thinking": false}}'`,
      );
    }
  }
  return {
    ...(opts.concurrency !== undefined ? { concurrency: opts.concurrency } : {}),
    ...(opts.timeout !== undefined ? { timeoutS: opts.timeout } : {}),
    ...(opts.retries !== undefined ? { retries: opts.retries } : {}),
    ...(opts.temperature !== undefined ? { temperature: opts.temperature } : {}),
    ...(opts.topP !== undefined ? { topP: opts.topP } : {}),
    ...(opts.maxTokens !== undefined ? { maxTokens: opts.maxTokens } : {}),
    // The contract refuses JSON that is not an object of request fields.
    ...(extra !== undefined ? { extra: extra as Record<string, never> } : {}),
  };
}
