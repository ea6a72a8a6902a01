/**
 * review.*: review queues and adjudication. review.queue and review.card are blind like
 * annotation.*: no field for a judge label, another person's label or the global label. Those come
 * only from review.reveal (and review.record's answer), and only for sentences the adjudicator has
 * decided. review.table and review.corrections are audit views (like analysis.*).
 */
import { z } from 'zod';
import { boundedNumber } from '../bounded';
import { ERROR_TYPES, ErrorTypeSchema, GlobalLabelSchema, HumanLabelSchema } from '../domain';
import { LIMITS } from '../limits';
import { RecordCauseSchema, UnitLabelStateSchema } from './annotation';
import { Name } from './primitives';

export const REVIEW_QUEUES = ['suspicious', 'human-judge', 'judges-split', 'human-human'] as const;
export const ReviewQueueKindSchema = z.enum(REVIEW_QUEUES);
export type ReviewQueueKind = z.infer<typeof ReviewQueueKindSchema>;

/** Default review cap per dataset (docs/methods.md, "Suspicious examples and review": up to 25 suspicious summaries) and fast-decision threshold. */
export const REVIEW_DEFAULT_CAP = LIMITS.review.cap.default!;
export const REVIEW_DEFAULT_FAST_MS = LIMITS.review.fastMs.default!;

/**
 * Which judges define a queue (suspicious: "every judge"; human-judge: any of them disagrees with
 * the human label; judges-split: they do not all agree). Absent: every judge with a prediction in
 * the dataset. Ignored by human-human.
 */
const JudgePanel = z.array(Name).min(1).max(100).optional();
const ReviewCap = boundedNumber(LIMITS.review.cap).default(REVIEW_DEFAULT_CAP);
const FastMs = boundedNumber(LIMITS.review.fastMs).default(REVIEW_DEFAULT_FAST_MS);
/** Which card: the summary, the queue that marks its sentences and the judge panel of that queue. */
const ReviewCardRef = z.object({
  key: z.number().int(),
  queue: ReviewQueueKindSchema,
  reviewer: Name,
  judges: JudgePanel,
});

export const ReviewQueueInputSchema = z.object({
  queue: ReviewQueueKindSchema,
  dataset: Name,
  judges: JudgePanel,
  /** Keep summaries with a marked sentence that carries this error type in a current human label (any annotator, or the decision). */
  errorType: ErrorTypeSchema.optional(),
  cap: ReviewCap,
  /** A decision whose blind time (first decision on the sentence) is below this is flagged as implausibly fast. */
  fastMs: FastMs,
  /** Whose decisions `decided` and `fast` refer to; absent: any adjudicator's. */
  reviewer: Name.optional(),
});
export type ReviewQueueInput = z.input<typeof ReviewQueueInputSchema>;

/** One summary of a review queue. Deliberately no label of any kind. */
export const ReviewQueueItemSchema = z.object({
  key: z.number().int(),
  summaryId: z.string(),
  docId: z.string(),
  sentences: z.number().int(),
  /** Sentence indexes to decide, ascending. */
  marked: z.array(z.number().int()),
  /** Of marked, those with a current decision (by `reviewer`, or by anyone). */
  decided: z.array(z.number().int()),
  /** Of decided, those whose blind decision took less than fastMs (time not recorded: not flagged). */
  fast: z.array(z.number().int()),
  documentMissing: z.boolean(),
});
export type ReviewQueueItem = z.infer<typeof ReviewQueueItemSchema>;

export const ReviewQueueSchema = z.object({
  queue: ReviewQueueKindSchema,
  dataset: z.string(),
  /** Judges in the panel (their names are not listed: reveal may anonymise them). */
  judgeCount: z.number().int(),
  /** suspicious: the suspicious pool (before the fragment filter); other queues: summaries with a marked sentence. */
  pool: z.number().int(),
  /** Summaries left after every filter, before the cap. */
  matching: z.number().int(),
  cap: z.number().int(),
  fastMs: z.number().int(),
  /** Sorted by doc id, then summary id (code-unit order), then capped. */
  items: z.array(ReviewQueueItemSchema),
});
export type ReviewQueue = z.infer<typeof ReviewQueueSchema>;

export const ReviewProgressSchema = z.object({ marked: z.number().int(), decided: z.number().int() });

/** A sentence on the review card: text and the adjudicator's *own* review decision; never another label. */
export const ReviewUnitSchema = z.object({
  id: z.number().int(),
  index: z.number().int(),
  text: z.string(),
  start: z.number().int(),
  end: z.number().int(),
  fragment: z.boolean(),
  /** To decide (true) or context (false). */
  marked: z.boolean(),
  decision: UnitLabelStateSchema,
});
export type ReviewUnit = z.infer<typeof ReviewUnitSchema>;

export const ReviewCardSchema = z.object({
  key: z.number().int(),
  dataset: z.string(),
  summaryId: z.string(),
  docId: z.string(),
  queue: ReviewQueueKindSchema,
  summary: z.string(),
  document: z.string().nullable(),
  splitter: z.string(),
  units: z.array(ReviewUnitSchema),
  progress: ReviewProgressSchema,
});
export type ReviewCard = z.infer<typeof ReviewCardSchema>;

const Anonymise = {
  /** Judges as "Judge A", "Judge B", … (stable per dataset: project judges in creation order). */
  anonymizeJudges: z.boolean().default(false),
  /** Annotators as "Annotator 1", "Annotator 2", … (stable per dataset: annotators in creation order). */
  anonymizeAnnotators: z.boolean().default(false),
};

export const RevealedSentenceSchema = z.object({
  unitId: z.number().int(),
  index: z.number().int(),
  decision: UnitLabelStateSchema,
  /** Current version of each judge in the panel that has a prediction for the sentence. */
  judges: z.array(
    z.object({
      judge: z.string(),
      hard: z.union([z.literal(0), z.literal(1)]).nullable(),
      soft: z.number().nullable(),
    }),
  ),
  /** Other people's current annotation-phase labels (the adjudicator's own left out). */
  annotators: z.array(
    z.object({ annotator: z.string(), label: HumanLabelSchema, errorType: ErrorTypeSchema.nullable() }),
  ),
});
export type RevealedSentence = z.infer<typeof RevealedSentenceSchema>;

export const ReviewRevealSchema = z.object({
  key: z.number().int(),
  dataset: z.string(),
  summaryId: z.string(),
  /** The benchmark label; null while hidden or when the benchmark has none. */
  globalLabel: GlobalLabelSchema.nullable(),
  /** The global label is summary-wide: it stays hidden until every marked sentence is decided. */
  globalLabelHidden: z.boolean(),
  sentences: z.array(RevealedSentenceSchema),
});
export type ReviewReveal = z.infer<typeof ReviewRevealSchema>;

export const ReviewRecordInputSchema = z.object({
  unitId: z.number().int(),
  queue: ReviewQueueKindSchema,
  reviewer: Name,
  judges: JudgePanel,
  /** The whole new decision for the sentence; label null clears it (reveal is refused again). */
  state: UnitLabelStateSchema,
  timeSpentMs: boundedNumber(LIMITS.timeSpentMs).nullable(),
  cause: RecordCauseSchema,
  ...Anonymise,
});
export type ReviewRecordInput = z.input<typeof ReviewRecordInputSchema>;

const ErrorTypeCounts = z.record(z.enum([...ERROR_TYPES, 'untyped']), z.number().int());

/** Table 4 for one dataset: the suspicious queue (all listed summaries) and its decisions. */
export const ReviewTableSchema = z.object({
  dataset: z.string(),
  judgeCount: z.number().int(),
  /** Suspicious summaries before the fragment filter. */
  pool: z.number().int(),
  afterFragmentFilter: z.number().int(),
  cap: z.number().int(),
  listed: z.number().int(),
  /** Listed summaries with ≥ 1 decided flagged sentence. */
  reviewed: z.number().int(),
  flaggedSentences: z.number().int(),
  unfaithful: z.number().int(),
  faithful: z.number().int(),
  unclear: z.number().int(),
  notReviewed: z.number().int(),
  /** U / (U + F); null when U + F = 0. */
  pctUnfaithful: z.number().nullable(),
  pctUnfaithfulN: z.number().int(),
  /** Error types of the unfaithful decisions. */
  errorTypes: ErrorTypeCounts,
  /** Decisions flagged as implausibly fast (blind time < fastMs). */
  fast: z.number().int(),
});
export type ReviewTable = z.infer<typeof ReviewTableSchema>;

export const CorrectionSchema = z.object({
  key: z.number().int(),
  summaryId: z.string(),
  docId: z.string(),
  benchmarkLabel: GlobalLabelSchema.nullable(),
  /** Conjunctive rule over adjudicated-or-resolved sentence labels; null: not determined. */
  correctedLabel: GlobalLabelSchema.nullable(),
  basis: z.enum(['unfaithful_sentence', 'all_sentences', 'undetermined']),
  sentences: z.number().int(),
  faithful: z.number().int(),
  unfaithful: z.number().int(),
  unclear: z.number().int(),
  /** Sentences with no usable label (none, or an unresolved disagreement). */
  unknown: z.number().int(),
  /** Sentences whose label is an adjudicator's decision. */
  adjudicated: z.number().int(),
  flipped: z.boolean(),
});
export type Correction = z.infer<typeof CorrectionSchema>;

export const DatasetCorrectionsSchema = z.object({
  dataset: z.string(),
  /** The rule, in words. */
  rule: z.string(),
  /** Summaries with ≥ 1 human label (annotation or review), by doc id then summary id. */
  summaries: z.array(CorrectionSchema),
  /** Of those, the ones whose corrected label differs from the benchmark's. */
  flips: z.array(CorrectionSchema),
});
export type DatasetCorrections = z.infer<typeof DatasetCorrectionsSchema>;

export const REVIEW_API = {
  /** Review: a queue of one dataset, blind (no label of any kind). */
  'review.queue': { input: ReviewQueueInputSchema, output: ReviewQueueSchema },
  /** The card: document, summary, every sentence (marked or context) and the adjudicator's own decisions. Blind. */
  'review.card': { input: ReviewCardRef, output: ReviewCardSchema },
  /** One decision on a marked sentence: a review-phase label event, committed before the answer; a revision is a new event. */
  'review.record': {
    input: ReviewRecordInputSchema,
    output: z.object({
      eventId: z.number().int(),
      unitId: z.number().int(),
      state: UnitLabelStateSchema,
      progress: ReviewProgressSchema,
      reveal: ReviewRevealSchema.nullable(),
    }),
  },
  /** Judge labels, other annotators' labels and the global label of decided sentences; refused (conflict) for undecided ones. */
  'review.reveal': {
    input: ReviewCardRef.extend({ unitIds: z.array(z.number().int()).min(1).max(10_000).optional(), ...Anonymise }),
    output: ReviewRevealSchema,
  },
  /** Table 4 per dataset (absent: every dataset). */
  'review.table': {
    input: z.object({ dataset: Name.optional(), judges: JudgePanel, cap: ReviewCap, fastMs: FastMs }),
    output: z.array(ReviewTableSchema),
  },
  /** Corrected global labels (conjunctive rule) beside the benchmark's, and the flips. */
  'review.corrections': { input: z.object({ dataset: Name.optional() }), output: z.array(DatasetCorrectionsSchema) },
} as const;
