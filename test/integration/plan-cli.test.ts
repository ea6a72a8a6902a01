/**
 * `loupe plan` and p̂_PP end to end: a project whose person labeled a seeded draw (built in this
 * process through the core: the CLI imports labels only as imported label sets), then the real
 * CLI bundle as a child process. The plan's JSON equals the job run in this thread and its counts
 * follow the 1/√n rule from the intervals `loupe analyze --json` reports; the text names the
 * `loupe sample` command that continues the seed; running that command draws new summaries only
 * (same seed lineage, no repeats) and keeps p̂_PP valid. Bad input: a target of 0 or 0.5 is the
 * contract's refusal (exit 1), a non-number the command line's mistake (exit 2), an unknown
 * dataset not_found (exit 1).
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisReport } from '../../shared/analysis';
import { durationText, type PlanReport } from '../../shared/analysis/planning';
import { drawSample } from '../../shared/sampling';
import { createStream } from '../../shared/stats/prng';
import { createCore } from '../../electron/core/index';
import { runImport } from '../../electron/core/imports/run';
import { runPlanJob } from '../../electron/core/planning/job';
import { loupe, mustLoupe } from '../helpers/project';
import { tempDir } from '../helpers/tmp';

const dir = tempDir('loupe-plan-cli-');
const env = { LOUPE_STATE_DIR: dir };
const project = join(dir, 'plan.loupe');
const SUMMARIES = 200;
const DRAWN = 24;

const jsonl = (rows: unknown[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;
const upload = (name: string, rows: unknown[]) => ({ type: 'upload' as const, name, text: jsonl(rows) });

/** Faithful with probability 0.8 per sentence; the judge flips three in a hundred. */
const rng = createStream(1, 'loupe-test', 'plan-cli');
const truth = new Map<string, boolean[]>();
const ids = Array.from({ length: SUMMARIES }, (_, g) => `n${String(g).padStart(3, '0')}`);
for (const id of ids)
  truth.set(
    id,
    [0, 1, 2].map(() => rng.nextBernoulli(0.8)),
  );
const judged = new Map(
  [...truth].map(([id, sentences]) => [
    id,
    sentences.map((faithful) => (rng.nextBernoulli(0.03) ? !faithful : faithful)),
  ]),
);

beforeAll(async () => {
  const core = createCore({
    Database,
    stateDir: dir,
    demoDir: dir,
    host: 'electron',
    fileDialogs: false,
    diskPaths: true,
    canSwitchProjects: false,
  });
  core.createProject(project);
  try {
    const rows = ids.map((id) => {
      const sentences = [0, 1, 2].map((i) => `Sentence ${i + 1} of summary ${id}.`);
      return {
        dataset: 'news',
        doc_id: `doc-${id}`,
        document: `The document of ${id}.`,
        summary_id: id,
        summary: sentences.join(' '),
        sentences,
      };
    });
    await runImport(core.repository(), { source: upload('news.jsonl', rows), as: 'summaries' });
    const predictions = ids.flatMap((id) =>
      judged.get(id)!.map((faithful, i) => ({
        dataset: 'news',
        summary_id: id,
        sentence_index: i,
        judge: 'J',
        hard: faithful ? 1 : 0,
      })),
    );
    await runImport(core.repository(), { source: upload('predictions.jsonl', predictions), as: 'predictions' });
    await core.handlers['sampling.draw']({ dataset: 'news', n: DRAWN, seed: 3 });
    const queue = await core.handlers['annotation.queue']({ annotator: 'alice' });
    for (const [position, item] of queue.items.entries()) {
      const summary = await core.handlers['annotation.load']({ key: item.key, annotator: 'alice' });
      for (const unit of summary.units) {
        const label = truth.get(summary.summaryId)![unit.index] ? 'faithful' : 'unfaithful';
        await core.handlers['annotation.record']({
          unitId: unit.id,
          annotator: 'alice',
          state: { label, errorType: null, note: null },
          timeSpentMs: 20_000 + 1000 * position,
          cause: 'label',
        });
      }
    }
  } finally {
    core.close();
  }
}, 60_000);

const planJson = (args: string[] = []): PlanReport =>
  JSON.parse(mustLoupe(['plan', '--project', project, '--reference', 'people', '--json', ...args], env)) as PlanReport;

describe('loupe plan', () => {
  it('prints the plan the job computes, each count by the 1/√n rule from the analysis intervals', () => {
    const plan = planJson(['--target', '0.03']);
    const inThread = runPlanJob(Database, {
      projectPath: project,
      dataset: null,
      settings: { bootstrap: 2000, seed: 0, reference: 'people', humanLabel: 'unanimous', includeRevealed: false },
      target: 0.03,
    });
    expect(plan).toEqual(inThread);
    const report = JSON.parse(
      mustLoupe(['analyze', '--project', project, '--json', '--reference', 'people'], env),
    ) as AnalysisReport;
    const allUnits = report.datasets[0]!.all_units;
    const pp = allUnits.judges.J!.p_pp!;
    expect(pp).toMatchObject({
      n_sampled_summaries: DRAWN,
      n_all_summaries: SUMMARIES,
      n_sampled_units: DRAWN * 3,
      n_all_units: SUMMARIES * 3,
      same_as_p_hat: false,
      sample_seed: 3,
    });
    expect(pp.width_ratio).toBeLessThan(1);
    const d = plan.datasets[0]!;
    // Sentence times 20 s + 1 s per queue position, three sentences: per summary 60 s … 129 s; median of 24 = 94.5 s.
    expect(d).toMatchObject({
      dataset: 'news',
      n_annotated: DRAWN,
      n_drawn: DRAWN,
      n_undrawn: SUMMARIES - DRAWN,
      seed: 3,
      lineage: 'one',
      enough: true,
      median_ms_per_summary: 94_500,
    });
    const byHand = (ci: [number, number]) =>
      Math.max(DRAWN, Math.ceil(DRAWN * ((ci[1] - ci[0]) / 2 / 0.03) ** 2 - 1e-9));
    const [pHat, ppLine, epsilon] = d.lines;
    expect(pHat!.n_total).toBe(byHand(allUnits.p_hat.ci!));
    expect(ppLine!.n_total).toBe(byHand(pp.ci!));
    expect(epsilon!.n_total).toBe(byHand(allUnits.judges.J!.epsilon_hat.ci!));
    expect(pHat!.time_ms).toBe(pHat!.n_more! * 94_500);
    // p̂_PP needs fewer labels than p̂ for the same certainty.
    expect(ppLine!.n_more!).toBeLessThan(pHat!.n_more!);
  });

  it('in words: one line per figure and the sample command that continues the seed', () => {
    const out = mustLoupe(['plan', '--project', project, '--reference', 'people', '--target', '0.03'], env);
    const plan = planJson(['--target', '0.03']);
    const d = plan.datasets[0]!;
    expect(out).toContain(
      `news: ${DRAWN} annotated of ${SUMMARIES} summaries (${DRAWN} drawn, ${SUMMARIES - DRAWN} not drawn yet); median ${durationText(94_500)} per summary (n = ${DRAWN}).`,
    );
    expect(out).toMatch(
      /^ {2}p̂ +±0\.\d{3} now +\(24 summaries\): annotate \d+ more \(\d+ in all\), ≈ .+ of annotator time/m,
    );
    expect(out).toMatch(/^ {2}p̂_PP · J/m);
    expect(out).toMatch(/^ {2}ε̂ · J/m);
    expect(out).toContain(
      `every figure: draw ${d.draw_more} more with  loupe sample --project ${project} --dataset news --n ${d.draw_more} --seed 3`,
    );
  });

  it('the sample command it names draws new summaries with the same seed, and p̂_PP stays valid', () => {
    const before = JSON.parse(
      mustLoupe(['plan', '--project', project, '--reference', 'people', '--json', '--target', '0.2'], env),
    ) as PlanReport;
    expect(before.datasets[0]!.draw_more).toBe(0); // the target is met: nothing to draw
    const out = mustLoupe(['sample', '--project', project, '--dataset', 'news', '--n', '5', '--seed', '3'], env);
    // The next five of the seed-3 ranking: none of the first batch's.
    const ranking = drawSample(
      'news',
      ids.map((summaryId) => ({ summaryId })),
      DRAWN + 5,
      3,
    ).map((s) => s.summaryId);
    expect(out).toBe(`Batch 2 of news (seed 3, hash-rank-v1): 5 summaries\n${ranking.slice(DRAWN).join('\n')}\n`);
    const after = planJson();
    expect(after.datasets[0]).toMatchObject({
      n_drawn: DRAWN + 5,
      n_undrawn: SUMMARIES - DRAWN - 5,
      seed: 3,
      lineage: 'one',
    });
    const report = JSON.parse(
      mustLoupe(['analyze', '--project', project, '--json', '--reference', 'people', '--bootstrap', '0'], env),
    ) as AnalysisReport;
    expect(report.datasets[0]!.all_units.judges.J!.p_pp).toMatchObject({
      n_drawn_summaries: DRAWN + 5,
      n_sampled_summaries: DRAWN,
    });
  });

  it("refuses a target of 0 or 0.5 with the contract's message (exit 1), a non-number as a usage error (exit 2), an unknown dataset (exit 1)", () => {
    for (const target of ['0', '0.5']) {
      const r = loupe(['plan', '--project', project, '--target', target], env);
      expect(r.status, r.stderr).toBe(1);
      expect(r.stderr).toMatch(
        /^Invalid input for planning\.plan: ✖ The target half-width must be a number above 0 and below 0\.5 \(a share of units, e\.g\. 0\.02\)\.\n\s+→ at target\n$/,
      );
    }
    const nan = loupe(['plan', '--project', project, '--target', 'wide'], env);
    expect(nan.status).toBe(2);
    expect(nan.stderr).toMatch(/--target must be a number/);
    const unknown = loupe(['plan', '--project', project, '--dataset', 'nope'], env);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/No dataset "nope"/);
  });

  it('with the default reference (both) and people only, p̂_PP is planned too; the analysis says the reference is a seeded draw', () => {
    const plan = JSON.parse(
      mustLoupe(['plan', '--project', project, '--json', '--dataset', 'news'], env),
    ) as PlanReport;
    expect(plan.settings.reference).toBe('both');
    expect(plan.datasets[0]!.lines[1]).toMatchObject({ figure: 'p_pp', judge: 'J', reason: null });
  });
});
