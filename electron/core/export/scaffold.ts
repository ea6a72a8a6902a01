/**
 * Export of the Semantic Scaffold kinds in the format they are imported in: one
 * `scaffold` line per document (its current version) and one `scaffold-alignments` line per
 * (summary, source) whose alignments or notes are on that current version. A person's notes on
 * items (scaffold item notes) go in the line's `notes`, a note on an item not aligned too (a line
 * may hold notes only). Alignments on an older version are counted, not written: their ids may no
 * longer exist in the current scaffold, so the file would not import back.
 */
import type { Repository } from '../../../db/repository';
import { ApiError, type ExportInput } from '../../../shared/api';
import type { ExportFile } from './files';
import { alignmentLine, scaffoldLine, type AlignmentNotes } from '../../../shared/formats/scaffold-jsonl';
import type {
  AlignmentContent,
  AttributeAlignment,
  FactAlignment,
  QuestionAlignment,
} from '../../../shared/scaffold/domain';

export interface ScaffoldExport {
  /** JSON Lines of kind `scaffold`. */
  scaffolds: string;
  /** JSON Lines of kind `scaffold-alignments`. */
  alignments: string;
  /** (summary, source) pairs left out because their alignments are on an older scaffold version. */
  alignmentsOnOlderVersions: number;
}

/** The line's field of each kind of item. */
const KIND_FIELD = { fact: 'facts', question: 'questions', attribute: 'attributes' } as const;

export function exportScaffolds(
  repo: Repository,
  datasets: readonly string[] = repo.scaffold.datasetsWithScaffolds(),
): ScaffoldExport {
  const scaffoldLines: string[] = [];
  const alignmentLines: string[] = [];
  let older = 0;
  for (const dataset of datasets) {
    const rows = repo.scaffold.datasetRows(dataset);
    const currentOf = new Map<string, number>();
    for (const [id, s] of rows.scaffolds) {
      const best = currentOf.get(s.docId);
      if (best === undefined || rows.scaffolds.get(best)!.version < s.version) currentOf.set(s.docId, id);
    }
    for (const [docId, id] of [...currentOf].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
      const meta = repo.scaffold.scaffold(id)!;
      scaffoldLines.push(scaffoldLine(dataset, docId, repo.scaffold.content(id), meta.maker, meta.makerVersion));
    }
    const summaries = new Map(rows.summaries.map((s) => [s.key, s]));
    const grouped = new Map<
      string,
      {
        summaryKey: number;
        source: string;
        onCurrent: boolean;
        content: Required<AlignmentContent>;
        notes: AlignmentNotes;
      }
    >();
    /** The line of (summary, source, version) and the item of the row. */
    const place = (a: { summaryKey: number; source: string; scaffoldId: number; itemId: number }) => {
      const item = rows.scaffolds.get(a.scaffoldId)!.items.find((i) => i.id === a.itemId)!;
      const k = `${a.summaryKey}\u0000${a.source}\u0000${a.scaffoldId}`;
      let g = grouped.get(k);
      if (!g)
        grouped.set(
          k,
          (g = {
            summaryKey: a.summaryKey,
            source: a.source,
            onCurrent: currentOf.get(summaries.get(a.summaryKey)!.docId) === a.scaffoldId,
            content: { facts: {}, questions: {}, attributes: {}, fact_sentences: {} },
            notes: { facts: {}, questions: {}, attributes: {} },
          }),
        );
      return { g, item };
    };
    for (const a of rows.alignments) {
      const { g, item } = place(a);
      if (item.kind === 'fact') {
        g.content.facts[item.key] = a.value as FactAlignment;
        if (a.sentences.length > 0) g.content.fact_sentences[item.key] = a.sentences;
      } else if (item.kind === 'question') g.content.questions[item.key] = a.value as QuestionAlignment;
      else g.content.attributes[item.key] = a.value as AttributeAlignment;
    }
    for (const n of repo.scaffold.currentNotes(dataset)) {
      const { g, item } = place(n);
      g.notes[KIND_FIELD[item.kind]][item.key] = n.note;
    }
    for (const g of grouped.values()) {
      if (!g.onCurrent) {
        older += 1;
        continue;
      }
      alignmentLines.push(alignmentLine(dataset, summaries.get(g.summaryKey)!.summaryId, g.source, g.content, g.notes));
    }
  }
  const text = (lines: string[]) => (lines.length > 0 ? `${lines.join('\n')}\n` : '');
  return { scaffolds: text(scaffoldLines), alignments: text(alignmentLines), alignmentsOnOlderVersions: older };
}

/**
 * export.build with `scaffold` or `scaffoldAlignments`: the JSON Lines file the matching import kind
 * reads back (no CSV: the lines nest items). Alignments left out for being on an older version are
 * only counted (the same file would not import back), and refused to go unnoticed: none here.
 */
export function buildScaffoldExport(
  repo: Repository,
  input: Pick<ExportInput, 'format' | 'dataset' | 'scaffold' | 'scaffoldAlignments'>,
  projectName: string,
): ExportFile {
  if (input.scaffold && input.scaffoldAlignments)
    throw new ApiError({
      code: 'invalid_input',
      message: 'scaffold and scaffoldAlignments write different files: ask for one.',
    });
  if (input.format !== 'jsonl')
    throw new ApiError({
      code: 'invalid_input',
      message: 'Scaffolds and their alignments are written as JSON Lines only (.jsonl).',
    });
  if (input.dataset !== undefined && repo.datasetId(input.dataset) === null)
    throw new ApiError({ code: 'not_found', message: `No dataset "${input.dataset}" in this project.` });
  const out = exportScaffolds(repo, input.dataset !== undefined ? [input.dataset] : undefined);
  const content = input.scaffold ? out.scaffolds : out.alignments;
  const what = input.scaffold ? 'scaffolds' : 'scaffold-alignments';
  return {
    fileName: `${projectName}${input.dataset ? `-${input.dataset}` : ''}-${what}.jsonl`,
    mime: 'application/x-ndjson',
    content,
    rows: content === '' ? 0 : content.split('\n').length - 1,
  };
}
