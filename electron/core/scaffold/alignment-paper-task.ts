/**
 * scaffold_alignment with the paper's separate prompts (the default): per summary three requests,
 * App. G.4 (facts), G.5 (questions) and G.6 (entities) as printed (paper-prompts.ts), with App. G's
 * system message, temperature 0.1 and `response_format: json_object`. What they give, and how it is
 * stored once a summary has all three answers (item `summary:<key>:scaffold:<id>:<part>`):
 * - G.4: every fact once (the prompt asks for all), "inferred" → preserved with its sentence ids,
 *   else missing (the paper's prompts know no partial or misrepresented);
 * - G.5: answered or not with sentence ids; a question the answer leaves out is unanswered (the
 *   denominators are the scaffold's);
 * - G.6: the attributes the summary preserves, by their exact text (case and spacing aside) under
 *   the entity named (else any entity); every other attribute is missing (App. E: the EPS
 *   denominator is every scaffold attribute).
 * An unknown or repeated id, a sentence id outside the summary or an attribute text the scaffold
 * does not have is a failed call, retried.
 */
import { z } from 'zod';
import type { Repository } from '../../../db/repository';
import type { ScaffoldContent } from '../../../shared/scaffold/domain';
import { defineJsonKind, numbered } from '../tasks/json-kind';
import { sha256Hex } from '../tasks/hashing';
import { setupOf, type Judge, type Selection } from '../tasks/setup';
import {
  alignmentTargets,
  AnswerId,
  factsJson,
  idsProblem,
  questionsJson,
  ScaffoldAlignmentInputSchema,
  sentenceIdOutside,
  SentenceIds,
  writeJudgeAlignment,
  type AlignmentTarget,
  type JudgeItemValue,
  type ScaffoldAlignmentInput,
} from './alignment-task';
import {
  answeredParts,
  G4_FACT_ALIGNMENT,
  G5_QUESTION_ALIGNMENT,
  G6_ENTITY_PRESERVATION,
  joinedTemplates,
  SCAFFOLD_PARTS,
  type ScaffoldPart,
} from './paper-prompts';
import { atScaffoldTemperature, JSON_OBJECT, SYSTEM_EVALUATE, withSystem } from './prompt-settings';

const TEMPLATE: Record<ScaffoldPart, string> = {
  facts: G4_FACT_ALIGNMENT,
  questions: G5_QUESTION_ALIGNMENT,
  entities: G6_ENTITY_PRESERVATION,
};

/** One part's answer: the list G.4, G.5 or G.6 asks for (the others absent). */
export const AlignmentPartSchema = z
  .object({
    fact_alignment: z
      .array(z.object({ fact_id: AnswerId, inferred: z.boolean(), sentence_ids: SentenceIds }).passthrough())
      .max(2_000)
      .optional(),
    question_alignment: z
      .array(z.object({ question_id: AnswerId, answered: z.boolean(), sentence_ids: SentenceIds }).passthrough())
      .max(2_000)
      .optional(),
    entity_preservation: z
      .array(
        z
          .object({ entity_name: z.string().max(5_000), preserved_attributes: z.array(z.string().max(5_000)).max(500) })
          .passthrough(),
      )
      .max(2_000)
      .optional(),
  })
  .passthrough();
export type AlignmentPart = z.infer<typeof AlignmentPartSchema>;

const LIST_OF: Record<ScaffoldPart, 'fact_alignment' | 'question_alignment' | 'entity_preservation'> = {
  facts: 'fact_alignment',
  questions: 'question_alignment',
  entities: 'entity_preservation',
};

/** Attribute texts and entity names compared as the model may echo them: case, spacing and a final period aside. */
const normal = (text: string) => text.trim().toLowerCase().replace(/\s+/g, ' ').replace(/\.$/, '');

/** The attribute ids G.6's answer says are preserved, or why an entry matches no attribute of the scaffold. */
export function preservedAttributes(
  answer: NonNullable<AlignmentPart['entity_preservation']>,
  scaffold: ScaffoldContent,
): { ids: Set<string> } | { problem: string } {
  const ids = new Set<string>();
  const everyAttribute = scaffold.entities.flatMap((e) => e.attributes);
  for (const entry of answer) {
    const named = scaffold.entities
      .filter((e) => normal(e.name) === normal(entry.entity_name))
      .flatMap((e) => e.attributes);
    for (const text of entry.preserved_attributes) {
      const match = (named.length > 0 ? named : everyAttribute).find((a) => normal(a.text) === normal(text));
      if (!match)
        return {
          problem: `"${text}" is not an attribute of the scaffold${named.length > 0 ? ` for ${entry.entity_name}` : ''}`,
        };
      ids.add(match.id);
    }
  }
  return { ids };
}

function checkPart(output: AlignmentPart, input: ScaffoldAlignmentInput & { part: ScaffoldPart }): string | null {
  const list = LIST_OF[input.part];
  if (output[list] === undefined) return `the answer has no "${list}" list`;
  const n = input.lines.length;
  if (input.part === 'facts') {
    const facts = output.fact_alignment!;
    return (
      idsProblem(
        'fact',
        facts.map((f) => f.fact_id),
        input.scaffold.facts.map((f) => f.id),
        true,
      ) ?? sentenceIdOutside(facts, n)
    );
  }
  if (input.part === 'questions') {
    const questions = output.question_alignment!;
    return (
      idsProblem(
        'question',
        questions.map((q) => q.question_id),
        input.scaffold.questions.map((q) => q.id),
        false,
      ) ?? sentenceIdOutside(questions, n)
    );
  }
  const preserved = preservedAttributes(output.entity_preservation!, input.scaffold);
  return 'problem' in preserved ? preserved.problem : null;
}

export const scaffoldAlignmentPaperKind = defineJsonKind<
  ScaffoldAlignmentInput & { part: ScaffoldPart },
  AlignmentPart
>({
  name: 'scaffold_alignment_g4_g6',
  version: 1,
  itemNoun: 'request',
  template: joinedTemplates([
    ['App. G.4 (facts)', G4_FACT_ALIGNMENT],
    ['App. G.5 (questions)', G5_QUESTION_ALIGNMENT],
    ['App. G.6 (entities)', G6_ENTITY_PRESERVATION],
  ]),
  templateOf: (input) => TEMPLATE[input.part],
  request: JSON_OBJECT,
  input: ScaffoldAlignmentInputSchema.extend({ part: z.enum(SCAFFOLD_PARTS) }),
  output: AlignmentPartSchema,
  fields: (input) => ({
    facts_json: factsJson(input.scaffold),
    questions_json: questionsJson(input.scaffold),
    entities_json: JSON.stringify(
      input.scaffold.entities.map((e) => ({ entity_name: e.name, attributes: e.attributes.map((a) => a.text) })),
    ),
    numbered_summary: numbered(input.lines),
    summary: input.lines.join(' '),
  }),
  messages: withSystem(SYSTEM_EVALUATE),
  keyMaterial: (input) => [
    input.part,
    sha256Hex(JSON.stringify(input.lines)),
    sha256Hex(JSON.stringify(input.scaffold)),
  ],
  checkOutput: checkPart,
});

/** Every item of the scaffold with the value the three answers give it (the module comment's rules). */
export function valuesOfAnswers(
  scaffold: ScaffoldContent,
  parts: Record<ScaffoldPart, AlignmentPart>,
): JudgeItemValue[] {
  const facts = new Map((parts.facts.fact_alignment ?? []).map((f) => [f.fact_id, f]));
  const questions = new Map((parts.questions.question_alignment ?? []).map((q) => [q.question_id, q]));
  const preserved = preservedAttributes(parts.entities.entity_preservation ?? [], scaffold);
  const kept = 'ids' in preserved ? preserved.ids : new Set<string>();
  return [
    ...scaffold.facts.map((f): JudgeItemValue => {
      const a = facts.get(f.id);
      return a?.inferred
        ? { itemKey: `fact:${f.id}`, value: 'preserved', sentenceIds: a.sentence_ids }
        : { itemKey: `fact:${f.id}`, value: 'missing', sentenceIds: [] };
    }),
    ...scaffold.questions.map((q): JudgeItemValue => ({
      itemKey: `question:${q.id}`,
      value: questions.get(q.id)?.answered ? 'answered' : 'unanswered',
      sentenceIds: [],
    })),
    ...scaffold.entities.flatMap((e) =>
      e.attributes.map((a): JudgeItemValue => ({
        itemKey: `attribute:${a.id}`,
        value: kept.has(a.id) ? 'preserved' : 'missing',
        sentenceIds: [],
      })),
    ),
  ];
}

export function paperAlignmentSetup(repo: Repository, judge: Judge, sel: Selection) {
  const kind = scaffoldAlignmentPaperKind;
  const config = atScaffoldTemperature(judge.config);
  const hash = kind.configHash(config);
  const results = repo.tasks.forKind(kind.ref);
  const { targets, missing, notes } = alignmentTargets(repo, sel);
  type Item = AlignmentTarget & { part: ScaffoldPart };
  const items: Item[] = targets.flatMap((t) => SCAFFOLD_PARTS.map((part) => ({ ...t, part })));
  const itemKey = (t: AlignmentTarget, part: ScaffoldPart) =>
    `summary:${t.summaryKey}:scaffold:${t.scaffoldId}:${part}`;
  /** Writes the summary's alignment once its three parts are answered under this configuration. */
  const complete = (target: AlignmentTarget) => {
    const parts = answeredParts(results, hash, (part) => itemKey(target, part));
    if (parts) writeJudgeAlignment(repo, judge, hash, target, valuesOfAnswers(target.scaffold, parts));
  };
  return setupOf(repo, kind, config, {
    kind,
    ref: kind.ref,
    configHash: hash,
    items,
    itemKey: (i) => itemKey(i, i.part),
    resolve: (i) => ({ part: i.part, lines: i.lines, scaffold: i.scaffold }),
    label: (i) =>
      `summary ${i.summaryKey} (scaffold ${i.scaffoldId}, ${i.part}, App. G.${SCAFFOLD_PARTS.indexOf(i.part) + 4})`,
    afterSave(batch) {
      const done = new Map(
        batch.filter((r) => r.output !== null).map((r) => [`${r.item.summaryKey}:${r.item.scaffoldId}`, r.item]),
      );
      for (const target of done.values()) complete(target);
    },
    repair() {
      repo.transaction(() => {
        for (const t of targets) complete(t);
      });
    },
    missing,
    notes,
  });
}
