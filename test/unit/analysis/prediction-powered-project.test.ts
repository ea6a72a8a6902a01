/**
 * p̂_PP on a small project built through the real core (import, seeded draw, a person's labels,
 * imported judge predictions), analysed by the same job the worker runs, against figures worked
 * out by hand; then the refusals the project's records must produce: a second draw with another
 * seed, an imported label set in the reference, labels merged from a copy that drew another
 * sample, summaries imported after the draw. And the plan of the same project (too few annotated
 * summaries to plan from; the median time per summary).
 *
 * The project: dataset "tiny", summaries t00…t11 of two sentences each. hash-rank-v1 with seed 0
 * draws t10, t02, t04, t00, t07, t03 first (checked below). alice labels those 12 sentences: 9
 * faithful, 3 unfaithful (t02 #1, t04 #0, t07 #1). Judge J labels all 24 sentences: on the sample
 * it calls every sentence faithful but t07 #1 (11 of 12), elsewhere 10 of 12 (t01 #1 and t06 #0
 * unfaithful). Judge K labels only the sample's sentences, all faithful.
 *
 *   Y_lab = 9/12, F_lab = 11/12, F_all = (11 + 10)/24 = 21/24
 *   p̂_PP(J) = 21/24 + 9/12 − 11/12 = 17/24 ≈ 0.7083   (p̂ = 9/12 = 0.75)
 *   p̂_PP(K) = p̂ on the same units = 9/12 (K labeled nothing outside the sample)
 */
import Database from 'better-sqlite3';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AllUnitsJudge, DatasetAnalysis } from '../../../shared/analysis';
import type { HumanLabel } from '../../../shared/domain';
import { createCore, type Core } from '../../../electron/core/index';
import { runImport } from '../../../electron/core/imports/run';
import { runAnalysisJob, type AnalysisJobSettings } from '../../../electron/core/analysis/job';
import { runPlanJob } from '../../../electron/core/planning/job';
import { tempDir } from '../../helpers/tmp';

const F: HumanLabel = 'faithful';
const U: HumanLabel = 'unfaithful';
const id = (i: number) => `t${String(i).padStart(2, '0')}`;
const SAMPLE = ['t10', 't02', 't04', 't00', 't07', 't03'];
/** alice's labels and the time she spent per sentence. */
const PEOPLE: Record<string, [HumanLabel, HumanLabel]> = {
  t00: [F, F],
  t02: [F, U],
  t03: [F, F],
  t04: [U, F],
  t07: [F, U],
  t10: [F, F],
};
const TIMES: Record<string, [number, number]> = {
  t00: [1000, 2000],
  t02: [1500, 2500],
  t03: [2000, 3000],
  t04: [2500, 3500],
  t07: [3000, 4000],
  t10: [3500, 4500],
};
/** Judge J's hard labels (1 = faithful) on every sentence. */
const JUDGE_J: Record<string, [0 | 1, 0 | 1]> = {
  t00: [1, 1],
  t02: [1, 1],
  t03: [1, 1],
  t04: [1, 1],
  t07: [1, 0],
  t10: [1, 1],
  t01: [1, 0],
  t05: [1, 1],
  t06: [0, 1],
  t08: [1, 1],
  t09: [1, 1],
  t11: [1, 1],
};

const dir = tempDir('loupe-ppi-project-');
const jsonl = (rows: unknown[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;
const upload = (name: string, rows: unknown[]) => ({ type: 'upload' as const, name, text: jsonl(rows) });
const summaryRows = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, k) => {
    const summaryId = id(from + k);
    const sentences = [`The first sentence of ${summaryId}.`, `The second sentence of ${summaryId}.`];
    return {
      dataset: 'tiny',
      doc_id: `doc-${summaryId}`,
      document: `A document about ${summaryId}.`,
      summary_id: summaryId,
      summary: sentences.join(' '),
      sentences,
    };
  });

function newCore(): Core {
  return createCore({
    Database,
    stateDir: dir,
    demoDir: dir,
    host: 'electron',
    fileDialogs: false,
    diskPaths: true,
    canSwitchProjects: false,
  });
}

async function withProject<T>(path: string, fn: (core: Core) => Promise<T>): Promise<T> {
  const core = newCore();
  core.openProject(path);
  try {
    return await fn(core);
  } finally {
    core.close();
  }
}

/** alice labels the given sentences of her queue's summaries (all by default). */
async function label(
  core: Core,
  annotator: string,
  labels: Record<string, [HumanLabel, HumanLabel]>,
  times: Record<string, [number, number]> = {},
): Promise<void> {
  const queue = await core.handlers['annotation.queue']({ annotator });
  for (const item of queue.items) {
    const wanted = labels[item.summaryId];
    if (!wanted) continue;
    const summary = await core.handlers['annotation.load']({ key: item.key, annotator });
    for (const unit of summary.units) {
      await core.handlers['annotation.record']({
        unitId: unit.id,
        annotator,
        state: { label: wanted[unit.index]!, errorType: null, note: null },
        timeSpentMs: times[item.summaryId]?.[unit.index] ?? 10,
        cause: 'label',
      });
    }
  }
}

const base = join(dir, 'base.loupe');
const main = join(dir, 'main.loupe');
const settings = (overrides: Partial<AnalysisJobSettings> = {}): AnalysisJobSettings => ({
  bootstrap: 400,
  seed: 0,
  cap: 25,
  reference: 'people',
  humanLabel: 'unanimous',
  includeRevealed: false,
  ...overrides,
});
const analyse = (path: string, overrides: Partial<AnalysisJobSettings> = {}): DatasetAnalysis =>
  runAnalysisJob(Database, { projectPath: path, dataset: null, settings: settings(overrides) }).report.datasets[0]!;
const judgeOf = (d: DatasetAnalysis, judge: string): AllUnitsJudge => d.all_units.judges[judge]!;

beforeAll(async () => {
  const core = newCore();
  core.createProject(base);
  try {
    await runImport(core.repository(), { source: upload('tiny.jsonl', summaryRows(0, 12)), as: 'summaries' });
    const predictions = [
      ...Object.entries(JUDGE_J).flatMap(([summaryId, hard]) =>
        hard.map((h, i) => ({ dataset: 'tiny', summary_id: summaryId, sentence_index: i, judge: 'J', hard: h })),
      ),
      ...SAMPLE.flatMap((summaryId) =>
        [0, 1].map((i) => ({ dataset: 'tiny', summary_id: summaryId, sentence_index: i, judge: 'K', hard: 1 })),
      ),
    ];
    await runImport(core.repository(), { source: upload('predictions.jsonl', predictions), as: 'predictions' });
  } finally {
    core.close();
  }
  copyFileSync(base, main);
  await withProject(main, async (core) => {
    const batch = await core.handlers['sampling.draw']({ dataset: 'tiny', n: 6, seed: 0 });
    expect(batch.summaryIds).toEqual(SAMPLE);
    await label(core, 'alice', PEOPLE, TIMES);
  });
}, 60_000);

describe('p̂_PP on a small project, by hand', () => {
  it('J: F_all + Y_lab − F_lab = 21/24 + 9/12 − 11/12 = 17/24, with a two-sample interval and the width ratio', () => {
    const d = analyse(main);
    expect(d.all_units.p_hat.value).toBe(9 / 12);
    const j = judgeOf(d, 'J');
    expect(j.p_pp_reason).toBeNull();
    const pp = j.p_pp!;
    expect(pp.value).toBeCloseTo(17 / 24, 12);
    expect(pp.judge_rate).toBeCloseTo(21 / 24, 12);
    expect(pp.rectifier).toBeCloseTo(9 / 12 - 11 / 12, 12);
    expect(pp).toMatchObject({
      n_sampled_units: 12,
      n_all_units: 24,
      n_sampled_summaries: 6,
      n_all_summaries: 12,
      same_as_p_hat: false,
      too_few: false,
      sample_seed: 0,
      n_drawn_summaries: 6,
    });
    const [lo, hi] = pp.ci!;
    expect(lo).toBeLessThanOrEqual(pp.value!);
    expect(hi).toBeGreaterThanOrEqual(pp.value!);
    const pHat = d.all_units.p_hat.ci!;
    expect(pp.width_ratio).toBeCloseTo((hi - lo) / (pHat[1] - pHat[0]), 12);
    // Deterministic: the same project and seed give the same interval.
    expect(judgeOf(analyse(main), 'J').p_pp).toEqual(pp);
  });

  it('K labeled no sentence outside the sample: p̂_PP is p̂ on the same units, and the report says so', () => {
    const run = runAnalysisJob(Database, { projectPath: main, dataset: null, settings: settings() });
    const d = run.report.datasets[0]!;
    const pp = judgeOf(d, 'K').p_pp!;
    expect(pp.value).toBe(9 / 12);
    expect(pp.value).toBe(d.all_units.p_hat.value);
    expect(pp).toMatchObject({ same_as_p_hat: true, n_sampled_units: 12, n_all_units: 12 });
    // K labeled every unit p̂ counts, so the interval is p̂'s own (the same resamples).
    expect(pp.ci).toEqual(d.all_units.p_hat.ci);
    expect(pp.width_ratio).toBe(1);
    expect(run.markdown).toMatch(
      /\| K \| 0\.750 \[[^\]]+\] \| 12 \| 12 \| 1\.00 \| the judge labeled no unit outside the sample: p̂_PP is p̂ on the same units \|/,
    );
    expect(run.markdown).toMatch(/\| J \| 0\.708 \[/);
  });

  it('reference "both" with people only is a seeded sample too', () => {
    expect(judgeOf(analyse(main, { reference: 'both' }), 'J').p_pp!.value).toBeCloseTo(17 / 24, 12);
  });
});

describe('p̂_PP refused when the labels are not one uniform seeded sample', () => {
  const copy = (name: string) => {
    const path = join(dir, `${name}.loupe`);
    copyFileSync(main, path);
    return path;
  };
  const reasons = (d: DatasetAnalysis) =>
    Object.values(d.all_units.judges).map((j) => (j.p_pp === null ? j.p_pp_reason : 'given'));

  it('several draws with different seeds', async () => {
    const path = copy('two-seeds');
    await withProject(path, (core) => core.handlers['sampling.draw']({ dataset: 'tiny', n: 2, seed: 7 }));
    const d = analyse(path);
    expect(reasons(d)).toEqual([
      expect.stringMatching(/^The sample was drawn in several draws with different seeds \(0, 7\)/),
      expect.stringMatching(/different seeds/),
    ]);
  });

  it('a second draw with the same seed continues the one sample (no refusal)', async () => {
    const path = copy('same-seed');
    await withProject(path, async (core) => {
      const more = await core.handlers['sampling.draw']({ dataset: 'tiny', n: 2, seed: 0 });
      expect(more.summaryIds).toEqual(['t11', 't01']);
      await label(core, 'alice', { t11: [F, F], t01: [F, U] });
    });
    const pp = judgeOf(analyse(path), 'J').p_pp!;
    expect(pp).toMatchObject({ n_sampled_summaries: 8, n_drawn_summaries: 8, same_as_p_hat: false });
  });

  it('an imported label set in the reference', async () => {
    const path = copy('imported');
    await withProject(path, (core) =>
      runImport(core.repository(), {
        source: upload('labels.jsonl', [
          { dataset: 'tiny', summary_id: 't01', sentence_index: 0, label: 'faithful', annotator: 'bench' },
        ]),
        as: 'labels',
      }),
    );
    expect(reasons(analyse(path, { reference: 'both' }))[0]).toMatch(
      /^The human reference includes imported label sets \(bench\).*Choose the reference “people”/,
    );
    expect(reasons(analyse(path, { reference: 'imported' }))[0]).toMatch(/imported label sets \(bench\)/);
    // Without the imported set, the people's sample stands.
    expect(judgeOf(analyse(path, { reference: 'people' }), 'J').p_pp!.value).toBeCloseTo(17 / 24, 12);
  });

  it('labels merged from a copy that drew another sample', async () => {
    const other = join(dir, 'other.loupe');
    copyFileSync(base, other);
    await withProject(other, async (core) => {
      const batch = await core.handlers['sampling.draw']({ dataset: 'tiny', n: 8, seed: 0 });
      expect(batch.summaryIds.slice(6)).toEqual(['t11', 't01']);
      await label(core, 'bob', { t11: [F, F] });
    });
    const path = copy('merged');
    const [merged] = await withProject(path, (core) => core.handlers['merge.projects']({ paths: [other] }));
    expect(merged!.problems).toEqual([]);
    expect(merged!.eventsAdded).toBe(2);
    expect(reasons(analyse(path))[0]).toMatch(
      /^1 annotated summary lies outside this project’s draws \(labels merged from a copy/,
    );
  });

  it('summaries imported after the draw', async () => {
    const path = copy('grown');
    await withProject(path, (core) =>
      runImport(core.repository(), { source: upload('more.jsonl', summaryRows(12, 16)), as: 'summaries' }),
    );
    expect(reasons(analyse(path))[0]).toMatch(
      /^The draws \(6 summaries\) are not the first 6 of the seed-0 ranking of the dataset’s 16 summaries/,
    );
  });
});

describe('the plan of the same project', () => {
  it('says six annotated summaries are too few to plan from, and gives the median time per summary and the lineage', () => {
    const plan = runPlanJob(Database, {
      projectPath: main,
      dataset: null,
      settings: { bootstrap: 200, seed: 0, reference: 'people', humanLabel: 'unanimous', includeRevealed: false },
      target: 0.02,
    });
    const d = plan.datasets[0]!;
    expect(d).toMatchObject({
      dataset: 'tiny',
      n_summaries: 12,
      n_annotated: 6,
      n_drawn: 6,
      n_undrawn: 6,
      seed: 0,
      lineage: 'one',
      enough: false,
      draw_more: null,
    });
    // Per summary: 3000, 4000, 5000, 6000, 7000, 8000 ms → the median 5500.
    expect([d.median_ms_per_summary, d.n_timed_summaries]).toEqual([5500, 6]);
    expect(d.reason).toBe(
      'Needs at least 10 annotated summaries to plan from (6 so far): annotate more of the sample first.',
    );
    expect(d.lines.map((l) => [l.figure, l.judge, l.n_more])).toEqual([
      ['p_hat', null, null],
      ['p_pp', 'J', null],
      ['epsilon_hat', 'J', null],
      ['p_pp', 'K', null],
      ['epsilon_hat', 'K', null],
    ]);
    expect(plan).toMatchObject({
      target: 0.02,
      min_summaries: 10,
      settings: { bootstrap: 200, seed: 0, reference: 'people', human_label: 'unanimous', include_revealed: false },
    });
  });
});
