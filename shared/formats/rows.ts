/**
 * The raw records of a Loupe tabular file (JSON Lines or CSV), each with the physical line it
 * starts on. The summaries, labels and predictions parsers differ only in what a row means.
 */
import { isCsvText, readCsv, type CsvRow } from './csv';
import { parseJsonLines, type ProblemCollector, type ProblemPlace } from './jsonl';
import type { SourceFile } from './types';

export interface RawRecord {
  place: ProblemPlace & { line: number };
  value: unknown;
}

export interface TabularLayout {
  /** What one JSON line holds, for the "not a JSON list" message: "summary", "label", … */
  noun: string;
  required: readonly string[];
  optional: readonly string[];
  /** CSV cells are text: turn a row into the shape a JSON line would have. */
  fromCsv(row: CsvRow, place: ProblemPlace & { line: number }): Record<string, unknown>;
}

/** Reads one file's records; problems go to the collector, ignored CSV columns to the notes. */
export function readTabularRecords(file: SourceFile, layout: TabularLayout, problems: ProblemCollector, notes: string[]): RawRecord[] {
  if (isCsvText(file)) {
    const table = readCsv(file, { required: layout.required, optional: layout.optional }, problems);
    if (!table) return [];
    if (table.ignored.length > 0) notes.push(`${file.path}: ignored column(s) ${table.ignored.join(', ')}.`);
    return table.rows.map((row) => {
      const place = { file: file.path, line: row.line };
      return { place, value: layout.fromCsv(row, place) };
    });
  }
  if (/^\uFEFF?\s*\[/.test(file.text)) {
    problems.add({ file: file.path, line: 1, expected: `JSON Lines (one ${layout.noun} object per line) or CSV`, found: 'a JSON list' });
    return [];
  }
  return parseJsonLines(file, problems).map(({ line, value }) => ({ place: { file: file.path, line }, value }));
}
