/**
 * A test-only JSON task kind ("the content words of a sentence"), declared the way a real kind
 * would be, with the mock's matching answers. Used in-process (test/unit/tasks/engine.test.ts)
 * and by a child process that is killed mid-run (test/mock-openai/words-child.ts).
 */
import { z } from 'zod';
import { defineJsonKind } from '../../electron/core/tasks/json-kind';
import type { MockReply, MockRequest } from './server';

export const WordsSchema = z.object({ words: z.array(z.string().min(1)).min(1) }).strict();

export const wordsKind = defineJsonKind({
  name: 'test-words',
  version: 1,
  itemNoun: 'sentence',
  template: 'List the content words of the sentence as JSON, e.g. {"words": ["council"]}.\nSENTENCE: <<<{sentence}>>>',
  input: z.object({ sentence: z.string().min(1) }),
  output: WordsSchema,
  fields: (input) => ({ sentence: input.sentence }),
});

const SENTENCE = /SENTENCE: <<<([\s\S]*?)>>>/;
export const sentenceOf = (req: MockRequest): string => SENTENCE.exec(req.prompt)?.[1] ?? '';
/** The right answer for a sentence: its lower-cased words without the "(k.i)" id. */
export const wordsOf = (sentence: string): string[] =>
  sentence
    .replace(/\(\d+\.\d+\)/, '')
    .toLowerCase()
    .match(/[a-z]+/g) ?? [];
export const wordsAnswer = (req: MockRequest): MockReply => ({
  type: 'answer',
  content: JSON.stringify({ words: wordsOf(sentenceOf(req)) }),
});
