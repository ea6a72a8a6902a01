/**
 * Reading a judge's answer: `{"faithful": 0}` or `{"faithful": 1}`, strictly. Tolerated around
 * it: Markdown code fences, prose before or after, and `<think>…</think>` blocks. Anything else
 * (no such object, other keys, other values, two answers that disagree, an unfinished think
 * block) is a parse error: the raw text is kept and no label is guessed.
 */
import { answerStart, jsonSpans, type JsonSpan } from './json-scan';

export type Verdict =
  | {
      ok: true;
      hard: 0 | 1;
      /** Offset (UTF-16 code units) of the value digit in the raw text: where the soft label is read. */
      valueOffset: number;
    }
  | { ok: false; error: string };

interface Candidate {
  hard: 0 | 1;
  valueOffset: number;
}

/**
 * What the parsed object or list at [start, end) is: the answer (exactly one key, "faithful", with
 * the number 0 or 1), 'other' (valid JSON mentioning "faithful" in any other shape, e.g. extra
 * keys, a wrapper object or a list) or 'json' (valid JSON without it).
 */
function readCandidate(text: string, { start, end, value }: JsonSpan): Candidate | 'other' | 'json' {
  const slice = text.slice(start, end);
  if (value === null || typeof value !== 'object') return 'json'; // never: a span opens with "{" or "["
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
  for (const span of jsonSpans(raw, from, 2000)) {
    const candidate = readCandidate(raw, span);
    if (candidate === 'other') other += 1;
    else if (candidate !== 'json') found.push(candidate);
  }
  if (found.length === 0) {
    return {
      ok: false,
      error:
        other > 0
          ? 'a "faithful" object, but not exactly {"faithful": 0|1}'
          : 'no {"faithful": 0|1} object in the answer',
    };
  }
  const values = new Set(found.map((c) => c.hard));
  if (values.size > 1) return { ok: false, error: 'answers that disagree ({"faithful": 0} and {"faithful": 1})' };
  if (other > 0) return { ok: false, error: 'a {"faithful": 0|1} answer next to another "faithful" object' };
  const last = found[found.length - 1]!;
  return { ok: true, hard: last.hard, valueOffset: last.valueOffset };
}
