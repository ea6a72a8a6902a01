/**
 * Deterministic answers of the mock server to the Semantic Scaffold prompts
 * (electron/core/scaffold/*-task.ts: the combined ones and the paper's App. G.1–G.7), recognised
 * by their wording, so tests can compute the right outputs by hand:
 *
 * - extraction: one fact per document sentence (the first "main point", the others "supporting
 *   detail"; a sentence starting "Note:" is typed "other"); one question per fact, "What about:
 *   <sentence>?", the sentence as its answer, same type; one entity per capitalised word of 4+
 *   letters that is not a sentence's first word, whose attributes are the sentences naming it;
 * - alignment: a fact (question answer, attribute) is preserved (answered) when a summary sentence
 *   shares at least half of its content words (conveyingLines), else missing (unanswered); the
 *   paper's G.4–G.6 say the same in their shapes (inferred, answered, the preserved attributes' text);
 * - the paper's G.1–G.3 give the combined answer's facts, questions and entities, one list each;
 * - direct score: every axis 9, faithfulness 10 when every content word of the summary is in the
 *   document.
 */
import type { MockReply, MockRequest, Responder } from './server';
import { contentWords, conveyingLines, documentSentences } from './accuracy';

const block = (prompt: string, label: string): string | null =>
  new RegExp(`${label}:\\s*<<<\\n([\\s\\S]*?)\\n>>>`).exec(prompt)?.[1] ?? null;

export type ScaffoldPrompt =
  'scaffold_extraction' | 'scaffold_alignment' | 'direct_score' | 'g1' | 'g2' | 'g3' | 'g4' | 'g5' | 'g6';

export function scaffoldPromptKind(req: MockRequest): ScaffoldPrompt | null {
  const p = req.prompt;
  if (p.includes('Extract the Semantic Scaffold of the document below')) return 'scaffold_extraction';
  if (p.includes('Align the summary to every item.')) return 'scaffold_alignment';
  if (p.includes('Evaluate the quality of the summary against the original document.')) return 'direct_score';
  if (p.includes('Extract 20-100 key facts from the document below.')) return 'g1';
  if (p.includes('Extract 20-100 key questions from the document below.')) return 'g2';
  if (p.includes('Extract all key entities from the document below.')) return 'g3';
  if (p.includes('For each key fact, determine if it can be inferred from the summary.')) return 'g4';
  if (p.includes('For each question, determine if the summary provides enough information')) return 'g5';
  if (p.includes('For each entity that appears in the summary, list the attributes')) return 'g6';
  return null;
}

/** The text after `label:` on its own line, up to the next label or the end (the paper's prompts have no delimiters). */
const after = (prompt: string, label: string, next?: string): string => {
  const start = prompt.indexOf(`\n${label}:\n`);
  if (start < 0) return '';
  const from = start + label.length + 3;
  const end = next === undefined ? -1 : prompt.indexOf(`\n${next}:\n`, from);
  return prompt.slice(from, end < 0 ? undefined : end);
};

const typeOf = (sentence: string, i: number) =>
  sentence.startsWith('Note:') ? 'other' : i === 0 ? 'main point' : 'supporting detail';

/** The entities of the rule: capitalised words (4+ letters) after a sentence's first word, with the sentences naming them. */
export function entitiesOf(sentences: readonly string[]): Array<{ name: string; attributes: string[] }> {
  const names: string[] = [];
  for (const s of sentences)
    for (const w of s.split(/\s+/).slice(1)) {
      const name = w.replace(/[^A-Za-z]/g, '');
      if (/^[A-Z][a-z]{3,}$/.test(name) && !names.includes(name)) names.push(name);
    }
  return names.map((name) => ({
    name,
    attributes: sentences.filter((s) =>
      s
        .split(/\s+/)
        .slice(1)
        .some((w) => w.replace(/[^A-Za-z]/g, '') === name),
    ),
  }));
}

export function extractionAnswer(document: string): unknown {
  const sentences = documentSentences(document);
  return {
    key_facts: sentences.map((s, i) => ({
      id: String(i + 1),
      fact: s,
      type: typeOf(s, i),
      source: `Sentence ${i + 1}`,
    })),
    questions: sentences.map((s, i) => ({
      id: String(i + 1),
      question: `What about: ${s}?`,
      answer: s,
      type: typeOf(s, i),
      source: `Sentence ${i + 1}`,
    })),
    entities: entitiesOf(sentences).map((e) => ({
      entity_name: e.name,
      entity_type: 'other',
      attributes: e.attributes.map((a) => ({ attribute: a, type: 'main point' })),
    })),
  };
}

const jsonAfter = <T>(prompt: string, label: string): T =>
  JSON.parse(new RegExp(`${label}:\\n(.*)\\n`).exec(prompt)?.[1] ?? '[]') as T;

export function alignmentAnswer(prompt: string): unknown {
  const summary = (/Summary \(sentences numbered starting at 1\):\n([\s\S]*)$/.exec(prompt)?.[1] ?? '')
    .split('\n')
    .map((l) => /^\d+\. (.*)$/.exec(l)?.[1])
    .filter((l): l is string => l !== undefined);
  const facts = jsonAfter<Array<{ fact_id: string; fact: string }>>(prompt, 'Key facts \\(with types\\)');
  const questions = jsonAfter<Array<{ question_id: string; expected_answer: string }>>(
    prompt,
    'Key questions \\(with types\\)',
  );
  const entities = jsonAfter<Array<{ attributes: Array<{ attribute_id: string; attribute: string }> }>>(
    prompt,
    'Entities and attributes',
  );
  return {
    facts: facts.map((f) => {
      const lines = conveyingLines(f.fact, summary);
      return {
        fact_id: f.fact_id,
        value: lines.length > 0 ? 'preserved' : 'missing',
        sentence_ids: lines,
        justification: '',
      };
    }),
    questions: questions.map((q) => {
      const lines = conveyingLines(q.expected_answer, summary);
      return { question_id: q.question_id, answered: lines.length > 0, sentence_ids: lines };
    }),
    attributes: entities.flatMap((e) =>
      e.attributes.map((a) => ({
        attribute_id: a.attribute_id,
        value: conveyingLines(a.attribute, summary).length > 0 ? 'preserved' : 'missing',
      })),
    ),
  };
}

export function directScoreAnswer(document: string, summary: string): unknown {
  const doc = document.toLowerCase();
  const faithful = contentWords(summary).every((w) => doc.includes(w));
  return {
    faithfulness: faithful ? 10 : 9,
    completeness: 9,
    understandability: 9,
    hallucination: 9,
    rationale: 'mock',
  };
}

/** G.4–G.6's answers: the combined rule's values in the paper's shapes. */
export function paperAlignmentAnswer(prompt: string, part: 'g4' | 'g5' | 'g6'): unknown {
  if (part === 'g6') {
    const summary = documentSentences(after(prompt, 'Summary to evaluate'));
    const entities = jsonAfter<Array<{ entity_name: string; attributes: string[] }>>(
      prompt,
      'Entities and attributes from the scaffold',
    );
    return {
      entity_preservation: entities
        .map((e) => ({
          entity_name: e.entity_name,
          preserved_attributes: e.attributes.filter((a) => conveyingLines(a, summary).length > 0),
        }))
        .filter((e) => e.preserved_attributes.length > 0),
    };
  }
  const combined = alignmentAnswer(prompt) as {
    facts: Array<{ fact_id: string; value: string; sentence_ids: number[] }>;
    questions: unknown[];
  };
  if (part === 'g4')
    return {
      fact_alignment: combined.facts.map((f) => ({
        fact_id: f.fact_id,
        inferred: f.value === 'preserved',
        sentence_ids: f.sentence_ids,
        justification: '',
      })),
    };
  return { question_alignment: combined.questions };
}

export const scaffoldResponder: Responder = (req): MockReply | undefined => {
  const p = req.prompt;
  const kind = scaffoldPromptKind(req);
  const answer = (value: unknown): MockReply => ({ type: 'answer', content: JSON.stringify(value) });
  switch (kind) {
    case 'scaffold_extraction':
      return answer(extractionAnswer(block(p, 'Document') ?? ''));
    case 'scaffold_alignment':
      return answer(alignmentAnswer(p));
    case 'direct_score':
      return answer(
        directScoreAnswer(after(p, 'Original document', 'Summary to evaluate'), after(p, 'Summary to evaluate')),
      );
    case 'g1':
    case 'g2':
    case 'g3': {
      const all = extractionAnswer(after(p, 'Document')) as Record<'key_facts' | 'questions' | 'entities', unknown>;
      return answer(
        kind === 'g1'
          ? { key_facts: all.key_facts }
          : kind === 'g2'
            ? { questions: all.questions }
            : { entities: all.entities },
      );
    }
    case 'g4':
    case 'g5':
    case 'g6':
      return answer(paperAlignmentAnswer(p, kind));
    default:
      return undefined;
  }
};
