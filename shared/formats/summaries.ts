/**
 * Loupe's own summaries format (kind `summaries`), JSON Lines or CSV:
 * dataset, doc_id, document, summary_id, summary, optional label (1 faithful / 0 not),
 * optional sentences (a pre-split list, kept as given) and optional meta (an object).
 */
import { z } from 'zod';
import { locateSentences } from '../split/sentences';
import { csvHeaderOf, isCsvText, type CsvRow } from './csv';
import { describeNestingPath, findExcessNesting, MAX_JSON_DEPTH, nestingWords } from './nesting';
import { readTabularRecords } from './rows';
import { findLoneSurrogate, loneSurrogateProblem } from './surrogates';
import { describeValue, firstLineKeys, ProblemCollector, validateRecord, type ProblemPlace } from './jsonl';
import type { FileHead, FormatParser, ImportedSummary } from './types';
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
    const problems = new ProblemCollector();
    const summaries: ImportedSummary[] = [];
    const notes: string[] = [];
    // Uniqueness holds across all given files of one import.
    const summaryIds = new Map<string, FirstSeen>();
    const documents = new Map<string, { text: string; at: FirstSeen }>();

    for (const file of files) {
      const required = ['doc_id', 'document', 'summary_id', 'summary', ...(options.dataset ? [] : ['dataset'])];
      const fromCsv = (row: CsvRow, place: ProblemPlace) => csvRowToRecord(row, place, problems);
      const records = readTabularRecords(
        file,
        { noun: 'summary', required, optional: SUMMARY_COLUMNS, fromCsv },
        problems,
        notes,
      );
      for (const { place, value } of records) {
        if (problems.full) break;
        const record: SummaryRecord | undefined = validateRecord(SummaryRecordSchema, value, place, problems);
        if (!record) continue;
        const dataset = options.dataset ?? record.dataset;
        if (!dataset) {
          problems.add({
            ...place,
            field: 'dataset',
            expected: 'a dataset name (or choose one for the whole import)',
            found: 'nothing',
          });
          continue;
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
            continue;
          }
        }
        const summaryKey = JSON.stringify([dataset, record.summary_id]);
        const earlier = summaryIds.get(summaryKey);
        if (earlier) {
          problems.add({
            ...place,
            field: 'summary_id',
            expected: `a summary_id used once in dataset "${dataset}"`,
            found: `"${record.summary_id}" again (first on ${seenAt(earlier, place.file)})`,
          });
          continue;
        }
        summaryIds.set(summaryKey, { file: place.file, line: place.line });
        const docKey = JSON.stringify([dataset, record.doc_id]);
        const knownDoc = documents.get(docKey);
        if (knownDoc && knownDoc.text !== record.document) {
          problems.add({
            ...place,
            field: 'document',
            expected: `the same document text for doc_id "${record.doc_id}" as on ${seenAt(knownDoc.at, place.file)}`,
            found: 'a different text',
          });
          continue;
        }
        if (!knownDoc) documents.set(docKey, { text: record.document, at: { file: place.file, line: place.line } });
        summaries.push({
          dataset,
          docId: record.doc_id,
          document: record.document,
          summaryId: record.summary_id,
          summary: record.summary,
          label: record.label ?? null,
          sentences: record.sentences ?? null,
          meta: record.meta ?? {},
          source: { file: place.file, line: place.line },
        });
      }
    }
    problems.throwIfAny();
    const datasets = [...new Set(summaries.map((s) => s.dataset))];
    notes.unshift(
      `${summaries.length} summaries of ${documents.size} documents in ${datasets.length} dataset(s) (${datasets.join(', ')}); ` +
        `${summaries.filter((s) => s.label !== null).length} with a global label, ${summaries.filter((s) => s.sentences).length} with a given sentence split.`,
    );
    return { kind: 'summaries', summaries, labels: [], predictions: [], filesUsed: files.map((f) => f.path), notes };
  },
};
