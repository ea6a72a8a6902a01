/**
 * The raw records of a Loupe tabular file (JSON Lines or CSV), each with the physical line it
 * starts on. The summaries, labels and predictions parsers differ only in what a row means.
 */
import { CsvReader, isCsvText, type CsvRow } from './csv';
import { JsonLinesReader, type ProblemCollector, type ProblemPlace } from './jsonl';
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
  const records: RawRecord[] = [];
  const reader = new TabularRecordReader(file.path, layout, problems, notes);
  const keep = (record: RawRecord) => records.push(record);
  reader.push(file.text, keep);
  reader.end(keep);
  return records;
}

/**
 * One tabular file's records read a piece of text at a time: the one reader for a file in memory
 * (one piece) and for a streamed import. Whether it is CSV or JSON Lines is told from its name,
 * else from its first characters, as isCsvText does for a whole text.
 */
export class TabularRecordReader {
  private reader: CsvReader | JsonLinesReader | 'list' | null = null;
  /** Text before the first non-blank character: too little to tell CSV from JSON yet. */
  private opening = '';

  constructor(
    private readonly file: string,
    private readonly layout: TabularLayout,
    private readonly problems: ProblemCollector,
    private readonly notes: string[],
  ) {}

  push(piece: string, onRecord: (record: RawRecord) => void): void {
    if (this.reader === null) {
      this.opening += piece;
      if (this.opening.trim().replace(/^\uFEFF/, '') === '') return;
      this.choose(this.opening);
      piece = this.opening;
      this.opening = '';
    }
    this.pass(piece, onRecord, false);
  }

  end(onRecord: (record: RawRecord) => void): void {
    if (this.reader === null) this.choose(this.opening);
    if (this.opening !== '') this.pass(this.opening, onRecord, false);
    this.opening = '';
    this.pass('', onRecord, true);
  }

  private choose(opening: string): void {
    const csv = isCsvText({ path: this.file, head: opening });
    if (!csv && /^\uFEFF?\s*\[/.test(opening)) {
      this.problems.add({
        file: this.file,
        line: 1,
        expected: `JSON Lines (one ${this.layout.noun} object per line) or CSV`,
        found: 'a JSON list',
      });
      this.reader = 'list';
      return;
    }
    this.reader = csv
      ? new CsvReader(this.file, { required: this.layout.required, optional: this.layout.optional }, this.problems)
      : new JsonLinesReader(this.file, this.problems);
  }

  private pass(piece: string, onRecord: (record: RawRecord) => void, last: boolean): void {
    const reader = this.reader;
    if (reader === 'list' || reader === null) return;
    if (reader instanceof CsvReader) {
      const onRow = (row: CsvRow) => {
        const place = { file: this.file, line: row.line };
        onRecord({ place, value: this.layout.fromCsv(row, place) });
      };
      const hadHeader = reader.header !== null;
      if (last) reader.end(onRow);
      else reader.push(piece, onRow);
      if (!hadHeader && reader.header && reader.ignored.length > 0)
        this.notes.push(`${this.file}: ignored column(s) ${reader.ignored.join(', ')}.`);
      return;
    }
    const onValue = ({ line, value }: { line: number; value: unknown }) =>
      onRecord({ place: { file: this.file, line }, value });
    if (last) reader.end(onValue);
    else reader.push(piece, onValue);
  }
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
