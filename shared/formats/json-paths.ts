/**
 * One pass over a JSON text that knows where it is: the keys and list indexes from the top to the
 * current container, and the 1-based line. Iterative (no recursion, no parse) and linear, so it
 * works on text nested 100,000 levels deep or text JSON.parse would reject. The checks that need
 * a place to report (nesting depth, lone surrogates) plug into it instead of each keeping a copy.
 */

export interface JsonPathFrame {
  kind: 'object' | 'array';
  /** Object: the current key (null before the first one is read); array: the current index. */
  segment: string | number | null;
}

/** What a visitor's string reader says: where the string ends, or that the walk is over. */
export type JsonStringRead<R> =
  | {
      /** Index of the closing quote (text.length when the string is unclosed). */
      end: number;
      /** For a key: the segment it names in paths. */
      key?: string;
    }
  | { found: R };

export interface JsonPathVisitor<R> {
  /** At a "{" or "[", before it is entered (`stack`: the containers around it). A result stops the walk. */
  beforeOpen?(stack: readonly JsonPathFrame[], line: number): R | null;
  /**
   * At a string's opening quote `start`; `isKey`: it names a key of the object on top of `stack`.
   * `line` is the line the string starts on.
   */
  readString(start: number, isKey: boolean, stack: readonly JsonPathFrame[], line: number): JsonStringRead<R>;
}

/** Keys and indexes of `frames`, an unread key as '?'. */
export function pathOf(frames: readonly JsonPathFrame[]): Array<string | number> {
  return frames.map((f) => f.segment ?? '?');
}

/** Index of the quote closing the string that opens at `start` (text.length when unclosed). */
export function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i += 1;
    else if (c === 0x22) return i;
  }
  return text.length;
}

/**
 * Walks `text` until a visitor returns a result (returned) or the text ends (null). Brackets
 * inside strings do not count; lines inside strings do.
 */
export function walkJsonPaths<R>(text: string, visitor: JsonPathVisitor<R>): R | null {
  const stack: JsonPathFrame[] = [];
  let line = 1;
  let expectKey = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    switch (c) {
      case 0x0a: // \n
        line += 1;
        break;
      case 0x22: {
        // "
        const top = stack[stack.length - 1];
        const isKey = expectKey && top?.kind === 'object';
        const read = visitor.readString(i, isKey, stack, line);
        if ('found' in read) return read.found;
        for (let j = i + 1; j < read.end; j += 1) if (text.charCodeAt(j) === 0x0a) line += 1;
        if (isKey && read.key !== undefined) {
          top!.segment = read.key;
          expectKey = false;
        }
        i = read.end;
        break;
      }
      case 0x7b: // {
      case 0x5b: {
        // [
        const found = visitor.beforeOpen?.(stack, line) ?? null;
        if (found !== null) return found;
        stack.push({ kind: c === 0x7b ? 'object' : 'array', segment: c === 0x7b ? null : 0 });
        expectKey = c === 0x7b;
        break;
      }
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
