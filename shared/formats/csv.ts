/**
 * CSV with a header row and physical line numbers, via csv-parse/sync.
 * Rows keep the line where they *start*, so a problem in a quoted multi-line field
 * points at the row the user sees in an editor.
 */
import { parse } from 'csv-parse/sync';
import { restoreCsvCell } from './csv-write';
import { describeValue, type ProblemCollector } from './jsonl';
import type { FileHead, SourceFile } from './types';

export interface CsvRow {
  /** 1-based physical line where the row starts. */
  line: number;
  /** Column name → cell text (every header column is present). */
  values: Record<string, string>;
}

export interface CsvTable {
  header: string[];
  rows: CsvRow[];
}

export interface CsvColumns {
  /** Columns that must be in the header. */
  required: readonly string[];
  /** Columns that are understood when present. Anything else is reported in `ignored`. */
  optional?: readonly string[];
}

export interface CsvReadResult extends CsvTable {
  /** Header columns neither required nor optional (the caller may mention them in notes). */
  ignored: string[];
}

interface CsvParseInfo {
  lines: number;
}
interface CsvParsedRecord {
  record: string[];
  info: CsvParseInfo;
  raw: string;
}

function countNewlines(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) === 10) n += 1;
  return n;
}

function firstNonBlankLineAfter(text: string, line: number): number {
  const lines = text.split('\n');
  let next = line + 1;
  while (next <= lines.length && (lines[next - 1] ?? '').trim() === '') next += 1;
  return next;
}

/** First line of a head split into column names (enough to recognise a header). */
export function csvHeaderOf(head: string): string[] {
  const first = head.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/)[0] ?? '';
  try {
    const parsed = parse(first, { relax_column_count: true, relax_quotes: true }) as string[][];
    return (parsed[0] ?? []).map((c) => c.trim());
  } catch {
    return [];
  }
}

/**
 * Parses a CSV file with a header. Header problems (missing or duplicated columns) and rows with
 * the wrong number of cells are collected; a syntax error (e.g. an unclosed quote) stops the scan
 * and is reported at the line where the broken row begins.
 */
export function readCsv(file: SourceFile, columns: CsvColumns, problems: ProblemCollector): CsvReadResult | undefined {
  // One line-ending convention so that csv-parse's line counter is physical lines
  // (with CRLF input it counts some breaks twice). Embedded CRLFs in quoted cells become LF.
  const text = file.text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const parsed: CsvParsedRecord[] = [];
  let lastEndLine = 0;
  try {
    const records = parse(text, {
      info: true,
      raw: true,
      relax_column_count: true,
      skip_empty_lines: true,
      on_record: (record, context) => {
        lastEndLine = context.lines;
        return record;
      },
    }) as unknown as CsvParsedRecord[];
    parsed.push(...records);
  } catch (error) {
    const err = error as { code?: string; lines?: number; message?: string };
    // For an unclosed quote csv-parse reports the end of the file; the row began at the first
    // non-blank line after the last good row.
    const line =
      err.code === 'CSV_QUOTE_NOT_CLOSED' ? firstNonBlankLineAfter(text, lastEndLine) : (err.lines ?? lastEndLine + 1);
    problems.add({
      file: file.path,
      line,
      expected:
        err.code === 'CSV_QUOTE_NOT_CLOSED' ? 'a closing quote for the field opened on this row' : 'well-formed CSV',
      found: err.message ?? String(error),
    });
    return undefined;
  }

  const rowsWithLines = parsed.map((r) => {
    // raw includes skipped blank lines before the row and the row's own line break.
    const body = r.raw.replace(/^\n+/, '').replace(/\n$/, '');
    return { line: r.info.lines - countNewlines(body), cells: r.record };
  });
  const headerRow = rowsWithLines[0];
  if (!headerRow) {
    problems.add({
      file: file.path,
      line: 1,
      expected: `a header row with the columns ${columns.required.join(', ')}`,
      found: 'an empty file',
    });
    return undefined;
  }
  const header = headerRow.cells.map((c) => c.trim());
  let headerOk = true;
  const seen = new Set<string>();
  for (const name of header) {
    if (seen.has(name)) {
      problems.add({
        file: file.path,
        line: headerRow.line,
        field: name,
        expected: 'each column name once in the header',
        found: `"${name}" twice`,
      });
      headerOk = false;
    }
    seen.add(name);
  }
  for (const name of columns.required) {
    if (!seen.has(name)) {
      problems.add({
        file: file.path,
        line: headerRow.line,
        field: name,
        expected: `a column named "${name}" in the header (required: ${columns.required.join(', ')})`,
        found: describeValue(header.join(','), 120),
      });
      headerOk = false;
    }
  }
  if (!headerOk) return undefined;

  const known = new Set([...columns.required, ...(columns.optional ?? [])]);
  const ignored = header.filter((name) => name !== '' && !known.has(name));
  const rows: CsvRow[] = [];
  for (const row of rowsWithLines.slice(1)) {
    if (problems.full) break;
    // A line of only spaces or commas is as good as blank.
    if (row.cells.every((c) => c.trim() === '')) continue;
    if (row.cells.length !== header.length) {
      problems.add({
        file: file.path,
        line: row.line,
        expected: `${header.length} cells as in the header`,
        found: `${row.cells.length} cells`,
      });
      continue;
    }
    const values: Record<string, string> = {};
    header.forEach((name, i) => {
      // A leading ' before = + - @ TAB CR LF is the CSV-injection guard (ours or a spreadsheet's), not content.
      values[name] = restoreCsvCell(row.cells[i] ?? '');
    });
    rows.push({ line: row.line, values });
  }
  return { header, rows, ignored };
}

/** CSV unless the name says JSON, or the text opens a JSON value. */
export function isCsvText(file: SourceFile | FileHead): boolean {
  if (/\.csv$/i.test(file.path)) return true;
  if (/\.jsonl?$/i.test(file.path)) return false;
  const text = 'text' in file ? file.text : file.head;
  return !/^\uFEFF?\s*[[{]/.test(text);
}
