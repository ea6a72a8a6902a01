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
 * The plans are the real core's, of a project drawn and labeled through the contract.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from '../../../renderer/App';
import { AllUnitsTable } from '../../../renderer/components/analysis/AllUnitsTable';
import { PlanCard } from '../../../renderer/components/plan/PlanCard';
import { resetRendererState } from '../../../renderer/testing/transport';
import { useSession } from '../../../renderer/state/session';
import { analyzeProject } from '../../../shared/analysis';
import type { AnalysisStatus } from '../../../shared/api';
import { seededDataset } from '../../helpers/prediction-powered';
import { createRendererCore, type RendererCore } from '../../helpers/renderer-core';
import { planInThisThread } from '../../helpers/renderer-core-tasks';

let core: RendererCore;

beforeEach(() => resetRendererState());
afterEach(() => cleanup());

/** 54 summaries of two sentences in "demo" (documents d0…, summaries s0…), none drawn yet. */
const SUMMARIES = Array.from({ length: 54 }, (_, k) => {
  const sentences = [`Item ${k} opened the bridge.`, `Item ${k} cost forty million.`];
  return {
    dataset: 'demo',
    doc_id: `d${k}`,
    document: sentences.join(' '),
    summary_id: `s${k}`,
    summary: sentences.join(' '),
    sentences,
  };
});

/**
 * The project the plans read: the 54 summaries, a sample of 14 drawn with seed 3, the first
 * `labeled` of it labeled by the annotator (45 s a decision, so 90 s a summary; about every sixth
 * sentence unfaithful), and a judge "J" (imported predictions) on every sentence. planning.plan is
 * computed in this thread (the unit tier starts no worker).
 */
async function plannedProject(labeled = 14): Promise<RendererCore> {
  core = await createRendererCore([]);
  await core.upload('summaries.jsonl', SUMMARIES);
  const drawn = await core.lead('sampling.draw', { dataset: 'demo', n: 14, seed: 3 });
  const keyOf = new Map(
    (await core.lead('annotation.queue', { annotator: 'ann' })).items.map((i) => [i.summaryId, i.key]),
  );
  for (const [at, summaryId] of drawn.summaryIds.slice(0, labeled).entries()) {
    const loaded = await core.lead('annotation.load', { key: keyOf.get(summaryId)!, annotator: 'ann' });
    for (const unit of loaded.units)
      await core.lead('annotation.record', {
        unitId: unit.id,
        annotator: 'ann',
        state: { label: unit.index === 1 && at % 3 === 0 ? 'unfaithful' : 'faithful', errorType: null, note: null },
        timeSpentMs: 45_000,
        cause: 'label',
      });
  }
  await core.upload(
    'predictions.jsonl',
    SUMMARIES.flatMap((row, k) =>
      [0, 1].map((j) => ({
        summary_id: row.summary_id,
        sentence_index: j,
        judge: 'J',
        hard: (k + j) % 4 === 0 ? 0 : 1,
      })),
    ),
  );
  planInThisThread(core);
  return core;
}

/**
 * The plan of that project at the default target, 0.02, as the card shows it (the planning
 * arithmetic itself is checked by hand in planning.test.ts): the judge disagrees with the people
 * often enough that p̂_PP is wider than p̂ here.
 */
const ROWS_AT_002 = [
  ['p̂', '± 0.143', '14 summaries', '701 more (715 in all), more than are left to draw', '≈ 17 h 32 min'],
  ['p̂_PP · J', '± 0.229', '14 summaries', '1,823 more (1,837 in all), more than are left to draw', '≈ 45 h 35 min'],
  ['ε̂ · J', '± 0.117', '14 summaries', '462 more (476 in all), more than are left to draw', '≈ 11 h 33 min'],
];

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
    settings: { bootstrap: 100, seed: 4, cap: 25, dataset: 'demo' },
    progress: { phase: 'done', done: 3, total: 3 },
    report,
    markdown: '',
    error: null,
    startedAt: '2026-01-01T00:00:00Z',
    finishedAt: '2026-01-01T00:00:01Z',
  };
  const showCard = () => {
    useSession.setState({ bridge: core.bridge });
    render(<PlanCard result={status} />);
  };

  it("plans with the report's settings and shows each figure's half-width, summaries to annotate and time", async () => {
    await plannedProject();
    showCard();
    const rows = await screen.findAllByTestId('plan-row');
    expect(core.callsTo('planning.plan')).toEqual([
      {
        dataset: 'demo',
        target: 0.02,
        bootstrap: 100,
        seed: 4,
        reference: 'people',
        humanLabel: 'majority',
        includeRevealed: false,
      },
    ]);
    expect(rows.map((r) => [...r.children].map((c) => c.textContent))).toEqual(ROWS_AT_002);
    expect(screen.getByTestId('plan-facts').textContent).toBe(
      '14 annotated of 54 summaries (14 drawn, 40 not drawn yet); median 90 s per summary (n = 14).',
    );

    fireEvent.change(screen.getByTestId('plan-target'), { target: { value: '0.2' } });
    fireEvent.click(screen.getByTestId('plan-run'));
    await waitFor(() => expect(core.callsTo('planning.plan').map((c) => c.target)).toEqual([0.02, 0.2]));
    await waitFor(() => expect(screen.getAllByTestId('plan-more')[0]!.textContent).toBe('none: the target is met'));
  });

  it.each(['0', '0.5', 'wide'])('a target of %s is refused with the contract’s message', async (value) => {
    await plannedProject();
    showCard();
    await screen.findAllByTestId('plan-row');
    fireEvent.change(screen.getByTestId('plan-target'), { target: { value } });
    fireEvent.click(screen.getByTestId('plan-run'));
    expect((await screen.findByTestId('plan-error')).textContent).toMatch(
      /^Invalid input for planning\.plan: ✖ The target half-width must be a number above 0 and below 0\.5/,
    );
    expect(screen.queryByTestId('plan-row')).toBeNull();
  });

  it('too few annotated summaries: the card says so instead of counts', async () => {
    await plannedProject(7);
    showCard();
    expect((await screen.findByTestId('plan-reason')).textContent).toBe(
      'Needs at least 10 annotated summaries to plan from (7 so far): annotate more of the sample first.',
    );
    expect(screen.getAllByTestId('plan-more').map((c) => c.textContent)).toEqual(
      Array(3).fill('Needs at least 10 annotated summaries to plan from (7 so far).'),
    );
  });
});

describe('"draw N more" in the Project view', () => {
  async function openProjectView(labeled = 14) {
    await plannedProject(labeled);
    render(<App bridge={core.bridge} />);
    fireEvent.click(await screen.findByTestId('nav-project'));
    await screen.findByTestId('draw-more');
  }

  it('plans on the people’s labels, draws the chosen figure’s count with the sample’s seed, and plans again', async () => {
    await openProjectView();
    await waitFor(() => expect(screen.getByTestId('draw-more-draw').textContent).toBe('Draw 40 more'));
    expect(core.callsTo('planning.plan')).toEqual([{ dataset: 'demo', target: 0.02, reference: 'people' }]);
    expect(screen.getByTestId('draw-more-status').textContent).toBe(
      '40 more summaries with seed 3, continuing the sample; ≈ 1 h of annotator time at the median so far.',
    );
    // No figure is shown here: counts and time only.
    expect(screen.getByTestId('draw-more').textContent).not.toMatch(/±|0\.0[0-9]{2}/);

    const choices = within(screen.getByTestId('draw-more-for')).getAllByRole('option');
    expect(choices.map((o) => o.textContent)).toEqual(['every figure', 'p̂', 'p̂_PP · J', 'ε̂ · J']);
    // At a wider target p̂ (± 0.143) is met, and p̂_PP (± 0.229) needs fewer than are left to draw.
    fireEvent.change(screen.getByTestId('draw-more-target'), { target: { value: '0.15' } });
    fireEvent.click(screen.getByTestId('draw-more-plan'));
    await waitFor(() => expect(core.callsTo('planning.plan')).toHaveLength(2));
    fireEvent.change(screen.getByTestId('draw-more-for'), { target: { value: '1' } });
    await waitFor(() => expect(screen.getByTestId('draw-more-draw').textContent).toBe('Draw 9 more'));
    fireEvent.click(screen.getByTestId('draw-more-draw'));
    await waitFor(() => expect(core.callsTo('sampling.draw')).toEqual([{ dataset: 'demo', n: 9, seed: 3 }]));
    expect((await screen.findByTestId('sample-message')).textContent).toBe('Batch 2: 9 summaries drawn from demo');
    // The draw changed the batches: the plan is asked again.
    await waitFor(() => expect(core.callsTo('planning.plan')).toHaveLength(3));

    fireEvent.change(screen.getByTestId('draw-more-for'), { target: { value: '0' } });
    expect(screen.getByTestId('draw-more-draw').textContent).toBe('Draw more');
    expect((screen.getByTestId('draw-more-draw') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('draw-more-status').textContent).toBe('The target is met: nothing more to draw.');
  });

  it('too few annotated summaries: says so, and there is nothing to draw', async () => {
    await openProjectView(4);
    await waitFor(() =>
      expect(screen.getByTestId('draw-more-status').textContent).toBe(
        'Needs at least 10 annotated summaries to plan from (4 so far): annotate more of the sample first. Then the plan says how many more to draw.',
      ),
    );
    expect((screen.getByTestId('draw-more-draw') as HTMLButtonElement).disabled).toBe(true);
  });

  it('a target the contract refuses shows its message and draws nothing', async () => {
    await openProjectView();
    await waitFor(() => expect(screen.getByTestId('draw-more-draw').textContent).toBe('Draw 40 more'));
    fireEvent.change(screen.getByTestId('draw-more-target'), { target: { value: '0' } });
    fireEvent.click(screen.getByTestId('draw-more-plan'));
    expect((await screen.findByTestId('draw-more-error')).textContent).toMatch(
      /^Invalid input for planning\.plan: ✖ The target half-width must be a number above 0/,
    );
    expect((screen.getByTestId('draw-more-draw') as HTMLButtonElement).disabled).toBe(true);
    expect(core.callsTo('sampling.draw')).toEqual([]);
  });
});
