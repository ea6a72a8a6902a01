/**
 * Semantic Scaffold JSON Lines, two import kinds, exported the same way:
 *
 *   scaffold             one line per document:
 *     {dataset, doc_id, facts: [{id, text, tier}], questions: [{id, text, answer, tier}],
 *      entities: [{name, attributes: [{id, text}]}], extractor?, extractor_version?}
 *   scaffold-alignments  one line per summary and source:
 *     {dataset, summary_id, source: "judge:<name>" | "human:<annotator>",
 *      facts: {<id>: preserved|partial|missing|misrepresented}, questions: {<id>: answered|unanswered},
 *      attributes: {<id>: preserved|missing|misrepresented}, fact_sentences?: {<fact id>: [sentence index…]},
 *      notes?: {facts?: {<id>: text}, questions?: {<id>: text}, attributes?: {<id>: text}}}
 *
 * `notes` are a person's notes on items (scaffold item notes), on an item aligned or not (a line may
 * hold notes only). The export writes them; the import does not read them (an imported label set
 * takes values, not notes).
 *
 * tier is "main" or "supporting". A scaffold needs at least one main fact; ids are unique within
 * facts, within questions and within attributes (across the document's entities). `dataset` may be
 * left out when the import names one. Whether an alignment's ids exist in the scaffold is checked
 * at import against the project (electron/core/imports/scaffold-write.ts).
 */
import { z } from 'zod';
import {
  AlignmentSourceSchema,
  AttributeAlignmentSchema,
  FactAlignmentSchema,
  QuestionAlignmentSchema,
  TierSchema,
  sourceLabel,
  type AlignmentContent,
  type ScaffoldContent,
} from '../scaffold/domain';
import { detectPerFile } from './detection';
import { firstLineKeys, looksLikeJsonLines, parseJsonLines, ProblemCollector, validateRecord } from './jsonl';
import type { ImportedAlignment, ImportedScaffold, ScaffoldImport } from './scaffold-types';
import { IdSchema, nonEmptyText } from './summaries';
import type { FormatParser, ImportBatch, SourceFile } from './types';

const Dataset = z.string().trim().min(1).optional();
const Text = nonEmptyText('a non-empty text');
const Name = z.string().trim().min(1).max(200);

/** Ids that occur twice in a list, with the path of the second occurrence. */
function duplicateIds(ids: readonly string[], path: (i: number) => Array<string | number>, ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  ids.forEach((id, i) => {
    if (seen.has(id)) ctx.addIssue({ code: 'custom', path: path(i), message: `a unique id ("${id}" is used twice)` });
    seen.add(id);
  });
}

export const ScaffoldLineSchema = z
  .object({
    dataset: Dataset,
    doc_id: IdSchema,
    facts: z.array(z.object({ id: IdSchema, text: Text, tier: TierSchema })),
    questions: z.array(z.object({ id: IdSchema, text: Text, answer: z.string(), tier: TierSchema })).default([]),
    entities: z
      .array(z.object({ name: Text, attributes: z.array(z.object({ id: IdSchema, text: Text })) }))
      .default([]),
    extractor: Name.nullish(),
    extractor_version: z.string().nullish(),
  })
  .superRefine((line, ctx) => {
    if (!line.facts.some((f) => f.tier === 'main'))
      ctx.addIssue({ code: 'custom', path: ['facts'], message: 'at least one fact with tier "main"' });
    duplicateIds(
      line.facts.map((f) => f.id),
      (i) => ['facts', i, 'id'],
      ctx,
    );
    duplicateIds(
      line.questions.map((q) => q.id),
      (i) => ['questions', i, 'id'],
      ctx,
    );
    const attributePaths = line.entities.flatMap((e, ei) =>
      e.attributes.map((a, ai) => ({ id: a.id, path: ['entities', ei, 'attributes', ai, 'id'] })),
    );
    duplicateIds(
      attributePaths.map((a) => a.id),
      (i) => attributePaths[i]!.path,
      ctx,
    );
  });

const SentenceIndex = z.number().int().min(0);

export const AlignmentLineSchema = z
  .object({
    dataset: Dataset,
    summary_id: IdSchema,
    source: AlignmentSourceSchema,
    facts: z.record(z.string(), FactAlignmentSchema).default({}),
    questions: z.record(z.string(), QuestionAlignmentSchema).default({}),
    attributes: z.record(z.string(), AttributeAlignmentSchema).default({}),
    fact_sentences: z.record(z.string(), z.array(SentenceIndex)).optional(),
  })
  .superRefine((line, ctx) => {
    for (const id of Object.keys(line.fact_sentences ?? {})) {
      if (!(id in line.facts))
        ctx.addIssue({
          code: 'custom',
          path: ['fact_sentences', id],
          message: `a fact aligned in "facts" (fact "${id}" is not)`,
        });
    }
  });

function firstLineHas(head: string, keys: readonly string[], without: readonly string[] = []): boolean {
  if (!looksLikeJsonLines(head)) return false;
  const present = firstLineKeys(head);
  return keys.every((k) => present.includes(k)) && without.every((k) => !present.includes(k));
}

function emptyBatch(
  kind: 'scaffold' | 'scaffold-alignments',
  files: SourceFile[],
  scaffold: ScaffoldImport,
): ImportBatch {
  return { kind, summaries: [], labels: [], predictions: [], filesUsed: files.map((f) => f.path), notes: [], scaffold };
}

export const scaffoldParser: FormatParser = {
  kind: 'scaffold',
  description:
    'Semantic Scaffolds: per document, facts and key questions (main or supporting) and entity attributes (Loupe JSON Lines)',
  mapping:
    "Each line is a new scaffold version of its document (the same file again adds nothing); the extractor is the file's `extractor`, else the file name.",
  ...detectPerFile((file) => (firstLineHas(file.head, ['doc_id', 'facts', 'questions', 'entities'], ['type']) ? 2 : 0)),

  parse(files, options) {
    const problems = new ProblemCollector();
    const scaffolds: ImportedScaffold[] = [];
    for (const file of files) {
      const seen = new Map<string, number>();
      for (const { line, value } of parseJsonLines(file, problems)) {
        const place = { file: file.path, line };
        const r = validateRecord(ScaffoldLineSchema, value, place, problems);
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
        const docKey = `${dataset}\u0000${r.doc_id}`;
        const earlier = seen.get(docKey);
        if (earlier !== undefined) {
          problems.add({
            ...place,
            field: 'doc_id',
            expected: `one scaffold per document in a file (line ${earlier} has "${r.doc_id}" already)`,
            found: `"${r.doc_id}"`,
          });
          continue;
        }
        seen.set(docKey, line);
        scaffolds.push({
          dataset,
          docId: r.doc_id,
          facts: r.facts,
          questions: r.questions,
          entities: r.entities,
          maker: r.extractor ?? `import:${file.path}`,
          makerVersion: r.extractor_version ?? 'given',
          source: place,
        });
      }
    }
    problems.throwIfAny();
    return emptyBatch('scaffold', files, { scaffolds, alignments: [] });
  },
};

export const scaffoldAlignmentsParser: FormatParser = {
  kind: 'scaffold-alignments',
  description:
    'Semantic Scaffold alignments: per summary and source (judge:<name> or human:<annotator>), what the summary kept of each scaffold item (Loupe JSON Lines)',
  mapping:
    "human:<annotator> is an imported (read-only) label set, judge:<name> an imported judge; ids name items of the document's current scaffold.",
  ...detectPerFile((file) => (firstLineHas(file.head, ['summary_id', 'source', 'facts'], ['type']) ? 2 : 0)),

  parse(files, options) {
    const problems = new ProblemCollector();
    const alignments: ImportedAlignment[] = [];
    for (const file of files) {
      const seen = new Map<string, number>();
      for (const { line, value } of parseJsonLines(file, problems)) {
        const place = { file: file.path, line };
        const r = validateRecord(AlignmentLineSchema, value, place, problems);
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
        const key = `${dataset}\u0000${r.summary_id}\u0000${sourceLabel(r.source)}`;
        const earlier = seen.get(key);
        if (earlier !== undefined) {
          problems.add({
            ...place,
            field: 'source',
            expected: `one line per summary and source (line ${earlier} aligns "${r.summary_id}" by ${sourceLabel(r.source)} already)`,
            found: sourceLabel(r.source),
          });
          continue;
        }
        seen.set(key, line);
        alignments.push({
          dataset,
          summaryId: r.summary_id,
          alignedBy: r.source,
          facts: r.facts,
          questions: r.questions,
          attributes: r.attributes,
          ...(r.fact_sentences ? { fact_sentences: r.fact_sentences } : {}),
          source: place,
        });
      }
    }
    problems.throwIfAny();
    return emptyBatch('scaffold-alignments', files, { scaffolds: [], alignments });
  },
};

/** One exported `scaffold` line (what the parser reads back). */
export function scaffoldLine(
  dataset: string,
  docId: string,
  content: ScaffoldContent,
  extractor: string,
  extractorVersion: string,
): string {
  return JSON.stringify({
    dataset,
    doc_id: docId,
    facts: content.facts,
    questions: content.questions,
    entities: content.entities,
    extractor,
    extractor_version: extractorVersion,
  });
}

/** A person's notes on the items of one alignment line, by kind and item id. */
export interface AlignmentNotes {
  facts: Record<string, string>;
  questions: Record<string, string>;
  attributes: Record<string, string>;
}

/** One exported `scaffold-alignments` line; `notes` only where there are some, and only the kinds that have some. */
export function alignmentLine(
  dataset: string,
  summaryId: string,
  source: string,
  content: AlignmentContent,
  notes?: AlignmentNotes,
): string {
  const { facts, questions, attributes, fact_sentences } = content;
  const noted = Object.fromEntries(
    Object.entries(notes ?? {}).filter(([, byId]) => Object.keys(byId as Record<string, string>).length > 0),
  );
  return JSON.stringify({
    dataset,
    summary_id: summaryId,
    source,
    facts,
    questions,
    attributes,
    ...(fact_sentences && Object.keys(fact_sentences).length > 0 ? { fact_sentences } : {}),
    ...(Object.keys(noted).length > 0 ? { notes: noted } : {}),
  });
}
