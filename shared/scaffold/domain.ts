/**
 * The Semantic Scaffold's vocabulary (the Semantic Scaffold paper, §4): a scaffold is extracted once per
 * document and reused for every summary of it. Items are atomic facts and key questions (each
 * main or supporting) and entity attributes; an alignment says, per summary and source (a judge or
 * a person), what the summary kept of each item.
 */
import { z } from 'zod';

export const TierSchema = z.enum(['main', 'supporting']);
export type Tier = z.infer<typeof TierSchema>;

export const FactAlignmentSchema = z.enum(['preserved', 'partial', 'missing', 'misrepresented']);
export type FactAlignment = z.infer<typeof FactAlignmentSchema>;

export const QuestionAlignmentSchema = z.enum(['answered', 'unanswered']);
export type QuestionAlignment = z.infer<typeof QuestionAlignmentSchema>;

export const AttributeAlignmentSchema = z.enum(['preserved', 'missing', 'misrepresented']);
export type AttributeAlignment = z.infer<typeof AttributeAlignmentSchema>;

export type ScaffoldItemKind = 'fact' | 'question' | 'attribute';
export type AlignmentValue = FactAlignment | QuestionAlignment | AttributeAlignment;

export interface ScaffoldFact {
  id: string;
  text: string;
  tier: Tier;
}

export interface ScaffoldQuestion {
  id: string;
  text: string;
  answer: string;
  tier: Tier;
}

export interface ScaffoldEntity {
  name: string;
  attributes: Array<{ id: string; text: string }>;
}

/** The content of one scaffold version (what the `scaffold` JSONL line carries besides its address). */
export interface ScaffoldContent {
  facts: ScaffoldFact[];
  questions: ScaffoldQuestion[];
  entities: ScaffoldEntity[];
}

/** One source's alignment of one summary: item id → value (items left out were not aligned). */
export interface AlignmentContent {
  facts: Record<string, FactAlignment>;
  questions: Record<string, QuestionAlignment>;
  attributes: Record<string, AttributeAlignment>;
  /** Fact id → 0-based summary sentence indexes that convey it (for Fact Focus); optional. */
  fact_sentences?: Record<string, number[]>;
}

/** `judge:<name>` or `human:<annotator>`, as the alignments file names a source. */
export const AlignmentSourceSchema = z
  .string()
  .regex(/^(judge|human):\S.{0,199}$/, { message: 'judge:<name> or human:<annotator>' })
  .transform((s) => {
    const colon = s.indexOf(':');
    return { kind: s.slice(0, colon) as 'judge' | 'human', name: s.slice(colon + 1).trim() };
  });
export type AlignmentSource = { kind: 'judge' | 'human'; name: string };

export function sourceLabel(source: AlignmentSource): string {
  return `${source.kind}:${source.name}`;
}
