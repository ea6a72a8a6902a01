/**
 * Lone UTF-16 surrogates. Strict UTF-8 decoding never yields one, but a JSON string can spell one
 * as an escape ("\uD800" with no low half after it, or a low half alone). JSON.parse accepts it;
 * SQLite stores text as UTF-8 and turns it into U+FFFD, so the text read back differs from the
 * file and a re-import of the same file fails as "different text". Such strings are refused with
 * their place. One scanner for every JSON reader (JSON Lines, JSON documents, JSON in CSV cells).
 */
import { pathOf, walkJsonPaths } from './json-paths';
import type { ImportProblem } from './types';

export interface LoneSurrogate {
  /** Keys and list indexes (0-based) from the top to the string that holds it. */
  path: Array<string | number>;
  /** 1-based line of the text where it is. */
  line: number;
  /** The surrogate, as the escape a user can search for: "\uD800". */
  unit: string;
  /** It is in an object key (the path ends at that object), not in a value. */
  inKey: boolean;
}

const isHigh = (u: number) => u >= 0xd800 && u <= 0xdbff;
const isLow = (u: number) => u >= 0xdc00 && u <= 0xdfff;
const escapeOf = (u: number) => `\\u${u.toString(16).toUpperCase().padStart(4, '0')}`;

/** Cheap test first: no surrogate escape and no raw surrogate means nothing to scan. */
const MAYBE_SURROGATE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}|[\uD800-\uDFFF]/;

/** Code units of a JSON string's content (escapes resolved), for key names in paths. */
function keyText(units: number[]): string {
  return units.map((u) => (isHigh(u) || isLow(u) ? escapeOf(u) : String.fromCharCode(u))).join('');
}

/**
 * The first lone surrogate inside a string of the JSON text, or null. Works on text JSON.parse
 * may still reject (it is only a scan of strings); brackets inside strings do not count.
 */
export function findLoneSurrogate(text: string): LoneSurrogate | null {
  if (!MAYBE_SURROGATE.test(text)) return null;
  return walkJsonPaths<LoneSurrogate>(text, {
    readString: (start, isKey, stack, line) => {
      // Read the string's code units, escapes resolved, and check that surrogates come in pairs.
      const units: number[] = [];
      let pendingHigh: number | null = null;
      let found: number | null = null;
      let j = start + 1;
      for (; j < text.length; j += 1) {
        let u = text.charCodeAt(j);
        if (u === 0x22) break;
        if (u === 0x5c) {
          const next = text.charCodeAt(j + 1);
          if (next === 0x75 && /^[0-9a-fA-F]{4}$/.test(text.slice(j + 2, j + 6))) {
            u = Number.parseInt(text.slice(j + 2, j + 6), 16);
            j += 5;
          } else {
            u = next;
            j += 1;
          }
        }
        if (pendingHigh !== null) {
          if (isLow(u)) {
            pendingHigh = null;
            units.push(u);
            continue;
          }
          found = pendingHigh;
          break;
        }
        if (isHigh(u)) pendingHigh = u;
        else if (isLow(u)) {
          found = u;
          break;
        }
        units.push(u);
      }
      if (found === null && pendingHigh !== null) found = pendingHigh;
      if (found !== null) {
        // A key: the path ends at the object that holds it.
        const frames = isKey ? stack.slice(0, -1) : stack;
        return { found: { path: pathOf(frames), line, unit: escapeOf(found), inKey: isKey } };
      }
      return isKey ? { end: j, key: keyText(units) } : { end: j };
    },
  });
}

/** The first lone surrogate in plain text (not JSON), with its 1-based line, or null: for text handed in as a string. */
export function findRawLoneSurrogate(text: string): { line: number; unit: string } | null {
  if (!/[\uD800-\uDFFF]/.test(text)) return null;
  let line = 1;
  for (let i = 0; i < text.length; i += 1) {
    const u = text.charCodeAt(i);
    if (u === 0x0a) line += 1;
    else if (isHigh(u) && isLow(text.charCodeAt(i + 1))) i += 1;
    else if (isHigh(u) || isLow(u)) return { line, unit: escapeOf(u) };
  }
  return null;
}

/** What a lone surrogate problem says, shared by every reader. */
export function loneSurrogateWords(unit: string, inKey = false): { expected: string; found: string } {
  return {
    expected:
      'text without lone UTF-16 surrogates (a \\uD800–\\uDBFF escape must be followed by a \\uDC00–\\uDFFF one)',
    found: `${inKey ? 'a key with ' : ''}"${unit}" on its own, which cannot be stored as UTF-8`,
  };
}

/**
 * The problem for a lone surrogate found by findLoneSurrogate in `file`. `lineOffset`: the text
 * starts at that line of the file (one JSON Lines line); `prefix`: path segments above the text
 * (a CSV cell's column). In a top-level list the record (1-based) is named, as for nesting.
 */
export function loneSurrogateProblem(
  file: string,
  found: LoneSurrogate,
  options: { lineOffset?: number; prefix?: Array<string | number>; listIsRecords?: boolean } = {},
): ImportProblem {
  const path = [...(options.prefix ?? []), ...found.path];
  const [first, ...rest] = path;
  const inList = options.listIsRecords === true && typeof first === 'number';
  const fieldPath = inList ? rest : path;
  return {
    file,
    line: (options.lineOffset ?? 1) - 1 + found.line,
    ...(inList ? { record: first + 1 } : {}),
    ...(fieldPath.length > 0 ? { field: fullPath(fieldPath) } : {}),
    ...loneSurrogateWords(found.unit, found.inKey),
  };
}

/** The whole path (the user must find that one string), indexes as [n]: "annotations[2].note". */
export function fullPath(path: ReadonlyArray<string | number>): string {
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

/** Where a lone surrogate sits in a parsed value: the keys and indexes down to its string, and its line there. */
export interface LoneSurrogateInValue {
  path: Array<string | number>;
  line: number;
  unit: string;
  inKey: boolean;
}

/**
 * The first lone surrogate in any string or object key of a parsed value (an API call's input),
 * or null. Iterative, so a deeply nested value cannot overflow the stack.
 */
export function findLoneSurrogateInValue(value: unknown): LoneSurrogateInValue | null {
  const pending: Array<{ value: unknown; path: Array<string | number> }> = [{ value, path: [] }];
  while (pending.length > 0) {
    const { value: current, path } = pending.pop()!;
    if (typeof current === 'string') {
      const lone = findRawLoneSurrogate(current);
      if (lone) return { path, line: lone.line, unit: lone.unit, inKey: false };
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i -= 1) pending.push({ value: current[i], path: [...path, i] });
    } else if (current !== null && typeof current === 'object') {
      const keys = Object.keys(current);
      for (const key of keys) {
        const lone = findRawLoneSurrogate(key);
        if (lone) return { path, line: lone.line, unit: lone.unit, inKey: true };
      }
      for (let i = keys.length - 1; i >= 0; i -= 1)
        pending.push({ value: (current as Record<string, unknown>)[keys[i]!], path: [...path, keys[i]!] });
    }
  }
  return null;
}
