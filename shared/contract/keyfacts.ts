/**
 * keyfacts.*: a document's key facts in versioned sets, and people's blind labels per summary:
 * covered or not, and which claims or sentences convey each fact. A document is its `documentKey`.
 * Same identities and blindness as claims.*.
 */
import { z } from 'zod';
import { KeyFactLabelSchema, SetSourceSchema } from '../accuracy/domain';
import { ItemRecordCauseSchema, listPageSchema, SetListInputSchema } from './claims';
import { Id, ItemText, Name, Note, ProposalRefSchema, TimeSpent } from './primitives';

export const ConveyedBySchema = z.object({
  claims: z.array(Id).max(500).default([]),
  sentences: z.array(Id).max(500).default([]),
});
export type ConveyedBy = z.infer<typeof ConveyedBySchema>;

export const KeyFactLabelStateSchema = z
  .object({
    label: KeyFactLabelSchema.nullable(),
    /** Claims (ids of the summary's current claim set) and sentences (unit ids) that convey the fact. */
    conveyedBy: ConveyedBySchema,
    note: Note,
  })
  .refine((s) => s.label === 'covered' || (s.conveyedBy.claims.length === 0 && s.conveyedBy.sentences.length === 0), {
    message: 'Only a Covered key fact is conveyed by claims or sentences.',
    path: ['conveyedBy'],
  });
export type KeyFactLabelState = z.infer<typeof KeyFactLabelStateSchema>;

/** keyfacts.load: the document's key facts (current version) for one summary, with the annotator's own labels. Blind. */
export const KeyFactAnnotationSchema = z.object({
  key: Id,
  summaryId: z.string(),
  documentKey: Id,
  docId: z.string(),
  setId: Id.nullable(),
  version: Id.nullable(),
  facts: z.array(z.object({ id: Id, index: Id, text: z.string(), state: KeyFactLabelStateSchema })),
  /** What a key fact can be conveyed by: the summary's sentences and its current claims. */
  sentences: z.array(z.object({ unitId: Id, index: Id, text: z.string() })),
  claims: z.array(z.object({ id: Id, sentenceUnitId: Id, text: z.string() })),
});
export type KeyFactAnnotation = z.infer<typeof KeyFactAnnotationSchema>;

export const KeyFactItemSchema = z.object({ id: Id, index: Id, text: z.string(), from: z.array(Id) });
export type KeyFactItem = z.infer<typeof KeyFactItemSchema>;

export const KeyFactSetSchema = z.object({
  setId: Id,
  documentKey: Id,
  version: Id,
  source: SetSourceSchema,
  /** "task:keyfact_extraction@<config hash>", "import:<file>", "person:<name>". */
  extractor: z.string(),
  extractorVersion: z.string(),
  basedOnVersion: Id.nullable(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  note: z.string().nullable(),
  facts: z.array(KeyFactItemSchema),
  labelEvents: Id,
});
export type KeyFactSet = z.infer<typeof KeyFactSetSchema>;

export const KeyFactEditInputSchema = z.object({
  documentKey: Id,
  annotator: Name,
  basedOnVersion: Id.nullable(),
  facts: z.array(z.object({ text: ItemText, from: z.array(Id).max(50).default([]) })).max(2_000),
  note: z.string().max(2_000).optional(),
});

export const KeyFactListEntrySchema = z.object({
  documentKey: Id,
  dataset: z.string(),
  docId: z.string(),
  summaries: Id,
  currentVersion: Id.nullable(),
  versions: Id,
  facts: Id,
  source: SetSourceSchema.nullable(),
  extractor: z.string().nullable(),
});
export type KeyFactListEntry = z.infer<typeof KeyFactListEntrySchema>;

export const KEYFACTS_API = {
  /** Lead: the summarised documents with their key-fact-set state, a page at a time in document key order. */
  'keyfacts.list': { input: SetListInputSchema, output: listPageSchema(KeyFactListEntrySchema) },
  'keyfacts.versions': { input: z.object({ documentKey: Id }), output: z.array(KeyFactSetSchema) },
  /** Annotator: the document's key facts for one summary, with this annotator's own labels. Blind. */
  'keyfacts.load': { input: z.object({ key: Id, annotator: Name }), output: KeyFactAnnotationSchema },
  'keyfacts.record': {
    input: z.object({
      keyFactId: Id,
      key: Id,
      annotator: Name,
      state: KeyFactLabelStateSchema,
      timeSpentMs: TimeSpent,
      cause: ItemRecordCauseSchema,
    }),
    output: z.object({ eventId: Id, keyFactId: Id, key: Id, state: KeyFactLabelStateSchema }),
  },
  'keyfacts.edit': {
    input: KeyFactEditInputSchema,
    output: KeyFactSetSchema.extend({ proposal: ProposalRefSchema.optional() }),
  },
} as const;

/** The annotation side: an annotator link may call these, each naming its own annotator. */
export const KEYFACTS_ANNOTATOR_METHODS = {
  'keyfacts.load': 'annotator',
  'keyfacts.record': 'annotator',
  'keyfacts.edit': 'annotator',
} as const;
