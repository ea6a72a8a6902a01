/**
 * annotators.*: the people and imported label sets of a project, and their activity.
 */
import { z } from 'zod';
import { boundedNumber } from '../bounded';
import { LIMITS } from '../limits';
import { Empty, Name } from './primitives';

/**
 * A person of the project, or an imported label set (a benchmark's annotators such as FRANK's):
 * imported ones are read-only sources, never offered or written as the current annotator.
 */
export const AnnotatorKindSchema = z.enum(['person', 'imported']);
export const AnnotatorSchema = z.object({ id: z.number().int(), name: z.string(), kind: AnnotatorKindSchema });
export type Annotator = z.infer<typeof AnnotatorSchema>;

/** An annotator's profile: what they have done, and how fast (outside blind annotation only). */
export const AnnotatorActivitySchema = z.object({
  name: z.string(),
  /** A person of the project, or a label set a benchmark import brought (read-only). */
  kind: AnnotatorKindSchema,
  annotationLabels: z.number().int(),
  reviewDecisions: z.number().int(),
  /** Current claim labels; key-fact labels (covered / not, and which sentences convey a fact); Semantic Scaffold alignments. */
  claimLabels: z.number().int(),
  keyFactLabels: z.number().int(),
  scaffoldAlignments: z.number().int(),
  events: z.number().int(),
  /** Keypress decisions with a recorded time. */
  timedDecisions: z.number().int(),
  medianMsPerDecision: z.number().nullable(),
  /** Decisions faster than fastMs: implausibly fast for reading a sentence against its document. */
  fastDecisions: z.number().int(),
  firstAt: z.string().nullable(),
  lastAt: z.string().nullable(),
});
export type AnnotatorActivity = z.infer<typeof AnnotatorActivitySchema>;

export const ANNOTATORS_API = {
  'annotators.list': { input: Empty, output: z.array(AnnotatorSchema) },
  'annotators.ensure': { input: z.object({ name: Name }), output: AnnotatorSchema },
  'annotators.activity': {
    input: z.object({ fastMs: boundedNumber(LIMITS.annotators.fastMs).default(LIMITS.annotators.fastMs.default!) }),
    output: z.array(AnnotatorActivitySchema),
  },
} as const;
