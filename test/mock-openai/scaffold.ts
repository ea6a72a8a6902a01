/**
 * Deterministic answers of the mock server to the Semantic Scaffold prompts
 * (electron/core/scaffold/*-task.ts), recognised by their wording, so tests can compute the
 * right outputs by hand:
 *
 * - extraction: one fact per document sentence (the first "main point", the others "supporting
 *   detail"; a sentence starting "Note:" is typed "other"); one question per fact, "What about:
 *   <sentence>?", the sentence as its answer, same type; one entity per capitalised word of 4+
 *   letters that is not a sentence's first word, whose attributes are the sentences naming it;
 * - alignment: a fact (question answer, attribute) is preserved (answered) when a summary sentence
 *   shares at least half of its content words (conveyingLines), else missing (unanswered);
 * - direct score: every axis 9, faithfulness 10 when every content word of the summary is in the
 *   document.
 */
import type { MockReply, MockRequest, Responder } from './server';
import { contentWords, conveyingLines, documentSentences } from './accuracy';

const block = (prompt: string, label: string): string | null => new RegExp(`${label}:\\s*<<<\\n([\\s\\S]*?)\\n>>>`).exec(prompt)?.[1] ?? null;

export type ScaffoldPrompt = 'scaffold_extraction' | 'scaffold_alignment' | 'direct_score';

export function scaffoldPromptKind(req: MockRequest): ScaffoldPrompt | null {
  const p = req.prompt;
  if (p.includes('Extract the Semantic Scaffold of the document below')) return 'scaffold_extraction';
  if (p.includes('Align the summary to every item.')) return 'scaffold_alignment';
  if (p.includes('Evaluate the quality of the summary against the original document.')) return 'direct_score';
  return null;
}

const typeOf = (sentence: string, i: number) => (sentence.startsWith('Note:') ? 'other' : i === 0 ? 'main point' : 'supporting detail');

/** The entities of the rule: capitalised words (4+ letters) after a sentence's first word, with the sentences naming them. */
export function entitiesOf(sentences: readonly string[]): Array<{ name: string; attributes: string[] }> {
  const names: string[] = [];
  for (const s of sentences) for (const w of s.split(/\s+/).slice(1)) {
    const name = w.replace(/[^A-Za-z]/g, '');
    if (/^[A-Z][a-z]{3,}$/.test(name) && !names.includes(name)) names.push(name);
  }
  return names.map((name) => ({ name, attributes: sentences.filter((s) => s.split(/\s+/).slice(1).some((w) => w.replace(/[^A-Za-z]/g, '') === name)) }));
}

export function extractionAnswer(document: string): unknown {
  const sentences = documentSentences(document);
  return {
    key_facts: sentences.map((s, i) => ({ id: String(i + 1), fact: s, type: typeOf(s, i), source: `Sentence ${i + 1}` })),
    questions: sentences.map((s, i) => ({ id: String(i + 1), question: `What about: ${s}?`, answer: s, type: typeOf(s, i), source: `Sentence ${i + 1}` })),
    entities: entitiesOf(sentences).map((e) => ({ entity_name: e.name, entity_type: 'other', attributes: e.attributes.map((a) => ({ attribute: a, type: 'main point' })) })),
  };
}

const jsonAfter = <T>(prompt: string, label: string): T => JSON.parse(new RegExp(`${label}:\\n(.*)\\n`).exec(prompt)?.[1] ?? '[]') as T;

export function alignmentAnswer(prompt: string): unknown {
  const summary = (/Summary \(sentences numbered starting at 1\):\n([\s\S]*)$/.exec(prompt)?.[1] ?? '')
    .split('\n')
    .map((l) => /^\d+\. (.*)$/.exec(l)?.[1])
    .filter((l): l is string => l !== undefined);
  const facts = jsonAfter<Array<{ fact_id: string; fact: string }>>(prompt, 'Key facts \\(with types\\)');
  const questions = jsonAfter<Array<{ question_id: string; expected_answer: string }>>(prompt, 'Key questions \\(with types\\)');
  const entities = jsonAfter<Array<{ attributes: Array<{ attribute_id: string; attribute: string }> }>>(prompt, 'Entities and attributes');
  return {
    facts: facts.map((f) => {
      const lines = conveyingLines(f.fact, summary);
      return { fact_id: f.fact_id, value: lines.length > 0 ? 'preserved' : 'missing', sentence_ids: lines, justification: '' };
    }),
    questions: questions.map((q) => {
      const lines = conveyingLines(q.expected_answer, summary);
      return { question_id: q.question_id, answered: lines.length > 0, sentence_ids: lines };
    }),
    attributes: entities.flatMap((e) => e.attributes.map((a) => ({ attribute_id: a.attribute_id, value: conveyingLines(a.attribute, summary).length > 0 ? 'preserved' : 'missing' }))),
  };
}

export function directScoreAnswer(document: string, summary: string): unknown {
  const doc = document.toLowerCase();
  const faithful = contentWords(summary).every((w) => doc.includes(w));
  return { faithfulness: faithful ? 10 : 9, completeness: 9, understandability: 9, hallucination: 9, rationale: 'mock' };
}

export const scaffoldResponder: Responder = (req): MockReply | undefined => {
  const p = req.prompt;
  switch (scaffoldPromptKind(req)) {
    case 'scaffold_extraction':
      return { type: 'answer', content: JSON.stringify(extractionAnswer(block(p, 'Document') ?? '')) };
    case 'scaffold_alignment':
      return { type: 'answer', content: JSON.stringify(alignmentAnswer(p)) };
    case 'direct_score':
      return { type: 'answer', content: JSON.stringify(directScoreAnswer(block(p, 'Original document') ?? '', block(p, 'Summary to evaluate') ?? '')) };
    default:
      return undefined;
  }
};
