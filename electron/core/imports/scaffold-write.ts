/**
 * Writes an import's Semantic Scaffold material inside the import's transaction:
 * scaffolds become a new version of their document's scaffold (unless the current version has
 * the same content), alignments become events on the items of the document's current scaffold.
 * Any reference that does not resolve (a summary or document not in the project, a document
 * without a scaffold, an item id the scaffold does not have, a sentence index past the summary's
 * end) refuses the whole import with file, line and field. Re-importing the same file adds nothing.
 */
import type { Repository } from '../../../db/repository';
import { IMPORTED_CONFIG_HASH } from '../../../db/judgeRepository';
import type { ScaffoldImport } from '../../../shared/formats/scaffold-types';
import { ImportValidationError, type ImportProblem, type SourceRef } from '../../../shared/formats/types';
import { sourceLabel, type AlignmentValue, type ScaffoldItemKind } from '../../../shared/scaffold/domain';
import { sha256 } from './files';

export interface ScaffoldWriteResult {
  scaffolds: number;
  alignments: number;
}

const MAX_PROBLEMS = 200;

export function writeScaffoldImport(
  repo: Repository,
  data: ScaffoldImport,
  importId: number,
  contentHash: string,
): ScaffoldWriteResult {
  const sc = repo.scaffold;
  const problems: ImportProblem[] = [];
  const where = (s: SourceRef) => ({
    file: s.file,
    ...(s.line !== undefined ? { line: s.line } : {}),
    ...(s.record !== undefined ? { record: s.record } : {}),
  });
  const key = (...parts: Array<string | number>) => sha256([contentHash, ...parts.map(String)]);
  const result: ScaffoldWriteResult = { scaffolds: 0, alignments: 0 };

  data.scaffolds.forEach((s, i) => {
    const documentKey = repo.corpus.documentKey(s.dataset, s.docId);
    if (documentKey === null) {
      problems.push({
        ...where(s.source),
        field: 'doc_id',
        expected: `a document of dataset "${s.dataset}" in the project (import its summaries first)`,
        found: `"${s.docId}"`,
      });
      return;
    }
    const content = { facts: s.facts, questions: s.questions, entities: s.entities };
    const importKey = key('scaffold', i, s.dataset, s.docId, JSON.stringify(content));
    if (sc.hasImportKey(importKey)) return;
    const current = sc.currentScaffold(documentKey);
    if (current && JSON.stringify(sc.content(current.id)) === JSON.stringify(content)) return;
    sc.insertScaffold(documentKey, {
      source: 'imported',
      maker: s.maker,
      makerVersion: s.makerVersion,
      basedOnId: current?.id ?? null,
      createdBy: null,
      note: null,
      importKey,
      importId,
      content,
    });
    result.scaffolds += 1;
  });

  const judgeIds = new Map<string, number>();
  const judgeId = (name: string) => {
    let id = judgeIds.get(name);
    if (id === undefined) {
      repo.judges.importVersion(name, IMPORTED_CONFIG_HASH);
      judgeIds.set(name, (id = repo.judges.judgeByName(name)!.id));
    }
    return id;
  };

  data.alignments.forEach((a, i) => {
    if (problems.length >= MAX_PROBLEMS) return;
    const summaryKey = repo.corpus.summaryKey(a.dataset, a.summaryId);
    if (summaryKey === null) {
      problems.push({
        ...where(a.source),
        field: 'summary_id',
        expected: `a summary of dataset "${a.dataset}" in the project`,
        found: `"${a.summaryId}"`,
      });
      return;
    }
    const info = repo.corpus.summaryInfo(summaryKey)!;
    const scaffold = sc.currentScaffold(info.documentKey);
    if (!scaffold) {
      problems.push({
        ...where(a.source),
        field: 'summary_id',
        expected: `a scaffold for the document of "${a.summaryId}" (import it with --as scaffold first)`,
        found: `"${a.summaryId}"`,
      });
      return;
    }
    const items = new Map(sc.items(scaffold.id).map((it) => [`${it.kind}\u0000${it.key}`, it.id]));
    const sentenceCount = repo.corpus.sentences(summaryKey).length;
    const resolved: Array<{ itemId: number; value: AlignmentValue; sentences: number[] }> = [];
    const resolve = (kind: ScaffoldItemKind, field: string, values: Record<string, AlignmentValue>) => {
      for (const [id, value] of Object.entries(values)) {
        const itemId = items.get(`${kind}\u0000${id}`);
        if (itemId === undefined) {
          problems.push({
            ...where(a.source),
            field: `${field}.${id}`,
            expected: `a ${kind} id of the scaffold of document "${info.docId}" (version ${scaffold.version})`,
            found: `"${id}"`,
          });
          continue;
        }
        const sentences = kind === 'fact' ? (a.fact_sentences?.[id] ?? []) : [];
        const bad = sentences.find((s) => s >= sentenceCount);
        if (bad !== undefined) {
          problems.push({
            ...where(a.source),
            field: `fact_sentences.${id}`,
            expected: `sentence indexes from 0 to ${sentenceCount - 1} (the summary has ${sentenceCount} sentences)`,
            found: String(bad),
          });
          continue;
        }
        resolved.push({ itemId, value, sentences });
      }
    };
    resolve('fact', 'facts', a.facts);
    resolve('question', 'questions', a.questions);
    resolve('attribute', 'attributes', a.attributes);
    if (problems.length > 0) return;
    const label = sourceLabel(a.alignedBy);
    const who =
      a.alignedBy.kind === 'human'
        ? { annotatorId: repo.ensureAnnotator(a.alignedBy.name, 'imported').id, judgeId: null, configHash: null }
        : { annotatorId: null, judgeId: judgeId(a.alignedBy.name), configHash: IMPORTED_CONFIG_HASH };
    for (const r of resolved) {
      const id = sc.recordAlignment({
        itemId: r.itemId,
        summaryKey,
        ...who,
        value: r.value,
        sentences: r.sentences,
        timeSpentMs: null,
        cause: 'import',
        importKey: key('scaffold_alignment', i, r.itemId, summaryKey, label, r.value, JSON.stringify(r.sentences)),
        importId,
      });
      if (id !== null) result.alignments += 1;
    }
  });

  if (problems.length > 0) throw new ImportValidationError(problems.slice(0, MAX_PROBLEMS));
  return result;
}
