/**
 * How deep a JSON text nests, found by scanning brackets outside strings (no recursion, no
 * parse), so that a record nested 100,000 levels deep is refused with its place instead of
 * overflowing the stack later (JSON.parse copes; JSON.stringify, when the meta is stored, does not).
 */
import { pathOf, stringEnd, walkJsonPaths } from './json-paths';

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

/**
 * The first place where `text` nests deeper than `limit`, or null. Brackets inside strings do not
 * count; malformed JSON is left to JSON.parse to report. Only the first `limit` levels are kept.
 */
export function findExcessNesting(text: string, limit = MAX_JSON_DEPTH): ExcessNesting | null {
  // Fast path: too few brackets to ever cross the limit (indexOf scans natively, far faster than a loop).
  if (openingBrackets(text, '{', limit) + openingBrackets(text, '[', limit) <= limit) return null;

  return walkJsonPaths<ExcessNesting>(text, {
    beforeOpen: (stack, line) => (stack.length >= limit ? { path: pathOf(stack), line } : null),
    readString: (start, isKey) => {
      const end = stringEnd(text, start);
      return isKey ? { end, key: decodeKey(text.slice(start, Math.min(end + 1, start + KEY_SHOWN * 6))) } : { end };
    },
  });
}

/** How often `bracket` occurs in `text`, counting no further than limit + 1. */
function openingBrackets(text: string, bracket: string, limit: number): number {
  let count = 0;
  for (let at = text.indexOf(bracket); at !== -1 && count <= limit; at = text.indexOf(bracket, at + 1)) count += 1;
  return count;
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
