/**
 * annotation.*: blind sentence annotation. No output schema here has a field for a judge
 * prediction or a global label; hosts parse outputs, which strips any key a schema does not name
 * (docs/architecture.md, "Blindness").
 */
import { z } from 'zod';
import { boundedNumber } from '../bounded';
import { ErrorTypeSchema, HumanLabelSchema } from '../domain';
import { LIMITS, utf8Bytes } from '../limits';
import { listPageSchema } from './claims';
import { keyCursor, Name, Note } from './primitives';

export const ProgressSchema = z.object({
  unitsDone: z.number().int(),
  unitsTotal: z.number().int(),
  summariesDone: z.number().int(),
  summariesTotal: z.number().int(),
});
export type Progress = z.infer<typeof ProgressSchema>;

/**
 * Whether some summary of a queue can still be worked on: not every one is done, and not every
 * one left is blocked on a missing document (annotation.queue's `blocked`).
 */
export function hasWorkLeft(progress: Progress, blocked: number): boolean {
  return progress.summariesDone + blocked < progress.summariesTotal;
}

/** One summary of an annotator's queue. Deliberately no global label. */
export const QueueItemSchema = z.object({
  key: z.number().int(),
  dataset: z.string(),
  summaryId: z.string(),
  docId: z.string(),
  units: z.number().int(),
  labeled: z.number().int(),
  documentMissing: z.boolean(),
});
export type QueueItem = z.infer<typeof QueueItemSchema>;

/**
 * One page of an annotator's queue, in queue order (dataset, batch, draw order), with what the whole
 * queue holds: `total` summaries, the annotator's `progress` over it, `resumeAt`.
 * `nextCursor` / `previousCursor` are the keys to pass as `cursor` / `before` for the pages after
 * and before this one (null: none).
 */
export const QueueSchema = listPageSchema(QueueItemSchema).extend({
  annotator: z.string(),
  /** Position in the whole queue (0-based) of items[0]. */
  start: z.number().int(),
  previousCursor: z.string().nullable(),
  progress: ProgressSchema,
  /** Summaries with work left whose document is missing: nothing to do on them until it is attached. */
  blocked: z.number().int(),
  /** Position in the whole queue of the first summary with an unlabeled unit and its document (null: none). */
  resumeAt: z.number().int().nullable(),
});
export type Queue = z.infer<typeof QueueSchema>;

/** A queue cursor: a summary key, as a page's nextCursor / previousCursor gives it. */
const QueueCursor = keyCursor("a cursor is the nextCursor or previousCursor of the queue's page");

/**
 * Which page: at most one of `cursor` (after that key), `before` (before that key), `around` (the
 * page holding that key near its middle; the first page when the key is not in the queue) and
 * `position` (from that position, the last page when it is past the end); none: the first page.
 */
export const QueueInputSchema = z
  .object({
    annotator: Name,
    dataset: z.string().optional(),
    /** Summaries per page; absent: LIMITS.lists.limit's default. */
    limit: boundedNumber(LIMITS.lists.limit).optional(),
    cursor: QueueCursor.optional(),
    before: QueueCursor.optional(),
    around: z.number().int().optional(),
    position: z.number().int().min(0).optional(),
  })
  .refine(
    (input) => [input.cursor, input.before, input.around, input.position].filter((v) => v !== undefined).length <= 1,
    { message: 'Give at most one of cursor, before, around and position.', path: ['cursor'] },
  );
export type QueueInput = z.input<typeof QueueInputSchema>;

/** A summary of the queue with its place in it. */
export const PlacedQueueItemSchema = z.object({ item: QueueItemSchema, position: z.number().int() });
export type PlacedQueueItem = z.infer<typeof PlacedQueueItemSchema>;

const labelState = <N extends z.ZodType<string | null>>(note: N) =>
  z
    .object({ label: HumanLabelSchema.nullable(), errorType: ErrorTypeSchema.nullable(), note })
    .refine((s) => s.errorType === null || s.label === 'unfaithful', {
      message: 'An error type applies only to an Unfaithful sentence.',
      path: ['errorType'],
    });
/** A unit's label state as stored and answered. */
export const UnitLabelStateSchema = labelState(z.string().nullable());
export type UnitLabelState = z.infer<typeof UnitLabelStateSchema>;
/** The state a person records: its note within the bound of every note (as claims' and key facts'). */
const RecordedLabelStateSchema = labelState(Note);

/** A unit as the annotator sees it: text, offsets and the annotator's *own* current label. */
export const AnnotationUnitSchema = z.object({
  id: z.number().int(),
  index: z.number().int(),
  text: z.string(),
  start: z.number().int(),
  end: z.number().int(),
  fragment: z.boolean(),
  state: UnitLabelStateSchema,
});
export type AnnotationUnit = z.infer<typeof AnnotationUnitSchema>;

export const AnnotationSummarySchema = z.object({
  key: z.number().int(),
  dataset: z.string(),
  summaryId: z.string(),
  docId: z.string(),
  summary: z.string(),
  /** null: the document is missing; its units cannot be labeled until one is attached. */
  document: z.string().nullable(),
  splitter: z.string(),
  units: z.array(AnnotationUnitSchema),
  /** This annotator revealed the summary's judge outputs or benchmark labels: their labels on it are recorded blind: false. */
  revealed: z.boolean().optional(),
});
export type AnnotationSummary = z.infer<typeof AnnotationSummarySchema>;

const MAX_DOCUMENT_BYTES = LIMITS.attachedDocumentBytes.max;
/** An attached document: non-empty, at most LIMITS.attachedDocumentBytes of UTF-8. */
const DocumentText = z
  .string()
  .min(1)
  .max(MAX_DOCUMENT_BYTES) // a UTF-16 length above the byte limit is over it too: refused before counting
  .refine((text) => utf8Bytes(text) <= MAX_DOCUMENT_BYTES, {
    message: `A document may be at most ${(MAX_DOCUMENT_BYTES / 1_000_000).toLocaleString('en-US')} MB (${MAX_DOCUMENT_BYTES.toLocaleString('en-US')} bytes of UTF-8).`,
  });

export const RecordCauseSchema = z.enum(['label', 'error_type', 'note', 'undo', 'redo', 'clear']);

export const RecordInputSchema = z.object({
  unitId: z.number().int(),
  annotator: Name,
  /** The whole new state of the unit for this annotator; label null clears it. */
  state: RecordedLabelStateSchema,
  timeSpentMs: boundedNumber(LIMITS.timeSpentMs).nullable(),
  cause: RecordCauseSchema,
});
export type RecordInput = z.infer<typeof RecordInputSchema>;

/** Views that show judge outputs or benchmark labels. */
export const REVEALING_VIEWS = ['analysis', 'review', 'judges'] as const;
export const RevealStatusSchema = z.object({
  annotator: z.string(),
  /** Summaries of the annotator's sample with an unlabeled unit: what opening such a view would reveal. */
  unfinished: z.number().int(),
  /** Of those, already revealed earlier (labels on them are recorded with blind: false). */
  revealed: z.number().int(),
});
export type RevealStatus = z.infer<typeof RevealStatusSchema>;

export const ANNOTATION_API = {
  'annotation.queue': { input: QueueInputSchema, output: QueueSchema },
  /**
   * The summary after `after` in queue order (null: from the start): with `withWork` (absent: true)
   * the first that can be worked on (a unit unlabeled by this annotator, its document there),
   * searching on from the top after the end and never `after` itself; without, simply the next one.
   * null: there is none.
   */
  'annotation.next': {
    input: z.object({
      annotator: Name,
      dataset: z.string().optional(),
      after: z.number().int().nullable(),
      withWork: z.boolean().optional(),
    }),
    output: PlacedQueueItemSchema.nullable(),
  },
  'annotation.load': {
    input: z.object({ key: z.number().int(), annotator: Name }),
    output: AnnotationSummarySchema,
  },
  'annotation.record': {
    input: RecordInputSchema,
    output: z.object({
      eventId: z.number().int(),
      unitId: z.number().int(),
      state: UnitLabelStateSchema,
      progress: ProgressSchema,
    }),
  },
  /** How many of the annotator's unfinished summaries a revealing view would show (the gate asks first). */
  'annotation.revealStatus': { input: z.object({ annotator: Name }), output: RevealStatusSchema },
  /**
   * The annotator chose to open a revealing view: records the reveal of each unfinished summary of
   * their sample. A reveal belongs to the person who looks: from the lead, it needs `confirmFor`
   * naming that person (the gate asked for them, naming what it does to their labels), and it is
   * refused for anyone with a live annotator link (only their own link reveals for them).
   */
  'annotation.reveal': {
    input: z.object({ annotator: Name, view: z.enum(REVEALING_VIEWS), confirmFor: Name.optional() }),
    output: z.object({ revealed: z.number().int(), status: RevealStatusSchema }),
  },
  /**
   * Gives a summary's missing document its text (every summary of that document gets it). The lead
   * may attach to any summary and replace a text with `replace: true`; an annotator link only attaches
   * a missing document of a summary in its own queue.
   */
  'annotation.attachDocument': {
    input: z.object({ key: z.number().int(), text: DocumentText, replace: z.boolean().optional() }),
    output: z.object({ attached: z.number().int() }),
  },
} as const;

/** The annotation side: an annotator link may call these, all but the last naming its own annotator. */
export const ANNOTATION_ANNOTATOR_METHODS = {
  'annotation.queue': 'annotator',
  'annotation.next': 'annotator',
  'annotation.load': 'annotator',
  'annotation.record': 'annotator',
  'annotation.attachDocument': null,
} as const;
