/**
 * What a judge's averaging-bias diagnostic adds up to, in a sentence (§3.2, Cor. 3): the one
 * reading of `averaging_bias` (holds / fails / undefined), for the Analysis view and any other
 * place that states the verdict in words.
 */
import type { JudgeAnalysis } from './types';

export function verdictWords(judge: Pick<JudgeAnalysis, 'averaging_bias'>): string {
  const bias = judge.averaging_bias;
  const failing: string[] = [];
  const unknown: string[] = [];
  if (bias.mean_ge_min === false) failing.push('mean < min');
  if (bias.mean_ge_min === null) unknown.push('mean vs min');
  if (bias.below_threshold === false) failing.push('ε̂ is not below the threshold');
  if (bias.below_threshold === null) unknown.push('ε̂ vs the threshold');
  if (bias.holds === true) {
    const upper =
      bias.holds_at_upper_ci === true
        ? ' It still holds at the upper end of ε̂’s interval.'
        : bias.holds_at_upper_ci === false
          ? ' It does not hold at the upper end of ε̂’s interval: read with care.'
          : ' ε̂ has no interval to check.';
    return `Both conditions hold: by this judge, the global labels show averaging bias.${upper}`;
  }
  if (bias.holds === false) return `Not shown by this judge: ${failing.join('; ')}.`;
  return `Undetermined: ${unknown.join(' and ')} ${unknown.length === 1 ? 'is' : 'are'} undefined.`;
}
