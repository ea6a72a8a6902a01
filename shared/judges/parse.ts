/**
 * Reading a judge's answer: `{"faithful": 0}` or `{"faithful": 1}`, strictly. Tolerated around
 * it: Markdown code fences, prose before or after, and `<think>…</think>` blocks. Anything else
 * (no such object, other keys, other values, two answers that disagree, an unfinished think
 * block) is a parse error: the raw text is kept and no label is guessed.
 */

export type Verdict =
  | {
      ok: true;
      hard: 0 | 1;
      /** Offset (UTF-16 code units) of the value digit in the raw text: where the soft label is read. */
      valueOffset: number;
    }
  | { ok: false; error: string };

const THINK_OPEN = '<think>';
const THINK_CLOSE = '</think>';

/** The first offset after the last think block; -1 when a think block is left open. */
function answerStart(text: string): number {
  const close = text.lastIndexOf(THINK_CLOSE);
  const open = text.lastIndexOf(THINK_OPEN);
  if (open > close) return -1; // <think> without its end: the answer was cut off (max tokens?)
  return close === -1 ? 0 : close + THINK_CLOSE.length;
}

/** End (exclusive) of the JSON object or list opening at `start`, honouring strings; -1 if unclosed. */
function objectEnd(text: string, start: number): number {
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

/** The next "{" or "[" at or after `from`. */
function nextOpening(text: string, from: number): number {
  for (let i = from; i < text.length; i += 1) if (text[i] === '{' || text[i] === '[') return i;
  return -1;
}

interface Candidate {
  hard: 0 | 1;
  valueOffset: number;
}

/**
 * What the object or list at [start, end) is: the answer (exactly one key, "faithful", with the
 * number 0 or 1), 'other' (valid JSON mentioning "faithful" in any other shape, e.g. extra keys, a
 * wrapper object or a list), 'json' (valid JSON without it) or null (not JSON: look inside).
 */
function readCandidate(text: string, start: number, end: number): Candidate | 'other' | 'json' | null {
  const slice = text.slice(start, end);
  let value: unknown;
  try {
    value = JSON.parse(slice);
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) return slice.includes('faithful') ? 'other' : 'json';
  const keys = Object.keys(value);
  if (!keys.includes('faithful')) return slice.includes('faithful') ? 'other' : 'json';
  const v = (value as Record<string, unknown>).faithful;
  if (keys.length !== 1 || (v !== 0 && v !== 1)) return 'other';
  // The value's position: after `"faithful"`, the colon and white space.
  const m = /"faithful"\s*:\s*/.exec(slice);
  if (!m) return 'other'; // an escaped key spelling; valid JSON, but not the strict form
  return { hard: v, valueOffset: start + m.index + m[0].length };
}

export function parseVerdict(raw: string | null | undefined): Verdict {
  if (raw === null || raw === undefined || raw.trim() === '') return { ok: false, error: 'empty answer' };
  const from = answerStart(raw);
  if (from === -1) return { ok: false, error: 'unfinished <think> block (no answer after it)' };
  const found: Candidate[] = [];
  let other = 0;
  let attempts = 0;
  for (let i = nextOpening(raw, from); i !== -1 && attempts < 2000; attempts += 1) {
    const end = objectEnd(raw, i);
    if (end === -1) {
      i = nextOpening(raw, i + 1); // a stray "{" in prose: the answer may still follow
      continue;
    }
    const candidate = readCandidate(raw, i, end);
    if (candidate === 'other') other += 1;
    else if (candidate !== null && candidate !== 'json') found.push(candidate);
    // Continue after a JSON object (never inside it), else at the next brace: prose braces such
    // as "{document}" are not JSON and the answer may follow them.
    i = nextOpening(raw, candidate !== null ? end : i + 1);
  }
  if (found.length === 0) {
    return { ok: false, error: other > 0 ? 'a "faithful" object, but not exactly {"faithful": 0|1}' : 'no {"faithful": 0|1} object in the answer' };
  }
  const values = new Set(found.map((c) => c.hard));
  if (values.size > 1) return { ok: false, error: 'answers that disagree ({"faithful": 0} and {"faithful": 1})' };
  if (other > 0) return { ok: false, error: 'a {"faithful": 0|1} answer next to another "faithful" object' };
  const last = found[found.length - 1]!;
  return { ok: true, hard: last.hard, valueOffset: last.valueOffset };
}
