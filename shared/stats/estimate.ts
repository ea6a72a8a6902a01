/**
 * The basic shapes every reported figure takes (the analysis, the accuracy and the scaffold
 * blocks alike), as types and as zod schemas checked against each other: a point value with its
 * 95% bootstrap percentile interval and the n it rests on, or a plain rate with its denominator.
 * An undefined value is null, never 0 or NaN (docs/methods.md, "Estimates and intervals"); with
 * fewer than MIN_RESAMPLING_UNITS resampling units there is no interval (docs/methods.md, "Too
 * few to estimate").
 */
import { z } from 'zod';

/** An interval from fewer resampling units (summaries, or documents for comparisons) than this is not an estimate. */
export const MIN_RESAMPLING_UNITS = 5;

/** Whether `units` resampling units are too few for an interval. */
export function tooFewToEstimate(units: number): boolean {
  return units < MIN_RESAMPLING_UNITS;
}

export type Interval = [number, number];

/** A point estimate with its 95% bootstrap percentile interval. */
export interface Estimate {
  value: number | null;
  /** null when there are no replicates, none is defined, or the resampling units are too few (too_few). */
  ci: Interval | null;
  /** The n the value rests on (units or summaries, as the field says). */
  n: number;
  /** Replicates where the statistic was undefined, left out of the interval. */
  replicates_dropped: number;
  /** Fewer than MIN_RESAMPLING_UNITS resampling units: the point value alone, no interval. */
  too_few: boolean;
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
  too_few: z.boolean(),
}) satisfies z.ZodType<Estimate>;

export const RateSchema = z.object({ value: z.number().nullable(), n: z.number().int() }) satisfies z.ZodType<Rate>;

/**
 * How a figure without an interval for too few resampling units reads (the Markdown report and the
 * view): "n = k, too few for an interval" with k its resampling units (summaries, or documents for
 * comparisons); null when the figure's n counts something else and k is not at hand.
 */
export function tooFewText(units: number | null): string {
  return units === null
    ? 'too few summaries for an interval'
    : `n = ${units.toLocaleString('en-US')}, too few for an interval`;
}
