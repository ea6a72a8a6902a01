/**
 * scaffold_alignment with the combined prompt (prompts "combined", the cheaper option): the summary
 * and its document's current scaffold → a value per item in one request (App. G.4–G.6 joined;
 * Loupe asks for partial / misrepresented explicitly, as people label); the default is the
 * paper's three separate prompts (alignment-paper-task.ts). Every item exactly once, no unknown
 * ids, sentence ids within the summary (checkOutput). Written as the judge's alignment events
 * (judge id, the run's config hash — task_results names the kind, hence the prompts, under that
 * hash — and 0-based sentence indexes for Fact Focus), once per (summary, scaffold version,
 * configuration).
 */
import { z } from 'zod';
import type { Repository } from '../../../db/repository';
import type { ScaffoldContent } from '../../../shared/scaffold/domain';
import { defineJsonKind, numbered } from '../tasks/json-kind';
import { sha256Hex } from '../tasks/hashing';
import type { ModelConfig } from '../tasks/model-config';
import { plural, setupOf, type Judge, type Selection } from '../tasks/setup';
import { atScaffoldTemperature, SYSTEM_EVALUATE, withSystem } from './prompt-settings';

export const SCAFFOLD_ALIGNMENT_TEMPLATE = `You receive a document summary and the Semantic Scaffold of the original document: key facts, key questions and key entities with their attributes. Align the summary to every item.

Facts: for each key fact, decide how the summary conveys it. "preserved": the fact's meaning is clearly conveyed, even in different words; "partial": only part of it is conveyed; "missing": the summary does not convey it (do NOT count a summary that is only tangentially related); "misrepresented": the summary states it in a distorted or contradicting way. For a preserved or partial fact list the summary sentence ID(s) that support it, and explain why in 1 sentence.
Questions: for each key question, decide whether the summary provides enough information for a reader to answer it (not whether the question is literally asked and answered). If yes, list the sentence ID(s).
Attributes: for each entity attribute, "preserved" if its meaning is correctly and faithfully represented in the summary, "misrepresented" if it is distorted or only partially correct, "missing" if the summary does not state it.
Include every item exactly once, by its id, even those not conveyed. Do not invent items.

Output JSON format:
{"facts": [{"fact_id": "f1", "value": "preserved", "sentence_ids": [2], "justification": "Sentence 2 states that..."}],
 "questions": [{"question_id": "q1", "answered": true, "sentence_ids": [1, 3], "justification": "..."}],
 "attributes": [{"attribute_id": "a1", "value": "missing"}]}

Key facts (with types):
{facts_json}

Key questions (with types):
{questions_json}

Entities and attributes:
{entities_json}

Summary (sentences numbered starting at 1):
{numbered_summary}`;

const lower = (schema: z.ZodTypeAny) =>
  z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), schema);
export const SentenceIds = z
  .preprocess((v) => (typeof v === 'number' ? [v] : v), z.array(z.number().int()).max(500))
  .default([]);
export const AnswerId = z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string().trim().min(1).max(200));

export const ScaffoldAlignmentOutputSchema = z
  .object({
    facts: z
      .array(
        z
          .object({
            fact_id: AnswerId,
            value: lower(z.enum(['preserved', 'partial', 'missing', 'misrepresented'])),
            sentence_ids: SentenceIds,
          })
          .passthrough(),
      )
      .max(2_000)
      .default([]),
    questions: z
      .array(z.object({ question_id: AnswerId, answered: z.boolean(), sentence_ids: SentenceIds }).passthrough())
      .max(2_000)
      .default([]),
    attributes: z
      .array(
        z
          .object({ attribute_id: AnswerId, value: lower(z.enum(['preserved', 'missing', 'misrepresented'])) })
          .passthrough(),
      )
      .max(2_000)
      .default([]),
  })
  .passthrough();
export type ScaffoldAlignmentOutput = {
  facts: Array<{
    fact_id: string;
    value: 'preserved' | 'partial' | 'missing' | 'misrepresented';
    sentence_ids: number[];
  }>;
  questions: Array<{ question_id: string; answered: boolean; sentence_ids: number[] }>;
  attributes: Array<{ attribute_id: string; value: 'preserved' | 'missing' | 'misrepresented' }>;
};

export interface ScaffoldAlignmentInput {
  lines: string[];
  scaffold: ScaffoldContent;
}

export const ScaffoldAlignmentInputSchema = z.object({
  lines: z.array(z.string()).min(1),
  scaffold: z.object({
    facts: z.array(z.object({ id: z.string(), text: z.string(), tier: z.enum(['main', 'supporting']) })).min(1),
    questions: z.array(
      z.object({ id: z.string(), text: z.string(), answer: z.string(), tier: z.enum(['main', 'supporting']) }),
    ),
    entities: z.array(
      z.object({ name: z.string(), attributes: z.array(z.object({ id: z.string(), text: z.string() })) }),
    ),
  }),
});

const tierWord = (tier: 'main' | 'supporting') => (tier === 'main' ? 'main point' : 'supporting detail');

/** FACTS_JSON and QUESTIONS_JSON of App. G.4 / G.5 (the combined prompt sends the same lists). */
export const factsJson = (scaffold: ScaffoldContent): string =>
  JSON.stringify(scaffold.facts.map((f) => ({ fact_id: f.id, fact: f.text, type: tierWord(f.tier) })));
export const questionsJson = (scaffold: ScaffoldContent): string =>
  JSON.stringify(
    scaffold.questions.map((q) => ({
      question_id: q.id,
      question: q.text,
      expected_answer: q.answer,
      type: tierWord(q.tier),
    })),
  );

/** The first sentence id of the answer outside the summary's 1…n; null when all are in. */
export function sentenceIdOutside(entries: ReadonlyArray<{ sentence_ids: number[] }>, n: number): string | null {
  for (const entry of entries) {
    const bad = entry.sentence_ids.find((i) => i < 1 || i > n);
    if (bad !== undefined) return `sentence id ${bad} is not a sentence of the summary (1 to ${n})`;
  }
  return null;
}

/** The ids an answer gives for one kind of item: none unknown, none twice, and (with `every`) none left out; null when they fit. */
export function idsProblem(
  what: string,
  given: readonly string[],
  expected: readonly string[],
  every: boolean,
): string | null {
  const known = new Set(expected);
  const seen = new Set<string>();
  for (const id of given) {
    if (!known.has(id)) return `${what} "${id}" is not an item of the scaffold`;
    if (seen.has(id)) return `${what} "${id}" is answered twice`;
    seen.add(id);
  }
  const missing = expected.filter((id) => !seen.has(id));
  return every && missing.length > 0
    ? `the answer leaves out ${what} ${missing.map((m) => `"${m}"`).join(', ')}`
    : null;
}

/** Every scaffold item exactly once by its id, none unknown, sentence ids within the summary. */
export function checkScaffoldAlignment(output: ScaffoldAlignmentOutput, input: ScaffoldAlignmentInput): string | null {
  const check = (what: string, given: string[], expected: string[]) => idsProblem(what, given, expected, true);
  const s = input.scaffold;
  const problem =
    check(
      'fact',
      output.facts.map((f) => f.fact_id),
      s.facts.map((f) => f.id),
    ) ??
    check(
      'question',
      output.questions.map((q) => q.question_id),
      s.questions.map((q) => q.id),
    ) ??
    check(
      'attribute',
      output.attributes.map((a) => a.attribute_id),
      s.entities.flatMap((e) => e.attributes.map((a) => a.id)),
    );
  if (problem) return problem;
  return sentenceIdOutside([...output.facts, ...output.questions], input.lines.length);
}

export const scaffoldAlignmentKind = defineJsonKind<ScaffoldAlignmentInput, ScaffoldAlignmentOutput>({
  name: 'scaffold_alignment',
  version: 1,
  itemNoun: 'summary',
  template: SCAFFOLD_ALIGNMENT_TEMPLATE,
  input: ScaffoldAlignmentInputSchema,
  output: ScaffoldAlignmentOutputSchema as unknown as z.ZodType<ScaffoldAlignmentOutput>,
  fields: (input) => ({
    facts_json: factsJson(input.scaffold),
    questions_json: questionsJson(input.scaffold),
    entities_json: JSON.stringify(
      input.scaffold.entities.map((e) => ({
        entity_name: e.name,
        attributes: e.attributes.map((a) => ({ attribute_id: a.id, attribute: a.text })),
      })),
    ),
    numbered_summary: numbered(input.lines),
  }),
  messages: withSystem(SYSTEM_EVALUATE),
  keyMaterial: (input) => [sha256Hex(JSON.stringify(input.lines)), sha256Hex(JSON.stringify(input.scaffold))],
  checkOutput: checkScaffoldAlignment,
});

/** One summary to align: its document's current scaffold (content and item ids) and its sentences. */
export interface AlignmentTarget {
  summaryKey: number;
  scaffoldId: number;
  scaffold: ScaffoldContent;
  /** `<kind>:<item key>` → item id. */
  itemIds: Map<string, number>;
  lines: string[];
}

/** What both prompt sets share: the summaries to align (no scaffold, no sentences: left out and said). */
export function alignmentTargets(
  repo: Repository,
  sel: Selection,
): { targets: AlignmentTarget[]; missing: number; notes: string[] } {
  const sc = repo.scaffold;
  const targets: AlignmentTarget[] = [];
  let noScaffold = 0;
  let noSentences = 0;
  const contents = new Map<number, { content: ScaffoldContent; itemIds: Map<string, number> }>();
  for (const s of repo.corpus.selectSummaries(sel.dataset, sel.onlySampled)) {
    const current = sc.currentScaffold(s.documentKey);
    if (current === null) {
      noScaffold += 1;
      continue;
    }
    const lines = repo.corpus.sentences(s.key).map((u) => u.text);
    if (lines.length === 0) {
      noSentences += 1;
      continue;
    }
    let c = contents.get(current.id);
    if (!c) {
      c = {
        content: sc.content(current.id),
        itemIds: new Map(sc.items(current.id).map((i) => [`${i.kind}:${i.key}`, i.id])),
      };
      contents.set(current.id, c);
    }
    targets.push({ summaryKey: s.key, scaffoldId: current.id, scaffold: c.content, itemIds: c.itemIds, lines });
  }
  const notes: string[] = [];
  if (noScaffold > 0)
    notes.push(
      `${plural(noScaffold, 'summary')} left out: the document has no scaffold yet (run scaffold_extraction or import one).`,
    );
  if (noSentences > 0) notes.push(`${plural(noSentences, 'summary')} left out: no sentences.`);
  return { targets, missing: noScaffold + noSentences, notes };
}

/** One item's value as a judge gave it: `<kind>:<item key>`, the value, 1-based summary sentence ids. */
export interface JudgeItemValue {
  itemKey: string;
  value: ScaffoldAlignmentOutput['facts'][number]['value'] | 'answered' | 'unanswered';
  sentenceIds: number[];
}

/** Writes a judge's alignment of one summary (once per summary, scaffold version and configuration). */
export function writeJudgeAlignment(
  repo: Repository,
  judge: Judge,
  configHash: string,
  target: AlignmentTarget,
  values: readonly JudgeItemValue[],
): void {
  const sc = repo.scaffold;
  if (sc.judgeAlignmentWritten(target.summaryKey, target.scaffoldId, judge.judgeId, configHash)) return;
  for (const v of values) {
    sc.recordAlignment({
      itemId: target.itemIds.get(v.itemKey)!,
      summaryKey: target.summaryKey,
      annotatorId: null,
      judgeId: judge.judgeId,
      configHash,
      value: v.value,
      sentences: [...new Set(v.sentenceIds)].map((n) => n - 1),
      timeSpentMs: null,
      cause: 'run',
      importKey: null,
      importId: null,
    });
  }
}

/** scaffold_alignment over the selection with the combined prompt. */
export function combinedAlignmentSetup(repo: Repository, judge: Judge, sel: Selection) {
  const kind = scaffoldAlignmentKind;
  const config = atScaffoldTemperature(judge.config);
  const hash = kind.configHash(config);
  const { targets, missing, notes } = alignmentTargets(repo, sel);
  const write = (target: AlignmentTarget, output: ScaffoldAlignmentOutput) =>
    writeJudgeAlignment(repo, judge, hash, target, [
      ...output.facts.map((f) => ({
        itemKey: `fact:${f.fact_id}`,
        value: f.value,
        sentenceIds: f.value === 'preserved' || f.value === 'partial' ? f.sentence_ids : [],
      })),
      ...output.questions.map((q) => ({
        itemKey: `question:${q.question_id}`,
        value: q.answered ? ('answered' as const) : ('unanswered' as const),
        sentenceIds: [],
      })),
      ...output.attributes.map((a) => ({ itemKey: `attribute:${a.attribute_id}`, value: a.value, sentenceIds: [] })),
    ]);
  return setupOf<ModelConfig, AlignmentTarget, ScaffoldAlignmentInput, ScaffoldAlignmentOutput>(repo, kind, config, {
    kind,
    ref: kind.ref,
    configHash: hash,
    items: targets,
    itemKey: (i) => `summary:${i.summaryKey}:scaffold:${i.scaffoldId}`,
    resolve: (i) => ({ lines: i.lines, scaffold: i.scaffold }),
    label: (i) => `summary ${i.summaryKey} (scaffold ${i.scaffoldId}, ${plural(i.lines.length, 'sentence')})`,
    writeAnswer: (i, output) => write(i, output),
    missing,
    notes,
  });
}
