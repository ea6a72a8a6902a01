/**
 * The Semantic Scaffold paper's own prompts, App. G.1–G.6 ("All scaffold extraction and evaluation
 * prompts are provided verbatim"), one request each: the words as printed, the JSON braces and line
 * breaks of the typeset listings restored, and the paper's placeholders (DOCUMENT_TEXT, FACTS_JSON,
 * QUESTIONS_JSON, ENTITIES_JSON, NUMBERED_SUMMARY, SUMMARY_TEXT) as `{document}`, `{facts_json}`,
 * `{questions_json}`, `{entities_json}`, `{numbered_summary}`, `{summary}`. Their system messages
 * and decoding are App. G's common settings (prompt-settings.ts). A change here is a new kind
 * version (the templates enter the config hash).
 */
import type { KindResults } from '../../../db/taskRepository';

/** App. G.1, Fact Extraction. */
export const G1_FACT_EXTRACTION = `Extract 20-100 key facts from the document below. Each fact must be:
- Concise (at most 2-3 entities per fact)
- Self-contained (understandable without the full document)
- Labeled with exactly one of three types:
"main point" -- central claim, finding, or action
"supporting detail" -- context, evidence, elaboration
"other" -- metadata, dates, boilerplate
Order: all main points first, then supporting details, then other.
Do not include duplicate or redundant facts.
Output JSON format:
{"key_facts": [
{"id": "1", "fact": "...", "type": "main point"},
{"id": "2", "fact": "...", "type": "supporting detail"},
...
]}
Document:
{document}`;

/** App. G.2, Question Extraction. */
export const G2_QUESTION_EXTRACTION = `Extract 20-100 key questions from the document below. For each question provide:
- A brief expected answer (1-2 sentences, from the document)
- A type: "main point", "supporting detail", or "other"
- The source (e.g. "Sentence 3" or "Paragraph 2")
Order: main-point questions first, then supporting, then other.
Output JSON format:
{"questions": [
{"id": "1", "question": "...", "answer": "...", "type": "main point", "source": "Sentence 3"},
...
]}
Document:
{document}`;

/** App. G.3, Entity Attributes Extraction. */
export const G3_ENTITY_EXTRACTION = `Extract all key entities from the document below. Entities include: people, organisations, products, concepts, legal instruments, technical terms, or any named object central to the document.
For each entity list its key attributes. Each attribute must:
- Be a single concise factual statement (one claim)
- Be labeled: "main point", "supporting detail", or "other"
Output JSON format:
{"entities": [
{"entity_name": "...", "entity_type": "person | org | product | concept | other",
"attributes": [
{"attribute": "...", "type": "main point"},
{"attribute": "...", "type": "supporting detail"}
]}
]}
Document:
{document}`;

/** App. G.4, Key Fact Alignment Evaluation. */
export const G4_FACT_ALIGNMENT = `You receive a document summary and key facts from the original document. For each key fact, determine if it can be inferred from the summary.
"Inferred" means the fact's meaning is clearly conveyed, even in different words. Do NOT mark a fact as inferred if the summary is only tangentially related.
For inferred facts: list the summary sentence ID(s) that support it, and explain why in 1 sentence. Include all facts in the output, even those not inferred.
Output JSON format:
{"fact_alignment": [
{"fact_id": "1", "inferred": true, "sentence_ids": [2], "justification": "Sentence 2 states that..."},
{"fact_id": "3", "inferred": false, "sentence_ids": [], "justification": "No sentence in the summary covers this."}
]}
Key facts (with types):
{facts_json}
Summary (sentences numbered starting at 1):
{numbered_summary}`;

/** App. G.5, Key Question Alignment Evaluation. */
export const G5_QUESTION_ALIGNMENT = `You receive a document summary and key questions about the original document. For each question, determine if the summary provides enough information for a reader to answer it. If yes, list the sentence ID(s) containing the relevant information and explain in 1 sentence.
Output JSON format:
{"question_alignment": [
{"question_id": "1", "answered": true, "sentence_ids": [1, 3], "justification": "..."},
{"question_id": "4", "answered": false, "sentence_ids": [], "justification": "The summary does not address..."}
]}
Key questions (with types):
{questions_json}
Summary (sentences numbered starting at 1):
{numbered_summary}`;

/** App. G.6, Entity Preservation Evaluation. */
export const G6_ENTITY_PRESERVATION = `You receive a document summary and a list of key entities with their attributes, extracted from the original document. For each entity that appears in the summary, list the attributes that are correctly and faithfully represented.
An attribute is "correctly represented" if its meaning is preserved in the summary, even in different words. Do NOT include entities absent from the summary. Do NOT include attributes that are distorted or only partially correct. Do NOT invent attributes not listed in the input.
Output JSON format:
{"entity_preservation": [
{"entity_name": "...", "preserved_attributes": [
"Exact text of the preserved attribute from the input list"
]}
]}
Entities and attributes from the scaffold:
{entities_json}
Summary to evaluate:
{summary}`;

/** The three parts each paper kind asks for, one request each, in this order. */
export const SCAFFOLD_PARTS = ['facts', 'questions', 'entities'] as const;
export type ScaffoldPart = (typeof SCAFFOLD_PARTS)[number];

/** Each part's stored answer under this configuration, or null while one is missing or failed. */
export function answeredParts<O>(
  results: KindResults<O>,
  configHash: string,
  itemKey: (part: ScaffoldPart) => string,
): Record<ScaffoldPart, O> | null {
  const parts: Partial<Record<ScaffoldPart, O>> = {};
  for (const part of SCAFFOLD_PARTS) {
    const r = results.result(configHash, itemKey(part));
    if (!r || r.errorKind !== null || r.output === null) return null;
    parts[part] = r.output;
  }
  return parts as Record<ScaffoldPart, O>;
}

/** Several templates shown (and hashed) as one: each under its App. G heading. */
export const joinedTemplates = (parts: ReadonlyArray<[string, string]>): string =>
  parts.map(([heading, template]) => `## ${heading}\n${template}`).join('\n\n');
