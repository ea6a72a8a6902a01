/**
 * Judge predictions run elsewhere (kind `predictions`), JSON Lines or CSV, one row per sentence
 * and judge: summary_id, sentence_index (0-based), judge, hard (1 faithful / 0 not), optional
 * soft (P(faithful) in [0, 1]), optional dataset, optional config_hash (the judge version; Loupe's
 * own export writes it). Whether the sentence exists is checked by the import service.
 */
import { z } from 'zod';
import type { CsvRow } from './csv';
import { FirstOccurrence, readTabularRecords } from './rows';
import { describeValue, ProblemCollector, validateRecord } from './jsonl';
import { IdSchema, recordKeysOf } from './summaries';
import type { FormatParser, ImportedPrediction } from './types';
import { detectPerFile } from './detection';

const PredictionRecordSchema = z.object({
  dataset: z.string().trim().min(1).nullish(),
  summary_id: IdSchema,
  sentence_index: z.number({ error: 'a whole number ≥ 0 (0 = first sentence)' }).int().min(0),
  judge: z.string({ error: 'a judge name' }).trim().min(1).max(200),
  hard: z.literal([0, 1], { error: '0 (unfaithful) or 1 (faithful)' }),
  soft: z.number({ error: 'a probability from 0 to 1' }).min(0).max(1).nullish(),
  config_hash: z.string().trim().min(1).max(200).nullish(),
});

export const PREDICTION_COLUMNS = [
  'dataset',
  'summary_id',
  'sentence_index',
  'judge',
  'hard',
  'soft',
  'config_hash',
] as const;
const REQUIRED_COLUMNS = ['summary_id', 'sentence_index', 'judge', 'hard'] as const;

function predictionsScore(keys: readonly string[]): 0 | 1 | 2 {
  const has = (k: string) => keys.includes(k);
  if (!has('judge') || !has('hard')) return 0;
  return has('summary_id') && has('sentence_index') ? 2 : 1;
}

/** CSV cells are text: numbers where the column is numeric, empty optional cells left out. */
function csvRowToRecord(row: CsvRow): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of PREDICTION_COLUMNS) {
    const raw = row.values[key];
    if (raw === undefined) continue;
    const value = raw.trim();
    const required = (REQUIRED_COLUMNS as readonly string[]).includes(key);
    if (!required && value === '') continue;
    if (key === 'sentence_index' || key === 'hard') out[key] = /^\d+$/.test(value) ? Number(value) : value;
    else if (key === 'soft') out[key] = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(value) ? Number(value) : value;
    else out[key] = value;
  }
  return out;
}

export const predictionsParser: FormatParser = {
  kind: 'predictions',
  description:
    'Judge predictions (JSONL or CSV): summary_id, sentence_index (0-based), judge, hard (0/1), optional soft, dataset, config_hash',
  mapping:
    'hard: 1 faithful / 0 unfaithful; soft: P(faithful) from 0 to 1; config_hash: the judge version (Loupe exports write it).',

  ...detectPerFile((f) => predictionsScore(recordKeysOf(f))),

  parse(files, options) {
    const problems = new ProblemCollector();
    const predictions: ImportedPrediction[] = [];
    const notes: string[] = [];
    const firsts = new FirstOccurrence();

    for (const file of files) {
      const records = readTabularRecords(
        file,
        { noun: 'prediction', required: REQUIRED_COLUMNS, optional: PREDICTION_COLUMNS, fromCsv: csvRowToRecord },
        problems,
        notes,
      );
      for (const { place, value } of records) {
        if (problems.full) break;
        const record = validateRecord(PredictionRecordSchema, value, place, problems);
        if (!record) continue;
        const dataset = options.dataset ?? record.dataset ?? null;
        const configHash = record.config_hash ?? null;
        const key = JSON.stringify([dataset, record.summary_id, record.sentence_index, record.judge, configHash]);
        const where = firsts.earlier(key, place);
        if (where) {
          problems.add({
            ...place,
            field: 'sentence_index',
            expected: 'one prediction per (dataset, summary_id, sentence_index, judge, config_hash)',
            found: `a second prediction for summary "${record.summary_id}" sentence ${record.sentence_index} by ${describeValue(record.judge)}; first on ${where}`,
          });
          continue;
        }
        predictions.push({
          dataset,
          summaryId: record.summary_id,
          sentenceIndex: record.sentence_index,
          judge: record.judge,
          hard: record.hard,
          soft: record.soft ?? null,
          raw: null,
          configHash,
          source: { file: place.file, line: place.line },
        });
      }
    }
    problems.throwIfAny();
    const judges = [...new Set(predictions.map((p) => p.judge))];
    notes.unshift(
      `${predictions.length} sentence predictions by ${judges.length} judge(s) (${judges.join(', ')}); ` +
        `${predictions.filter((p) => p.soft !== null).length} with a soft label.`,
    );
    return { kind: 'predictions', summaries: [], labels: [], predictions, filesUsed: files.map((f) => f.path), notes };
  },
};
