/**
 * How deep a JSON text nests, found by scanning brackets outside strings (no recursion, no
 * parse), so that a record nested 100,000 levels deep is refused with its place instead of
 * overflowing the stack later (JSON.parse copes; JSON.stringify, when the meta is stored, does not).
 */

/** Objects and lists inside one another, counting the record itself: {"meta": {…}} is 2. */
export const MAX_JSON_DEPTH = 64;

/** Path segments shown in a message; deeper ones are summarised. */
const PATH_SHOWN = 3;
const KEY_SHOWN = 40;

export interface ExcessNesting {
  /** Keys and list indexes (0-based) from the top to the container that crossed the limit. */
  path: Array<string | number>;
  /** 1-based line of the text where the limit was crossed. */
  line: number;
}

interface Frame {
  kind: 'object' | 'array';
  /** Object: the current key; array: the current index. */
  segment: string | number | null;
}

/**
 * The first place where `text` nests deeper than `limit`, or null. Brackets inside strings do not
 * count; malformed JSON is left to JSON.parse to report. Only the first `limit` levels are kept.
 */
export function findExcessNesting(text: string, limit = MAX_JSON_DEPTH): ExcessNesting | null {
  // Fast path: too few brackets to ever cross the limit.
  let brackets = 0;
  for (let i = 0; i < text.length && brackets <= limit; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) brackets += 1;
  }
  if (brackets <= limit) return null;

  const stack: Frame[] = [];
  let line = 1;
  let inString = false;
  let escaped = false;
  let stringStart = 0;
  let expectKey = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) line += 1;
    if (inString) {
      if (escaped) escaped = false;
      else if (c === 0x5c) escaped = true;
      else if (c === 0x22) {
        inString = false;
        const top = stack[stack.length - 1];
        if (expectKey && top?.kind === 'object') {
          top.segment = decodeKey(text.slice(stringStart, Math.min(i + 1, stringStart + KEY_SHOWN * 6)));
          expectKey = false;
        }
      }
      continue;
    }
    switch (c) {
      case 0x22: // "
        inString = true;
        stringStart = i;
        break;
      case 0x7b: // {
      case 0x5b: // [
        if (stack.length >= limit) return { path: stack.map((f) => f.segment ?? '?'), line };
        stack.push({ kind: c === 0x7b ? 'object' : 'array', segment: c === 0x7b ? null : 0 });
        expectKey = c === 0x7b;
        break;
      case 0x7d: // }
      case 0x5d: // ]
        stack.pop();
        expectKey = false;
        break;
      case 0x2c: {
        // ,
        const top = stack[stack.length - 1];
        if (top?.kind === 'array') top.segment = (top.segment as number) + 1;
        expectKey = top?.kind === 'object';
        break;
      }
      default:
        break;
    }
  }
  return null;
}

/** A key as text ("meta"), from its quoted JSON form, shortened for messages. */
function decodeKey(quoted: string): string {
  let key: string;
  try {
    key = JSON.parse(quoted.endsWith('"') ? quoted : `${quoted}"`) as string;
  } catch {
    key = quoted.slice(1, -1);
  }
  return key.length > KEY_SHOWN ? `${key.slice(0, KEY_SHOWN - 1)}…` : key;
}

/** "meta.a.a…" — the first few segments of a path, indexes as [n]. */
export function describeNestingPath(path: ReadonlyArray<string | number>): string {
  const shown = path.slice(0, PATH_SHOWN).map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`));
  return `${shown.join('')}${path.length > PATH_SHOWN ? '…' : ''}`;
}

/** The ImportProblem wording for it, shared by JSON Lines, JSON documents and JSON in CSV cells. */
export function nestingWords(limit = MAX_JSON_DEPTH): { expected: string; found: string } {
  return {
    expected: `JSON nested at most ${limit} levels deep`,
    found: `more than ${limit} levels of nested objects or lists (refused before reading it)`,
  };
}
