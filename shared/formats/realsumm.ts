/**
 * REALSumm (Bhandari et al., 2020) in FineSurE's format (Song et al., 2024): JSON Lines files,
 * each recognised by its content whatever its name:
 *  - summary records (`realsumm-data*.json`): doc_id, model (the system), transcript, sentences,
 *    raw_annotations = per annotator key_fact_labels (1 = the key fact is conveyed, one per key
 *    fact of the document, in list order) and sentence_labels (1 = the sentence conveys a key fact);
 *  - the same records with a judge's alignment (`keyfact-alignment/raw-data.json`): llm_output,
 *    pred_alignment_labels (one per key fact), pred_sentence_line_numbers (1-based lines);
 *  - key-fact lists (`human-keyfact-list.json`): doc_id, key_facts (written by people).
 * `sentences`, `raw_annotations` and `key_facts` may be JSON or Python-literal strings.
 *
 * A list of labels or an alignment whose length does not fit (or a document without a key-fact
 * list) is left out and reported per record; a malformed file is refused whole.
 */
import { z } from 'zod';
import {
  firstLineKeys,
  looksLikeJsonLines,
  parseJsonLines,
  ProblemCollector,
  validateRecord,
  type ProblemPlace,
} from './jsonl';
import { jsonOrPyLiteral, PyLiteralError } from './pyliteral';
import { IdSchema, nonEmptyText } from './summaries';
import { emptyAccuracyImport, type AccuracyImport } from './accuracy-types';
import type { FileHead, FormatParser, ImportedSummary, SkippedPredictions, SourceFile } from './types';

export const REALSUMM_JUDGE = 'finesure-gpt-4 alignment (imported)';
export const REALSUMM_ANNOTATOR_PREFIX = 'realsumm-';
export const REALSUMM_EXTRACTOR = 'realsumm-human-keyfacts';

const Bit = z.literal([0, 1]);
const SummaryRecordSchema = z.looseObject({
  doc_id: IdSchema,
  model: z.string().trim().min(1),
  transcript: nonEmptyText('a non-empty transcript (the document)'),
  sentences: z.array(nonEmptyText('a non-empty sentence')).min(1),
  // Either list may be absent: FineSurE's RealSumm gives a fourth annotator key-fact labels only.
  raw_annotations: z
    .record(
      z.string().min(1),
      z.object({ key_fact_labels: z.array(Bit).optional(), sentence_labels: z.array(Bit).optional() }),
    )
    .optional(),
  llm_output: z.string().nullish(),
  pred_alignment_labels: z.array(Bit).nullish(),
  pred_sentence_line_numbers: z.array(z.number().int()).nullish(),
});
type SummaryRecord = z.infer<typeof SummaryRecordSchema>;

const KeyFactListSchema = z.looseObject({
  doc_id: IdSchema,
  key_facts: z.array(nonEmptyText('a non-empty key fact')).min(1),
});

function headKind(head: string): 'summaries' | 'keyfacts' | null {
  if (!looksLikeJsonLines(head)) return null;
  const keys = firstLineKeys(head);
  if (keys.includes('key_facts') && keys.includes('doc_id')) return 'keyfacts';
  if (/["']key_fact_labels["']|"pred_alignment_labels"/.test(head) && keys.includes('doc_id')) return 'summaries';
  return null;
}

/** FineSurE JSON Lines with key-fact material (frank.ts leaves these to this parser). */
export function isRealSummHead(file: FileHead): boolean {
  return headKind(file.head) !== null;
}

/** Fields that may be Python-literal strings, converted before validation (a bad literal is a problem at its field). */
function literalFields(
  value: unknown,
  fields: readonly string[],
  place: ProblemPlace,
  problems: ProblemCollector,
): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const field of fields) {
    if (!(field in out)) continue;
    try {
      out[field] = jsonOrPyLiteral(out[field]);
    } catch (error) {
      problems.add({
        ...place,
        field,
        expected: 'a JSON list/object or a Python literal of one',
        found: error instanceof PyLiteralError ? error.message : String(error),
      });
      return undefined;
    }
  }
  return out;
}

/** The same summary of the same document: a record and an alignment of it can be read together. */
function sameSummary(a: SummaryRecord, b: SummaryRecord): boolean {
  return (
    a.transcript === b.transcript &&
    JSON.stringify(a.sentences.map((x) => x.trim())) === JSON.stringify(b.sentences.map((x) => x.trim()))
  );
}

/** Per key fact, the 1-based lines the judge named, read from its raw answer; null when it does not parse or does not fit. */
function alignmentLines(llmOutput: string | null | undefined, facts: number): number[][] | null {
  if (!llmOutput) return null;
  const body = /```(?:json)?\s*([\s\S]*?)```/.exec(llmOutput)?.[1] ?? llmOutput;
  try {
    const parsed = JSON.parse(body) as unknown;
    if (!Array.isArray(parsed) || parsed.length !== facts) return null;
    return parsed.map((entry) => {
      const lines = (entry as Record<string, unknown> | null)?.['line number'];
      return Array.isArray(lines) ? lines.filter((n): n is number => Number.isInteger(n)) : [];
    });
  } catch {
    return null;
  }
}

export const realsummParser: FormatParser = {
  kind: 'realsumm',
  description:
    "REALSumm in FineSurE format: summaries with annotators' key-fact and sentence labels, human key-fact lists, a judge's key-fact alignment (JSON Lines)",
  mapping:
    'Summaries: id "<doc_id>:<model>", system = model, sentences as given. Annotators realsumm-<key> (imported; each list used where it exists): key_fact_labels 1 → covered, 0 → not covered; ' +
    `sentence_labels 1 → the sentence conveys a key fact. Key facts: key_facts of the human list (source imported). Judge "${REALSUMM_JUDGE}": pred_alignment_labels, pred_sentence_line_numbers (1-based), per-fact lines from llm_output.`,

  sniff(files) {
    return files.some(isRealSummHead) ? 2 : 0;
  },

  select(files) {
    return files.filter(isRealSummHead).map((f) => f.path);
  },

  parse(files: SourceFile[], options) {
    const problems = new ProblemCollector();
    const dataset = options.dataset ?? 'realsumm';
    const records = new Map<string, { value: SummaryRecord; place: ProblemPlace }>();
    const alignments = new Map<string, { value: SummaryRecord; place: ProblemPlace }>();
    const keyFacts = new Map<string, { facts: string[]; place: ProblemPlace }>();
    const filesUsed: string[] = [];

    for (const file of files) {
      if (problems.full) break;
      const kind = headKind(file.text.slice(0, 1 << 20));
      if (kind === null) {
        problems.add({
          file: file.path,
          expected:
            'a REALSumm/FineSurE JSON Lines file (summary records with raw_annotations or pred_alignment_labels, or key-fact lists with key_facts)',
        });
        continue;
      }
      filesUsed.push(file.path);
      for (const { line, value } of parseJsonLines(file, problems)) {
        const place = { file: file.path, line };
        if (kind === 'keyfacts') {
          const record = validateRecord(
            KeyFactListSchema,
            literalFields(value, ['key_facts'], place, problems),
            place,
            problems,
          );
          if (!record) continue;
          const earlier = keyFacts.get(record.doc_id);
          if (earlier && JSON.stringify(earlier.facts) !== JSON.stringify(record.key_facts)) {
            problems.add({
              ...place,
              field: 'key_facts',
              expected: `the same key facts as ${earlier.place.file} line ${earlier.place.line ?? '?'} (same doc_id)`,
              found: 'a different list',
            });
            continue;
          }
          if (!earlier) keyFacts.set(record.doc_id, { facts: record.key_facts, place });
          continue;
        }
        const record = validateRecord(
          SummaryRecordSchema,
          literalFields(value, ['sentences', 'raw_annotations'], place, problems),
          place,
          problems,
        );
        if (!record) continue;
        const k = `${record.doc_id}:${record.model}`;
        // A judge's record (it has an alignment) is read apart from the people's: its copy of the summary may differ.
        const target = record.pred_alignment_labels ? alignments : records;
        const earlier = target.get(k);
        if (!earlier) {
          target.set(k, { value: record, place });
          continue;
        }
        if (target === alignments) {
          if (
            JSON.stringify(earlier.value.pred_alignment_labels) !== JSON.stringify(record.pred_alignment_labels) ||
            !sameSummary(earlier.value, record)
          ) {
            problems.add({
              ...place,
              field: 'pred_alignment_labels',
              expected: `the same alignment as ${earlier.place.file} line ${earlier.place.line ?? '?'}`,
              found: 'a different one',
            });
          }
          continue;
        }
        if (
          !sameSummary(earlier.value, record) ||
          JSON.stringify(earlier.value.raw_annotations ?? null) !==
            JSON.stringify(record.raw_annotations ?? earlier.value.raw_annotations ?? null)
        ) {
          problems.add({
            ...place,
            field: 'sentences',
            expected: `the same summary and annotations as ${earlier.place.file} line ${earlier.place.line ?? '?'} (same doc_id and model)`,
            found: 'different ones',
          });
          continue;
        }
        if (!earlier.value.raw_annotations && record.raw_annotations) records.set(k, { value: record, place });
      }
    }
    problems.throwIfAny();

    const summaries: ImportedSummary[] = [];
    const accuracy: AccuracyImport = emptyAccuracyImport();
    const skipped: SkippedPredictions[] = [];
    const notes: string[] = [];
    const docsWithoutFacts = new Set<string>();

    // The people's record of each summary is the data file's; an alignment file's copy stands in when there is none.
    for (const [k, aligned] of alignments) {
      const own = records.get(k);
      if (!own) {
        records.set(k, aligned);
      } else if (!sameSummary(own.value, aligned.value)) {
        // A run on a perturbed copy of the summary: its verdicts do not fit the people's record.
        alignments.delete(k);
        skipped.push({
          ...aligned.place,
          summaryId: k,
          field: 'sentences',
          expected: own.value.sentences.length,
          found: aligned.value.sentences.length,
          reason: `its summary differs from the one in ${own.place.file} line ${own.place.line ?? '?'} (same doc_id and model); the people's record is kept, the alignment left out`,
        });
      } else if (!own.value.raw_annotations && aligned.value.raw_annotations) {
        records.set(k, {
          value: { ...own.value, raw_annotations: aligned.value.raw_annotations },
          place: aligned.place,
        });
      }
    }

    for (const [summaryId, { value: r, place }] of records) {
      const sentences = r.sentences.map((s) => s.trim());
      summaries.push({
        dataset,
        docId: r.doc_id,
        document: r.transcript,
        summaryId,
        summary: sentences.join(' '),
        label: null,
        sentences,
        meta: { model: r.model, source: r['source'] ?? null, split: r['split'] ?? null, system: r.model },
        source: place,
      });
      accuracy.systemOutputs.push({
        dataset,
        docId: r.doc_id,
        system: r.model,
        summaryId,
        failure: null,
        failureMessage: null,
        source: place,
      });
      const facts = keyFacts.get(r.doc_id)?.facts ?? null;
      // Each annotator's lists are used where they exist (a fourth annotator may have key-fact labels only).
      for (const [annotatorKey, a] of Object.entries(r.raw_annotations ?? {})) {
        const annotator = `${REALSUMM_ANNOTATOR_PREFIX}${annotatorKey.replace(/^annotator_/, '')}`;
        if (facts === null) docsWithoutFacts.add(r.doc_id);
        else if (a.key_fact_labels !== undefined && a.key_fact_labels.length !== facts.length) {
          skipped.push({
            ...place,
            summaryId,
            field: `raw_annotations.${annotatorKey}.key_fact_labels`,
            expected: facts.length,
            found: a.key_fact_labels.length,
          });
        } else if (a.key_fact_labels !== undefined) {
          a.key_fact_labels.forEach((bit, factIndex) =>
            accuracy.keyFactLabels.push({
              dataset,
              summaryId,
              factIndex,
              annotator,
              label: bit === 1 ? 'covered' : 'not_covered',
              conveyedBy: { claims: [], sentences: [] },
              note: null,
              source: place,
            }),
          );
        }
        if (facts === null || a.sentence_labels === undefined) continue;
        if (a.sentence_labels.length !== sentences.length) {
          skipped.push({
            ...place,
            summaryId,
            field: `raw_annotations.${annotatorKey}.sentence_labels`,
            expected: sentences.length,
            found: a.sentence_labels.length,
          });
        } else {
          a.sentence_labels.forEach((bit, sentenceIndex) =>
            accuracy.sentenceKeyFactLabels.push({
              dataset,
              summaryId,
              sentenceIndex,
              annotator,
              conveys: bit === 1,
              source: place,
            }),
          );
        }
      }
      const aligned = alignments.get(summaryId);
      if (aligned && facts !== null) {
        const a = aligned.value;
        const labels = a.pred_alignment_labels!;
        if (labels.length !== facts.length) {
          skipped.push({
            ...aligned.place,
            summaryId,
            field: 'pred_alignment_labels',
            expected: facts.length,
            found: labels.length,
          });
        } else {
          const lines = alignmentLines(a.llm_output, facts.length);
          labels.forEach((bit, factIndex) => {
            const named =
              bit === 1
                ? (lines?.[factIndex] ?? []).filter((n) => n >= 1 && n <= sentences.length).map((n) => n - 1)
                : [];
            accuracy.keyFactPredictions.push({
              dataset,
              summaryId,
              factIndex,
              judge: REALSUMM_JUDGE,
              covered: bit === 1,
              conveyedBy: { claims: [], sentences: named },
              raw: null,
              source: aligned.place,
            });
          });
          const lineNumbers = a.pred_sentence_line_numbers;
          if (lineNumbers) {
            const outOfRange = lineNumbers.filter((n) => n < 1 || n > sentences.length);
            if (outOfRange.length > 0) {
              skipped.push({
                ...aligned.place,
                summaryId,
                field: 'pred_sentence_line_numbers',
                expected: sentences.length,
                found: Math.max(...outOfRange),
              });
            } else {
              const conveying = new Set(lineNumbers);
              sentences.forEach((_, sentenceIndex) =>
                accuracy.sentenceKeyFactPredictions.push({
                  dataset,
                  summaryId,
                  sentenceIndex,
                  judge: REALSUMM_JUDGE,
                  conveys: conveying.has(sentenceIndex + 1),
                  source: aligned.place,
                }),
              );
            }
          }
        }
      } else if (aligned && facts === null) {
        docsWithoutFacts.add(r.doc_id);
      }
    }
    // Every list is kept: a list may come before or after its summaries (the writer resolves the document in the batch or the project).
    for (const [docId, list] of keyFacts) {
      accuracy.keyFactSets.push({
        dataset,
        docId,
        facts: list.facts,
        maker: REALSUMM_EXTRACTOR,
        makerVersion: 'given',
        source: list.place,
      });
    }
    if (docsWithoutFacts.size > 0) {
      notes.push(
        `No key-fact list for ${docsWithoutFacts.size} document(s) (${[...docsWithoutFacts].slice(0, 10).join(', ')}): their summaries were imported without key-fact labels or alignment. Import the key-fact list with them.`,
      );
    }
    if (skipped.length > 0)
      notes.push(
        `${skipped.length} label list(s) or alignment(s) did not fit their record and were left out (listed with file and line).`,
      );
    return {
      kind: 'realsumm',
      summaries,
      labels: [],
      predictions: [],
      filesUsed,
      notes,
      predictionsSkipped: skipped,
      accuracy,
    };
  },
};
