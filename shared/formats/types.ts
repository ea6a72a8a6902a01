/**
 * What every importer produces: plain records, before any database id exists.
 * A parser is a pure function from file text to these records; it throws
 * ImportValidationError (listing every problem it found) instead of guessing.
 */
import type { ErrorType, GlobalLabel, HumanLabel, Phase } from '../domain';
import type { AccuracyImport } from './accuracy-types';
import type { SourceRef } from './source-ref';
import type { ScaffoldImport } from './scaffold-types';
import { plural } from '../words';

export type { SourceRef } from './source-ref';

export const IMPORT_KINDS = [
  'summaries',
  'labels',
  'frank',
  'faithbench',
  'tofueval',
  'halueval',
  'xsumfaith',
  'cogensumm',
  'summedits',
  'predictions',
  'realsumm',
  'accuracy',
  'scaffold',
  'scaffold-alignments',
] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

export interface ImportedSummary {
  dataset: string;
  docId: string;
  /** null: the document text is not available (TofuEval, CoGenSumm): "document missing". */
  document: string | null;
  summaryId: string;
  summary: string;
  label: GlobalLabel | null;
  /**
   * A split that ships with the benchmark, kept as given. Each sentence must occur in
   * `summary` in order (see locateSentences); null: Loupe splits the summary itself.
   */
  sentences: string[] | null;
  /**
   * Who made `sentences` when the parser split the summary itself (FaithBench ships no split:
   * Loupe's splitter did it). Absent: the benchmark's own split, recorded as `given`.
   */
  splitter?: { name: string; version: string };
  meta: Record<string, unknown>;
  source: SourceRef;
}

export interface ImportedLabel {
  /** null: resolved by summaryId alone (an error if that is ambiguous across datasets). */
  dataset: string | null;
  summaryId: string;
  /** 0-based index into the summary's units. */
  sentenceIndex: number;
  label: HumanLabel;
  annotator: string;
  phase: Phase;
  errorType: ErrorType | null;
  note: string | null;
  source: SourceRef;
}

/** Judge predictions found in a benchmark file or a predictions file (kind `predictions`). */
export interface ImportedPrediction {
  dataset: string | null;
  summaryId: string;
  sentenceIndex: number;
  judge: string;
  hard: 0 | 1 | null;
  soft: number | null;
  raw: string | null;
  /** The judge version the file names (Loupe's export writes it); absent: "imported". */
  configHash?: string | null;
  /** The taxonomy's type of an unfaithful prediction (e.g. FineSurE's category mapped), and the file's own name for it. */
  errorType?: ErrorType | null;
  sourceErrorType?: string | null;
  source: SourceRef;
}

export interface ImportBatch {
  kind: ImportKind;
  summaries: ImportedSummary[];
  labels: ImportedLabel[];
  predictions: ImportedPrediction[];
  /** Files actually used (folder kinds say which parts they found). */
  filesUsed: string[];
  /** Human-readable notes shown after import (mapping choices, skipped material). */
  notes: string[];
  /**
   * Bundled judge predictions left out because their count does not fit the record's sentences
   * (FineSurE's own scoring skips such records too); the record itself is imported.
   */
  predictionsSkipped?: SkippedPredictions[];
  /**
   * People's annotations left out because they do not fit their record (a FaithBench span with no
   * category, an XSumFaith row whose summary differs); the record and the rest are imported.
   */
  labelsSkipped?: SkippedLabels[];
  /** Claims, key facts, their labels and judge outputs, system outputs (realsumm, accuracy). */
  accuracy?: AccuracyImport;
  /** Semantic Scaffolds and their alignments (scaffold, scaffold-alignments). */
  scaffold?: ScaffoldImport;
}

/** One record's bundled predictions that were left out (ImportResult.predictionsSkipped). */
export interface SkippedPredictions {
  file: string;
  line?: number;
  record?: number;
  summaryId: string;
  /** The file's field holding the predictions, e.g. "pred_faithfulness_labels". */
  field: string;
  /** One per sentence: the record's sentence count. */
  expected: number;
  /** What the file has. */
  found: number;
  /** Why, when the counts alone do not say it (e.g. the judge's copy of the summary differs). */
  reason?: string;
}

/** One person's annotation that was left out (ImportResult.labelsSkipped). */
export interface SkippedLabels {
  file: string;
  line?: number;
  record?: number;
  summaryId: string;
  /** The file's field, e.g. "annotations[2].label". */
  field: string;
  /** Why it does not fit, naming what was expected. */
  reason: string;
}

export interface ImportProblem {
  file: string;
  line?: number;
  record?: number;
  field?: string;
  /** What was expected, in words a user can act on. */
  expected: string;
  /** What was found (truncated), when useful. */
  found?: string;
}

export function formatProblem(p: ImportProblem): string {
  const where = [p.file, p.line !== undefined ? `line ${p.line}` : p.record !== undefined ? `record ${p.record}` : null]
    .filter(Boolean)
    .join(', ');
  const field = p.field ? ` field "${p.field}"` : '';
  const found = p.found !== undefined ? ` (found ${p.found})` : '';
  return `${where}:${field} expected ${p.expected}${found}`;
}

/** Thrown by parsers and by the import service; nothing is imported when it is thrown. */
export class ImportValidationError extends Error {
  readonly problems: ImportProblem[];
  constructor(problems: ImportProblem[], headline?: string) {
    const first = problems.slice(0, 5).map(formatProblem).join('\n');
    const more = problems.length > 5 ? `\n… and ${plural(problems.length - 5, 'more problem')}` : '';
    super(`${headline ?? `Nothing was imported: ${plural(problems.length, 'problem')} found.`}\n${first}${more}`);
    this.name = 'ImportValidationError';
    this.problems = problems;
  }
}

/** A file handed to a parser: its path (for messages) and its decoded text. */
export interface SourceFile {
  path: string;
  text: string;
}

/** A cheap look at a candidate file, for format detection and folder layouts. */
export interface FileHead {
  path: string;
  /** The first few KiB of the text. */
  head: string;
}

export interface ParseOptions {
  /** Dataset name chosen by the user (overrides or fills the file's). */
  dataset?: string;
}

/** How a line-oriented format is read a piece of text at a time (streaming.ts). */
export interface StreamOptions extends ParseOptions {
  /**
   * What a document text is remembered by, to tell a doc_id given two different texts: the text
   * itself by default; a streamed import passes a hash so that memory does not hold every document.
   */
  documentKey?: (text: string) => string;
  /** How many files the import reads (formats whose ids come from line numbers prefix them when several). */
  files?: number;
}

export interface RecordReader {
  /** Starts the next file of the import (its name as messages show it). */
  startFile(path: string): void;
  /** The next piece of the current file's text; the summaries it completes go to onSummary. */
  push(piece: string, onSummary: (summary: ImportedSummary) => void): void;
  /** After the current file's last piece. */
  endFile(onSummary: (summary: ImportedSummary) => void): void;
  /** True once enough problems are found to stop reading. */
  readonly full: boolean;
  /** After the last file: throws the problems found (ImportValidationError), else the batch without its summaries. */
  finish(filesUsed: string[]): Omit<ImportBatch, 'summaries'>;
}

export interface FormatParser {
  kind: ImportKind;
  /** One line for help texts and the import dialog. */
  description: string;
  /** Extra facts shown to the user (e.g. FaithBench's span → label mapping). */
  mapping?: string;
  /**
   * How sure this format fits the given files: 0 = no, 1 = possibly, 2 = certainly.
   * Detection picks the only parser with the highest score > 0; a tie is ambiguous.
   */
  sniff(files: FileHead[]): 0 | 1 | 2;
  /** For a folder: the files to read (by name pattern and content). Default: all given. */
  select?(files: FileHead[]): string[];
  parse(files: SourceFile[], options: ParseOptions): ImportBatch;
  /** Line-oriented formats: a reader fed text a piece at a time (streaming.ts); `parse` goes through it too. */
  reader?(options: StreamOptions): RecordReader;
}
