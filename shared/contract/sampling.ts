/**
 * sampling.*: reproducible samples (batches) of summaries to annotate, optionally split among annotators.
 */
import { z } from 'zod';
import { boundedNumber } from '../bounded';
import { LIMITS } from '../limits';
import { Name } from './primitives';

/**
 * A batch as listed: its counts, not its summary ids, so the list stays small however large the
 * batches are (a batch of a whole 100k dataset would otherwise answer about 1 MB of ids).
 */
export const SampleBatchInfoSchema = z.object({
  dataset: z.string(),
  batch: z.number().int(),
  seed: z.number().int(),
  requested: z.number().int(),
  annotator: z.string().nullable(),
  /** How many summaries the batch holds. */
  summaries: z.number().int(),
  /** True when fewer than `requested` unsampled summaries were left. */
  exhausted: z.boolean(),
  createdAt: z.string(),
  /** The overlap asked for when drawn with annotators (schema 5); null otherwise. */
  overlap: z.number().nullable(),
  /** Per annotator (by name), how many summaries went to them; empty for a batch drawn without annotators. */
  assignments: z.array(z.object({ annotator: z.string(), summaries: z.number().int() })),
});
export type SampleBatchInfo = z.infer<typeof SampleBatchInfoSchema>;

/** A batch just drawn: its counts and its summary ids in batch order (per annotator too). */
export const SampleBatchSchema = SampleBatchInfoSchema.extend({
  summaryIds: z.array(z.string()),
  assignments: z.array(
    z.object({ annotator: z.string(), summaries: z.number().int(), summaryIds: z.array(z.string()) }),
  ),
});
export type SampleBatch = z.infer<typeof SampleBatchSchema>;

export const SAMPLING_API = {
  'sampling.draw': {
    input: z
      .object({
        dataset: Name,
        n: boundedNumber(LIMITS.sampling.n),
        seed: boundedNumber(LIMITS.sampling.seed).default(LIMITS.sampling.seed.default!),
        annotator: Name.optional(),
        /** Split the batch among these annotators (assignments with overlap, shared/sampling.ts assignWithOverlap). */
        annotators: z.array(Name).min(LIMITS.sampling.annotators.min).max(LIMITS.sampling.annotators.max).optional(),
        /** Share of the batch's summaries that go to two annotators (needs `annotators`); default 0. */
        overlap: boundedNumber(LIMITS.sampling.overlap).optional(),
      })
      .superRefine((v, ctx) => {
        const refuse = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
        if (v.annotators !== undefined && v.annotator !== undefined)
          refuse(
            'annotators',
            'Give either one annotator for the whole batch or annotators to split it among, not both.',
          );
        if ((v.overlap ?? 0) > 0 && v.annotators === undefined)
          refuse('overlap', 'An overlap needs annotators to split the batch among.');
        if (v.annotators !== undefined && new Set(v.annotators).size !== v.annotators.length)
          refuse('annotators', 'Annotator names repeat.');
        if (v.annotators !== undefined && v.annotators.length < 2 && (v.overlap ?? 0) > 0)
          refuse('overlap', 'An overlap needs at least two annotators.');
      }),
    output: SampleBatchSchema,
  },
  'sampling.list': { input: z.object({ dataset: z.string().optional() }), output: z.array(SampleBatchInfoSchema) },
} as const;
