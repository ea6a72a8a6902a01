/**
 * The plan's lines in words for the views (one place, so the Analysis view's shared formatter can
 * take it over): figure, half-width now, summaries now, how many more, annotator time.
 */
import { durationText, planFigureName, type PlanLine } from '../../../shared/analysis/planning';

export interface PlanLineText {
  figure: string;
  now: string;
  nNow: string;
  more: string;
  time: string;
}

export function planLineText(line: PlanLine): PlanLineText {
  const count = (n: number) => n.toLocaleString('en-US');
  const more =
    line.n_more === null
      ? (line.reason ?? 'cannot be planned')
      : line.n_more === 0
        ? 'none: the target is met'
        : `${count(line.n_more)} more (${count(line.n_total!)} in all)${line.exceeds_undrawn ? ', more than are left to draw' : ''}`;
  return {
    figure: planFigureName(line),
    now: line.half_width === null ? 'no interval' : `± ${line.half_width.toFixed(3)}`,
    nNow: `${count(line.n_now)} summaries`,
    more,
    time: line.n_more === null || line.n_more === 0 ? '' : line.time_ms === null ? 'no time recorded yet' : `≈ ${durationText(line.time_ms)}`,
  };
}
