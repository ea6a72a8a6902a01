/**
 * One request per sentence: the document and the sentence in the template, as a single user
 * message, with the configured decoding. The same function builds the preview and the real call,
 * so the preview is the exact body that is sent.
 */
import { z } from 'zod';
import { TOP_LOGPROBS, renderTemplate, type EndpointConfig, type JsonValue } from './config';
import { LogprobTokenSchema } from './soft';

export function buildRequestBody(
  config: EndpointConfig,
  document: string,
  sentence: string,
): { [key: string]: JsonValue } {
  return {
    model: config.model,
    messages: [{ role: 'user', content: renderTemplate(config.template, document, sentence) }],
    temperature: config.temperature,
    top_p: config.topP,
    max_tokens: config.maxTokens,
    ...(config.soft ? { logprobs: true, top_logprobs: TOP_LOGPROBS } : {}),
    ...config.extra,
  };
}

/** How the prompt-token figure of a plan is estimated, without a tokenizer (said wherever it is shown). */
export const PROMPT_TOKEN_ESTIMATE = 'estimated as characters / 4, no tokenizer';

/** Characters of a request body's messages (text content and text parts): what the prompt is made of. */
export function promptChars(body: Record<string, unknown>): number {
  const messages = Array.isArray(body.messages) ? (body.messages as unknown[]) : [];
  let chars = 0;
  for (const message of messages) {
    const content = (message as { content?: unknown } | null)?.content;
    if (typeof content === 'string') chars += content.length;
    else if (Array.isArray(content))
      for (const part of content)
        if (typeof (part as { text?: unknown } | null)?.text === 'string')
          chars += (part as { text: string }).text.length;
  }
  return chars;
}

/** The tokenizer-free estimate of `chars` characters of prompt: about four characters a token. */
export function estimatedTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

/** The chat-completions URL the openai client posts to for a base URL. */
export function completionsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
}

/** What Loupe reads from a chat completion (everything else is ignored). Validated, never trusted. */
export const ChatCompletionSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({ content: z.string().nullish(), reasoning_content: z.string().nullish() }).passthrough(),
        finish_reason: z.string().nullish(),
        logprobs: z
          .object({ content: z.array(LogprobTokenSchema).nullish() })
          .passthrough()
          .nullish(),
      }),
    )
    .min(1),
  usage: z
    .object({
      prompt_tokens: z.number().int().nonnegative().nullish(),
      completion_tokens: z.number().int().nonnegative().nullish(),
    })
    .passthrough()
    .nullish(),
});
