/**
 * A reader for the Python literals FineSurE wrote into its JSON (`str(list)` / `str(dict)`):
 * strings in ' or " with backslash escapes, integers and floats, lists, tuples, dicts,
 * True/False/None. Nothing is evaluated; anything else is an error with its offset.
 */
export type PyValue = string | number | boolean | null | PyValue[] | { [key: string]: PyValue };

export class PyLiteralError extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(`${message} at character ${offset + 1}`);
  }
}

const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '0': '\0',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
};

export function parsePyLiteral(text: string): PyValue {
  let i = 0;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i]!)) i += 1;
  };
  const value = (): PyValue => {
    ws();
    const c = text[i];
    if (c === undefined) throw new PyLiteralError(i, 'a value');
    if (c === "'" || c === '"') return str();
    if (c === '[' || c === '(') return list(c === '[' ? ']' : ')');
    if (c === '{') return dict();
    const word = /^(True|False|None)\b/.exec(text.slice(i, i + 5));
    if (word) {
      i += word[1]!.length;
      return word[1] === 'True' ? true : word[1] === 'False' ? false : null;
    }
    const num = /^-?\d+(\.\d+)?([eE][-+]?\d+)?/.exec(text.slice(i, i + 40));
    if (num) {
      i += num[0].length;
      return Number(num[0]);
    }
    throw new PyLiteralError(i, `a Python literal, found ${JSON.stringify(c)}`);
  };
  const str = (): string => {
    const quote = text[i]!;
    i += 1;
    let out = '';
    while (i < text.length) {
      const c = text[i]!;
      if (c === quote) {
        i += 1;
        return out;
      }
      if (c === '\\') {
        const next = text[i + 1];
        if (next === undefined) break;
        if (next === 'x' || next === 'u') {
          const width = next === 'x' ? 2 : 4;
          const hex = text.slice(i + 2, i + 2 + width);
          if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== width) throw new PyLiteralError(i, 'a \\x or \\u escape');
          out += String.fromCharCode(parseInt(hex, 16));
          i += 2 + width;
          continue;
        }
        out += ESCAPES[next] ?? `\\${next}`;
        i += 2;
        continue;
      }
      out += c;
      i += 1;
    }
    throw new PyLiteralError(i, 'the end of a string');
  };
  const list = (close: string): PyValue[] => {
    i += 1;
    const out: PyValue[] = [];
    ws();
    if (text[i] === close) {
      i += 1;
      return out;
    }
    for (;;) {
      out.push(value());
      ws();
      if (text[i] === ',') {
        i += 1;
        ws();
        if (text[i] === close) {
          i += 1;
          return out;
        }
        continue;
      }
      if (text[i] === close) {
        i += 1;
        return out;
      }
      throw new PyLiteralError(i, `"," or "${close}"`);
    }
  };
  const dict = (): { [key: string]: PyValue } => {
    i += 1;
    const out: { [key: string]: PyValue } = {};
    ws();
    if (text[i] === '}') {
      i += 1;
      return out;
    }
    for (;;) {
      const key = value();
      if (typeof key !== 'string' && typeof key !== 'number') throw new PyLiteralError(i, 'a string or number key');
      ws();
      if (text[i] !== ':') throw new PyLiteralError(i, '":"');
      i += 1;
      out[String(key)] = value();
      ws();
      if (text[i] === ',') {
        i += 1;
        ws();
        if (text[i] === '}') {
          i += 1;
          return out;
        }
        continue;
      }
      if (text[i] === '}') {
        i += 1;
        return out;
      }
      throw new PyLiteralError(i, '"," or "}"');
    }
  };
  const result = value();
  ws();
  if (i !== text.length) throw new PyLiteralError(i, 'the end of the literal');
  return result;
}

/** A JSON value, or a string holding a Python literal (FineSurE writes both): the value either way. */
export function jsonOrPyLiteral(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const t = value.trim();
  if (!/^[[({]/.test(t)) return value;
  return parsePyLiteral(t);
}
