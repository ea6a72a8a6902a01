/**
 * HaluEval summarization (RUCAIBox/HaluEval, data/summarization_data.json): JSON Lines with
 * `document`, `right_summary` (global label 1) and `hallucinated_summary` (global label 0).
 * The file has no ids, so both come from the physical line number.
 */
import { z } from 'zod';
import { firstLineKeys, parseJsonLines, ProblemCollector, validateRecord } from './jsonl';
import { nonEmptyText } from './summaries';
import type { FileHead, FormatParser, ImportedSummary } from './types';
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
    const problems = new ProblemCollector();
    const summaries: ImportedSummary[] = [];
    const dataset = options.dataset ?? 'halueval';
    let trimmed = 0;
    for (const file of files) {
      for (const { line, value } of parseJsonLines(file, problems)) {
        if (problems.full) break;
        const record = validateRecord(HaluEvalRecordSchema, value, { file: file.path, line }, problems);
        if (!record) continue;
        // Several files would reuse line numbers: prefix ids with the file only then.
        const prefix = files.length > 1 ? `${file.path}:` : '';
        for (const [variant, text, label] of [
          ['right', record.right_summary, 1],
          ['hallucinated', record.hallucinated_summary, 0],
        ] as const) {
          // right_summary ends with "\n" in the release; the line break carries no meaning.
          const summary = text.trim();
          if (summary !== text) trimmed += 1;
          summaries.push({
            dataset,
            docId: `${prefix}line-${line}`,
            document: record.document,
            summaryId: `${prefix}${line}-${variant}`,
            summary,
            label,
            sentences: null,
            meta: { variant },
            source: { file: file.path, line },
          });
        }
      }
    }
    problems.throwIfAny();
    const notes = [
      `${summaries.length / 2} documents, each with a faithful (label 1) and a hallucinated (label 0) summary: ${summaries.length} summaries in dataset "${dataset}".`,
      'Ids come from line numbers: document "line-N", summaries "N-right" and "N-hallucinated".',
      'No sentence labels: Loupe splits the summaries itself.',
    ];
    if (trimmed > 0)
      notes.push(`${trimmed} summaries had surrounding white space (e.g. a trailing line break), removed.`);
    return { kind: 'halueval', summaries, labels: [], predictions: [], filesUsed: files.map((f) => f.path), notes };
  },
};
