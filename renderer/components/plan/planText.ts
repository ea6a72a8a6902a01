/**
 * The plan's lines in words for the views: figure, half-width now, summaries now, how many more,
 * annotator time (numbers through the renderer's one formatter).
 */
import { durationText, planFigureName, type PlanLine } from '../../../shared/analysis/planning';
import { fixed, formatCount as count, plural } from '../../format';

export interface PlanLineText {
  figure: string;
  now: string;
  nNow: string;
  more: string;
  time: string;
}

export function planLineText(line: PlanLine): PlanLineText {
  const more =
    line.n_more === null
      ? (line.reason ?? 'cannot be planned')
      : line.n_more === 0
        ? 'none: the target is met'
        : `${count(line.n_more)} more (${count(line.n_total!)} in all)${line.exceeds_undrawn ? ', more than are left to draw' : ''}`;
  return {
    figure: planFigureName(line),
    now: line.half_width === null ? 'no interval' : `± ${fixed(line.half_width, 3)}`,
    nNow: plural(line.n_now, 'summary'),
    more,
    time:
      line.n_more === null || line.n_more === 0
        ? ''
        : line.time_ms === null
          ? 'no time recorded yet'
          : `≈ ${durationText(line.time_ms)}`,
  };
}
