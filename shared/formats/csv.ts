/**
 * CSV with a header row and physical line numbers, via csv-parse/sync.
 * Rows keep the line where they *start*, so a problem in a quoted multi-line field
 * points at the row the user sees in an editor.
 */
import { parse } from 'csv-parse/sync';
import { restoreCsvCell } from './csv-write';
import { describeValue, type ProblemCollector } from './jsonl';
import { MAX_LINE_CHARS } from './lines';
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

/** Line feeds in a text (indexOf hops: a text of long lines costs one call per line). */
function countNewlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n += 1;
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
  const reader = new CsvReader(file.path, columns, problems);
  const rows: CsvRow[] = [];
  const keep = (row: CsvRow) => rows.push(row);
  reader.push(file.text, keep);
  if (!reader.end(keep) || !reader.header) return undefined;
  return { header: reader.header, rows, ignored: reader.ignored };
}

/**
 * CSV read a piece of text at a time: the one reader for a file in memory (one piece) and for a
 * streamed import (its decoded chunks). The text is cut after the last line break outside quotes
 * and each run of whole records goes through csv-parse, its line numbers offset by the lines before.
 */
export class CsvReader {
  /** The header's column names once read (and valid). */
  header: string[] | null = null;
  /** Header columns neither required nor optional. */
  ignored: string[] = [];
  /** Text after the last record boundary: an incomplete record. */
  private carry = '';
  /** How far into `carry` quotes are counted, and whether that point is inside a quoted cell. */
  private scanned = 0;
  private inQuotes = false;
  private linesBefore = 0;
  private started = false;
  private afterCr = false;
  private failed = false;
  private onRow: (row: CsvRow) => void = () => {};

  constructor(
    private readonly file: string,
    private readonly columns: CsvColumns,
    private readonly problems: ProblemCollector,
  ) {}

  push(piece: string, onRow: (row: CsvRow) => void): void {
    if (this.failed || piece.length === 0) return;
    this.onRow = onRow;
    let text = piece;
    if (!this.started) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (this.afterCr && text.charCodeAt(0) === 10) text = text.slice(1);
    this.afterCr = text.charCodeAt(text.length - 1) === 13;
    // One line-ending convention so that csv-parse's line counter is physical lines
    // (with CRLF input it counts some breaks twice). Embedded CRLFs in quoted cells become LF.
    if (text.includes('\r')) text = text.replace(/\r\n?/g, '\n');
    this.carry = this.carry === '' ? text : this.carry + text;
    const boundary = this.lastRecordBoundary();
    if (boundary !== -1) {
      const whole = this.carry.slice(0, boundary + 1);
      this.carry = this.carry.slice(boundary + 1);
      this.scanned -= boundary + 1;
      this.parse(whole);
    } else if (this.carry.length > MAX_LINE_CHARS) {
      this.failed = true;
      this.problems.add({
        file: this.file,
        line: firstNonBlankLineAfter(this.carry.slice(0, 64 * 1024), 0) + this.linesBefore,
        expected: this.inQuotes
          ? 'a closing quote for the field opened on this row'
          : `rows of under ${MAX_LINE_CHARS / 1024 / 1024} M characters`,
        found: 'a row that does not end',
      });
    }
  }

  /** After the last piece; false when the file could not be read as CSV (problems say why). */
  end(onRow: (row: CsvRow) => void): boolean {
    this.onRow = onRow;
    if (!this.failed && this.carry !== '') this.parse(this.carry);
    this.carry = '';
    if (!this.failed && !this.header) {
      this.failed = true;
      this.problems.add({
        file: this.file,
        line: 1,
        expected: `a header row with the columns ${this.columns.required.join(', ')}`,
        found: 'an empty file',
      });
    }
    return !this.failed && this.header !== null;
  }

  /** Index in `carry` of the last line feed outside quotes (-1: none), counting quotes from where the last call stopped. */
  private lastRecordBoundary(): number {
    const text = this.carry;
    let boundary = -1;
    let i = this.scanned;
    // The next line feed is looked up once and reused, so many quotes between two line feeds cost no rescans.
    let nextLf = text.indexOf('\n', i);
    while (i < text.length) {
      const quote = text.indexOf('"', i);
      if (this.inQuotes) {
        if (quote === -1) break;
        this.inQuotes = false;
      } else {
        if (nextLf !== -1 && nextLf < i) nextLf = text.indexOf('\n', i);
        if (nextLf !== -1 && (quote === -1 || nextLf < quote))
          boundary = text.lastIndexOf('\n', quote === -1 ? text.length - 1 : quote - 1);
        if (quote === -1) break;
        this.inQuotes = true;
      }
      i = quote + 1;
    }
    this.scanned = text.length;
    return boundary;
  }

  /** Whole records: the first is the header, the rest rows. */
  private parse(text: string): void {
    let lastEndLine = 0;
    let parsed: CsvParsedRecord[];
    try {
      parsed = parse(text, {
        info: true,
        raw: true,
        relax_column_count: true,
        skip_empty_lines: true,
        on_record: (record, context) => {
          lastEndLine = context.lines;
          return record;
        },
      }) as unknown as CsvParsedRecord[];
    } catch (error) {
      const err = error as { code?: string; lines?: number; message?: string };
      // For an unclosed quote csv-parse reports the end of the text; the row began at the first
      // non-blank line after the last good row.
      const line =
        err.code === 'CSV_QUOTE_NOT_CLOSED'
          ? firstNonBlankLineAfter(text, lastEndLine)
          : (err.lines ?? lastEndLine + 1);
      this.failed = true;
      this.problems.add({
        file: this.file,
        line: line + this.linesBefore,
        expected:
          err.code === 'CSV_QUOTE_NOT_CLOSED' ? 'a closing quote for the field opened on this row' : 'well-formed CSV',
        found: err.message ?? String(error),
      });
      return;
    }
    for (const r of parsed) {
      if (this.failed || this.problems.full) break;
      // raw includes skipped blank lines before the row and the row's own line break.
      const body = r.raw.replace(/^\n+/, '').replace(/\n$/, '');
      const line = this.linesBefore + r.info.lines - countNewlines(body);
      if (this.header) this.row(line, r.record, this.header);
      else this.readHeader(line, r.record);
    }
    this.linesBefore += countNewlines(text);
  }

  private readHeader(line: number, cells: string[]): void {
    const header = cells.map((c) => c.trim());
    let headerOk = true;
    const seen = new Set<string>();
    for (const name of header) {
      if (seen.has(name)) {
        this.problems.add({
          file: this.file,
          line,
          field: name,
          expected: 'each column name once in the header',
          found: `"${name}" twice`,
        });
        headerOk = false;
      }
      seen.add(name);
    }
    for (const name of this.columns.required) {
      if (!seen.has(name)) {
        this.problems.add({
          file: this.file,
          line,
          field: name,
          expected: `a column named "${name}" in the header (required: ${this.columns.required.join(', ')})`,
          found: describeValue(header.join(','), 120),
        });
        headerOk = false;
      }
    }
    if (!headerOk) {
      this.failed = true;
      return;
    }
    const known = new Set([...this.columns.required, ...(this.columns.optional ?? [])]);
    this.ignored = header.filter((name) => name !== '' && !known.has(name));
    this.header = header;
  }

  private row(line: number, cells: string[], header: string[]): void {
    // A line of only spaces or commas is as good as blank.
    if (cells.every((c) => c.trim() === '')) return;
    if (cells.length !== header.length) {
      this.problems.add({
        file: this.file,
        line,
        expected: `${header.length} cells as in the header`,
        found: `${cells.length} cells`,
      });
      return;
    }
    const values: Record<string, string> = {};
    header.forEach((name, i) => {
      // A leading ' before = + - @ TAB CR LF is the CSV-injection guard (ours or a spreadsheet's), not content.
      values[name] = restoreCsvCell(cells[i] ?? '');
    });
    this.onRow({ line, values });
  }
}

/** CSV unless the name says JSON, or the text opens a JSON value. */
export function isCsvText(file: SourceFile | FileHead): boolean {
  if (/\.csv$/i.test(file.path)) return true;
  if (/\.jsonl?$/i.test(file.path)) return false;
  const text = 'text' in file ? file.text : file.head;
  return !/^\uFEFF?\s*[[{]/.test(text);
}
