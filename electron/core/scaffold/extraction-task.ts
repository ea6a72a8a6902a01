/**
 * scaffold_extraction with the combined prompt (prompts "combined", the cheaper option): one pass
 * per document (Semantic Scaffold paper §4.1, "Creation uses one LLM pass"), the fact, question
 * and entity prompts of App. G.1–G.3 joined into one answer; the default is the paper's three
 * separate prompts (extraction-paper-task.ts). Items typed "other" (metadata, boilerplate: G.1
 * routes them out of the scores) are dropped when the scaffold is written; an answer without a
 * main fact is a failed call (checkOutput), retried. Written as a scaffold version of source model
 * (maker `task:<kind>@<config hash>`, so the maker names the prompts used); a model never replaces
 * a person's or an imported scaffold (named in the notes), and supersedes an earlier model's.
 */
import { z } from 'zod';
import type { Repository } from '../../../db/repository';
import type { ScaffoldContent } from '../../../shared/scaffold/domain';
import { scaffoldContentProblems } from '../../../shared/scaffold/content';
import { defineJsonKind } from '../tasks/json-kind';
import { documentTexts, makerOf, noteOf, plural, setupOf, type Judge, type Selection } from '../tasks/setup';
import type { ModelConfig } from '../tasks/model-config';
import { atScaffoldTemperature, SYSTEM_EXTRACT, withSystem } from './prompt-settings';

export const SCAFFOLD_EXTRACTION_TEMPLATE = `Extract the Semantic Scaffold of the document below, in one answer with three parts.

1. Key facts (20-100; fewer for a short document). Each fact must be:
- Concise (at most 2-3 entities per fact)
- Self-contained (understandable without the full document)
- Labeled with exactly one of three types: "main point" -- central claim, finding, or action; "supporting detail" -- context, evidence, elaboration; "other" -- metadata, dates, boilerplate
Order: all main points first, then supporting details, then other. Do not include duplicate or redundant facts.

2. Key questions the document answers. For each question provide:
- A brief expected answer (1-2 sentences, from the document)
- A type: "main point", "supporting detail", or "other"
- The source (e.g. "Sentence 3" or "Paragraph 2")
Order: main-point questions first, then supporting, then other.

3. Key entities: people, organisations, products, concepts, legal instruments, technical terms, or any named object central to the document. For each entity list its key attributes; each attribute must be a single concise factual statement (one claim).

Output JSON format:
{"key_facts": [{"id": "1", "fact": "...", "type": "main point", "source": "Sentence 1"}],
 "questions": [{"id": "1", "question": "...", "answer": "...", "type": "main point", "source": "Sentence 3"}],
 "entities": [{"entity_name": "...", "entity_type": "person | org | product | concept | other", "attributes": [{"attribute": "...", "type": "main point"}]}]}

Document:
<<<
{document}
>>>`;

/** "Main point", "main" → main; "Supporting detail", "supporting" → supporting; "other" (idempotent). */
const ItemType = z.preprocess(
  (v) => {
    if (typeof v !== 'string') return v;
    const t = v.trim().toLowerCase();
    if (t === 'main point' || t === 'main') return 'main';
    if (t === 'supporting detail' || t === 'supporting') return 'supporting';
    return t;
  },
  z.enum(['main', 'supporting', 'other']),
);

const Text = z.string().trim().min(1).max(5_000);
const Source = z.string().trim().max(500).nullable().default(null);
const LooseId = z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string().trim().max(200)).optional();

/** The answers' item lists (App. G.1–G.3's shapes), shared by the combined and the separate prompts. */
export const KeyFactsSchema = z
  .array(z.object({ id: LooseId, fact: Text, type: ItemType, source: Source }).passthrough())
  .max(500);
export const QuestionsSchema = z
  .array(
    z
      .object({
        id: LooseId,
        question: Text,
        answer: z.string().trim().max(5_000).default(''),
        type: ItemType,
        source: Source,
      })
      .passthrough(),
  )
  .max(500);
export const EntitiesSchema = z
  .array(
    z
      .object({
        entity_name: Text,
        entity_type: z.string().max(200).nullable().default(null),
        attributes: z
          .array(z.object({ attribute: Text, type: ItemType.default('supporting') }).passthrough())
          .max(200)
          .default([]),
      })
      .passthrough(),
  )
  .max(500);

export const ScaffoldExtractionOutputSchema = z
  .object({
    key_facts: KeyFactsSchema.min(1),
    questions: QuestionsSchema.default([]),
    entities: EntitiesSchema.default([]),
  })
  .passthrough();
export type ScaffoldExtractionOutput = z.infer<typeof ScaffoldExtractionOutputSchema>;

/**
 * The scaffold an answer makes: "other" items dropped, Loupe's own ids in answer order (f1…, q1…,
 * a1… across entities; the model's ids are not trusted to be unique), entities without attributes
 * dropped. Counts what was dropped.
 */
export function scaffoldOfAnswer(output: ScaffoldExtractionOutput): { content: ScaffoldContent; droppedOther: number } {
  let droppedOther = 0;
  const keep = <T extends { type: 'main' | 'supporting' | 'other' }>(xs: readonly T[]) =>
    xs.filter((x) => {
      if (x.type === 'other') droppedOther += 1;
      return x.type !== 'other';
    }) as Array<T & { type: 'main' | 'supporting' }>;
  const facts = keep(output.key_facts).map((f, i) => ({ id: `f${i + 1}`, text: f.fact, tier: f.type }));
  const questions = keep(output.questions).map((q, i) => ({
    id: `q${i + 1}`,
    text: q.question,
    answer: q.answer,
    tier: q.type,
  }));
  let a = 0;
  const entities = output.entities
    .map((e) => ({
      name: e.entity_name,
      attributes: keep(e.attributes).map((x) => ({ id: `a${++a}`, text: x.attribute })),
    }))
    .filter((e) => e.attributes.length > 0);
  return { content: { facts, questions, entities }, droppedOther };
}

export const scaffoldExtractionKind = defineJsonKind<{ document: string }, ScaffoldExtractionOutput>({
  name: 'scaffold_extraction',
  version: 1,
  itemNoun: 'document',
  template: SCAFFOLD_EXTRACTION_TEMPLATE,
  input: z.object({ document: z.string().min(1) }),
  output: ScaffoldExtractionOutputSchema,
  fields: (input) => ({ document: input.document }),
  messages: withSystem(SYSTEM_EXTRACT),
  checkOutput: (output) => scaffoldProblem(output),
});

/** Why the scaffold an answer makes cannot be used (no main fact, …); null when it can. */
export function scaffoldProblem(output: ScaffoldExtractionOutput): string | null {
  const problems = scaffoldContentProblems(scaffoldOfAnswer(output).content);
  return problems.length === 0 ? null : `the scaffold is not usable: ${problems.join('; ')}`;
}

/**
 * What both prompt sets share for one run: the documents to extract (no text: missing; a person's
 * or an imported scaffold: kept), and writing the scaffold an answer makes (once per document and
 * configuration; an earlier model's is superseded).
 */
export function extractionTargets(
  repo: Repository,
  judge: Judge,
  sel: Selection,
  kind: { name: string; version: number },
  config: ModelConfig,
  hash: string,
  prompts: string,
) {
  const sc = repo.scaffold;
  const maker = makerOf(kind.name, hash);
  const documents: Array<{ documentKey: number; docId: string }> = [];
  const seen = new Set<number>();
  let kept = 0;
  let missing = 0;
  /** write: no scaffold or another model's; done: this configuration's already; kept: a person's or imported. */
  const state = (documentKey: number): 'write' | 'done' | 'kept' => {
    const current = sc.currentScaffold(documentKey);
    if (current === null) return 'write';
    if (current.maker === maker && current.source === 'model') return 'done';
    return current.source === 'model' ? 'write' : 'kept';
  };
  for (const s of repo.corpus.selectSummaries(sel.dataset, sel.onlySampled)) {
    if (seen.has(s.documentKey)) continue;
    seen.add(s.documentKey);
    if (!s.hasDocument) missing += 1;
    else if (state(s.documentKey) === 'kept') kept += 1;
    else documents.push({ documentKey: s.documentKey, docId: s.docId });
  }
  const write = (documentKey: number, output: ScaffoldExtractionOutput) => {
    if (state(documentKey) !== 'write') return;
    const { content, droppedOther } = scaffoldOfAnswer(output);
    sc.insertScaffold(documentKey, {
      source: 'model',
      maker,
      makerVersion: String(kind.version),
      basedOnId: sc.currentScaffold(documentKey)?.id ?? null,
      createdBy: null,
      note: `scaffold by ${noteOf({ ...judge, config })}, ${prompts} (${kind.name} v${kind.version})${droppedOther > 0 ? `; ${plural(droppedOther, 'item')} typed "other" left out` : ''}`,
      importKey: null,
      importId: null,
      content,
    });
  };
  const notes: string[] = [];
  if (missing > 0) notes.push(`${plural(missing, 'document')} left out: the text is missing.`);
  if (kept > 0)
    notes.push(
      `${plural(kept, 'document')} keep their current scaffold (made by a person or imported); a model does not replace it.`,
    );
  return { documents, write, missing, notes, text: documentTexts(repo.corpus) };
}

/** scaffold_extraction over the selection with the combined prompt. */
export function combinedExtractionSetup(repo: Repository, judge: Judge, sel: Selection) {
  const kind = scaffoldExtractionKind;
  const config = atScaffoldTemperature(judge.config);
  const hash = kind.configHash(config);
  const t = extractionTargets(repo, judge, sel, kind, config, hash, 'one combined prompt');
  type Item = { documentKey: number; docId: string };
  return setupOf(repo, kind, config, {
    kind,
    ref: kind.ref,
    configHash: hash,
    items: t.documents,
    itemKey: (i: Item) => `document:${i.documentKey}`,
    resolve: (i) => {
      const text = t.text(i.documentKey);
      return text === null ? null : { document: text };
    },
    label: (i) => `document ${i.docId}`,
    writeAnswer: (i, output) => t.write(i.documentKey, output),
    missing: t.missing,
    notes: t.notes,
  });
}
