/**
 * The task kinds of the Summarization Accuracy evaluation (seed 002, FineSurE; App. D of seed 003),
 * declared on the task engine: a prompt, a typed input, a zod output schema. The engine gives them
 * the content cache, retries, the circuit, pause/resume and redaction; their sources (stores.ts)
 * write the outputs where schema 8 keeps them.
 *
 * Output schemas are idempotent (no transform changes a value's shape), because the stored output
 * is checked again with the same schema when it is read back.
 */
import { z } from 'zod';
import { CLAIM_ERROR_TYPES, ClaimErrorTypeSchema, SystemFailureSchema } from '../../../shared/accuracy/domain';
import { readSummaryAnswer } from '../../../shared/accuracy/refusal';
import type { AccuracyTask } from '../../../shared/contract/accuracy';
import { defineJsonKind, fillTemplate, type JsonTaskKind } from '../tasks/json-kind';
import type { ChatRequestBody, TaskKind } from '../tasks/kind';
import { sha256Hex } from '../tasks/hashing';
import type { SystemConfig } from '../../../shared/contract/systems';
import { systemConfigHash } from '../systems/handlers';
import { directScoreKind, scaffoldAlignmentKind, scaffoldExtractionKind } from './scaffold-kinds';

const STRICT_JSON = 'Respond with strict JSON on a single line, with no Markdown or commentary:';

/** Numbered lines, 1-based, as FineSurE shows summary sentences and key facts. */
export const numbered = (lines: readonly string[]): string => lines.map((l, i) => `${i + 1}. ${l}`).join('\n');

// --- claim decomposition (FActScore-style; no document in the prompt) ----------------------------

export const CLAIM_DECOMPOSITION_TEMPLATE = `Please break down the following sentence into independent facts: short, standalone sentences that each state exactly one piece of information. Replace pronouns and vague references with the names they stand for, so that each fact can be read on its own. Do not add, infer or correct anything: list only what the sentence itself states. A sentence without factual content (e.g. "In summary,") has no facts.

SENTENCE:
<<<
{sentence}
>>>

${STRICT_JSON} {"claims": ["first fact", "second fact"]}`;

export const ClaimsOutputSchema = z.object({ claims: z.array(z.string().trim().min(1).max(2_000)).max(50) }).strict();
export type ClaimsOutput = z.infer<typeof ClaimsOutputSchema>;

export const claimDecompositionKind = defineJsonKind({
  name: 'claim_decomposition',
  version: 1,
  itemNoun: 'sentence',
  template: CLAIM_DECOMPOSITION_TEMPLATE,
  input: z.object({ sentence: z.string().min(1) }),
  output: ClaimsOutputSchema,
  fields: (input) => ({ sentence: input.sentence }),
});

// --- key-fact extraction (the card's "key fact extraction", FineSurE's key facts) -----------------

export const KEYFACT_EXTRACTION_TEMPLATE = `You will be given a document. Your task is to extract its key facts: the pieces of information a good summary of the document must contain.

Instruction:
- Each key fact is a short, standalone sentence (at most 2-3 entities) that states one piece of information from the document.
- List the most important key facts first, at most 16.
- Use only information the document states.

DOCUMENT:
<<<
{document}
>>>

${STRICT_JSON} {"key_facts": ["first key fact", "second key fact"]}`;

export const KeyFactsOutputSchema = z.object({ key_facts: z.array(z.string().trim().min(1).max(2_000)).min(1).max(100) }).strict();
export type KeyFactsOutput = z.infer<typeof KeyFactsOutputSchema>;

export const keyFactExtractionKind = defineJsonKind({
  name: 'keyfact_extraction',
  version: 1,
  itemNoun: 'document',
  template: KEYFACT_EXTRACTION_TEMPLATE,
  input: z.object({ document: z.string().min(1) }),
  output: KeyFactsOutputSchema,
  fields: (input) => ({ document: input.document }),
});

// --- claim verdict (document + claim → supported / unsupported + error type) ----------------------

export const CLAIM_VERDICT_TEMPLATE = `You are a strict fact checker for text summarization.

You are given: (1) a source document, and (2) one claim taken from a summary of that document.

Decide whether the document supports the claim. A claim is supported only if the document states it or trivially entails it. Stylistic paraphrasing is acceptable; only factual content matters. If the claim is not supported, name its error type:
- "entity": a wrong person, place, organisation or object
- "relation": the entities are right but the relation or action between them is wrong
- "number_or_date": a wrong number, amount, date or time
- "not_in_source": information that the document does not contain
- "other": any other unsupported content

SOURCE DOCUMENT:
<<<
{document}
>>>

CLAIM:
<<<
{claim}
>>>

${STRICT_JSON} {"supported": true, "error_type": null} or {"supported": false, "error_type": "${CLAIM_ERROR_TYPES.join('" | "')}"}`;

/** "Number or date", "number-or-date" → number_or_date (idempotent). */
const ErrorTypeText = z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase().replace(/[\s-]+/g, '_') : v), ClaimErrorTypeSchema);

export const ClaimVerdictOutputSchema = z
  .object({ supported: z.boolean(), error_type: ErrorTypeText.nullable().default(null) })
  .strict()
  .refine((v) => (v.supported ? v.error_type === null : v.error_type !== null), {
    message: 'a supported claim has error_type null; an unsupported one names its error type',
    path: ['error_type'],
  });
export type ClaimVerdictOutput = z.infer<typeof ClaimVerdictOutputSchema>;

export const claimVerdictKind = defineJsonKind({
  name: 'claim_verdict',
  version: 1,
  itemNoun: 'claim',
  template: CLAIM_VERDICT_TEMPLATE,
  input: z.object({ document: z.string().min(1), claim: z.string().min(1) }),
  output: ClaimVerdictOutputSchema,
  fields: (input) => ({ document: input.document, claim: input.claim }),
});

// --- key-fact alignment (FineSurE: summary lines + every key fact → covered + line numbers) -------

const alignmentTemplate = (noun: 'sentence' | 'claim') => `You will receive a summary and a set of key facts for the same document. Your task is to assess whether each key fact is conveyed by the summary.

Instruction:
First, compare each key fact with the summary.
Second, check if the key fact is inferred from the summary and then respond "Yes" or "No" for each key fact. If "Yes", specify the line number(s) of the summary ${noun}(s) relevant to each key fact.

Provide your answer in JSON format. The answer should be a list of dictionaries whose keys are "key fact", "response", and "line number", one per key fact in the order given:
[{"key fact": "first key fact", "response": "Yes", "line number": [1]}, {"key fact": "second key fact", "response": "No", "line number": []}, {"key fact": "third key fact", "response": "Yes", "line number": [1, 2, 3]}]

Summary (one ${noun} per line):
{summary_lines}

{key_fact_count} key facts:
{key_facts}`;

export const ALIGNMENT_TEMPLATE_SENTENCES = alignmentTemplate('sentence');
export const ALIGNMENT_TEMPLATE_CLAIMS = alignmentTemplate('claim');

const YesNo = z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), z.enum(['yes', 'no']));
/** FineSurE answers a bare number now and then: [n] (idempotent). */
const LineNumbers = z.preprocess((v) => (typeof v === 'number' ? [v] : v), z.array(z.number().int()).max(500));

export const AlignmentOutputSchema = z
  .array(z.object({ 'key fact': z.string().max(5_000).default(''), response: YesNo, 'line number': LineNumbers.default([]) }).passthrough())
  .max(500);
export type AlignmentOutput = z.infer<typeof AlignmentOutputSchema>;

export interface AlignmentInput {
  lines: string[];
  facts: string[];
}

const AlignmentInputSchema = z.object({ lines: z.array(z.string()).min(1), facts: z.array(z.string()).min(1) });

/** One entry per key fact, line numbers within the summary's lines, none on a "No". */
export function checkAlignment(output: AlignmentOutput, input: AlignmentInput): string | null {
  if (output.length !== input.facts.length) return `the answer lists ${output.length} key facts, expected ${input.facts.length} (one per key fact, in order)`;
  for (const [i, entry] of output.entries()) {
    const bad = entry['line number'].find((n) => n < 1 || n > input.lines.length);
    if (bad !== undefined) return `key fact ${i + 1}: line number ${bad} is not a line of the summary (1 to ${input.lines.length})`;
  }
  return null;
}

const alignmentKind = (name: string, template: string) =>
  defineJsonKind<AlignmentInput, AlignmentOutput>({
    name,
    version: 1,
    itemNoun: 'summary',
    template,
    input: AlignmentInputSchema,
    output: AlignmentOutputSchema,
    fields: (input) => ({ summary_lines: numbered(input.lines), key_facts: numbered(input.facts), key_fact_count: String(input.facts.length) }),
    checkOutput: checkAlignment,
  });

export const keyFactAlignmentKind = alignmentKind('keyfact_alignment', ALIGNMENT_TEMPLATE_SENTENCES);
/** The same task with the summary's current claims as its lines (its own name: its own versions and outputs). */
export const keyFactAlignmentClaimsKind = alignmentKind('keyfact_alignment_claims', ALIGNMENT_TEMPLATE_CLAIMS);

// --- key-fact alignment per fact (the card's per-key-fact prompt) ---------------------------------

export const PER_FACT_TEMPLATE = `You will receive the claims of a summary, one per line, and one key fact of the document it summarises. Decide whether the summary conveys the key fact: it does when one or more claims state it, or it can be inferred from them. If it does, list the line numbers of those claims.

Summary claims:
{claims}

Key fact:
<<<
{key_fact}
>>>

${STRICT_JSON} {"covered": true, "claims": [1, 2]} or {"covered": false, "claims": []}`;

export const PerFactOutputSchema = z
  .object({ covered: z.boolean(), claims: LineNumbers.default([]) })
  .strict()
  .refine((v) => v.covered || v.claims.length === 0, { message: 'a key fact that is not covered lists no claims', path: ['claims'] });
export type PerFactOutput = z.infer<typeof PerFactOutputSchema>;

export interface PerFactInput {
  claims: string[];
  fact: string;
}

export const keyFactPerFactKind = defineJsonKind<PerFactInput, PerFactOutput>({
  name: 'keyfact_alignment_per_fact',
  version: 1,
  itemNoun: 'key fact',
  template: PER_FACT_TEMPLATE,
  input: z.object({ claims: z.array(z.string()).min(1), fact: z.string().min(1) }),
  output: PerFactOutputSchema,
  fields: (input) => ({ claims: numbered(input.claims), key_fact: input.fact }),
  checkOutput: (output, input) => {
    const bad = output.claims.find((n) => n < 1 || n > input.claims.length);
    return bad === undefined ? null : `claim number ${bad} is not a line of the summary's claims (1 to ${input.claims.length})`;
  },
});

// --- summary generation (a system under test) -----------------------------------------------------

export const SummaryOutputSchema = z.union([
  z.object({ summary: z.string().min(1) }).strict(),
  z.object({ failure: SystemFailureSchema.exclude(['error']), text: z.string() }).strict(),
]);
export type SummaryOutput = z.infer<typeof SummaryOutputSchema>;

export interface SummaryInput {
  document: string;
}

export const SUMMARY_GENERATION_VERSION = 1;

/**
 * The card's methodology: the document in the system's prompt as the one user message, no system
 * message. The answer is a summary, or a refusal / guardrail / empty answer (a recorded failure,
 * final like an answer); HTTP errors are failed calls (recorded, and sent again by the next run).
 */
export const summaryGenerationKind: TaskKind<SystemConfig, SummaryInput, SummaryOutput> & { prompt(config: SystemConfig, input: SummaryInput): string } = {
  name: 'summary_generation',
  version: SUMMARY_GENERATION_VERSION,
  cacheTag: `loupe-task:summary_generation:${SUMMARY_GENERATION_VERSION}`,
  itemNoun: 'document',
  answererNoun: 'system',
  parseErrors: 'retry',
  configHash: systemConfigHash,
  prompt: (config, input) => fillTemplate(config.prompt, { document: input.document }),
  buildRequest(config, input): ChatRequestBody {
    return {
      model: config.model,
      messages: [{ role: 'user', content: summaryGenerationKind.prompt(config, input) }],
      temperature: config.temperature,
      top_p: config.topP,
      max_tokens: config.maxTokens,
      ...config.extra,
    };
  },
  keyMaterial: (input) => [sha256Hex(input.document)],
  interpret(completion) {
    const read = readSummaryAnswer(completion.content, completion.finishReason);
    return { ok: true, output: read.failure === null ? { summary: read.text } : { failure: read.failure, text: read.text.slice(0, 2_000) } };
  },
};

// --- the catalogue --------------------------------------------------------------------------------

export interface TaskDescription {
  task: AccuracyTask;
  version: number;
  description: string;
  template: string;
  itemNoun: string;
}

export const JSON_KINDS: Record<Exclude<AccuracyTask, 'summary_generation'>, JsonTaskKind<never, unknown>> = {
  claim_decomposition: claimDecompositionKind as unknown as JsonTaskKind<never, unknown>,
  keyfact_extraction: keyFactExtractionKind as unknown as JsonTaskKind<never, unknown>,
  claim_verdict: claimVerdictKind as unknown as JsonTaskKind<never, unknown>,
  keyfact_alignment: keyFactAlignmentKind as unknown as JsonTaskKind<never, unknown>,
  keyfact_alignment_per_fact: keyFactPerFactKind as unknown as JsonTaskKind<never, unknown>,
  scaffold_extraction: scaffoldExtractionKind as unknown as JsonTaskKind<never, unknown>,
  scaffold_alignment: scaffoldAlignmentKind as unknown as JsonTaskKind<never, unknown>,
  direct_score: directScoreKind as unknown as JsonTaskKind<never, unknown>,
};

export const TASK_DESCRIPTIONS: Record<AccuracyTask, string> = {
  claim_decomposition: 'Each summary sentence → atomic standalone claims (FActScore-style, App. D; no document in the prompt). A summary gets a claim set (source model) once all its sentences are answered.',
  keyfact_extraction: "Each document → its key facts (the card's key fact extraction); a key-fact set of source model.",
  claim_verdict: 'Document + one claim of the current claim set → supported, or unsupported with an error type (entity, relation, number_or_date, not_in_source, other).',
  keyfact_alignment: "Summary lines (sentences, or with lines = claims its current claims) + every key fact → per key fact covered and the line numbers that convey it (FineSurE's alignment).",
  keyfact_alignment_per_fact: "Summary claims + one key fact → covered and the claims that convey it (the card's per-key-fact prompt).",
  summary_generation: 'Each document → a summary by a system under test: the document in the system prompt as a single user message, no system message. Errors, refusals and guardrail answers are recorded as failures (the document scores 0.0 for that system).',
  scaffold_extraction: 'Each document → its Semantic Scaffold in one pass (seed 000 App. G.1–G.3): facts and key questions (with a brief expected answer and source sentence) tagged main or supporting, entities with attributes; items typed "other" are left out. A scaffold version of source model (never over a person\'s or an imported one). Temperature 0.1; an answer without a main fact is a failed call, retried.',
  scaffold_alignment: "Summary sentences + the document's current scaffold → per fact preserved / partial / missing / misrepresented (with its sentences), per question answered or not, per attribute preserved / missing / misrepresented (App. G.4–G.6); every item exactly once. Stored as the judge's alignment events. Temperature 0.1.",
  direct_score: 'Document + summary → four 1–10 scores (faithfulness, completeness, understandability, hallucination) and a rationale (App. G.7); the direct score is their mean, compared beside FPS / QPS / EPS in the scaffold block to show saturation. Temperature 0.1.',
};
