/**
 * Finding JSON objects and lists inside an LLM's answer text: after the last `<think>…</think>`
 * block, between Markdown fences and prose. One scanner for every reader of such answers (the
 * judge verdict and the task engine's JSON kinds), so they agree on what counts as an answer.
 */

const THINK_OPEN = '<think>';
const THINK_CLOSE = '</think>';

/** The first offset after the last think block; -1 when a think block is left open (cut off at max tokens?). */
export function answerStart(text: string): number {
  const close = text.lastIndexOf(THINK_CLOSE);
  const open = text.lastIndexOf(THINK_OPEN);
  if (open > close) return -1;
  return close === -1 ? 0 : close + THINK_CLOSE.length;
}

/** End (exclusive) of the JSON object or list opening at `start`, honouring strings; -1 if unclosed. */
export function jsonValueEnd(text: string, start: number): number {
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

/** The next "{" or "[" at or after `from`; -1 when there is none. */
export function nextJsonOpening(text: string, from: number): number {
  for (let i = from; i < text.length; i += 1) if (text[i] === '{' || text[i] === '[') return i;
  return -1;
}

/** A JSON object or list found in the text: its span [start, end) and its parsed value. */
export interface JsonSpan {
  start: number;
  end: number;
  /** Always an object or an array: the span opens with "{" or "[". */
  value: unknown;
}

/**
 * Every JSON object or list in `text` from `from` on, in order, at most `maxAttempts` openings
 * tried (a bound on adversarial answers full of braces). An unclosed or unparsable opening (prose
 * braces such as "{document}") is skipped by one character, since the answer may follow or sit
 * inside it; after a value that parsed, the scan continues past its end, never inside it.
 */
export function* jsonSpans(text: string, from: number, maxAttempts: number): Generator<JsonSpan> {
  let attempts = 0;
  for (let i = nextJsonOpening(text, from); i !== -1 && attempts < maxAttempts; attempts += 1) {
    const end = jsonValueEnd(text, i);
    if (end === -1) {
      i = nextJsonOpening(text, i + 1);
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(text.slice(i, end));
    } catch {
      i = nextJsonOpening(text, i + 1);
      continue;
    }
    yield { start: i, end, value };
    i = nextJsonOpening(text, end);
  }
}
