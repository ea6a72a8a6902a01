/**
 * Loupe's own summaries format (kind `summaries`), JSON Lines or CSV:
 * dataset, doc_id, document, summary_id, summary, optional label (1 faithful / 0 not),
 * optional sentences (a pre-split list, kept as given) and optional meta (an object).
 */
import { z } from 'zod';
import { locateSentences } from '../split/sentences';
import { csvHeaderOf, isCsvText, type CsvRow } from './csv';
import { describeNestingPath, findExcessNesting, MAX_JSON_DEPTH, nestingWords } from './nesting';
import { TabularRecordReader, type RawRecord, type TabularLayout } from './rows';
import { parseWhole } from './streaming';
import { findLoneSurrogate, loneSurrogateProblem } from './surrogates';
import { describeValue, firstLineKeys, ProblemCollector, validateRecord, type ProblemPlace } from './jsonl';
import type { FileHead, FormatParser, ImportBatch, ImportedSummary, RecordReader, StreamOptions } from './types';
import { detectPerFile } from './detection';

/** Ids may be written as strings or integers; Loupe stores them as strings. */
export const IdSchema = z
  .union([z.string().trim().min(1), z.number().int()], { error: 'a non-empty id (string or integer)' })
  .transform((id) => String(id).trim());

export function nonEmptyText(what: string) {
  return z.string({ error: what }).refine((s) => s.trim() !== '', { message: what });
}

const SummaryRecordSchema = z.object({
  dataset: z.string().trim().min(1).nullish(),
  doc_id: IdSchema,
  document: nonEmptyText('a non-empty document text'),
  summary_id: IdSchema,
  summary: nonEmptyText('a non-empty summary'),
  label: z.literal([0, 1]).nullish(),
  sentences: z.array(nonEmptyText('a non-empty sentence')).min(1).nullish(),
  meta: z.record(z.string(), z.unknown(), { error: 'an object (JSON {…})' }).nullish(),
});
type SummaryRecord = z.infer<typeof SummaryRecordSchema>;

export const SUMMARY_COLUMNS = [
  'dataset',
  'doc_id',
  'document',
  'summary_id',
  'summary',
  'label',
  'sentences',
  'meta',
] as const;

/**
 * The first given sentence that cannot be located in the summary (in order), or null when all
 * can: the contract of ImportedSummary.sentences, checked with the same locator the importer uses.
 */
export function firstUnlocatedSentence(summary: string, sentences: readonly string[]): number | null {
  if (locateSentences(summary, [...sentences])) return null;
  for (let i = 1; i <= sentences.length; i += 1) {
    if (!locateSentences(summary, sentences.slice(0, i))) return i - 1;
  }
  return null;
}

export { isCsvText };

/** Column names (CSV header) or keys of the first JSON line, for sniffing. */
export function recordKeysOf(file: FileHead): string[] {
  return isCsvText(file) ? csvHeaderOf(file.head) : firstLineKeys(file.head);
}

function summariesScore(keys: readonly string[]): 0 | 1 | 2 {
  const has = (k: string) => keys.includes(k);
  if (!has('summary_id')) return 0;
  // A leading "type" is Loupe's claims/key-facts JSON Lines (accuracy-jsonl.ts), which also has summary records.
  if (keys[0] === 'type') return 1;
  if (has('summary')) return 2;
  // Without `summary` it is as likely a labels file with missing columns.
  return has('sentence_index') ? 0 : 1;
}

/** Converts a CSV row into the same shape as a JSONL record; malformed JSON cells become problems. */
function csvRowToRecord(row: CsvRow, place: ProblemPlace, problems: ProblemCollector): Record<string, unknown> {
  const v = row.values;
  const out: Record<string, unknown> = {};
  for (const key of ['dataset', 'doc_id', 'document', 'summary_id', 'summary'] as const) {
    if (v[key] !== undefined && !(key === 'dataset' && v[key].trim() === '')) out[key] = v[key];
  }
  const label = (v.label ?? '').trim();
  if (label !== '') out.label = label === '1' ? 1 : label === '0' ? 0 : label;
  for (const key of ['sentences', 'meta'] as const) {
    const cell = (v[key] ?? '').trim();
    if (cell === '') continue;
    // The record itself is one level, as in JSON Lines: the cell may nest one level less.
    const tooDeep = findExcessNesting(cell, MAX_JSON_DEPTH - 1);
    if (tooDeep) {
      problems.add({ ...place, field: describeNestingPath([key, ...tooDeep.path]), ...nestingWords() });
      out[key] = null;
      continue;
    }
    try {
      out[key] = JSON.parse(cell) as unknown;
      const lone = findLoneSurrogate(cell);
      if (lone) {
        problems.add(loneSurrogateProblem(place.file, lone, { lineOffset: place.line ?? 1, prefix: [key] }));
        out[key] = null;
      }
    } catch {
      problems.add({
        ...place,
        field: key,
        expected:
          key === 'sentences'
            ? 'a JSON list of strings, e.g. ["First.", "Second."]'
            : 'a JSON object, e.g. {"source": "x"}',
        found: describeValue(cell),
      });
      out[key] = null;
    }
  }
  return out;
}

interface FirstSeen {
  file: string;
  line: number;
}
function seenAt(first: FirstSeen, file: string): string {
  return first.file === file ? `line ${first.line}` : `${first.file} line ${first.line}`;
}

export const summariesParser: FormatParser = {
  kind: 'summaries',
  description:
    'Loupe summaries (JSONL or CSV): dataset, doc_id, document, summary_id, summary, optional label/sentences/meta',
  mapping: 'label: 1 = faithful, 0 = not; sentences are kept as given and must each occur in the summary, in order.',

  ...detectPerFile((f) => summariesScore(recordKeysOf(f))),

  parse(files, options) {
    return parseWhole(new SummaryReader(options), files);
  },

  reader(options) {
    return new SummaryReader(options);
  },
};

/**
 * Loupe summaries read a piece of text at a time: the rules of the format and the checks across
 * the records of one import (a summary_id once per dataset, one text per doc_id).
 */
class SummaryReader implements RecordReader {
  private readonly problems = new ProblemCollector();
  private readonly notes: string[] = [];
  // Uniqueness holds across all given files of one import.
  private readonly summaryIds = new Map<string, FirstSeen>();
  private readonly documents = new Map<string, { key: string; at: FirstSeen }>();
  private readonly documentKey: (text: string) => string;
  private readonly layout: TabularLayout;
  private readonly datasets = new Set<string>();
  private file: TabularRecordReader | null = null;
  private summaries = 0;
  private labeled = 0;
  private givenSplit = 0;
  private onSummary: (summary: ImportedSummary) => void = () => {};
  private readonly onRecord = (record: RawRecord) => {
    const summary = this.read(record);
    if (summary) this.onSummary(summary);
  };

  constructor(private readonly options: StreamOptions) {
    this.documentKey = options.documentKey ?? ((text) => text);
    const required = ['doc_id', 'document', 'summary_id', 'summary', ...(options.dataset ? [] : ['dataset'])];
    const fromCsv = (row: CsvRow, place: ProblemPlace) => csvRowToRecord(row, place, this.problems);
    this.layout = { noun: 'summary', required, optional: SUMMARY_COLUMNS, fromCsv };
  }

  get full(): boolean {
    return this.problems.full;
  }

  startFile(path: string): void {
    this.file = new TabularRecordReader(path, this.layout, this.problems, this.notes);
  }

  push(piece: string, onSummary: (summary: ImportedSummary) => void): void {
    this.onSummary = onSummary;
    this.file?.push(piece, this.onRecord);
  }

  endFile(onSummary: (summary: ImportedSummary) => void): void {
    this.onSummary = onSummary;
    this.file?.end(this.onRecord);
    this.file = null;
  }

  finish(filesUsed: string[]): Omit<ImportBatch, 'summaries'> {
    this.problems.throwIfAny();
    const datasets = [...this.datasets];
    const notes = [
      `${this.summaries} summaries of ${this.documents.size} documents in ${datasets.length} dataset(s) (${datasets.join(', ')}); ` +
        `${this.labeled} with a global label, ${this.givenSplit} with a given sentence split.`,
      ...this.notes,
    ];
    return { kind: 'summaries', labels: [], predictions: [], filesUsed, notes };
  }

  /** One raw record as a summary, or undefined when it has a problem (recorded). */
  private read({ place, value }: RawRecord): ImportedSummary | undefined {
    const problems = this.problems;
    if (problems.full) return undefined;
    const record: SummaryRecord | undefined = validateRecord(SummaryRecordSchema, value, place, problems);
    if (!record) return undefined;
    const dataset = this.options.dataset ?? record.dataset;
    if (!dataset) {
      problems.add({
        ...place,
        field: 'dataset',
        expected: 'a dataset name (or choose one for the whole import)',
        found: 'nothing',
      });
      return undefined;
    }
    if (record.sentences) {
      const missing = firstUnlocatedSentence(record.summary, record.sentences);
      if (missing !== null) {
        problems.add({
          ...place,
          field: `sentences.${missing}`,
          expected: 'sentences that each occur in the summary, in order',
          found: describeValue(record.sentences[missing]),
        });
        return undefined;
      }
    }
    const summaryKey = JSON.stringify([dataset, record.summary_id]);
    const earlier = this.summaryIds.get(summaryKey);
    if (earlier) {
      problems.add({
        ...place,
        field: 'summary_id',
        expected: `a summary_id used once in dataset "${dataset}"`,
        found: `"${record.summary_id}" again (first on ${seenAt(earlier, place.file)})`,
      });
      return undefined;
    }
    this.summaryIds.set(summaryKey, { file: place.file, line: place.line });
    const docKey = JSON.stringify([dataset, record.doc_id]);
    const knownDoc = this.documents.get(docKey);
    const documentKey = this.documentKey(record.document);
    if (knownDoc && knownDoc.key !== documentKey) {
      problems.add({
        ...place,
        field: 'document',
        expected: `the same document text for doc_id "${record.doc_id}" as on ${seenAt(knownDoc.at, place.file)}`,
        found: 'a different text',
      });
      return undefined;
    }
    if (!knownDoc) this.documents.set(docKey, { key: documentKey, at: { file: place.file, line: place.line } });
    this.summaries += 1;
    this.datasets.add(dataset);
    if (record.label !== null && record.label !== undefined) this.labeled += 1;
    if (record.sentences) this.givenSplit += 1;
    return {
      dataset,
      docId: record.doc_id,
      document: record.document,
      summaryId: record.summary_id,
      summary: record.summary,
      label: record.label ?? null,
      sentences: record.sentences ?? null,
      meta: record.meta ?? {},
      source: { file: place.file, line: place.line },
    };
  }
}
