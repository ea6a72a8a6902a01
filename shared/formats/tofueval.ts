/**
 * TofuEval (amazon-science/tofueval, factual_consistency/*_factual_eval_*.csv): one row per summary
 * sentence with an expert label, no document text. A summary is the rows with the same
 * (doc_id, topic, model_name), in sent_idx order.
 */
import { z } from 'zod';
import type { ErrorType } from '../domain';
import { csvHeaderOf, readCsv } from './csv';
import { listForNote, ProblemCollector, validateRecord } from './jsonl';
import { nonEmptyText } from './summaries';
import type { FileHead, FormatParser, ImportedLabel, ImportedSummary } from './types';
import { detectPerFile } from './detection';

export const TOFUEVAL_ANNOTATOR = 'tofueval-expert';

const REQUIRED_COLUMNS = [
  'doc_id',
  'annotation_id',
  'topic',
  'model_name',
  'sent_idx',
  'summ_sent',
  'sent_label',
] as const;
const OPTIONAL_COLUMNS = ['exp', 'type'] as const;

const TofuEvalRowSchema = z.object({
  doc_id: z.string().trim().min(1),
  annotation_id: z.string().trim().min(1),
  topic: z.string().trim().min(1),
  model_name: z.string().trim().min(1),
  sent_idx: z
    .string()
    .regex(/^\s*[1-9]\d*\s*$/, { error: 'a whole number ≥ 1 (sent_idx is 1-based)' })
    .transform(Number),
  summ_sent: nonEmptyText('a non-empty sentence'),
  sent_label: z.enum(['yes', 'no']),
  exp: z.string().optional(),
  type: z.string().optional(),
});
type TofuEvalRow = z.infer<typeof TofuEvalRowSchema>;

/** TofuEval's error types → Loupe's taxonomy where the meaning is the same; the rest is `other`. */
const ERROR_TYPE_MAP: Record<string, ErrorType> = {
  'Extrinsic Information': 'not_in_source',
  'Mis-Referencing': 'entity',
  Contradiction: 'relation',
};

/** A cell may list several types ("Mis-Referencing, Extrinsic Information"): one Loupe type only if they agree. */
export function tofuEvalErrorType(typeText: string): ErrorType | null {
  const types = typeText
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  if (types.length === 0) return null;
  const mapped = new Set(types.map((t) => ERROR_TYPE_MAP[t] ?? 'other'));
  return mapped.size === 1 ? [...mapped][0]! : 'other';
}

function tofuEvalScore(file: FileHead): 0 | 1 | 2 {
  const header = csvHeaderOf(file.head);
  if (REQUIRED_COLUMNS.every((c) => header.includes(c))) return 2;
  if (header.includes('sent_idx') && header.includes('summ_sent')) return 1;
  return 0;
}

function datasetFromFileName(path: string): string {
  if (/mediasum/i.test(path)) return 'tofueval-mediasum';
  if (/meetingbank/i.test(path)) return 'tofueval-meetingbank';
  return 'tofueval';
}

interface SentenceRow extends TofuEvalRow {
  line: number;
}
interface SummaryGroup {
  dataset: string;
  file: string;
  rows: SentenceRow[];
}

export const tofuevalParser: FormatParser = {
  kind: 'tofueval',
  description: 'TofuEval factual consistency CSVs (one row per summary sentence; documents not included)',
  mapping:
    'sent_label yes → faithful, no → unfaithful (annotator "tofueval-expert", note = exp); error type Extrinsic Information → not_in_source, ' +
    'Mis-Referencing → entity, Contradiction → relation, others → other; global label derived: 1 when every sentence is "yes". Documents are missing.',

  ...detectPerFile((f) => tofuEvalScore(f)),

  parse(files, options) {
    const problems = new ProblemCollector();
    const notes: string[] = [];
    const groups = new Map<string, SummaryGroup>();
    let duplicateRows = 0;

    for (const file of files) {
      const table = readCsv(file, { required: REQUIRED_COLUMNS, optional: OPTIONAL_COLUMNS }, problems);
      if (!table) continue;
      const dataset = options.dataset ?? datasetFromFileName(file.path);
      for (const row of table.rows) {
        if (problems.full) break;
        const place = { file: file.path, line: row.line };
        const parsed = validateRecord(TofuEvalRowSchema, row.values, place, problems);
        if (!parsed) continue;
        const summaryId = `${parsed.doc_id}:${parsed.model_name}:${parsed.topic}`;
        const key = JSON.stringify([dataset, summaryId]);
        const group = groups.get(key) ?? { dataset, file: file.path, rows: [] };
        groups.set(key, group);
        if (group.file !== file.path) {
          problems.add({
            ...place,
            expected: `summary "${summaryId}" in one file only`,
            found: `it is also in ${group.file}`,
          });
          continue;
        }
        const first = group.rows[0];
        if (first && first.annotation_id !== parsed.annotation_id) {
          problems.add({
            ...place,
            field: 'annotation_id',
            expected: `one annotation_id per summary ("${first.annotation_id}" as on line ${first.line})`,
            found: `"${parsed.annotation_id}"`,
          });
          continue;
        }
        const sameIndex = group.rows.find((r) => r.sent_idx === parsed.sent_idx);
        if (sameIndex) {
          const identical =
            sameIndex.summ_sent === parsed.summ_sent &&
            sameIndex.sent_label === parsed.sent_label &&
            sameIndex.exp === parsed.exp &&
            sameIndex.type === parsed.type;
          // The release repeats a few rows verbatim; a repeat adds nothing, a conflicting one is an error.
          if (identical) {
            duplicateRows += 1;
            continue;
          }
          problems.add({
            ...place,
            field: 'sent_idx',
            expected: `one row per sentence of summary "${summaryId}"`,
            found: `sent_idx ${parsed.sent_idx} again with different content (first on line ${sameIndex.line})`,
          });
          continue;
        }
        group.rows.push({ ...parsed, line: row.line });
      }
    }

    const summaries: ImportedSummary[] = [];
    const labels: ImportedLabel[] = [];
    const incomplete: string[] = [];
    for (const group of groups.values()) {
      const rows = [...group.rows].sort((a, b) => a.sent_idx - b.sent_idx);
      const first = rows[0];
      if (!first) continue;
      const summaryId = `${first.doc_id}:${first.model_name}:${first.topic}`;
      // A missing sentence row leaves the summary text and its derived label unknown: skip it.
      if (rows.some((r, i) => r.sent_idx !== i + 1)) {
        incomplete.push(`${summaryId} (sent_idx ${rows.map((r) => r.sent_idx).join(', ')})`);
        continue;
      }
      const sentences = rows.map((r) => r.summ_sent.trim());
      summaries.push({
        dataset: group.dataset,
        docId: first.doc_id,
        document: null,
        summaryId,
        summary: sentences.join(' '),
        label: rows.every((r) => r.sent_label === 'yes') ? 1 : 0,
        sentences,
        meta: {
          topic: first.topic,
          model: first.model_name,
          annotationId: first.annotation_id,
          labelDerived: 'all sentences "yes" → 1, else 0',
          sentenceErrorTypes: rows.map((r) => (r.type && r.type.trim() !== '' ? r.type.trim() : null)),
        },
        source: { file: group.file, line: first.line },
      });
      rows.forEach((r, index) => {
        const exp = r.exp?.trim() ?? '';
        labels.push({
          dataset: group.dataset,
          summaryId,
          sentenceIndex: index,
          label: r.sent_label === 'yes' ? 'faithful' : 'unfaithful',
          annotator: TOFUEVAL_ANNOTATOR,
          phase: 'annotation',
          errorType: r.sent_label === 'no' ? tofuEvalErrorType(r.type ?? '') : null,
          note: exp === '' ? null : exp,
          source: { file: group.file, line: r.line },
        });
      });
    }
    if (groups.size > 0 && summaries.length === 0 && problems.count === 0) {
      problems.add({
        file: files[0]?.path ?? '',
        expected: 'at least one complete summary (sent_idx 1, 2, … without gaps)',
        found: 'none',
      });
    }
    problems.throwIfAny();

    const datasets = [...new Set(summaries.map((s) => s.dataset))];
    for (const dataset of datasets) {
      const mine = summaries.filter((s) => s.dataset === dataset);
      notes.push(
        `${dataset}: ${mine.length} summaries of ${new Set(mine.map((s) => s.docId)).size} documents, ` +
          `${labels.filter((l) => l.dataset === dataset).length} expert sentence labels; ${mine.filter((s) => s.label === 1).length} summaries with every sentence "yes".`,
      );
    }
    notes.push(
      'Documents are not included (MediaSum / MeetingBank transcripts must be fetched separately): every summary is imported with its document missing.',
      'Global labels are derived, not given: 1 when every sentence is labelled "yes", else 0.',
      'Error types: Extrinsic Information → not_in_source, Mis-Referencing → entity, Contradiction → relation, others (and mixed lists) → other; the original text is kept in the summary meta (sentenceErrorTypes).',
    );
    if (duplicateRows > 0) notes.push(`${duplicateRows} row(s) repeated verbatim were read once.`);
    if (incomplete.length > 0) {
      notes.push(
        `${incomplete.length} summaries skipped because sentence rows are missing (sent_idx has gaps): ${listForNote(incomplete, '; ')}.`,
      );
    }
    return { kind: 'tofueval', summaries, labels, predictions: [], filesUsed: files.map((f) => f.path), notes };
  },
};
