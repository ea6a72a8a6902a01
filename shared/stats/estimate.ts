/**
 * The basic shapes every reported figure takes (the analysis, the accuracy and the scaffold
 * blocks alike), as types and as zod schemas checked against each other: a point value with its
 * 95% bootstrap percentile interval and the n it rests on, or a plain rate with its denominator.
 * An undefined value is null, never 0 or NaN (docs/methods.md, "Estimates and intervals").
 */
import { z } from 'zod';

export type Interval = [number, number];

/** A point estimate with its 95% bootstrap percentile interval. */
export interface Estimate {
  value: number | null;
  /** null when there are no replicates or none is defined. */
  ci: Interval | null;
  /** The n the value rests on (units or summaries, as the field says). */
  n: number;
  /** Replicates where the statistic was undefined, left out of the interval. */
  replicates_dropped: number;
}

/** A proportion or ratio with its denominator. */
export interface Rate {
  value: number | null;
  n: number;
}

export const IntervalSchema = z.tuple([z.number(), z.number()]);

export const EstimateSchema = z.object({
  value: z.number().nullable(),
  ci: IntervalSchema.nullable(),
  n: z.number().int(),
  replicates_dropped: z.number().int(),
}) satisfies z.ZodType<Estimate>;

export const RateSchema = z.object({ value: z.number().nullable(), n: z.number().int() }) satisfies z.ZodType<Rate>;
