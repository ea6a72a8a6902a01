/**
 * scaffold_extraction with the paper's separate prompts (the default): per document three requests,
 * App. G.1 (facts), G.2 (questions) and G.3 (entities) as printed (paper-prompts.ts), each with
 * App. G's system message, temperature 0.1 and `response_format: json_object`. Each answer is kept
 * in task_results (item `document:<key>:<part>`); once a document has all three, its scaffold is
 * written as the combined prompt's would be (extraction-task.ts: "other" items dropped, a model
 * version with maker `task:scaffold_extraction_g1_g3@<config hash>`). An answer without its part's
 * list, or a facts answer without a main fact, is a failed call, retried.
 */
import { z } from 'zod';
import type { Repository } from '../../../db/repository';
import { defineJsonKind } from '../tasks/json-kind';
import { sha256Hex } from '../tasks/hashing';
import { setupOf, type Judge, type Selection } from '../tasks/setup';
import { EntitiesSchema, extractionTargets, KeyFactsSchema, QuestionsSchema, scaffoldProblem } from './extraction-task';
import {
  answeredParts,
  G1_FACT_EXTRACTION,
  G2_QUESTION_EXTRACTION,
  G3_ENTITY_EXTRACTION,
  joinedTemplates,
  SCAFFOLD_PARTS,
  type ScaffoldPart,
} from './paper-prompts';
import { atScaffoldTemperature, JSON_OBJECT, SYSTEM_EXTRACT, withSystem } from './prompt-settings';

const TEMPLATE: Record<ScaffoldPart, string> = {
  facts: G1_FACT_EXTRACTION,
  questions: G2_QUESTION_EXTRACTION,
  entities: G3_ENTITY_EXTRACTION,
};

/** One part's answer: the list G.1, G.2 or G.3 asks for (the others absent). */
export const ExtractionPartSchema = z
  .object({
    key_facts: KeyFactsSchema.optional(),
    questions: QuestionsSchema.optional(),
    entities: EntitiesSchema.optional(),
  })
  .passthrough();
export type ExtractionPart = z.infer<typeof ExtractionPartSchema>;

const LIST_OF: Record<ScaffoldPart, 'key_facts' | 'questions' | 'entities'> = {
  facts: 'key_facts',
  questions: 'questions',
  entities: 'entities',
};

export const scaffoldExtractionPaperKind = defineJsonKind<{ part: ScaffoldPart; document: string }, ExtractionPart>({
  name: 'scaffold_extraction_g1_g3',
  version: 1,
  itemNoun: 'request',
  template: joinedTemplates([
    ['App. G.1 (facts)', G1_FACT_EXTRACTION],
    ['App. G.2 (questions)', G2_QUESTION_EXTRACTION],
    ['App. G.3 (entities)', G3_ENTITY_EXTRACTION],
  ]),
  templateOf: (input) => TEMPLATE[input.part],
  request: JSON_OBJECT,
  input: z.object({ part: z.enum(SCAFFOLD_PARTS), document: z.string().min(1) }),
  output: ExtractionPartSchema,
  fields: (input) => ({ document: input.document }),
  messages: withSystem(SYSTEM_EXTRACT),
  // The part decides the answer as much as the document (one document, three different requests).
  keyMaterial: (input) => [input.part, sha256Hex(input.document)],
  checkOutput: (output, input) => {
    const list = LIST_OF[input.part];
    if (output[list] === undefined) return `the answer has no "${list}" list`;
    if (input.part === 'facts') return scaffoldProblem({ key_facts: output.key_facts!, questions: [], entities: [] });
    return null;
  },
});

export function paperExtractionSetup(repo: Repository, judge: Judge, sel: Selection) {
  const kind = scaffoldExtractionPaperKind;
  const config = atScaffoldTemperature(judge.config);
  const hash = kind.configHash(config);
  const results = repo.tasks.forKind(kind.ref);
  const t = extractionTargets(repo, judge, sel, kind, config, hash, "the paper's prompts G.1–G.3");
  type Item = { documentKey: number; docId: string; part: ScaffoldPart };
  const items: Item[] = t.documents.flatMap((d) => SCAFFOLD_PARTS.map((part) => ({ ...d, part })));
  const itemKey = (documentKey: number, part: ScaffoldPart) => `document:${documentKey}:${part}`;
  /** Writes the document's scaffold once its three parts are answered under this configuration. */
  const complete = (documentKey: number) => {
    const parts = answeredParts(results, hash, (part) => itemKey(documentKey, part));
    if (parts)
      t.write(documentKey, {
        key_facts: parts.facts.key_facts ?? [],
        questions: parts.questions.questions ?? [],
        entities: parts.entities.entities ?? [],
      });
  };
  return setupOf(repo, kind, config, {
    kind,
    ref: kind.ref,
    configHash: hash,
    items,
    itemKey: (i) => itemKey(i.documentKey, i.part),
    resolve: (i) => {
      const text = t.text(i.documentKey);
      return text === null ? null : { part: i.part, document: text };
    },
    label: (i) => `document ${i.docId} (${i.part}, App. G.${SCAFFOLD_PARTS.indexOf(i.part) + 1})`,
    afterSave(batch) {
      for (const key of new Set(batch.filter((r) => r.output !== null).map((r) => r.item.documentKey))) complete(key);
    },
    repair() {
      repo.transaction(() => {
        for (const d of t.documents) complete(d.documentKey);
      });
    },
    missing: t.missing,
    notes: t.notes,
  });
}
