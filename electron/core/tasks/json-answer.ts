/**
 * Reading a JSON answer against a kind's zod schema. Tolerated around the JSON: `<think>…</think>`
 * blocks, Markdown code fences and prose before or after. The first JSON object or list that
 * matches the schema is the answer; when none does, the error says why (the schema's own
 * messages), and the caller stores the raw text with it.
 */
import { z } from 'zod';
import { answerStart, jsonSpans } from '../../../shared/judges/json-scan';

export type JsonAnswer<O> = { ok: true; value: O } | { ok: false; error: string };

const MAX_CANDIDATES = 200;

export function parseJsonAnswer<O>(raw: string | null | undefined, schema: z.ZodType<O>): JsonAnswer<O> {
  if (raw === null || raw === undefined || raw.trim() === '') return { ok: false, error: 'empty answer' };
  const from = answerStart(raw);
  if (from === -1) return { ok: false, error: 'unfinished <think> block (no answer after it)' };
  let firstMismatch: string | null = null;
  for (const span of jsonSpans(raw, from, MAX_CANDIDATES)) {
    const checked = schema.safeParse(span.value);
    if (checked.success) return { ok: true, value: checked.data };
    firstMismatch ??= z.prettifyError(checked.error).replace(/\s*\n\s*/g, '; ');
  }
  return firstMismatch === null
    ? { ok: false, error: 'no JSON object or list in the answer' }
    : { ok: false, error: `the JSON does not match the expected shape: ${firstMismatch}` };
}
