/**
 * Reading a JSON answer against a kind's zod schema. Tolerated around the JSON: `<think>…</think>`
 * blocks, Markdown code fences and prose before or after. The first JSON object or list that
 * matches the schema is the answer; when none does, the error says why (the schema's own
 * messages), and the caller stores the raw text with it.
 */
import { z } from 'zod';

export type JsonAnswer<O> = { ok: true; value: O } | { ok: false; error: string };

const THINK_OPEN = '<think>';
const THINK_CLOSE = '</think>';
const MAX_CANDIDATES = 200;

/** End (exclusive) of the JSON object or list opening at `start`, honouring strings; -1 if unclosed. */
function valueEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i += 1) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth += 1;
    else if (c === '}' || c === ']') {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

function nextOpening(text: string, from: number): number {
  for (let i = from; i < text.length; i += 1) if (text[i] === '{' || text[i] === '[') return i;
  return -1;
}

export function parseJsonAnswer<O>(raw: string | null | undefined, schema: z.ZodType<O>): JsonAnswer<O> {
  if (raw === null || raw === undefined || raw.trim() === '') return { ok: false, error: 'empty answer' };
  const close = raw.lastIndexOf(THINK_CLOSE);
  if (raw.lastIndexOf(THINK_OPEN) > close) return { ok: false, error: 'unfinished <think> block (no answer after it)' };
  const text = close === -1 ? raw : raw.slice(close + THINK_CLOSE.length);
  let firstMismatch: string | null = null;
  let candidates = 0;
  for (let i = nextOpening(text, 0); i !== -1 && candidates < MAX_CANDIDATES; candidates += 1) {
    const end = valueEnd(text, i);
    if (end === -1) {
      i = nextOpening(text, i + 1);
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(text.slice(i, end));
    } catch {
      i = nextOpening(text, i + 1); // prose braces: the answer may follow
      continue;
    }
    const checked = schema.safeParse(value);
    if (checked.success) return { ok: true, value: checked.data };
    firstMismatch ??= z.prettifyError(checked.error).replace(/\s*\n\s*/g, '; ');
    i = nextOpening(text, end); // never inside a JSON value that parsed
  }
  return firstMismatch === null
    ? { ok: false, error: 'no JSON object or list in the answer' }
    : { ok: false, error: `the JSON does not match the expected shape: ${firstMismatch}` };
}
