/**
 * claims.*: a summary's claims (units of kind claim under their sentences) in versioned sets, and
 * people's blind labels on them.
 *
 * Identities: a summary is its `key` (as in annotation.load); a claim is its id, which belongs to
 * exactly one version of its set. Editing a set makes a new version with new ids; labels stay on
 * the ids (the version) they were given on.
 *
 * Blindness: claims.load returns only the calling annotator's own labels, never a judge output,
 * another person's label or a benchmark label (docs/architecture.md, "Blindness").
 */
import { z } from 'zod';
import { ClaimErrorTypeSchema, ClaimLabelSchema, SetSourceSchema } from '../accuracy/domain';
import { boundedNumber } from '../bounded';
import { LIMITS } from '../limits';
import { Id, ItemText, keyCursor, Name, Note, ProposalRefSchema, TimeSpent } from './primitives';

export const ItemRecordCauseSchema = z.enum(['label', 'error_type', 'note', 'conveyed_by', 'undo', 'redo', 'clear']);

export const ClaimLabelStateSchema = z
  .object({
    label: ClaimLabelSchema.nullable(),
    errorType: ClaimErrorTypeSchema.nullable(),
    note: Note,
  })
  .refine((s) => s.errorType === null || s.label === 'unsupported', {
    message: 'An error type applies only to an Unsupported claim.',
    path: ['errorType'],
  });
export type ClaimLabelState = z.infer<typeof ClaimLabelStateSchema>;

/** One claim as its annotator sees it: text, its sentence and the annotator's own label. */
export const AnnotationClaimSchema = z.object({ id: Id, index: Id, text: z.string(), state: ClaimLabelStateSchema });
export type AnnotationClaim = z.infer<typeof AnnotationClaimSchema>;

/** claims.load: the summary's sentences, each with its claims of the current version. Blind. */
export const ClaimAnnotationSchema = z.object({
  key: Id,
  summaryId: z.string(),
  /** null: the summary has no claims yet (decompose or import them first). */
  setId: Id.nullable(),
  version: Id.nullable(),
  sentences: z.array(z.object({ unitId: Id, index: Id, text: z.string(), claims: z.array(AnnotationClaimSchema) })),
});
export type ClaimAnnotation = z.infer<typeof ClaimAnnotationSchema>;

/** One claim of a version, with provenance: which claims of the version it was edited from. */
export const ClaimItemSchema = z.object({
  id: Id,
  sentenceUnitId: Id,
  sentenceIndex: Id,
  index: Id,
  text: z.string(),
  /** Claims of the previous version this one was kept, edited, split or merged from (empty: new). */
  from: z.array(Id),
});
export type ClaimItem = z.infer<typeof ClaimItemSchema>;

export const ClaimSetSchema = z.object({
  setId: Id,
  key: Id,
  version: Id,
  source: SetSourceSchema,
  /** Who made it: "task:claim_decomposition@<config hash>", "import:<file>", "person:<name>". */
  decomposer: z.string(),
  decomposerVersion: z.string(),
  /** The version it was edited from (null: the first). */
  basedOnVersion: Id.nullable(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  note: z.string().nullable(),
  claims: z.array(ClaimItemSchema),
  /** Label events on this version's claims (any annotator): > 0 means it has been labeled. */
  labelEvents: Id,
});
export type ClaimSet = z.infer<typeof ClaimSetSchema>;

export const ClaimEditInputSchema = z.object({
  key: Id,
  annotator: Name,
  /** The version the edit starts from; refused (conflict) when it is no longer the current one. null: the summary has none. */
  basedOnVersion: Id.nullable(),
  /** The whole new set, in order. A dropped claim is simply absent; a split lists its origin twice; a merge lists both origins. */
  claims: z.array(z.object({ sentenceUnitId: Id, text: ItemText, from: z.array(Id).max(50).default([]) })).max(5_000),
  note: z.string().max(2_000).optional(),
});

export const ClaimListEntrySchema = z.object({
  key: Id,
  dataset: z.string(),
  summaryId: z.string(),
  docId: z.string(),
  system: z.string().nullable(),
  sentences: Id,
  /** null: no claim set yet. */
  currentVersion: Id.nullable(),
  versions: Id,
  claims: Id,
  source: SetSourceSchema.nullable(),
  decomposer: z.string().nullable(),
});
export type ClaimListEntry = z.infer<typeof ClaimListEntrySchema>;

/** Which owners a set list shows: every one, those with a set (any version), or those without one yet. */
export const SET_LIST_STATES = ['all', 'with', 'without'] as const;
export type SetListState = (typeof SET_LIST_STATES)[number];

/**
 * One page of a set list (claims.list, keyfacts.list), in key order. `cursor` is the previous
 * page's `nextCursor` (keyset paging: the page starts after that key, whatever was added or
 * removed before it); `source` keeps owners whose current set has that source; `search` keeps
 * those whose ids (or system name) contain the text, case-insensitively.
 */
export const SetListInputSchema = z.object({
  dataset: Name.optional(),
  limit: boundedNumber(LIMITS.lists.limit).default(LIMITS.lists.limit.default!),
  cursor: keyCursor("a cursor is the nextCursor of the list's previous page").optional(),
  state: z.enum(SET_LIST_STATES).default('all'),
  source: SetSourceSchema.optional(),
  search: z.string().trim().min(LIMITS.lists.searchChars.min).max(LIMITS.lists.searchChars.max).optional(),
});
export type SetListInput = z.input<typeof SetListInputSchema>;

/** A page of a list: its items, the cursor of the next page (null: this is the last) and how many the filters keep. */
export function listPageSchema<Item extends z.ZodType>(item: Item) {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable(), total: Id });
}

export const CLAIMS_API = {
  /** Lead: the summaries with their claim-set state, a page at a time in summary key order. */
  'claims.list': { input: SetListInputSchema, output: listPageSchema(ClaimListEntrySchema) },
  /** Lead: every version of one summary's claims, oldest first, with provenance. */
  'claims.versions': { input: z.object({ key: Id }), output: z.array(ClaimSetSchema) },
  /** Annotator: the summary's sentences and current claims with this annotator's own labels. Blind. */
  'claims.load': { input: z.object({ key: Id, annotator: Name }), output: ClaimAnnotationSchema },
  /** Annotator: one claim's new state, one committed event (append-only; label null clears). */
  'claims.record': {
    input: z.object({
      claimId: Id,
      annotator: Name,
      state: ClaimLabelStateSchema,
      timeSpentMs: TimeSpent,
      cause: ItemRecordCauseSchema,
    }),
    output: z.object({ eventId: Id, claimId: Id, state: ClaimLabelStateSchema }),
  },
  /**
   * Edit, split, merge or drop claims: a new version (source person); earlier labels stay on their
   * version. From an annotator link, a proposal instead (proposals.*): the answer is the current
   * version, unchanged, with `proposal`.
   */
  'claims.edit': {
    input: ClaimEditInputSchema,
    output: ClaimSetSchema.extend({ proposal: ProposalRefSchema.optional() }),
  },
} as const;

/** The annotation side: an annotator link may call these, each naming its own annotator. */
export const CLAIMS_ANNOTATOR_METHODS = {
  'claims.load': 'annotator',
  'claims.record': 'annotator',
  'claims.edit': 'annotator',
} as const;
