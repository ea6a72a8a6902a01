/**
 * A chat-completion response body read into what Loupe uses (content, finish reason,
 * log-probabilities, token counts), validated, never trusted. The live transport and the batch
 * reader share it, so an answer from a batch file is read exactly as a live one.
 */
import { ChatCompletionSchema } from '../../../shared/judges/request';
import type { Completion } from './kind';

/** null: the body is not a chat completion (no choices[0].message). */
export function completionFromBody(body: unknown): Completion | null {
  const parsed = ChatCompletionSchema.safeParse(body);
  if (!parsed.success) return null;
  const choice = parsed.data.choices[0]!;
  return {
    content: choice.message.content ?? null,
    finishReason: choice.finish_reason ?? null,
    logprobs: choice.logprobs?.content ?? null,
    tokensIn: parsed.data.usage?.prompt_tokens ?? null,
    tokensOut: parsed.data.usage?.completion_tokens ?? null,
  };
}

export const NOT_A_COMPLETION = 'the response is not a chat completion (no choices[0].message)';
