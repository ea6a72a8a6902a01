/**
 * Loupe's claims-and-key-facts JSON Lines (kind `accuracy`): what `loupe export --accuracy`
 * writes and imports back, and a simple way to bring claims, key facts and their labels from
 * elsewhere. One record per line, its kind in `type`:
 *
 *   summary          dataset, doc_id, document, summary_id, summary, sentences?, system?
 *   system_output    dataset, doc_id, system, summary_id | failure (error|refusal|guardrail|empty), message?
 *   key_facts        dataset, doc_id, facts [text…], extractor?, extractor_version?
 *   claims           dataset, summary_id, claims [{sentence_index, text}…], decomposer?, decomposer_version?
 *   claim_label      dataset, summary_id, claim_index, annotator, label (supported|unsupported|unclear, or null with a note), error_type?, source_error_type?, note?
 *                    (a source_error_type in FineSurE's names, e.g. "entity error" or EntE, gives the error_type when none is given)
 *   key_fact_label   dataset, summary_id, key_fact_index, annotator, label (covered|not_covered, or null with a note), claims? [claim_index…], sentences? [sentence_index…], note?
 *   sentence_keyfact_label  dataset, summary_id, sentence_index, annotator, conveys (0|1)
 *   claim_prediction dataset, summary_id, claim_index, judge, supported (0|1), error_type?, source_error_type?, raw?
 *   key_fact_prediction  dataset, summary_id, key_fact_index, judge, covered (0|1), claims?, sentences?, raw?
 *   sentence_keyfact_prediction  dataset, summary_id, sentence_index, judge, conveys (0|1)
 *
 * Indexes are 0-based. `dataset` may be left out when the import names one. Annotators and judges
 * named here are imported (read-only) label sets and judges.
 *
 * CSV: the same records, one per row, with the columns of ACCURACY_CSV_COLUMNS (empty cells are
 * absent fields; lists are JSON cells), as `loupe export --accuracy --out F.csv` writes them.
 */
import { z } from 'zod';
import {
  ClaimErrorTypeSchema,
  ClaimLabelSchema,
  KeyFactLabelSchema,
  SystemFailureSchema,
  fineSurEErrorType,
} from '../accuracy/domain';
import { emptyAccuracyImport } from './accuracy-types';
import { detectPerFile } from './detection';
import { csvHeaderOf, isCsvText, readCsv } from './csv';
import {
  describeValue,
  firstLineKeys,
  looksLikeJsonLines,
  parseJsonLines,
  ProblemCollector,
  validateRecord,
} from './jsonl';
import { IdSchema, nonEmptyText } from './summaries';
import type { FileHead, FormatParser, ImportedSummary, SourceFile } from './types';

export const ACCURACY_RECORD_TYPES = [
  'summary',
  'system_output',
  'key_facts',
  'claims',
  'claim_label',
  'key_fact_label',
  'sentence_keyfact_label',
  'claim_prediction',
  'key_fact_prediction',
  'sentence_keyfact_prediction',
] as const;

const Index = z.number().int().min(0);
const Bit = z.union([z.literal(0), z.literal(1), z.boolean()]).transform((v) => v === true || v === 1);
const Dataset = z.string().trim().min(1).optional();
const Name = z.string().trim().min(1).max(200);
const Refs = { claims: z.array(Index).default([]), sentences: z.array(Index).default([]) };
const Text = nonEmptyText('a non-empty text');

const RecordSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('summary'),
    dataset: Dataset,
    doc_id: IdSchema,
    document: z.string().nullable(),
    summary_id: IdSchema,
    summary: Text,
    sentences: z.array(Text).nullish(),
    system: Name.nullish(),
  }),
  z
    .object({
      type: z.literal('system_output'),
      dataset: Dataset,
      doc_id: IdSchema,
      system: Name,
      summary_id: IdSchema.nullish(),
      failure: SystemFailureSchema.nullish(),
      message: z.string().nullish(),
    })
    .refine((r) => (r.summary_id == null) !== (r.failure == null), {
      message: 'either summary_id or failure',
      path: ['failure'],
    }),
  z.object({
    type: z.literal('key_facts'),
    dataset: Dataset,
    doc_id: IdSchema,
    facts: z.array(Text).min(1),
    extractor: Name.nullish(),
    extractor_version: z.string().nullish(),
  }),
  z.object({
    type: z.literal('claims'),
    dataset: Dataset,
    summary_id: IdSchema,
    claims: z.array(z.object({ sentence_index: Index, text: Text })).min(1),
    decomposer: Name.nullish(),
    decomposer_version: z.string().nullish(),
  }),
  z
    .object({
      type: z.literal('claim_label'),
      dataset: Dataset,
      summary_id: IdSchema,
      claim_index: Index,
      annotator: Name,
      // null: a note on a claim its annotator has not labeled.
      label: ClaimLabelSchema.nullable(),
      error_type: ClaimErrorTypeSchema.nullish(),
      source_error_type: z.string().nullish(),
      note: z.string().nullish(),
    })
    .refine((r) => r.error_type == null || r.label === 'unsupported', {
      message: 'an error type only on an unsupported claim',
      path: ['error_type'],
    })
    .refine((r) => r.label !== null || (r.note ?? '') !== '', {
      message: 'a label, or a note on an unlabeled claim',
      path: ['label'],
    }),
  z
    .object({
      type: z.literal('key_fact_label'),
      dataset: Dataset,
      summary_id: IdSchema,
      key_fact_index: Index,
      annotator: Name,
      label: KeyFactLabelSchema.nullable(),
      ...Refs,
      note: z.string().nullish(),
    })
    .refine((r) => r.label !== null || (r.note ?? '') !== '', {
      message: 'a label, or a note on an unlabeled key fact',
      path: ['label'],
    }),
  z.object({
    type: z.literal('sentence_keyfact_label'),
    dataset: Dataset,
    summary_id: IdSchema,
    sentence_index: Index,
    annotator: Name,
    conveys: Bit,
  }),
  z.object({
    type: z.literal('claim_prediction'),
    dataset: Dataset,
    summary_id: IdSchema,
    claim_index: Index,
    judge: Name,
    supported: Bit,
    error_type: ClaimErrorTypeSchema.nullish(),
    source_error_type: z.string().nullish(),
    raw: z.string().nullish(),
  }),
  z.object({
    type: z.literal('key_fact_prediction'),
    dataset: Dataset,
    summary_id: IdSchema,
    key_fact_index: Index,
    judge: Name,
    covered: Bit,
    ...Refs,
    raw: z.string().nullish(),
  }),
  z.object({
    type: z.literal('sentence_keyfact_prediction'),
    dataset: Dataset,
    summary_id: IdSchema,
    sentence_index: Index,
    judge: Name,
    conveys: Bit,
  }),
]);

/** The columns of the CSV form: every record field, `type` first (nested values are JSON cells). */
export const ACCURACY_CSV_COLUMNS = [
  'type',
  'dataset',
  'doc_id',
  'summary_id',
  'system',
  'document',
  'summary',
  'sentences',
  'failure',
  'message',
  'facts',
  'extractor',
  'extractor_version',
  'claims',
  'decomposer',
  'decomposer_version',
  'source',
  'version',
  'claim_index',
  'key_fact_index',
  'sentence_index',
  'annotator',
  'judge',
  'label',
  'error_type',
  'source_error_type',
  'supported',
  'covered',
  'conveys',
  'note',
  'raw',
  'blind',
] as const;

/** CSV cells that hold numbers or JSON (lists, the claims of a claims record). */
const NUMBER_CELLS = new Set([
  'claim_index',
  'key_fact_index',
  'sentence_index',
  'supported',
  'covered',
  'conveys',
  'version',
]);
const JSON_CELLS = new Set(['sentences', 'facts', 'claims']);
const CSV_SIGNATURE = ['type', 'dataset', 'summary_id'];

function isAccuracyHead(head: string): boolean {
  if (!looksLikeJsonLines(head)) return false;
  const first = head.split(/\r\n|\n|\r/).find((l) => l.trim() !== '') ?? '';
  const keys = firstLineKeys(head);
  const type = /"type"\s*:\s*"([a-z_]+)"/.exec(first)?.[1];
  return keys.includes('type') && type !== undefined && (ACCURACY_RECORD_TYPES as readonly string[]).includes(type);
}

/** A CSV whose header has type, dataset and summary_id and only accuracy columns (what the export writes). */
function isAccuracyCsv(file: FileHead): boolean {
  if (!isCsvText(file)) return false;
  const header = csvHeaderOf(file.head);
  const known = new Set<string>(ACCURACY_CSV_COLUMNS);
  return CSV_SIGNATURE.every((c) => header.includes(c)) && header.every((c) => known.has(c));
}

/** One CSV row as the record object the schema reads: empty cells absent, numbers and JSON cells parsed. */
function csvRecord(
  values: Record<string, string>,
  place: { file: string; line: number },
  problems: ProblemCollector,
): Record<string, unknown> | null {
  const out: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(values)) {
    if (raw === '') {
      if (name === 'document') out[name] = null; // a summary whose document was missing
      continue;
    }
    if (NUMBER_CELLS.has(name)) {
      const n = Number(raw);
      out[name] = raw.trim() !== '' && Number.isFinite(n) ? n : raw;
    } else if (JSON_CELLS.has(name)) {
      try {
        out[name] = JSON.parse(raw) as unknown;
      } catch {
        problems.add({
          ...place,
          field: name,
          expected: 'a JSON list (as the export writes it)',
          found: describeValue(raw),
        });
        return null;
      }
    } else if (name === 'blind') out[name] = raw === '1' || raw === 'true';
    else out[name] = raw;
  }
  return out;
}

type AccuracyRecord = z.infer<typeof RecordSchema>;

/** A source error name without a card type beside it: FineSurE's names (FINESURE_ERROR_TYPE) map; others stay unmapped. */
const mappedSourceType = (name: string | null | undefined) => (name ? (fineSurEErrorType(name) ?? null) : null);

/** Files one validated record into the import (both forms share it). */
function addRecord(
  r: AccuracyRecord,
  dataset: string,
  place: { file: string; line: number },
  out: ReturnType<typeof emptyAccuracyImport>,
  summaries: ImportedSummary[],
): void {
  const refs = (x: { claims: number[]; sentences: number[] }) => ({ claims: x.claims, sentences: x.sentences });
  switch (r.type) {
    case 'summary':
      summaries.push({
        dataset,
        docId: r.doc_id,
        document: r.document,
        summaryId: r.summary_id,
        summary: r.summary,
        label: null,
        sentences: r.sentences ?? null,
        meta: r.system ? { system: r.system } : {},
        source: place,
      });
      if (r.system)
        out.systemOutputs.push({
          dataset,
          docId: r.doc_id,
          system: r.system,
          summaryId: r.summary_id,
          failure: null,
          failureMessage: null,
          source: place,
        });
      break;
    case 'system_output':
      out.systemOutputs.push({
        dataset,
        docId: r.doc_id,
        system: r.system,
        summaryId: r.summary_id ?? null,
        failure: r.failure ?? null,
        failureMessage: r.message ?? null,
        source: place,
      });
      break;
    case 'key_facts':
      out.keyFactSets.push({
        dataset,
        docId: r.doc_id,
        facts: r.facts,
        maker: r.extractor ?? `import:${place.file}`,
        makerVersion: r.extractor_version ?? 'given',
        source: place,
      });
      break;
    case 'claims':
      out.claimSets.push({
        dataset,
        summaryId: r.summary_id,
        claims: r.claims.map((c) => ({ sentenceIndex: c.sentence_index, text: c.text })),
        maker: r.decomposer ?? `import:${place.file}`,
        makerVersion: r.decomposer_version ?? 'given',
        source: place,
      });
      break;
    case 'claim_label':
      out.claimLabels.push({
        dataset,
        summaryId: r.summary_id,
        claimIndex: r.claim_index,
        annotator: r.annotator,
        label: r.label,
        errorType: r.error_type ?? (r.label === 'unsupported' ? mappedSourceType(r.source_error_type) : null),
        sourceErrorType: r.source_error_type ?? null,
        note: r.note ?? null,
        source: place,
      });
      break;
    case 'key_fact_label':
      out.keyFactLabels.push({
        dataset,
        summaryId: r.summary_id,
        factIndex: r.key_fact_index,
        annotator: r.annotator,
        label: r.label,
        conveyedBy: refs(r),
        note: r.note ?? null,
        source: place,
      });
      break;
    case 'sentence_keyfact_label':
      out.sentenceKeyFactLabels.push({
        dataset,
        summaryId: r.summary_id,
        sentenceIndex: r.sentence_index,
        annotator: r.annotator,
        conveys: r.conveys,
        source: place,
      });
      break;
    case 'claim_prediction':
      out.claimPredictions.push({
        dataset,
        summaryId: r.summary_id,
        claimIndex: r.claim_index,
        judge: r.judge,
        supported: r.supported,
        errorType: r.supported ? null : (r.error_type ?? mappedSourceType(r.source_error_type)),
        sourceErrorType: r.source_error_type ?? null,
        raw: r.raw ?? null,
        source: place,
      });
      break;
    case 'key_fact_prediction':
      out.keyFactPredictions.push({
        dataset,
        summaryId: r.summary_id,
        factIndex: r.key_fact_index,
        judge: r.judge,
        covered: r.covered,
        conveyedBy: refs(r),
        raw: r.raw ?? null,
        source: place,
      });
      break;
    case 'sentence_keyfact_prediction':
      out.sentenceKeyFactPredictions.push({
        dataset,
        summaryId: r.summary_id,
        sentenceIndex: r.sentence_index,
        judge: r.judge,
        conveys: r.conveys,
        source: place,
      });
      break;
  }
}

export const accuracyParser: FormatParser = {
  kind: 'accuracy',
  description:
    'Claims and key facts with their labels, judge outputs and system outputs (Loupe JSON Lines, one record per line with "type"; or the same records as CSV rows)',
  mapping: 'Annotators and judges named in the file are imported label sets and imported judges; indexes are 0-based.',
  ...detectPerFile((file) => (isAccuracyHead(file.head) || isAccuracyCsv(file) ? 2 : 0)),

  parse(files: SourceFile[], options) {
    const problems = new ProblemCollector();
    const out = emptyAccuracyImport();
    const summaries: ImportedSummary[] = [];
    for (const file of files) {
      const lines: Array<{ line: number; value: unknown }> = [];
      if (isCsvText(file) && !looksLikeJsonLines(file.text.slice(0, 4096))) {
        const table = readCsv(file, { required: ['type'], optional: ACCURACY_CSV_COLUMNS }, problems);
        for (const row of table?.rows ?? []) {
          const value = csvRecord(row.values, { file: file.path, line: row.line }, problems);
          if (value !== null) lines.push({ line: row.line, value });
        }
      } else lines.push(...parseJsonLines(file, problems));
      for (const { line, value } of lines) {
        const place = { file: file.path, line };
        const r = validateRecord(RecordSchema, value, place, problems);
        if (!r) continue;
        const dataset = options.dataset ?? r.dataset;
        if (dataset === undefined) {
          problems.add({
            ...place,
            field: 'dataset',
            expected: 'a dataset (in the record, or name one for the import)',
          });
          continue;
        }
        addRecord(r, dataset, place, out, summaries);
      }
    }
    problems.throwIfAny();
    return {
      kind: 'accuracy',
      summaries,
      labels: [],
      predictions: [],
      filesUsed: files.map((f) => f.path),
      notes: [],
      accuracy: out,
    };
  },
};
