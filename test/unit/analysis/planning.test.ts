/**
 * The planner (shared/analysis/planning.ts) against the 1/√n rule on a case worked by hand, its
 * refusals (too few annotated summaries, no interval, zero width, p̂_PP refused), the plan's
 * draw-more count and lineage, and the contract's refusal of a bad target (0, ≥ 0.5, not a number).
 *
 * By hand: 25 annotated summaries; p̂'s interval [0.70, 0.80] (half-width 0.05), J's ε̂ [0.08, 0.14]
 * (0.03), J's p̂_PP [0.72, 0.76] (0.02), target 0.02.
 *   p̂:    25 · (0.05 / 0.02)² = 156.25 → 157 summaries, 132 more. Check with the rule itself:
 *         0.05 · √(25/157) = 0.01995 ≤ 0.02, while 0.05 · √(25/156) = 0.02002 > 0.02.
 *   ε̂:    25 · (0.03 / 0.02)² = 56.25 → 57, 32 more.
 *   p̂_PP: 25 · 1² = 25 → 0 more (the target is met).
 * At a median of 90 s per summary, 132 more summaries take 132 · 90 s = 3 h 18 min.
 */
import { describe, expect, it } from 'vitest';
import { parseApiInput } from '../../../shared/api';
import {
  DEFAULT_TARGET_HALF_WIDTH,
  durationText,
  median,
  planDataset,
  planFigureName,
  summariesForTarget,
  type PlanFacts,
} from '../../../shared/analysis/planning';
import { allUnitsFixture as allUnits } from '../../helpers/prediction-powered';

const draws = (seeds: number[], perDraw = 15) =>
  seeds.map((seed, i) => ({
    batch: i + 1,
    seed,
    algorithm: 'hash-rank-v1',
    summaryIds: Array.from({ length: perDraw }, (_, k) => `s${i}-${k}`),
  }));
const facts = (over: Partial<PlanFacts> = {}): PlanFacts => ({
  nSummaries: 250,
  draws: draws([3, 3]),
  timesMs: [60_000, 90_000, 120_000],
  ...over,
});

describe('the planner against the 1/√n rule', () => {
  it('gives the hand figures: 132 more for p̂, 32 for ε̂, none for p̂_PP, and the time at the median', () => {
    const plan = planDataset('news', allUnits([0.7, 0.8]), ['J'], facts(), 0.02);
    expect(
      plan.lines.map((l) => [
        l.figure,
        l.judge,
        l.half_width === null ? null : Number(l.half_width.toFixed(12)),
        l.n_now,
        l.n_total,
        l.n_more,
      ]),
    ).toEqual([
      ['p_hat', null, 0.05, 25, 157, 132],
      ['p_pp', 'J', 0.02, 25, 25, 0],
      ['epsilon_hat', 'J', 0.03, 25, 57, 32],
    ]);
    expect(plan.median_ms_per_summary).toBe(90_000);
    expect(plan.lines[0]!.time_ms).toBe(132 * 90_000);
    expect(plan).toMatchObject({
      n_annotated: 25,
      n_drawn: 30,
      n_undrawn: 220,
      seed: 3,
      lineage: 'one',
      enough: true,
      reason: null,
      draw_more: 132,
    });
    // The rule itself: 157 summaries reach ±0.02, 156 do not.
    expect(0.05 * Math.sqrt(25 / 157)).toBeLessThanOrEqual(0.02);
    expect(0.05 * Math.sqrt(25 / 156)).toBeGreaterThan(0.02);
  });

  it('rounds up, and a hair of floating-point noise does not add a summary', () => {
    expect(summariesForTarget(25, 0.05, 0.02)).toBe(157);
    expect(summariesForTarget(16, 0.04, 0.02)).toBe(64);
    expect(summariesForTarget(16, 0.04 + 1e-15, 0.02)).toBe(64);
    expect(summariesForTarget(40, 0.01, 0.02)).toBe(40); // already narrower: nothing more
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
  });

  it('caps "draw N more" at the summaries not drawn yet and flags the figure that needs more than that', () => {
    const plan = planDataset('news', allUnits([0.7, 0.8]), ['J'], facts({ nSummaries: 100 }), 0.02);
    expect(plan.n_undrawn).toBe(70);
    expect(plan.draw_more).toBe(70);
    expect(plan.lines.map((l) => l.exceeds_undrawn)).toEqual([true, false, false]);
  });
});

describe('what the planner refuses to plan', () => {
  it('fewer than 10 annotated summaries: every line says so', () => {
    const plan = planDataset('news', allUnits([0.7, 0.8], 9), ['J'], facts(), 0.02);
    expect(plan.enough).toBe(false);
    expect(plan.reason).toBe(
      'Needs at least 10 annotated summaries to plan from (9 so far): annotate more of the sample first.',
    );
    expect(
      plan.lines.every(
        (l) => l.n_more === null && l.reason === 'Needs at least 10 annotated summaries to plan from (9 so far).',
      ),
    ).toBe(true);
    expect(plan.draw_more).toBeNull();
  });

  it('no interval, a zero-width interval, a refused p̂_PP: the reason instead of a number', () => {
    const plan = planDataset('news', allUnits(null, 25, [0.74, 0.74]), ['J'], facts(), 0.02);
    expect(plan.lines.map((l) => [l.figure, l.n_more, l.reason])).toEqual([
      ['p_hat', null, 'No interval to plan from (no replicates, or the figure was undefined in every one).'],
      ['p_pp', null, 'Its interval has zero width now: the 1/√n rule cannot tell what the target needs.'],
      ['epsilon_hat', 32, null],
    ]);
    const refused = planDataset(
      'news',
      allUnits([0.7, 0.8], 25, null, 'The sample was drawn in several draws with different seeds (0, 7).'),
      ['J'],
      facts(),
      0.02,
    );
    expect(refused.lines[1]).toMatchObject({
      figure: 'p_pp',
      n_more: null,
      reason: 'The sample was drawn in several draws with different seeds (0, 7).',
    });
  });

  it("no recorded time: counts without a time; no draws: a first draw with the default seed; mixed seeds: the first draw's", () => {
    const untimed = planDataset('news', allUnits([0.7, 0.8]), ['J'], facts({ timesMs: [] }), 0.02);
    expect([untimed.median_ms_per_summary, untimed.lines[0]!.n_more, untimed.lines[0]!.time_ms]).toEqual([
      null,
      132,
      null,
    ]);
    expect(planDataset('news', allUnits([0.7, 0.8]), ['J'], facts({ draws: [] }), 0.02)).toMatchObject({
      seed: 0,
      lineage: 'none',
      n_drawn: 0,
    });
    expect(planDataset('news', allUnits([0.7, 0.8]), ['J'], facts({ draws: draws([5, 0]) }), 0.02)).toMatchObject({
      seed: 5,
      lineage: 'mixed',
    });
  });
});

describe("the contract's target", () => {
  const target = (value: unknown) => parseApiInput('planning.plan', value === undefined ? {} : { target: value });
  it('defaults to 0.02 and takes the analysis settings', () => {
    const parsed = target(undefined);
    expect(parsed.ok && parsed.value).toMatchObject({
      target: DEFAULT_TARGET_HALF_WIDTH,
      bootstrap: 2000,
      seed: 0,
      reference: 'both',
      humanLabel: 'unanimous',
      includeRevealed: false,
    });
    expect(target(0.49).ok).toBe(true);
  });
  it.each([0, -0.01, 0.5, 0.7, Number.NaN, Number.POSITIVE_INFINITY, '0.02', null])(
    'refuses %s with its message',
    (value) => {
      const parsed = target(value);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) {
        expect(parsed.error.code).toBe('invalid_input');
        expect(parsed.error.message).toMatch(
          /^Invalid input for planning\.plan: ✖ The target half-width must be a number above 0 and below 0\.5 \(a share of units, e\.g\. 0\.02\)\.\n\s+→ at target$/,
        );
      }
    },
  );
});

describe('the plan in words', () => {
  it('names figures and writes annotator time coarsely', () => {
    expect([
      planFigureName({ figure: 'p_hat', judge: null }),
      planFigureName({ figure: 'p_pp', judge: 'J' }),
      planFigureName({ figure: 'epsilon_hat', judge: 'J' }),
    ]).toEqual(['p̂', 'p̂_PP · J', 'ε̂ · J']);
    expect([
      durationText(44_600),
      durationText(94_500),
      durationText(12 * 60_000),
      durationText(132 * 90_000),
      durationText(2 * 3_600_000),
    ]).toEqual(['45 s', '95 s', '12 min', '3 h 18 min', '2 h']);
  });
});
