/**
 * Reading JSON and JSON Lines with positions, and collecting problems in the ImportProblem shape.
 * Every format parser uses these so that a bad file is reported the same way everywhere:
 * file, 1-based physical line (JSONL) or record (JSON arrays), field, what was expected.
 */
import type { z } from 'zod';
import { describeNestingPath, findExcessNesting, MAX_JSON_DEPTH, nestingWords } from './nesting';
import { LineSplitter, MAX_LINE_CHARS, type LineSink } from './lines';
import { findLoneSurrogate, loneSurrogateProblem } from './surrogates';
import { ImportValidationError, type ImportProblem, type SourceFile } from './types';

export { MAX_JSON_DEPTH };

/** Enough to fix a file in one go without flooding the user (or the IPC payload). */
export const PROBLEM_CAP = 200;

/** Where a problem is: a file plus a line or a record number. */
export type ProblemPlace = Pick<ImportProblem, 'file' | 'line' | 'record'>;

export class ProblemCollector {
  readonly problems: ImportProblem[] = [];
  /** Problems found after the cap was reached: counted, not kept. */
  overflow = 0;

  add(problem: ImportProblem): void {
    if (this.problems.length < PROBLEM_CAP) this.problems.push(problem);
    else this.overflow += 1;
  }

  /** Parsers stop scanning once this is true; the first PROBLEM_CAP problems are enough. */
  get full(): boolean {
    return this.problems.length >= PROBLEM_CAP;
  }

  get count(): number {
    return this.problems.length;
  }

  throwIfAny(): void {
    if (this.problems.length === 0) return;
    // Reading and validating are separate passes; list problems in file order as a user reads them.
    const fileOrder = new Map<string, number>();
    for (const p of this.problems) if (!fileOrder.has(p.file)) fileOrder.set(p.file, fileOrder.size);
    const position = (p: ImportProblem) => p.line ?? p.record ?? 0;
    this.problems.sort(
      (a, b) => (fileOrder.get(a.file) ?? 0) - (fileOrder.get(b.file) ?? 0) || position(a) - position(b),
    );
    const headline =
      this.overflow > 0 || this.full
        ? `Nothing was imported: at least ${this.problems.length + this.overflow} problems found; the first ${this.problems.length} are listed.`
        : undefined;
    throw new ImportValidationError(this.problems, headline);
  }
}

/** Ids for a note: all of them when few, else the first ones and how many more (notes stay readable). */
export function listForNote(items: readonly string[], separator = ', ', max = 20): string {
  if (items.length <= max) return items.join(separator);
  return `${items.slice(0, max).join(separator)}${separator}… and ${items.length - max} more`;
}

/** A short, single-line rendering of a found value for messages. */
export function describeValue(value: unknown, max = 80): string {
  if (value === undefined) return 'nothing';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  array: 'a list',
  null: 'null',
};

function valueAtPath(value: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** What an issue expected, in words: our schemas word some checks themselves, else derive it. */
function expectedOf(issue: z.core.$ZodIssue, found: unknown): string {
  // zod's own English messages start like this; anything else was written in our schemas.
  if (!/^(Invalid|Too (small|big)|Unrecognized)/.test(issue.message)) {
    return issue.code === 'invalid_type' && found === undefined ? `${issue.message} (required)` : issue.message;
  }
  switch (issue.code) {
    case 'invalid_type': {
      const words = TYPE_WORDS[issue.expected] ?? issue.expected;
      return found === undefined ? `${words} (required)` : words;
    }
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return 'a non-empty string';
      if (issue.origin === 'array') return `a list with at least ${String(issue.minimum)} item(s)`;
      return `a value ${issue.inclusive ? '≥' : '>'} ${String(issue.minimum)}`;
    case 'too_big':
      return `a value ${issue.inclusive ? '≤' : '<'} ${String(issue.maximum)}`;
    case 'invalid_value':
      return `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return issue.message;
  }
}

/** Turns zod's issues into problems a user can act on ("field X: expected a non-empty string"). */
export function zodProblems(issues: readonly z.core.$ZodIssue[], value: unknown, place: ProblemPlace): ImportProblem[] {
  return issues.map((issue) => {
    const found = valueAtPath(value, issue.path);
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : undefined;
    return {
      ...place,
      ...(field !== undefined ? { field } : {}),
      expected: expectedOf(issue, found),
      found: describeValue(found),
    };
  });
}

/** Validates one record; on failure records every issue and returns undefined. */
export function validateRecord<T>(
  schema: z.ZodType<T>,
  value: unknown,
  place: ProblemPlace,
  problems: ProblemCollector,
): T | undefined {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  for (const p of zodProblems(result.error.issues, value, place)) problems.add(p);
  return undefined;
}

/** 1-based line of a character offset. */
export function lineAt(text: string, index: number): number {
  let line = 1;
  const end = Math.min(index, text.length);
  for (let i = 0; i < end; i += 1) if (text.charCodeAt(i) === 10) line += 1;
  return line;
}

/** V8 says "at position N" (Node 20) and "(line L column C)" (Node ≥ 22); use whichever is there. */
function lineOfJsonError(text: string, message: string): number | undefined {
  const lineMatch = /\(line (\d+) column \d+\)/.exec(message);
  if (lineMatch?.[1]) return Number(lineMatch[1]);
  const positionMatch = /at position (\d+)/.exec(message);
  if (positionMatch?.[1]) return lineAt(text, Number(positionMatch[1]));
  if (/Unexpected end of JSON input/.test(message)) return lineAt(text, text.length);
  return undefined;
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export interface JsonLine {
  /** 1-based physical line in the file. */
  line: number;
  value: unknown;
}

/**
 * JSON Lines: one JSON value per line; blank lines are skipped (but counted, so line numbers
 * stay physical). A line that is not valid JSON is a problem at that line; scanning goes on.
 */
export function parseJsonLines(file: SourceFile, problems: ProblemCollector): JsonLine[] {
  const out: JsonLine[] = [];
  const reader = new JsonLinesReader(file.path, problems);
  const keep = (line: JsonLine) => out.push(line);
  reader.push(file.text, keep);
  reader.end(keep);
  return out;
}

/**
 * JSON Lines read a piece of text at a time (lines.ts): the one reader for a file in memory (one
 * piece) and for a streamed import (its decoded chunks).
 */
export class JsonLinesReader {
  private readonly lines = new LineSplitter();
  private values = 0;
  private onValue: (line: JsonLine) => void = () => {};
  private readonly sink: LineSink = {
    line: (text, line) => this.readLine(text, line),
    overlong: (line) =>
      this.problems.add({
        file: this.file,
        line,
        expected: `one JSON object per line, each under ${MAX_LINE_CHARS / 1024 / 1024} M characters`,
        found: 'a longer line (is this JSON Lines?)',
      }),
  };

  constructor(
    private readonly file: string,
    private readonly problems: ProblemCollector,
  ) {}

  push(piece: string, onValue: (line: JsonLine) => void): void {
    this.onValue = onValue;
    this.lines.push(piece, this.sink);
  }

  /** After the last piece: the last line, and a file without a single JSON line is a problem. */
  end(onValue: (line: JsonLine) => void): void {
    this.onValue = onValue;
    this.lines.end(this.sink);
    if (this.values === 0 && this.problems.count === 0) {
      this.problems.add({ file: this.file, expected: 'at least one JSON line', found: 'an empty file' });
    }
  }

  private readLine(text: string, line: number): void {
    if (this.problems.full || text.trim() === '') return;
    const tooDeep = findExcessNesting(text);
    if (tooDeep) {
      this.problems.add({ file: this.file, line, field: describeNestingPath(tooDeep.path), ...nestingWords() });
      return;
    }
    try {
      const value = JSON.parse(text) as unknown;
      const lone = findLoneSurrogate(text);
      if (lone) this.problems.add(loneSurrogateProblem(this.file, lone, { lineOffset: line }));
      else {
        this.values += 1;
        this.onValue({ line, value });
      }
    } catch (error) {
      this.problems.add({
        file: this.file,
        line,
        expected: 'one complete JSON object on this line',
        found: `invalid JSON (${error instanceof Error ? error.message : String(error)})`,
      });
    }
  }
}

/** A whole-file JSON document (object or list). A syntax error is one problem at its line. */
export function parseJsonDocument(file: SourceFile, problems: ProblemCollector): unknown {
  const text = stripBom(file.text);
  if (text.trim() === '') {
    problems.add({ file: file.path, expected: 'a JSON document', found: 'an empty file' });
    return undefined;
  }
  const tooDeep = findExcessNesting(text);
  if (tooDeep) {
    problems.add(nestingProblem(file.path, tooDeep.path, tooDeep.line));
    return undefined;
  }
  try {
    const value = JSON.parse(text) as unknown;
    const lone = findLoneSurrogate(text);
    if (lone) {
      problems.add(loneSurrogateProblem(file.path, lone, { listIsRecords: true }));
      return undefined;
    }
    return value;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const line = lineOfJsonError(text, message);
    problems.add({
      file: file.path,
      ...(line !== undefined ? { line } : {}),
      expected: 'valid JSON',
      found: `invalid JSON (${message})`,
    });
    return undefined;
  }
}

/**
 * The problem for a JSON document nested too deep: in a top-level list the record (1-based) and
 * the field inside it, else the field path. Exported for parsers that read JSON themselves.
 */
export function nestingProblem(file: string, path: ReadonlyArray<string | number>, line: number): ImportProblem {
  const [first, ...rest] = path;
  const inList = typeof first === 'number';
  const fieldPath = inList ? rest : path;
  return {
    file,
    line,
    ...(inList ? { record: first + 1 } : {}),
    ...(fieldPath.length > 0 ? { field: describeNestingPath(fieldPath) } : {}),
    ...nestingWords(),
  };
}

/**
 * Top-level keys of the first JSON line of a file head. The line may be cut off by the head (a
 * record with many fields): then the keys seen so far, read outside strings at the top level only.
 */
export function firstLineKeys(head: string): string[] {
  const first =
    stripBom(head)
      .split(/\r\n|\n|\r/)
      .find((l) => l.trim() !== '') ?? '';
  const trimmed = first.trim();
  if (!trimmed.startsWith('{')) return [];
  try {
    const value = JSON.parse(trimmed) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [];
  } catch {
    return leadingTopLevelKeys(trimmed);
  }
}

/** Keys of the outermost object of a (possibly cut-off) JSON text, in order, scanning without recursion. */
function leadingTopLevelKeys(text: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  let expectKey = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === '"') {
      const end = endOfString(text, i);
      if (end === -1) break;
      if (depth === 1 && expectKey) {
        try {
          keys.push(JSON.parse(text.slice(i, end + 1)) as string);
        } catch {
          break;
        }
        expectKey = false;
      }
      i = end;
    } else if (c === '{' || c === '[') {
      depth += 1;
      expectKey = c === '{' && depth === 1;
    } else if (c === '}' || c === ']') {
      depth -= 1;
    } else if (c === ',' && depth === 1) {
      expectKey = true;
    }
  }
  return keys;
}

/** Index of the quote closing the string opened at `start`, or -1 when the text ends first. */
function endOfString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i += 1) {
    const c = text[i];
    if (c === '\\') i += 1;
    else if (c === '"') return i;
  }
  return -1;
}

/** Whether a head looks like JSON Lines (first non-blank character opens an object). */
export function looksLikeJsonLines(head: string): boolean {
  return /^\s*\{/.test(stripBom(head)) && firstLineKeys(head).length > 0;
}
