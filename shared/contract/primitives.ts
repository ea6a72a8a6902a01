/**
 * The building blocks every contract module shares, defined once: names, ids, empty inputs, run
 * references, the caller a host established. No method lives here.
 */
import { z } from 'zod';
import { LIMITS } from '../limits';
import { boundedNumber } from '../bounded';

/** A name a person types (dataset, annotator, judge, system): trimmed, bounded. */
export const Name = z.string().trim().min(LIMITS.nameChars.min).max(LIMITS.nameChars.max);
/** The input of a method that takes nothing (unknown keys refused). */
export const Empty = z.object({}).strict();
/** A row id (summary key, document key, claim id, …). */
export const Id = z.number().int();
/**
 * A keyset-paging cursor: a row key as decimal text, as a page's nextCursor / previousCursor gives
 * it; `error` says which page hands it out.
 */
export function keyCursor(error: string) {
  return z.string().regex(/^[1-9][0-9]{0,15}$/, { error });
}
/** A note on a label: free text, bounded, or none. */
export const Note = z.string().max(10_000).nullable();
/** A claim, key-fact or scaffold-item text a person writes. */
export const ItemText = z.string().trim().min(1).max(5_000);
/** Time spent on one decision, as the UI measured it (null: not measured). */
export const TimeSpent = boundedNumber(LIMITS.timeSpentMs).nullable();
/** An API key typed in the desktop app; stored in the OS keychain, never in the project. */
export const ApiKeyInput = z.string().min(LIMITS.judge.apiKeyChars.min).max(LIMITS.judge.apiKeyChars.max);
/** A background run of this session (judges.*, accuracy.*). */
export const RunRef = z.object({ runId: z.string().min(1) });

/** Who makes a call, as the host established it (token, desktop, CLI): checked in dispatch. */
export type Caller = { role: 'lead' } | { role: 'annotator'; annotator: string };
export const LEAD: Caller = { role: 'lead' };

/** An edit an annotator link made: stored as a proposal for the lead, current for nobody until accepted (proposals.*). */
export const ProposalRefSchema = z.object({ id: Id, status: z.literal('pending') });
export type ProposalRef = z.infer<typeof ProposalRefSchema>;
