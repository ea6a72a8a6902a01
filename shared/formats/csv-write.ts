/**
 * Writing CSV, and the one cell rule every CSV Loupe writes follows.
 *
 * CSV injection (OWASP): a spreadsheet runs a cell that starts with `=`, `+`, `-`, `@`, TAB or CR
 * as a formula, so an id, name, sentence or note from an imported file could do so on the
 * reviewer's machine. Every text cell that starts with one of them (or with LF, see below), after
 * any run of apostrophes, gets one leading `'` (spreadsheets show it as text). The rule is
 * reversible: `restoreCsvCell` removes exactly that apostrophe, and Loupe's CSV reader applies it,
 * so a Loupe export imports back unchanged. LF is guarded too because that reader turns every CR
 * into LF before parsing: a guarded `'\r…` arrives as `'\n…` and must still lose its apostrophe.
 * Numbers are written as numbers (a typed number cannot carry a formula).
 */
import { stringify } from 'csv-stringify/sync';

/** A text cell a spreadsheet could read as a formula (after any apostrophes we or others added). */
const NEEDS_GUARD = /^'*[=+\-@\t\r\n]/;
/** A cell that `neutraliseCsvCell` guarded: one apostrophe to drop. */
const GUARDED = /^'+[=+\-@\t\r\n]/;

/** `=1+1` → `'=1+1`, `'=x` → `''=x` (so the way back is exact), anything else unchanged. */
export function neutraliseCsvCell(text: string): string {
  return NEEDS_GUARD.test(text) ? `'${text}` : text;
}

/** The inverse of `neutraliseCsvCell`: `'=1+1` → `=1+1`, `''=x` → `'=x`; `'quoted'` stays as it is. */
export function restoreCsvCell(text: string): string {
  return GUARDED.test(text) ? text.slice(1) : text;
}

export interface CsvWriteOptions {
  /** Write text cells exactly as they are (`--raw-csv`): only for files no spreadsheet will open. */
  rawCells?: boolean | undefined;
}

/**
 * Records as CSV with a header row and the given columns: booleans as 1/0, nested values as JSON,
 * null and missing as empty cells, and every text cell through `neutraliseCsvCell` unless raw.
 */
export function writeCsv(
  records: ReadonlyArray<Record<string, unknown>>,
  columns: readonly string[],
  options: CsvWriteOptions = {},
): string {
  return [...csvChunks(records, columns, options)].join('');
}

/** Records per chunk of `csvChunks`: large enough that csv-stringify's per-call cost vanishes, small enough to hold. */
const CSV_CHUNK_RECORDS = 1_000;

/**
 * The same CSV as `writeCsv`, as text chunks (the header first, then up to a thousand rows each), read
 * from any iterable, so a file of any size is written without holding it.
 */
export function* csvChunks(
  records: Iterable<Record<string, unknown>>,
  columns: readonly string[],
  options: CsvWriteOptions = {},
): Generator<string> {
  const cell = options.rawCells ? (text: string) => text : neutraliseCsvCell;
  const settings = {
    columns: [...columns],
    cast: {
      boolean: (value: boolean) => (value ? '1' : '0'),
      object: (value: object) => cell(JSON.stringify(value)),
      string: (value: string) => cell(value),
    },
  };
  yield stringify([], { ...settings, header: true });
  let batch: Array<Record<string, unknown>> = [];
  for (const record of records) {
    batch.push(record);
    if (batch.length === CSV_CHUNK_RECORDS) {
      yield stringify(batch, { ...settings, header: false });
      batch = [];
    }
  }
  if (batch.length > 0) yield stringify(batch, { ...settings, header: false });
}
