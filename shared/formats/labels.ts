/**
 * Loupe's sentence labels format (kind `labels`), JSON Lines or CSV:
 * summary_id, sentence_index (0-based), label, annotator, optional dataset, phase, error_type, note.
 * Whether the summary and unit exist is checked by the import service against the project.
 */
import { z } from 'zod';
import { ERROR_TYPES, ErrorTypeSchema, HUMAN_LABELS, HumanLabelSchema, PHASES, PhaseSchema } from '../domain';
import type { CsvRow } from './csv';
import { FirstOccurrence, readTabularRecords } from './rows';
import { ProblemCollector, validateRecord } from './jsonl';
import { IdSchema, recordKeysOf } from './summaries';
import type { FormatParser, ImportedLabel } from './types';
import { detectPerFile } from './detection';

const LabelRecordSchema = z
  .object({
    dataset: z.string().trim().min(1).nullish(),
    summary_id: IdSchema,
    sentence_index: z.number({ error: 'a whole number ≥ 0 (0 = first sentence)' }).int().min(0),
    label: HumanLabelSchema,
    annotator: z.string().trim().min(1),
    phase: PhaseSchema.nullish(),
    error_type: ErrorTypeSchema.nullish(),
    note: z.string().nullish(),
  })
  .superRefine((record, ctx) => {
    // An error type describes an error; on a faithful or unclear unit it is a mistake in the file.
    if (record.error_type && record.label !== 'unfaithful') {
      ctx.addIssue({
        code: 'custom',
        path: ['error_type'],
        message: `no error_type unless label is "unfaithful" (label is "${record.label}")`,
      });
    }
  });

export const LABEL_COLUMNS = [
  'dataset',
  'summary_id',
  'sentence_index',
  'label',
  'annotator',
  'phase',
  'error_type',
  'note',
] as const;
const REQUIRED_COLUMNS = ['summary_id', 'sentence_index', 'label', 'annotator'] as const;

function labelsScore(keys: readonly string[]): 0 | 1 | 2 {
  const has = (k: string) => keys.includes(k);
  if (!has('summary_id')) return 0;
  // A judge's hard label instead of a human one: the predictions kind, not this one.
  if (has('judge') && has('hard') && !has('label')) return 0;
  if (has('sentence_index')) return 2;
  // Without `summary` text it may be a labels file missing its index column.
  return has('summary') ? 0 : 1;
}

/** CSV cells are text: an empty optional cell means "not given"; an index must be digits. */
function csvRowToRecord(row: CsvRow): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of LABEL_COLUMNS) {
    const raw = row.values[key];
    if (raw === undefined) continue;
    const value = key === 'note' ? raw : raw.trim();
    const required = (REQUIRED_COLUMNS as readonly string[]).includes(key);
    if (!required && value.trim() === '') continue;
    out[key] = key === 'sentence_index' && /^\d+$/.test(value) ? Number(value) : value;
  }
  return out;
}

export const labelsParser: FormatParser = {
  kind: 'labels',
  description:
    'Loupe sentence labels (JSONL or CSV): summary_id, sentence_index (0-based), label, annotator, optional dataset/phase/error_type/note',
  mapping: `label: ${HUMAN_LABELS.join(' / ')}; phase: ${PHASES.join(' / ')} (default annotation); error_type: ${ERROR_TYPES.join(', ')}.`,

  ...detectPerFile((f) => labelsScore(recordKeysOf(f))),

  parse(files, options) {
    const problems = new ProblemCollector();
    const labels: ImportedLabel[] = [];
    const notes: string[] = [];
    const firsts = new FirstOccurrence();

    for (const file of files) {
      const records = readTabularRecords(
        file,
        { noun: 'label', required: REQUIRED_COLUMNS, optional: LABEL_COLUMNS, fromCsv: csvRowToRecord },
        problems,
        notes,
      );
      for (const { place, value } of records) {
        if (problems.full) break;
        const record = validateRecord(LabelRecordSchema, value, place, problems);
        if (!record) continue;
        const dataset = options.dataset ?? record.dataset ?? null;
        const phase = record.phase ?? 'annotation';
        const key = JSON.stringify([dataset, record.summary_id, record.sentence_index, record.annotator, phase]);
        const where = firsts.earlier(key, place);
        if (where) {
          problems.add({
            ...place,
            field: 'sentence_index',
            expected: 'one label per (dataset, summary_id, sentence_index, annotator, phase)',
            found: `a second label for summary "${record.summary_id}" sentence ${record.sentence_index} by "${record.annotator}" (${phase}); first on ${where}`,
          });
          continue;
        }
        labels.push({
          dataset,
          summaryId: record.summary_id,
          sentenceIndex: record.sentence_index,
          label: record.label,
          annotator: record.annotator,
          phase,
          errorType: record.error_type ?? null,
          note: record.note && record.note.trim() !== '' ? record.note : null,
          source: { file: place.file, line: place.line },
        });
      }
    }
    problems.throwIfAny();
    const annotators = [...new Set(labels.map((l) => l.annotator))];
    notes.unshift(
      `${labels.length} sentence labels by ${annotators.length} annotator(s) (${annotators.join(', ')}); ` +
        `${labels.filter((l) => l.phase === 'review').length} of the review phase.`,
    );
    return { kind: 'labels', summaries: [], labels, predictions: [], filesUsed: files.map((f) => f.path), notes };
  },
};
