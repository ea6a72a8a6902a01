/**
 * Planning the annotation (PROTOCOL "Prediction-powered estimates and planning the annotation"):
 * how many more summaries to annotate for a target half-width w of p̂, of each judge's p̂_PP and of
 * each judge's ε̂ (the all-units scope), and the annotator time that takes.
 *
 * The summary-bootstrap half-width shrinks as 1/√n, so from the current sample (n_now annotated
 * summaries, at least 10, half-width h_now of the 95% interval) the sample that reaches w holds
 * n = ⌈n_now · (h_now / w)²⌉ summaries: n − n_now more. For p̂_PP only the human side grows (the
 * judge side already covers the whole dataset), so the rule is a slight overestimate there. Time:
 * that many summaries at the median time one person spent per summary so far.
 *
 * The plan carries half-widths and counts, never a point estimate, so showing it (the Project
 * view's "draw N more") reveals no judge output or human figure.
 */
import { z } from 'zod';
import type { SampleDraw } from './types';
import type { AllUnitsReport, Interval } from './types';

/** Fewer annotated summaries than this: their interval says too little to extrapolate from. */
export const PLAN_MIN_SUMMARIES = 10;
/** The default target half-width of a 95% interval (a share of units). */
export const DEFAULT_TARGET_HALF_WIDTH = 0.02;
/** The seed a first draw takes (the contract's sampling.draw default). */
export const FIRST_DRAW_SEED = 0;

export const PLAN_FIGURES = ['p_hat', 'p_pp', 'epsilon_hat'] as const;
export type PlanFigure = (typeof PLAN_FIGURES)[number];

const Int = z.number().int();

export const PlanLineSchema = z.object({
  figure: z.enum(PLAN_FIGURES),
  /** The judge of p_pp and epsilon_hat; null for p_hat. */
  judge: z.string().nullable(),
  /** Half-width of its 95% interval now; null without an interval. */
  half_width: z.number().nullable(),
  /** The bootstrap units it rests on now (annotated summaries). */
  n_now: Int,
  /** Annotated summaries that reach the target, and how many more that is; null when it cannot be planned (reason). */
  n_total: Int.nullable(),
  n_more: Int.nullable(),
  /** n_more is more than the summaries not drawn yet. */
  exceeds_undrawn: z.boolean(),
  /** n_more at the median time per summary; null without a plan or without recorded time. */
  time_ms: z.number().nullable(),
  reason: z.string().nullable(),
});
export type PlanLine = z.infer<typeof PlanLineSchema>;

export const DatasetPlanSchema = z.object({
  dataset: z.string(),
  n_summaries: Int,
  /** Annotated summaries (all_units.n_summaries). */
  n_annotated: Int,
  /** Summaries in the dataset's draws, and those not drawn yet (what a further draw can take). */
  n_drawn: Int,
  n_undrawn: Int,
  /** The seed a further draw continues with: the draws' seed (the first draw's when they differ), else the first draw's default. */
  seed: Int,
  lineage: z.enum(['none', 'one', 'mixed']),
  /** Median over (person, summary) of the time spent labeling its sentences; n = such pairs. */
  median_ms_per_summary: z.number().nullable(),
  n_timed_summaries: Int,
  /** ≥ PLAN_MIN_SUMMARIES annotated summaries; otherwise `reason` says so and no line has a plan. */
  enough: z.boolean(),
  reason: z.string().nullable(),
  lines: z.array(PlanLineSchema),
  /** The most any line needs, at most n_undrawn: what "draw N more" draws for every figure; null when no line has a plan. */
  draw_more: Int.nullable(),
});
export type DatasetPlan = z.infer<typeof DatasetPlanSchema>;

export const PlanReportSchema = z.object({
  target: z.number(),
  min_summaries: Int,
  settings: z.object({
    bootstrap: Int,
    seed: Int,
    reference: z.enum(['people', 'imported', 'both']),
    human_label: z.enum(['unanimous', 'majority']),
    include_revealed: z.boolean(),
  }),
  datasets: z.array(DatasetPlanSchema),
});
export type PlanReport = z.infer<typeof PlanReportSchema>;

/** What the plan needs of a dataset besides its figures: its size, its draws, the time people spent. */
export interface PlanFacts {
  nSummaries: number;
  draws: readonly SampleDraw[];
  /** Per (person, summary): milliseconds spent labeling its sentences (only summaries with time). */
  timesMs: readonly number[];
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Summaries in a sample that gives half-width `target`, from n_now summaries with half-width
 * `halfWidth`: ⌈n_now (h/w)²⌉ (a hair below an integer counts as it: floating-point rounding of h).
 */
export function summariesForTarget(nNow: number, halfWidth: number, target: number): number {
  return Math.max(nNow, Math.ceil(nNow * (halfWidth / target) ** 2 - 1e-9));
}

interface Planned {
  figure: PlanFigure;
  judge: string | null;
  ci: Interval | null;
  nNow: number;
  /** Why it cannot be planned whatever its interval (p̂_PP refused). */
  refusal?: string | null;
}

function planLine(
  item: Planned,
  target: number,
  enough: boolean,
  nAnnotated: number,
  undrawn: number,
  medianMs: number | null,
): PlanLine {
  const halfWidth = item.ci === null ? null : (item.ci[1] - item.ci[0]) / 2;
  const line = (reason: string | null, nTotal: number | null = null): PlanLine => {
    const nMore = nTotal === null ? null : nTotal - item.nNow;
    return {
      figure: item.figure,
      judge: item.judge,
      half_width: halfWidth,
      n_now: item.nNow,
      n_total: nTotal,
      n_more: nMore,
      exceeds_undrawn: nMore !== null && nMore > undrawn,
      time_ms: nMore !== null && medianMs !== null ? nMore * medianMs : null,
      reason,
    };
  };
  if (item.refusal) return line(item.refusal);
  if (!enough)
    return line(`Needs at least ${PLAN_MIN_SUMMARIES} annotated summaries to plan from (${nAnnotated} so far).`);
  if (halfWidth === null)
    return line('No interval to plan from (no replicates, or the figure was undefined in every one).');
  if (halfWidth === 0) return line('Its interval has zero width now: the 1/√n rule cannot tell what the target needs.');
  return line(null, summariesForTarget(item.nNow, halfWidth, target));
}

export function planDataset(
  dataset: string,
  allUnits: AllUnitsReport,
  judges: readonly string[],
  facts: PlanFacts,
  target: number,
): DatasetPlan {
  const drawn = new Set(facts.draws.flatMap((d) => d.summaryIds)).size;
  const undrawn = Math.max(0, facts.nSummaries - drawn);
  const seeds = [...new Set(facts.draws.map((d) => d.seed))];
  const medianMs = median(facts.timesMs);
  const nAnnotated = allUnits.n_summaries;
  const enough = nAnnotated >= PLAN_MIN_SUMMARIES;
  const items: Planned[] = [
    { figure: 'p_hat', judge: null, ci: allUnits.p_hat.ci, nNow: allUnits.p_hat.n_summaries },
    ...judges.flatMap((judge): Planned[] => {
      const j = allUnits.judges[judge]!;
      return [
        {
          figure: 'p_pp',
          judge,
          ci: j.p_pp?.ci ?? null,
          nNow: j.p_pp?.n_sampled_summaries ?? nAnnotated,
          refusal: j.p_pp === null ? j.p_pp_reason : null,
        },
        { figure: 'epsilon_hat', judge, ci: j.epsilon_hat.ci, nNow: j.epsilon_hat.n_summaries },
      ];
    }),
  ];
  const lines = items.map((item) => planLine(item, target, enough, nAnnotated, undrawn, medianMs));
  const needs = lines.flatMap((l) => (l.n_more === null ? [] : [l.n_more]));
  return {
    dataset,
    n_summaries: facts.nSummaries,
    n_annotated: nAnnotated,
    n_drawn: drawn,
    n_undrawn: undrawn,
    seed: seeds[0] ?? FIRST_DRAW_SEED,
    lineage: seeds.length === 0 ? 'none' : seeds.length === 1 ? 'one' : 'mixed',
    median_ms_per_summary: medianMs,
    n_timed_summaries: facts.timesMs.length,
    enough,
    reason: enough
      ? null
      : `Needs at least ${PLAN_MIN_SUMMARIES} annotated summaries to plan from (${nAnnotated} so far): annotate more of the sample first.`,
    lines,
    draw_more: needs.length === 0 ? null : Math.min(Math.max(...needs), undrawn),
  };
}

// ───────────────────────────── in words (CLI and views) ─────────────────────────────

/** "p̂", "p̂_PP · J", "ε̂ · J". */
export function planFigureName(line: Pick<PlanLine, 'figure' | 'judge'>): string {
  const name = line.figure === 'p_hat' ? 'p̂' : line.figure === 'p_pp' ? 'p̂_PP' : 'ε̂';
  return line.judge === null ? name : `${name} · ${line.judge}`;
}

/** Annotator time, coarse on purpose (a median times a count): "75 s", "12 min", "3 h 18 min". */
export function durationText(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}
