/**
 * The Semantic Scaffold's LLM tasks (issue 12, seed 000 §4 and App. G) on the task engine:
 *
 * - scaffold_extraction: one pass per document (§4.1 "Creation uses one LLM pass"), the fact,
 *   question and entity prompts of App. G.1–G.3 joined into one answer. Items typed "other"
 *   (metadata, boilerplate: G.1 routes them out of the scores) are dropped when the scaffold is
 *   written. A scaffold without a main fact is a failed call (checkOutput), retried.
 * - scaffold_alignment: the summary and its document's current scaffold → a value per item
 *   (App. G.4–G.6 joined; Loupe asks for partial / misrepresented explicitly, as people label).
 *   Every item exactly once, no unknown ids, sentence ids within the summary (checkOutput).
 * - direct_score: App. G.7's holistic baseline, four 1–10 axes; the direct score is their mean.
 *
 * App. G: temperature 0.1 for all of them (the setups set it; it enters the config hash).
 * Output schemas are idempotent: the stored output is parsed again with the same schema when read.
 */
import { z } from 'zod';
import { defineJsonKind } from '../tasks/json-kind';
import { sha256Hex } from '../tasks/hashing';
import type { ScaffoldContent } from '../../../shared/scaffold/domain';
import { scaffoldContentProblems } from '../../../shared/scaffold/content';
import { DirectScoreOutputSchema, type DirectScoreOutput } from '../../../shared/scaffold/direct-score';

/** App. G, "Common settings for all prompts". */
export const SCAFFOLD_TEMPERATURE = 0.1;

const SYSTEM_EXTRACT = 'You are a precise information extraction assistant. Return valid JSON only. No preamble, no explanation.';
const SYSTEM_EVALUATE = 'You are a precise evaluation assistant. Return valid JSON only. No preamble, no explanation.';
const SYSTEM_SCORE = 'You are a rigorous and impartial evaluation assistant. Return valid JSON only. No preamble, no explanation.';

const withSystem = (system: string) => (prompt: string) => [
  { role: 'system' as const, content: system },
  { role: 'user' as const, content: prompt },
];

// --- extraction ----------------------------------------------------------------------------------

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
const ItemType = z.preprocess((v) => {
  if (typeof v !== 'string') return v;
  const t = v.trim().toLowerCase();
  if (t === 'main point' || t === 'main') return 'main';
  if (t === 'supporting detail' || t === 'supporting') return 'supporting';
  return t;
}, z.enum(['main', 'supporting', 'other']));

const Text = z.string().trim().min(1).max(5_000);
const Source = z.string().trim().max(500).nullable().default(null);
const LooseId = z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string().trim().max(200)).optional();

export const ScaffoldExtractionOutputSchema = z
  .object({
    key_facts: z.array(z.object({ id: LooseId, fact: Text, type: ItemType, source: Source }).passthrough()).min(1).max(500),
    questions: z.array(z.object({ id: LooseId, question: Text, answer: z.string().trim().max(5_000).default(''), type: ItemType, source: Source }).passthrough()).max(500).default([]),
    entities: z
      .array(
        z
          .object({
            entity_name: Text,
            entity_type: z.string().max(200).nullable().default(null),
            attributes: z.array(z.object({ attribute: Text, type: ItemType.default('supporting') }).passthrough()).max(200).default([]),
          })
          .passthrough(),
      )
      .max(500)
      .default([]),
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
  const questions = keep(output.questions).map((q, i) => ({ id: `q${i + 1}`, text: q.question, answer: q.answer, tier: q.type }));
  let a = 0;
  const entities = output.entities
    .map((e) => ({ name: e.entity_name, attributes: keep(e.attributes).map((x) => ({ id: `a${++a}`, text: x.attribute })) }))
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
  checkOutput: (output) => {
    const problems = scaffoldContentProblems(scaffoldOfAnswer(output).content);
    return problems.length === 0 ? null : `the scaffold is not usable: ${problems.join('; ')}`;
  },
});

// --- alignment -----------------------------------------------------------------------------------

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

const lower = (schema: z.ZodTypeAny) => z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), schema);
const SentenceIds = z.preprocess((v) => (typeof v === 'number' ? [v] : v), z.array(z.number().int()).max(500)).default([]);
const AnswerId = z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string().trim().min(1).max(200));

export const ScaffoldAlignmentOutputSchema = z
  .object({
    facts: z.array(z.object({ fact_id: AnswerId, value: lower(z.enum(['preserved', 'partial', 'missing', 'misrepresented'])), sentence_ids: SentenceIds }).passthrough()).max(2_000).default([]),
    questions: z.array(z.object({ question_id: AnswerId, answered: z.boolean(), sentence_ids: SentenceIds }).passthrough()).max(2_000).default([]),
    attributes: z.array(z.object({ attribute_id: AnswerId, value: lower(z.enum(['preserved', 'missing', 'misrepresented'])) }).passthrough()).max(2_000).default([]),
  })
  .passthrough();
export type ScaffoldAlignmentOutput = {
  facts: Array<{ fact_id: string; value: 'preserved' | 'partial' | 'missing' | 'misrepresented'; sentence_ids: number[] }>;
  questions: Array<{ question_id: string; answered: boolean; sentence_ids: number[] }>;
  attributes: Array<{ attribute_id: string; value: 'preserved' | 'missing' | 'misrepresented' }>;
};

export interface ScaffoldAlignmentInput {
  lines: string[];
  scaffold: ScaffoldContent;
}

const ScaffoldAlignmentInputSchema = z.object({
  lines: z.array(z.string()).min(1),
  scaffold: z.object({
    facts: z.array(z.object({ id: z.string(), text: z.string(), tier: z.enum(['main', 'supporting']) })).min(1),
    questions: z.array(z.object({ id: z.string(), text: z.string(), answer: z.string(), tier: z.enum(['main', 'supporting']) })),
    entities: z.array(z.object({ name: z.string(), attributes: z.array(z.object({ id: z.string(), text: z.string() })) })),
  }),
});

const tierWord = (tier: 'main' | 'supporting') => (tier === 'main' ? 'main point' : 'supporting detail');

/** Every scaffold item exactly once by its id, none unknown, sentence ids within the summary. */
export function checkScaffoldAlignment(output: ScaffoldAlignmentOutput, input: ScaffoldAlignmentInput): string | null {
  const check = (what: string, given: string[], expected: string[]): string | null => {
    const known = new Set(expected);
    const seen = new Set<string>();
    for (const id of given) {
      if (!known.has(id)) return `${what} "${id}" is not an item of the scaffold`;
      if (seen.has(id)) return `${what} "${id}" is answered twice`;
      seen.add(id);
    }
    const missing = expected.filter((id) => !seen.has(id));
    return missing.length === 0 ? null : `the answer leaves out ${what} ${missing.map((m) => `"${m}"`).join(', ')}`;
  };
  const s = input.scaffold;
  const problem =
    check('fact', output.facts.map((f) => f.fact_id), s.facts.map((f) => f.id)) ??
    check('question', output.questions.map((q) => q.question_id), s.questions.map((q) => q.id)) ??
    check('attribute', output.attributes.map((a) => a.attribute_id), s.entities.flatMap((e) => e.attributes.map((a) => a.id)));
  if (problem) return problem;
  const n = input.lines.length;
  for (const entry of [...output.facts, ...output.questions]) {
    const bad = entry.sentence_ids.find((i) => i < 1 || i > n);
    if (bad !== undefined) return `sentence id ${bad} is not a sentence of the summary (1 to ${n})`;
  }
  return null;
}

export const scaffoldAlignmentKind = defineJsonKind<ScaffoldAlignmentInput, ScaffoldAlignmentOutput>({
  name: 'scaffold_alignment',
  version: 1,
  itemNoun: 'summary',
  template: SCAFFOLD_ALIGNMENT_TEMPLATE,
  input: ScaffoldAlignmentInputSchema,
  output: ScaffoldAlignmentOutputSchema as unknown as z.ZodType<ScaffoldAlignmentOutput>,
  fields: (input) => ({
    facts_json: JSON.stringify(input.scaffold.facts.map((f) => ({ fact_id: f.id, fact: f.text, type: tierWord(f.tier) }))),
    questions_json: JSON.stringify(input.scaffold.questions.map((q) => ({ question_id: q.id, question: q.text, expected_answer: q.answer, type: tierWord(q.tier) }))),
    entities_json: JSON.stringify(input.scaffold.entities.map((e) => ({ entity_name: e.name, attributes: e.attributes.map((a) => ({ attribute_id: a.id, attribute: a.text })) }))),
    numbered_summary: input.lines.map((l, i) => `${i + 1}. ${l}`).join('\n'),
  }),
  messages: withSystem(SYSTEM_EVALUATE),
  keyMaterial: (input) => [sha256Hex(JSON.stringify(input.lines)), sha256Hex(JSON.stringify(input.scaffold))],
  checkOutput: checkScaffoldAlignment,
});

// --- direct score (App. G.7) ----------------------------------------------------------------------

export const DIRECT_SCORE_TEMPLATE = `Evaluate the quality of the summary against the original document. Rate on four dimensions using a 1-10 scale where 10 is perfect.

Dimension definitions:
1. Faithfulness
10 = perfectly faithful; no distortions or omissions of information that is present
5 = mostly faithful; minor inaccuracies
1 = fabricates or contradicts the document
2. Completeness
10 = covers all key information needed for understanding
5 = covers some key points but misses important ones
1 = misses most key information
3. Understandability
10 = perfectly clear, logical, easy to follow
5 = somewhat clear; has clarity or organisation issues
1 = incomprehensible or severely disorganised
4. Hallucination (absence of hallucination)
10 = no hallucination; all claims supported by the source
5 = some claims not clearly supported; questionable
1 = severe fabrications; significant unsupported claims

Output JSON format:
{"faithfulness": N, "completeness": N, "understandability": N, "hallucination": N, "rationale": "1-2 sentence explanation of the scores"}

Original document:
<<<
{document}
>>>

Summary to evaluate:
<<<
{summary}
>>>`;

export const directScoreKind = defineJsonKind<{ document: string; summary: string }, DirectScoreOutput>({
  name: 'direct_score',
  version: 1,
  itemNoun: 'summary',
  template: DIRECT_SCORE_TEMPLATE,
  input: z.object({ document: z.string().min(1), summary: z.string().min(1) }),
  output: DirectScoreOutputSchema,
  fields: (input) => ({ document: input.document, summary: input.summary }),
  messages: withSystem(SYSTEM_SCORE),
});
