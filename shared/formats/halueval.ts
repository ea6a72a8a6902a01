/**
 * HaluEval summarization (RUCAIBox/HaluEval, data/summarization_data.json): JSON Lines with
 * `document`, `right_summary` (global label 1) and `hallucinated_summary` (global label 0).
 * The file has no ids, so both come from the physical line number.
 */
import { z } from 'zod';
import { firstLineKeys, JsonLinesReader, ProblemCollector, validateRecord, type JsonLine } from './jsonl';
import { parseWhole } from './streaming';
import { nonEmptyText } from './summaries';
import type { FileHead, FormatParser, ImportBatch, ImportedSummary, RecordReader, StreamOptions } from './types';
import { detectPerFile } from './detection';

const HaluEvalRecordSchema = z.object({
  document: nonEmptyText('a non-empty document text'),
  right_summary: nonEmptyText('a non-empty faithful summary'),
  hallucinated_summary: nonEmptyText('a non-empty hallucinated summary'),
});

function haluEvalScore(file: FileHead): 0 | 1 | 2 {
  const keys = firstLineKeys(file.head);
  if (keys.includes('right_summary') && keys.includes('hallucinated_summary')) return 2;
  // A long first document can fill the whole head; then only the name can tell.
  if (keys.length === 1 && keys[0] === 'document' && /halu|summarization_data/i.test(file.path)) return 1;
  return 0;
}

export const haluevalParser: FormatParser = {
  kind: 'halueval',
  description: 'HaluEval summarization (JSON Lines: document, right_summary, hallucinated_summary)',
  mapping:
    'right_summary → global label 1, hallucinated_summary → 0; ids from line numbers (doc "line-N", summaries "N-right" / "N-hallucinated"); no sentence labels.',

  ...detectPerFile((f) => haluEvalScore(f)),

  parse(files, options) {
    return parseWhole(new HaluEvalReader({ ...options, files: files.length }), files);
  },

  reader(options) {
    return new HaluEvalReader(options);
  },
};

/** HaluEval read a piece of text at a time: each line a document with its two summaries. */
class HaluEvalReader implements RecordReader {
  private readonly problems = new ProblemCollector();
  private readonly dataset: string;
  /** Several files would reuse line numbers: ids are prefixed with the file only then. */
  private readonly prefixed: boolean;
  private file: { path: string; lines: JsonLinesReader } | null = null;
  private summaries = 0;
  private trimmed = 0;
  private onSummary: (summary: ImportedSummary) => void = () => {};
  private readonly onLine = ({ line, value }: JsonLine) => this.read(line, value);

  constructor(options: StreamOptions) {
    this.dataset = options.dataset ?? 'halueval';
    this.prefixed = (options.files ?? 1) > 1;
  }

  get full(): boolean {
    return this.problems.full;
  }

  startFile(path: string): void {
    this.file = { path, lines: new JsonLinesReader(path, this.problems) };
  }

  push(piece: string, onSummary: (summary: ImportedSummary) => void): void {
    this.onSummary = onSummary;
    this.file?.lines.push(piece, this.onLine);
  }

  endFile(onSummary: (summary: ImportedSummary) => void): void {
    this.onSummary = onSummary;
    this.file?.lines.end(this.onLine);
    this.file = null;
  }

  finish(filesUsed: string[]): Omit<ImportBatch, 'summaries'> {
    this.problems.throwIfAny();
    const notes = [
      `${this.summaries / 2} documents, each with a faithful (label 1) and a hallucinated (label 0) summary: ${this.summaries} summaries in dataset "${this.dataset}".`,
      'Ids come from line numbers: document "line-N", summaries "N-right" and "N-hallucinated".',
      'No sentence labels: Loupe splits the summaries itself.',
    ];
    if (this.trimmed > 0)
      notes.push(`${this.trimmed} summaries had surrounding white space (e.g. a trailing line break), removed.`);
    return { kind: 'halueval', labels: [], predictions: [], filesUsed, notes };
  }

  private read(line: number, value: unknown): void {
    const file = this.file!.path;
    if (this.problems.full) return;
    const record = validateRecord(HaluEvalRecordSchema, value, { file, line }, this.problems);
    if (!record) return;
    const prefix = this.prefixed ? `${file}:` : '';
    for (const [variant, text, label] of [
      ['right', record.right_summary, 1],
      ['hallucinated', record.hallucinated_summary, 0],
    ] as const) {
      // right_summary ends with "\n" in the release; the line break carries no meaning.
      const summary = text.trim();
      if (summary !== text) this.trimmed += 1;
      this.summaries += 1;
      this.onSummary({
        dataset: this.dataset,
        docId: `${prefix}line-${line}`,
        document: record.document,
        summaryId: `${prefix}${line}-${variant}`,
        summary,
        label,
        sentences: null,
        meta: { variant },
        source: { file, line },
      });
    }
  }
}
