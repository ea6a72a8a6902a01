/**
 * Vocabulary of the Summarization Accuracy evaluation (the Summarization Accuracy card, FineSurE; docs/methods.md, "Claims and key facts"):
 * claims and their verdicts, key facts and their coverage, systems under test.
 * Pure: runs in the renderer, the core, the CLI and the tests.
 */
import { z } from 'zod';
import type { ErrorType } from '../domain';

/** A claim's label: the document supports it, does not, or it cannot be decided (left out of every rate). */
export const CLAIM_LABELS = ['supported', 'unsupported', 'unclear'] as const;
export type ClaimLabel = (typeof CLAIM_LABELS)[number];
export const ClaimLabelSchema = z.enum(CLAIM_LABELS);

/** The card's error types of an unsupported claim (the Summarization Accuracy card, "Faithfulness check"). */
export const CLAIM_ERROR_TYPES = ['entity', 'relation', 'number_or_date', 'not_in_source', 'other'] as const;
export type ClaimErrorType = (typeof CLAIM_ERROR_TYPES)[number];
export const ClaimErrorTypeSchema = z.enum(CLAIM_ERROR_TYPES);

/** Each card type is one of Loupe's error types (shared/domain.ts ERROR_TYPES), by the same name. */
export const CLAIM_ERROR_TYPE_IN_TAXONOMY: Record<ClaimErrorType, ErrorType> = {
  entity: 'entity',
  relation: 'relation',
  number_or_date: 'number_or_date',
  not_in_source: 'not_in_source',
  other: 'other',
};

/**
 * FineSurE's fact-checking error names (its prompt and FRANK's codes) → the card's types. The raw
 * name is always kept beside the mapped one. Circumstantial errors (time, duration, location) are
 * not all numbers or dates, so they map to `other`; a coreference error names the wrong entity.
 */
export const FINESURE_ERROR_TYPE: Record<string, ClaimErrorType | null> = {
  'no error': null,
  'entity error': 'entity',
  'predicate error': 'relation',
  'relation error': 'relation',
  'circumstantial error': 'other',
  'out-of-context error': 'not_in_source',
  'out of context error': 'not_in_source',
  'coreference error': 'entity',
  'linking error': 'relation',
  'grammatical error': 'other',
  'other error': 'other',
  NoE: null,
  EntE: 'entity',
  RelE: 'relation',
  CircE: 'other',
  OutE: 'not_in_source',
  CorefE: 'entity',
  LinkE: 'relation',
  GramE: 'other',
  OtherE: 'other',
};

/** A FineSurE (or FRANK) error name as the card's type: null for "no error", undefined when unknown. Case and spacing are ignored. */
export function fineSurEErrorType(name: string): ClaimErrorType | null | undefined {
  const exact = FINESURE_ERROR_TYPE[name.trim()];
  if (exact !== undefined) return exact;
  const folded = name
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, ' ');
  return FINESURE_ERROR_TYPE[folded];
}

/**
 * The error type of a sentence FineSurE's fact-checking marks as an error, from its category
 * ("entity error", or several joined by ", "): the one type they all map to, else `other` (as an
 * unknown name); null for "no error".
 */
export function fineSurESentenceErrorType(category: string): ClaimErrorType | null {
  const types = category
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
    .map(fineSurEErrorType);
  const errors = new Set(types.filter((t) => t !== null).map((t) => t ?? 'other'));
  if (errors.size === 0) return null;
  return errors.size === 1 ? [...errors][0]! : 'other';
}

/** A key fact's label for one summary. */
export const KEY_FACT_LABELS = ['covered', 'not_covered'] as const;
export type KeyFactLabel = (typeof KEY_FACT_LABELS)[number];
export const KeyFactLabelSchema = z.enum(KEY_FACT_LABELS);

/** Where a claim set or a key-fact set came from. */
export const SET_SOURCES = ['model', 'imported', 'person'] as const;
export type SetSource = (typeof SET_SOURCES)[number];
export const SetSourceSchema = z.enum(SET_SOURCES);

/** Why a system under test produced no summary for a document (the card: 0.0 on all three metrics). */
export const SYSTEM_FAILURES = ['error', 'refusal', 'guardrail', 'empty'] as const;
export type SystemFailure = (typeof SYSTEM_FAILURES)[number];
export const SystemFailureSchema = z.enum(SYSTEM_FAILURES);

/** The unit a conciseness figure counts (FineSurE's scripts use sentences; the card, claims). */
export const CONCISENESS_BASES = ['claims', 'sentences'] as const;
export type ConcisenessBasis = (typeof CONCISENESS_BASES)[number];
