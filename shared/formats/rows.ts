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
export function readTabularRecords(
  file: SourceFile,
  layout: TabularLayout,
  problems: ProblemCollector,
  notes: string[],
): RawRecord[] {
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
    problems.add({
      file: file.path,
      line: 1,
      expected: `JSON Lines (one ${layout.noun} object per line) or CSV`,
      found: 'a JSON list',
    });
    return [];
  }
  return parseJsonLines(file, problems).map(({ line, value }) => ({ place: { file: file.path, line }, value }));
}

/** Remembers where each key was first seen, to name it when a record repeats it. */
export class FirstOccurrence {
  private readonly seen = new Map<string, { file: string; line: number }>();

  /** Where `key` was first seen ("line 3", or "other.csv line 3" across files); null the first time. */
  earlier(key: string, place: { file: string; line: number }): string | null {
    const first = this.seen.get(key);
    if (!first) {
      this.seen.set(key, { file: place.file, line: place.line });
      return null;
    }
    return first.file === place.file ? `line ${first.line}` : `${first.file} line ${first.line}`;
  }
}
