/**
 * Domain vocabulary shared by every layer (docs/methods.md, "Objects and labels").
 * Pure: no I/O, runs in the renderer, the main process, the CLI and the tests.
 */
import { z } from 'zod';

export const HUMAN_LABELS = ['faithful', 'unfaithful', 'unclear'] as const;
export type HumanLabel = (typeof HUMAN_LABELS)[number];
export const HumanLabelSchema = z.enum(HUMAN_LABELS);

/** docs/methods.md, "Objects and labels": the error types (the paper's Table 15 and the Summarization Accuracy card). */
export const ERROR_TYPES = [
  'entity',
  'relation',
  'number_or_date',
  'not_in_source',
  'attribution',
  'overstatement',
  'boilerplate',
  'other',
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];
export const ErrorTypeSchema = z.enum(ERROR_TYPES);

/** How many unfaithful labels or predictions have each error type, and how many have none. */
export type ErrorTypeCounts = Record<ErrorType | 'untyped', number>;

export function emptyErrorTypeCounts(): ErrorTypeCounts {
  return Object.fromEntries([...ERROR_TYPES, 'untyped'].map((t) => [t, 0])) as ErrorTypeCounts;
}

export const ERROR_TYPE_NAMES: Record<ErrorType, string> = {
  entity: 'Entity',
  relation: 'Relation / event distortion',
  number_or_date: 'Number or date',
  not_in_source: 'Not in source (unsupported)',
  attribution: 'Attribution',
  overstatement: 'Overstatement',
  boilerplate: 'Boilerplate / navigation leakage',
  other: 'Other',
};

/** `annotation` labels feed p̂ and ε̂; `review` labels (adjudication) only feed the review table. */
export const PHASES = ['annotation', 'review'] as const;
export type Phase = (typeof PHASES)[number];
export const PhaseSchema = z.enum(PHASES);

/** Global benchmark label: 1 = faithful, 0 = not. */
export const GlobalLabelSchema = z.union([z.literal(0), z.literal(1)]);
export type GlobalLabel = z.infer<typeof GlobalLabelSchema>;

/** A unit shorter than this many word tokens is marked as a likely fragment (shown, not hidden). */
export const FRAGMENT_MAX_WORDS = 4;

/**
 * A word token is a whitespace-separated token with at least one letter or digit
 * (docs/methods.md, "Suspicious examples and review").
 */
export function countWordTokens(text: string): number {
  let n = 0;
  for (const token of text.split(/\s+/u)) {
    if (/[\p{L}\p{N}]/u.test(token)) n += 1;
  }
  return n;
}

/** Fewer than five word tokens: likely a fragment. */
export function isLikelyFragment(text: string): boolean {
  return countWordTokens(text) <= FRAGMENT_MAX_WORDS;
}

export const LOUPE_VERSION = '0.1.0';

/** What an annotator typed in a note editor, as stored: only whitespace is no note (null), otherwise the text as typed. */
export function noteFromText(text: string): string | null {
  return text.trim() === '' ? null : text;
}
