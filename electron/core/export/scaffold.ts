/**
 * Export of the Semantic Scaffold kinds in the format they are imported in: one
 * `scaffold` line per document (its current version) and one `scaffold-alignments` line per
 * (summary, source) whose alignments or notes are on that current version. A person's notes on
 * items (scaffold item notes) go in the line's `notes`, a note on an item not aligned too (a line
 * may hold notes only). Alignments on an older version are counted, not written: their ids may no
 * longer exist in the current scaffold, so the file would not import back.
 */
import type { Repository } from '../../../db/repository';
import type { ScaffoldItemRow } from '../../../db/scaffoldRepository';
import { ApiError, type ExportInput } from '../../../shared/api';
import { EXPORT_BATCH_SUMMARIES, summaryBatches, type ExportPlan } from './files';
import { alignmentLine, scaffoldLine, type AlignmentNotes } from '../../../shared/formats/scaffold-jsonl';
import type {
  AlignmentContent,
  AttributeAlignment,
  FactAlignment,
  QuestionAlignment,
} from '../../../shared/scaffold/domain';

/** The line's field of each kind of item. */
const KIND_FIELD = { fact: 'facts', question: 'questions', attribute: 'attributes' } as const;

/** Lines of a file, a page at a time; the generator returns how many it produced. */
type LineChunks = Generator<string, number>;

const joined = (lines: string[]): string => lines.map((l) => `${l}\n`).join('');

/** One `scaffold` line per scaffolded document (its current version), a page of documents at a time. */
export function* scaffoldLines(repo: Repository, datasets: readonly string[]): LineChunks {
  let rows = 0;
  for (const dataset of datasets) {
    let after: string | null = null;
    for (;;) {
      const page = repo.scaffold.currentScaffoldPage(dataset, after, EXPORT_BATCH_SUMMARIES);
      if (page.length === 0) break;
      yield joined(
        page.map((p) => scaffoldLine(dataset, p.docId, repo.scaffold.content(p.id), p.maker, p.makerVersion)),
      );
      rows += page.length;
      after = page[page.length - 1]!.docId;
    }
  }
  return rows;
}

interface AlignmentGroup {
  summaryId: string;
  source: string;
  onCurrent: boolean;
  content: Required<AlignmentContent>;
  notes: AlignmentNotes;
}

/** What the alignment lines of one summary batch need to know of the scaffold versions they point at. */
class BatchScaffolds {
  private readonly items = new Map<number, Map<number, ScaffoldItemRow>>();
  private readonly standing: Map<number, { current: boolean }>;

  constructor(
    private readonly repo: Repository,
    scaffoldIds: Iterable<number>,
  ) {
    this.standing = repo.scaffold.versionStanding([...new Set(scaffoldIds)]);
  }

  item(scaffoldId: number, itemId: number): ScaffoldItemRow {
    let byId = this.items.get(scaffoldId);
    if (!byId) this.items.set(scaffoldId, (byId = new Map(this.repo.scaffold.items(scaffoldId).map((i) => [i.id, i]))));
    return byId.get(itemId)!;
  }

  current(scaffoldId: number): boolean {
    return this.standing.get(scaffoldId)?.current ?? false;
  }
}

/**
 * One `scaffold-alignments` line per (summary, source) with alignments or notes on the current
 * scaffold version, a batch of summaries at a time (summary id order within each dataset; within a
 * summary, source order). `older` counts the (summary, source) pairs left out for being on an
 * older version.
 */
export function* alignmentLines(
  repo: Repository,
  datasets: readonly string[],
  older: { count: number } = { count: 0 },
): LineChunks {
  let rows = 0;
  for (const dataset of datasets)
    for (const { keys } of summaryBatches(repo, dataset)) {
      const alignments = repo.scaffold.currentAlignments(dataset, keys);
      const notes = repo.scaffold.currentNotes(dataset, keys);
      if (alignments.length === 0 && notes.length === 0) continue;
      const scaffolds = new BatchScaffolds(
        repo,
        [...alignments, ...notes].map((a) => a.scaffoldId),
      );
      const summaryIds = new Map(repo.corpus.summaryIds(keys).map((s) => [s.key, s.summaryId]));
      const groups = new Map<string, AlignmentGroup>();
      const place = (a: { summaryKey: number; source: string; scaffoldId: number; itemId: number }) => {
        const k = `${a.summaryKey}\u0000${a.source}\u0000${a.scaffoldId}`;
        let g = groups.get(k);
        if (!g)
          groups.set(
            k,
            (g = {
              summaryId: summaryIds.get(a.summaryKey)!,
              source: a.source,
              onCurrent: scaffolds.current(a.scaffoldId),
              content: { facts: {}, questions: {}, attributes: {}, fact_sentences: {} },
              notes: { facts: {}, questions: {}, attributes: {} },
            }),
          );
        return { g, item: scaffolds.item(a.scaffoldId, a.itemId) };
      };
      for (const a of alignments) {
        const { g, item } = place(a);
        if (item.kind === 'fact') {
          g.content.facts[item.key] = a.value as FactAlignment;
          if (a.sentences.length > 0) g.content.fact_sentences[item.key] = a.sentences;
        } else if (item.kind === 'question') g.content.questions[item.key] = a.value as QuestionAlignment;
        else g.content.attributes[item.key] = a.value as AttributeAlignment;
      }
      for (const n of notes) {
        const { g, item } = place(n);
        g.notes[KIND_FIELD[item.kind]][item.key] = n.note;
      }
      // The batch's summaries in export order, each summary's lines in source order.
      const order = new Map(keys.map((k, i) => [summaryIds.get(k)!, i]));
      const onCurrent = [...groups.values()].filter((g) => g.onCurrent);
      older.count += groups.size - onCurrent.length;
      const lines = onCurrent
        .sort(
          (a, b) =>
            order.get(a.summaryId)! - order.get(b.summaryId)! ||
            (a.source < b.source ? -1 : a.source > b.source ? 1 : 0),
        )
        .map((g) => alignmentLine(dataset, g.summaryId, g.source, g.content, g.notes));
      if (lines.length === 0) continue;
      rows += lines.length;
      yield joined(lines);
    }
  return rows;
}

export interface ScaffoldExport {
  /** JSON Lines of kind `scaffold`. */
  scaffolds: string;
  /** JSON Lines of kind `scaffold-alignments`. */
  alignments: string;
  /** (summary, source) pairs left out because their alignments are on an older scaffold version. */
  alignmentsOnOlderVersions: number;
}

/** Both files whole, in memory (for a test, or a caller that wants the text). */
export function exportScaffolds(
  repo: Repository,
  datasets: readonly string[] = repo.scaffold.datasetsWithScaffolds(),
): ScaffoldExport {
  const older = { count: 0 };
  return {
    scaffolds: [...scaffoldLines(repo, datasets)].join(''),
    alignments: [...alignmentLines(repo, datasets, older)].join(''),
    alignmentsOnOlderVersions: older.count,
  };
}

/**
 * export.build / export.write with `scaffold` or `scaffoldAlignments`: the JSON Lines file the
 * matching import kind reads back (no CSV: the lines nest items). Alignments left out for being on
 * an older version are only counted (the same file would not import back).
 */
export function scaffoldExportPlan(
  repo: Repository,
  input: Pick<ExportInput, 'format' | 'dataset' | 'scaffold' | 'scaffoldAlignments'>,
  projectName: string,
): ExportPlan {
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
  const datasets = input.dataset !== undefined ? [input.dataset] : repo.scaffold.datasetsWithScaffolds();
  const what = input.scaffold ? 'scaffolds' : 'scaffold-alignments';
  return {
    fileName: `${projectName}${input.dataset ? `-${input.dataset}` : ''}-${what}.jsonl`,
    mime: 'application/x-ndjson',
    chunks: () => (input.scaffold ? scaffoldLines(repo, datasets) : alignmentLines(repo, datasets)),
  };
}
