/**
 * What the Judges view's tests add to a renderer core (renderer-core.ts): judges added through
 * judges.add, and batch answer files written for the request file the real core exported, so an
 * import stores (or refuses) what a batch engine would have answered.
 */
import { EndpointConfigSchema, type JudgeConfig } from '../../shared/judges/config';

/** An endpoint judge's configuration as the contract completes it (defaults for what is not given). */
export function endpointConfig(partial: Record<string, unknown> = {}): JudgeConfig {
  return EndpointConfigSchema.parse({
    kind: 'endpoint',
    baseUrl: 'http://127.0.0.1:8000/v1',
    model: 'Qwen/Qwen3-8B',
    ...partial,
  });
}

/** The custom ids of a batch request file, in its order. */
export function requestIds(content: string): string[] {
  return content
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { custom_id: string }).custom_id);
}

/** A batch output line answering `customId` with `content` (HTTP 200, one choice). */
export function answerLine(customId: string, content: string): string {
  return JSON.stringify({
    id: `batch-${customId}`,
    custom_id: customId,
    response: {
      status_code: 200,
      body: {
        id: 'c',
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      },
    },
    error: null,
  });
}

/** A batch output line whose request failed with an HTTP status and the server's error message. */
export function failureLine(customId: string, status: number, message: string): string {
  return JSON.stringify({
    id: `batch-${customId}`,
    custom_id: customId,
    response: { status_code: status, body: { error: { message } } },
    error: null,
  });
}
