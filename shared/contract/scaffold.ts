/**
 * The people side of the Semantic Scaffold: reading a document's scaffold to align a
 * summary to it, recording one alignment, and editing the scaffold into a new version.
 * shared/api.ts spreads SCAFFOLD_API into API and SCAFFOLD_ANNOTATOR_METHODS into ANNOTATOR_METHODS.
 *
 * Identities: a summary is its `key` (as in annotation.load), a document its `documentKey`; an
 * item is its id, which belongs to exactly one version of the document's scaffold. An edit makes a
 * new version with new ids; alignments stay on the version they were given on.
 *
 * Blindness (docs/architecture.md, "Blindness"): scaffold.load returns only the calling annotator's own
 * current alignment values and notes, never a judge's, another person's or an imported label set's.
 *
 * Notes: a person's note on an item for one summary (why it is aligned so, or why not yet) is part
 * of the item's state, stored on the alignment event as a claim label's note is; a note needs no
 * value, and clearing the value (X) keeps it.
 */
import { z } from 'zod';
import { Id, ItemText, Name, Note, ProposalRefSchema, TimeSpent } from './primitives';
import { SetSourceSchema } from '../accuracy/domain';
import { TierSchema } from '../scaffold/domain';

const ItemKey = z.string().trim().min(1).max(200);

export const ScaffoldItemKindSchema = z.enum(['fact', 'question', 'attribute']);
/** Every value an alignment may take; which fit an item depends on its kind (ALIGNMENT_VALUES). */
export const AlignmentValueSchema = z.enum([
  'preserved',
  'partial',
  'missing',
  'misrepresented',
  'answered',
  'unanswered',
]);
export type AlignmentValueInput = z.infer<typeof AlignmentValueSchema>;

/** The values that fit each kind of item (the same rule as schema 9's trigger). */
export const ALIGNMENT_VALUES = {
  fact: ['preserved', 'partial', 'missing', 'misrepresented'],
  question: ['answered', 'unanswered'],
  attribute: ['preserved', 'missing', 'misrepresented'],
} as const satisfies Record<z.infer<typeof ScaffoldItemKindSchema>, readonly AlignmentValueInput[]>;

export const ScaffoldRecordCauseSchema = z.enum(['label', 'sentences', 'note', 'undo', 'redo', 'clear']);

export const AlignmentStateSchema = z.object({
  /** null: not aligned (or cleared). */
  value: AlignmentValueSchema.nullable(),
  /** 0-based summary sentence indexes that convey a fact (Fact Focus); facts only. */
  sentences: z.array(z.number().int().min(0)).max(500).default([]),
  /** The annotator's note on the item for this summary; null or absent: none. */
  note: z.string().nullable().optional(),
});
export type AlignmentState = z.infer<typeof AlignmentStateSchema>;

/** One item of a scaffold version as an annotator sees it, with their own alignment. */
export const ScaffoldAnnotationItemSchema = z.object({
  id: Id,
  kind: ScaffoldItemKindSchema,
  /** The id the file or extractor gave it (f1, q2, a3 …). */
  itemKey: z.string(),
  text: z.string(),
  tier: TierSchema.nullable(),
  answer: z.string().nullable(),
  entity: z.string().nullable(),
  state: AlignmentStateSchema,
});
export type ScaffoldAnnotationItem = z.infer<typeof ScaffoldAnnotationItemSchema>;

/** scaffold.load: the document's current scaffold for one summary, with the annotator's own alignments. Blind. */
export const ScaffoldAnnotationSchema = z.object({
  key: Id,
  summaryId: z.string(),
  documentKey: Id,
  docId: z.string(),
  /** null: the document has no scaffold yet (extract or import one first). */
  scaffoldId: Id.nullable(),
  version: Id.nullable(),
  items: z.array(ScaffoldAnnotationItemSchema),
  sentences: z.array(z.object({ unitId: Id, index: Id, text: z.string() })),
});
export type ScaffoldAnnotation = z.infer<typeof ScaffoldAnnotationSchema>;

/** One version of a document's scaffold, with provenance per item. */
export const ScaffoldVersionSchema = z.object({
  scaffoldId: Id,
  documentKey: Id,
  version: Id,
  source: SetSourceSchema,
  extractor: z.string(),
  extractorVersion: z.string(),
  basedOnVersion: Id.nullable(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  note: z.string().nullable(),
  items: z.array(
    z.object({
      id: Id,
      kind: ScaffoldItemKindSchema,
      itemKey: z.string(),
      text: z.string(),
      tier: TierSchema.nullable(),
      answer: z.string().nullable(),
      entity: z.string().nullable(),
      /** The item of the previous version it was kept or edited from (same kind and id); null: new. */
      fromItemId: Id.nullable(),
    }),
  ),
  /** Alignment events on this version's items (any source): > 0 means it has been aligned. */
  alignmentEvents: Id,
});
export type ScaffoldVersion = z.infer<typeof ScaffoldVersionSchema>;

/**
 * The whole new scaffold, in order (the `scaffold` line's content). A dropped item is absent; an
 * item keeping its id (within its kind) is the same item edited or retiered; a new id is new.
 */
export const ScaffoldEditInputSchema = z.object({
  documentKey: Id,
  annotator: Name,
  /** The version the edit starts from; refused (conflict) when it is no longer the current one. null: the document has none. */
  basedOnVersion: Id.nullable(),
  facts: z.array(z.object({ id: ItemKey, text: ItemText, tier: TierSchema })).max(2_000),
  questions: z
    .array(z.object({ id: ItemKey, text: ItemText, answer: z.string().max(5_000), tier: TierSchema }))
    .max(2_000)
    .default([]),
  entities: z
    .array(
      z.object({
        name: ItemText,
        attributes: z
          .array(z.object({ id: ItemKey, text: ItemText }))
          .min(1)
          .max(500),
      }),
    )
    .max(500)
    .default([]),
  note: z.string().max(2_000).optional(),
});
export type ScaffoldEditInput = z.input<typeof ScaffoldEditInputSchema>;

export const SCAFFOLD_API = {
  /** Annotator: the document's current scaffold for one summary, with this annotator's own alignments. Blind. */
  'scaffold.load': { input: z.object({ key: Id, annotator: Name }), output: ScaffoldAnnotationSchema },
  /** Annotator (a person): one item's new alignment and note, one committed event (append-only; value null clears the alignment). */
  'scaffold.record': {
    input: z.object({
      key: Id,
      annotator: Name,
      itemId: Id,
      value: AlignmentValueSchema.nullable(),
      sentences: z.array(z.number().int().min(0)).max(500).default([]),
      /** The item's note, within the bound of every note; null removes it, absent keeps the current one. */
      note: Note.optional(),
      timeSpentMs: TimeSpent.default(null),
      cause: ScaffoldRecordCauseSchema.default('label'),
    }),
    output: z.object({
      eventId: Id,
      key: Id,
      itemId: Id,
      state: AlignmentStateSchema,
      /** false: given after this person revealed the summary's judge outputs. */ blind: z.boolean(),
    }),
  },
  /** Add, drop, retier or reword items: a new version (source person); earlier alignments stay on their version. */
  'scaffold.edit': {
    input: ScaffoldEditInputSchema,
    output: ScaffoldVersionSchema.extend({ proposal: ProposalRefSchema.optional() }),
  },
  /** Lead: every version of one document's scaffold, oldest first, with provenance. */
  'scaffold.versions': { input: z.object({ documentKey: Id }), output: z.array(ScaffoldVersionSchema) },
} as const;

/** The annotation side: an annotator link may call these, each naming its own annotator. */
export const SCAFFOLD_ANNOTATOR_METHODS = {
  'scaffold.load': 'annotator',
  'scaffold.record': 'annotator',
  'scaffold.edit': 'annotator',
} as const;
