/** The averaging-bias verdict in words (shared/analysis/verdict.ts), every combination of its conditions. */
import { describe, expect, it } from 'vitest';
import { verdictWords } from '../../../shared/analysis/verdict';
import type { AveragingBias } from '../../../shared/analysis/types';

const bias = (over: Partial<AveragingBias>): { averaging_bias: AveragingBias } => ({
  averaging_bias: {
    mean_ge_min: true,
    below_threshold: true,
    below_threshold_at_upper_ci: true,
    holds: true,
    holds_at_upper_ci: true,
    threshold: 0.2,
    ...over,
  },
});

describe('verdictWords', () => {
  it.each([
    [
      {},
      'Both conditions hold: by this judge, the global labels show averaging bias. It still holds at the upper end of ε̂’s interval.',
    ],
    [
      { below_threshold_at_upper_ci: false, holds_at_upper_ci: false },
      'Both conditions hold: by this judge, the global labels show averaging bias. It does not hold at the upper end of ε̂’s interval: read with care.',
    ],
    [
      { below_threshold_at_upper_ci: null, holds_at_upper_ci: null },
      'Both conditions hold: by this judge, the global labels show averaging bias. ε̂ has no interval to check.',
    ],
    [{ mean_ge_min: false, holds: false, holds_at_upper_ci: false }, 'Not shown by this judge: mean < min.'],
    [
      { mean_ge_min: false, below_threshold: false, holds: false, holds_at_upper_ci: false },
      'Not shown by this judge: mean < min; ε̂ is not below the threshold.',
    ],
    [
      { mean_ge_min: null, below_threshold: false, holds: false, holds_at_upper_ci: false },
      'Not shown by this judge: ε̂ is not below the threshold.',
    ],
    [
      { below_threshold: null, holds: null, holds_at_upper_ci: null, threshold: null },
      'Undetermined: ε̂ vs the threshold is undefined.',
    ],
    [
      { mean_ge_min: null, below_threshold: null, holds: null, holds_at_upper_ci: null },
      'Undetermined: mean vs min and ε̂ vs the threshold are undefined.',
    ],
  ] as Array<[Partial<AveragingBias>, string]>)('%o', (over, words) => {
    expect(verdictWords(bias(over))).toBe(words);
  });
});
