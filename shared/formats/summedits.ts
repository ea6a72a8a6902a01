/**
 * SummEdits (salesforce/factualNLG, data/summedits/summedits_<domain>.json): a JSON list of
 * `id`, `doc`, `summary`, `label` (1 consistent / 0 not), `original_summary`, `edit_types`,
 * `split`. Global labels only.
 */
import { z } from 'zod';
import { describeValue, parseJsonDocument, ProblemCollector, validateRecord } from './jsonl';
import { nonEmptyText } from './summaries';
import type { FileHead, FormatParser, ImportedSummary } from './types';
import { detectPerFile } from './detection';

const SummEditsRecordSchema = z.object({
  id: z.string().trim().min(1),
  doc: nonEmptyText('a non-empty document text'),
  summary: nonEmptyText('a non-empty summary'),
  label: z.literal([0, 1]),
  original_summary: z.string().nullish(),
  edit_types: z.array(z.string()).nullish(),
  split: z.string().nullish(),
});

function summEditsScore(file: FileHead): 0 | 1 | 2 {
  if (!/^\uFEFF?\s*\[/.test(file.head)) return 0;
  const has = (key: string) => file.head.includes(`"${key}"`);
  if (has('original_summary') && has('edit_types') && has('doc')) return 2;
  // A long first `doc` can push the distinctive keys out of the head; the first two keys remain.
  const startsLikeSummEdits = /^\uFEFF?\s*\[\s*\{\s*"id"\s*:\s*"(?:[^"\\]|\\.)*"\s*,\s*"doc"\s*:/.test(file.head);
  if (startsLikeSummEdits) return /summedits/i.test(file.path) ? 2 : 1;
  if (has('edit_types') || has('original_summary')) return 1;
  return 0;
}

/** The domain in a file name like summedits_samsum.json, for the default dataset name. */
function domainOf(path: string): string | null {
  const match = /summedits[_-]([a-z0-9]+)/i.exec(path);
  return match?.[1] ? match[1].toLowerCase() : null;
}

export const summeditsParser: FormatParser = {
  kind: 'summedits',
  description: 'SummEdits (JSON list: id, doc, summary, label, original_summary, edit_types, split)',
  mapping:
    'label 1 → faithful (1), 0 → not (0); global labels only; edit_types and split kept in meta. Document id = the summary id without its last "_" part (e.g. samsum_train_13731241).',

  ...detectPerFile((f) => summEditsScore(f)),

  parse(files, options) {
    const problems = new ProblemCollector();
    const summaries: ImportedSummary[] = [];
    const notes: string[] = [];
    const firstRecordOfId = new Map<string, string>();
    // Document ids: the id's prefix, made unique per document text.
    const docIdOfText = new Map<string, string>();
    const textsOfPrefix = new Map<string, number>();
    let renamedDocs = 0;

    for (const file of files) {
      const data = parseJsonDocument(file, problems);
      if (data === undefined) continue;
      if (!Array.isArray(data)) {
        problems.add({
          file: file.path,
          line: 1,
          expected: 'a JSON list of SummEdits records',
          found: describeValue(data, 40),
        });
        continue;
      }
      const domain = domainOf(file.path);
      const dataset = options.dataset ?? (domain ? `summedits-${domain}` : 'summedits');
      data.forEach((value: unknown, index) => {
        if (problems.full) return;
        const place = { file: file.path, record: index + 1 };
        const record = validateRecord(SummEditsRecordSchema, value, place, problems);
        if (!record) return;
        const idKey = JSON.stringify([dataset, record.id]);
        const earlier = firstRecordOfId.get(idKey);
        if (earlier) {
          problems.add({
            ...place,
            field: 'id',
            expected: 'an id used once',
            found: `"${record.id}" again (first in ${earlier})`,
          });
          return;
        }
        firstRecordOfId.set(idKey, `${file.path} record ${index + 1}`);
        const docTextKey = JSON.stringify([dataset, record.doc]);
        let docId = docIdOfText.get(docTextKey);
        if (!docId) {
          const prefix = record.id.includes('_') ? record.id.slice(0, record.id.lastIndexOf('_')) : record.id;
          const seen = textsOfPrefix.get(`${dataset}\u0000${prefix}`) ?? 0;
          docId = seen === 0 ? prefix : `${prefix}#${seen + 1}`;
          if (seen > 0) renamedDocs += 1;
          textsOfPrefix.set(`${dataset}\u0000${prefix}`, seen + 1);
          docIdOfText.set(docTextKey, docId);
        }
        summaries.push({
          dataset,
          docId,
          document: record.doc,
          summaryId: record.id,
          summary: record.summary,
          label: record.label,
          sentences: null,
          meta: {
            editTypes: record.edit_types ?? [],
            split: record.split ?? null,
            originalSummary: record.original_summary ?? null,
          },
          source: place,
        });
      });
    }
    problems.throwIfAny();
    const datasets = [...new Set(summaries.map((s) => s.dataset))];
    notes.push(
      `${summaries.length} summaries of ${docIdOfText.size} documents in ${datasets.join(', ')}: ` +
        `${summaries.filter((s) => s.label === 1).length} consistent (1), ${summaries.filter((s) => s.label === 0).length} inconsistent (0).`,
      'Global labels only: no sentence labels; Loupe splits the summaries itself.',
    );
    if (renamedDocs > 0)
      notes.push(
        `${renamedDocs} id prefix(es) covered more than one document text; those documents got ids with "#2", "#3", ….`,
      );
    return { kind: 'summedits', summaries, labels: [], predictions: [], filesUsed: files.map((f) => f.path), notes };
  },
};
