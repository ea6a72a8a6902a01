// @vitest-environment happy-dom
/**
 * The views of p̂_PP and of the plan of the annotation:
 * - the Analysis view's all-units block shows p̂_PP beside p̂ per judge (value, interval, what it
 *   rests on, width against p̂'s), says when it is p̂ on the same sentences, and gives the reason
 *   when it is refused (from the real pure analysis);
 * - the plan card asks planning.plan with the report's own settings and shows, per figure, the
 *   half-width now, the summaries to annotate and the annotator time; a target the contract
 *   refuses shows the contract's message;
 * - the Project view's "draw N more" plans on the people's labels, draws the chosen figure's count
 *   with the sample's seed, plans again after the draw, and shows no figure (nothing revealed).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from '../../../renderer/App';
import { AllUnitsTable } from '../../../renderer/components/analysis/AllUnitsTable';
import { PlanCard } from '../../../renderer/components/plan/PlanCard';
import { createFakeCore, resetRendererState, type FakeCore } from '../../../renderer/testing/fakeCore';
import { useSession } from '../../../renderer/state/session';
import { analyzeProject } from '../../../shared/analysis';
import { planDataset, type PlanReport } from '../../../shared/analysis/planning';
import type { AnalysisStatus, SampleBatch } from '../../../shared/api';
import { allUnitsFixture, seededDataset } from '../../helpers/prediction-powered';

let core: FakeCore;

beforeEach(() => resetRendererState());
afterEach(() => cleanup());

/** The hand plan of planning.test.ts: p̂ 132 more, p̂_PP · J none, ε̂ · J 32, at a median of 90 s; seed 3. */
function handPlan(dataset = 'demo', target = 0.02, nAnnotated = 25): PlanReport {
  const draws = [
    { batch: 1, seed: 3, algorithm: 'hash-rank-v1', summaryIds: Array.from({ length: 30 }, (_, k) => `s${k}`) },
  ];
  return {
    target,
    min_summaries: 10,
    settings: { bootstrap: 2000, seed: 0, reference: 'people', human_label: 'unanimous', include_revealed: false },
    datasets: [
      planDataset(
        dataset,
        allUnitsFixture([0.7, 0.8], nAnnotated),
        ['J'],
        { nSummaries: 250, draws, timesMs: [60_000, 90_000, 120_000] },
        target,
      ),
    ],
  };
}

describe('p̂_PP beside p̂', () => {
  it('shows the estimate with its interval, what it rests on and its width against p̂; "p̂ on the same sentences"; the refusal reason', () => {
    const dataset = seededDataset(10, 6);
    // K labels only the sample's sentences: p̂_PP is p̂ on them.
    for (const summary of dataset.summaries)
      for (const unit of summary.units)
        if (summary.annotated) (unit.judges as Record<string, unknown>).K = { hard: 1, soft: null };
    dataset.judges = ['J', 'K', 'Z'];
    const allUnits = analyzeProject([dataset], { bootstrap: 200, seed: 0 }).datasets[0]!.all_units;
    render(<AllUnitsTable allUnits={allUnits} judges={dataset.judges} />);
    const row = (judge: string) =>
      within(screen.getByTestId('p-pp-table'))
        .getAllByTestId('p-pp-row')
        .find((r) => r.getAttribute('data-judge') === judge)!;
    const j = allUnits.judges.J!.p_pp!;
    expect(row('J').textContent).toContain(`${j.value!.toFixed(3)} [${j.ci![0].toFixed(3)}, ${j.ci![1].toFixed(3)}]`);
    expect(row('J').textContent).toContain('12 sampled of 20 judged sentences');
    expect(within(row('J')).getByTestId('p-pp-width').textContent).toBe(`${j.width_ratio!.toFixed(2)} × p̂’s`);
    expect(row('K').textContent).toContain(
      'The judge labeled no sentence outside the sample: p̂_PP is p̂ on the same sentences.',
    );
    expect(row('K').textContent).toContain(allUnits.p_hat.value!.toFixed(3));
    expect(row('Z').getAttribute('data-refused')).toBe('true');
    expect(row('Z').textContent).toBe(
      'ZRefused: No sampled unit has both a usable human label and a hard label of this judge.',
    );
  });
});

describe('the plan card of the Analysis view', () => {
  const people = seededDataset(10, 6);
  people.reference = { ...people.reference!, set: 'people', rule: 'majority' };
  const report = analyzeProject([people], { bootstrap: 100, seed: 4, reference: 'people', humanLabel: 'majority' });
  const status: AnalysisStatus = {
    jobId: 'a1',
    state: 'done',
    settings: { bootstrap: 100, seed: 4, cap: 25, dataset: 'hand' },
    progress: { phase: 'done', done: 3, total: 3 },
    report,
    markdown: '',
    error: null,
    startedAt: '2026-01-01T00:00:00Z',
    finishedAt: '2026-01-01T00:00:01Z',
  };

  it("plans with the report's settings and shows each figure's half-width, summaries to annotate and time", async () => {
    core = createFakeCore([]);
    core.override('planning.plan', ({ target }) => handPlan('hand', target ?? 0.02));
    useSession.setState({ bridge: core.bridge });
    render(<PlanCard result={status} />);
    const rows = await screen.findAllByTestId('plan-row');
    expect(core.callsTo('planning.plan')).toEqual([
      {
        dataset: 'hand',
        target: 0.02,
        bootstrap: 100,
        seed: 4,
        reference: 'people',
        humanLabel: 'majority',
        includeRevealed: false,
      },
    ]);
    expect(rows.map((r) => [...r.children].map((c) => c.textContent))).toEqual([
      ['p̂', '± 0.050', '25 summaries', '132 more (157 in all)', '≈ 3 h 18 min'],
      ['p̂_PP · J', '± 0.020', '25 summaries', 'none: the target is met', ''],
      ['ε̂ · J', '± 0.030', '25 summaries', '32 more (57 in all)', '≈ 48 min'],
    ]);
    expect(screen.getByTestId('plan-facts').textContent).toBe(
      '25 annotated of 250 summaries (30 drawn, 220 not drawn yet); median 90 s per summary (n = 3).',
    );

    fireEvent.change(screen.getByTestId('plan-target'), { target: { value: '0.05' } });
    fireEvent.click(screen.getByTestId('plan-run'));
    await waitFor(() => expect(core.callsTo('planning.plan').map((c) => c.target)).toEqual([0.02, 0.05]));
    await waitFor(() => expect(screen.getAllByTestId('plan-more')[0]!.textContent).toBe('none: the target is met'));
  });

  it.each(['0', '0.5', 'wide'])('a target of %s is refused with the contract’s message', async (value) => {
    core = createFakeCore([]);
    core.override('planning.plan', ({ target }) => handPlan('hand', target ?? 0.02));
    useSession.setState({ bridge: core.bridge });
    render(<PlanCard result={status} />);
    await screen.findAllByTestId('plan-row');
    fireEvent.change(screen.getByTestId('plan-target'), { target: { value } });
    fireEvent.click(screen.getByTestId('plan-run'));
    expect((await screen.findByTestId('plan-error')).textContent).toMatch(
      /^Invalid input for planning\.plan: ✖ The target half-width must be a number above 0 and below 0\.5/,
    );
    expect(screen.queryByTestId('plan-row')).toBeNull();
  });

  it('too few annotated summaries: the card says so instead of counts', async () => {
    core = createFakeCore([]);
    core.override('planning.plan', () => handPlan('hand', 0.02, 7));
    useSession.setState({ bridge: core.bridge });
    render(<PlanCard result={status} />);
    expect((await screen.findByTestId('plan-reason')).textContent).toBe(
      'Needs at least 10 annotated summaries to plan from (7 so far): annotate more of the sample first.',
    );
    expect(screen.getAllByTestId('plan-more').map((c) => c.textContent)).toEqual(
      Array(3).fill('Needs at least 10 annotated summaries to plan from (7 so far).'),
    );
  });
});

describe('"draw N more" in the Project view', () => {
  const batch = (n: number, seed: number): SampleBatch => ({
    dataset: 'demo',
    batch: 2,
    seed,
    requested: n,
    annotator: null,
    summaryIds: Array.from({ length: n }, (_, k) => `m${k}`),
    exhausted: false,
    createdAt: '2026-01-01T00:00:00Z',
    overlap: null,
    assignments: [],
  });

  async function openProjectView(plan: () => PlanReport) {
    core = createFakeCore([]);
    const batches: SampleBatch[] = [];
    core.override('planning.plan', plan);
    core.override('sampling.list', () => batches);
    core.override('sampling.draw', ({ n, seed }) => {
      const drawn = batch(n, seed ?? 0);
      batches.push(drawn);
      return drawn;
    });
    render(<App bridge={core.bridge} />);
    fireEvent.click(await screen.findByTestId('nav-project'));
    await screen.findByTestId('draw-more');
  }

  it('plans on the people’s labels, draws the chosen figure’s count with the sample’s seed, and plans again', async () => {
    await openProjectView(() => handPlan());
    await waitFor(() => expect(screen.getByTestId('draw-more-draw').textContent).toBe('Draw 132 more'));
    expect(core.callsTo('planning.plan')).toEqual([{ dataset: 'demo', target: 0.02, reference: 'people' }]);
    expect(screen.getByTestId('draw-more-status').textContent).toBe(
      '132 more summaries with seed 3, continuing the sample; ≈ 3 h 18 min of annotator time at the median so far.',
    );
    // No figure is shown here: counts and time only.
    expect(screen.getByTestId('draw-more').textContent).not.toMatch(/±|0\.0[0-9]{2}/);

    const choices = within(screen.getByTestId('draw-more-for')).getAllByRole('option');
    expect(choices.map((o) => o.textContent)).toEqual(['every figure', 'p̂', 'p̂_PP · J', 'ε̂ · J']);
    fireEvent.change(screen.getByTestId('draw-more-for'), { target: { value: '2' } });
    expect(screen.getByTestId('draw-more-draw').textContent).toBe('Draw 32 more');
    fireEvent.click(screen.getByTestId('draw-more-draw'));
    await waitFor(() => expect(core.callsTo('sampling.draw')).toEqual([{ dataset: 'demo', n: 32, seed: 3 }]));
    expect((await screen.findByTestId('sample-message')).textContent).toBe('Batch 2: 32 summaries drawn from demo');
    // The draw changed the batches: the plan is asked again.
    await waitFor(() => expect(core.callsTo('planning.plan')).toHaveLength(2));

    fireEvent.change(screen.getByTestId('draw-more-for'), { target: { value: '1' } });
    expect(screen.getByTestId('draw-more-draw').textContent).toBe('Draw more');
    expect((screen.getByTestId('draw-more-draw') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('draw-more-status').textContent).toBe('The target is met: nothing more to draw.');
  });

  it('too few annotated summaries: says so, and there is nothing to draw', async () => {
    await openProjectView(() => handPlan('demo', 0.02, 4));
    await waitFor(() =>
      expect(screen.getByTestId('draw-more-status').textContent).toBe(
        'Needs at least 10 annotated summaries to plan from (4 so far): annotate more of the sample first. Then the plan says how many more to draw.',
      ),
    );
    expect((screen.getByTestId('draw-more-draw') as HTMLButtonElement).disabled).toBe(true);
  });

  it('a target the contract refuses shows its message and draws nothing', async () => {
    await openProjectView(() => handPlan());
    await waitFor(() => expect(screen.getByTestId('draw-more-draw').textContent).toBe('Draw 132 more'));
    fireEvent.change(screen.getByTestId('draw-more-target'), { target: { value: '0' } });
    fireEvent.click(screen.getByTestId('draw-more-plan'));
    expect((await screen.findByTestId('draw-more-error')).textContent).toMatch(
      /^Invalid input for planning\.plan: ✖ The target half-width must be a number above 0/,
    );
    expect((screen.getByTestId('draw-more-draw') as HTMLButtonElement).disabled).toBe(true);
    expect(core.callsTo('sampling.draw')).toEqual([]);
  });
});
