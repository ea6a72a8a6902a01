/**
 * The judge audit end to end: the worked example (test/fixtures/analysis/worked-example.json)
 * written out as import files and imported with the real `loupe import` (predictions detected
 * without --as) into a fresh project, then `loupe analyze --json` as a child process, checked
 * against the fixture's hand-derived `expected` block; determinism of two runs with replicates;
 * --markdown; a project with nothing to audit; errors. Then `loupe serve`: analysis.start →
 * analysis.status returns the same report as the CLI, and the server keeps answering while a
 * large analysis runs in its worker thread (ordering, not time: app.info answers while that
 * analysis is still running), which analysis.cancel then stops.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisReport, DatasetAnalysis, Statistics, Estimate, CorrelationCell } from '../../shared/analysis';
import type { AnalysisStatus, HostInfo } from '../../shared/api';
import { loupe, mustLoupe, writeJsonl } from '../helpers/project';
import { apiCall, REPO, startServe, type ServeProcess } from '../helpers/serve';
import { tempDir } from '../helpers/tmp';
import { buildSyntheticProject } from '../bench/analyze.bench';

type Four = [number | null, number | null, number | null, number | null];
interface ExpectedJudge {
  epsilon_hat: number;
  confusion: { tp: number; fp: number; tn: number; fn: number };
  recall: number;
  specificity: number;
  hard: Record<'min' | 'mean' | 'max', Four> & { n: number; n_left_out: number };
  soft: Record<'min' | 'mean' | 'max', Four> & { n: number; n_left_out: number };
  averaging_bias: {
    mean_ge_min: boolean | null;
    below_threshold: boolean | null;
    holds: boolean | null;
    threshold: number | null;
  };
  brier: number;
  ece: number;
  corrected_unfaithful_rate: number;
}
interface Expected {
  n_summaries: number;
  n_sentences: number;
  n_summaries_total: number;
  n_single_sentence_left_out: number;
  human: Record<string, number>;
  p_hat: number;
  epsilon0: number | null;
  epsilon0_status: string;
  judges: Record<string, ExpectedJudge>;
  composition: Record<'human' | 'judges_all' | 'judges_annotated', Four>;
  suspicious: { pool: number; after_fragment_filter: number; listed: unknown[] };
  epsilon_bar: number;
}
interface Fixture {
  dataset: string;
  judges: string[];
  summaries: unknown[];
  labels: unknown[];
  predictions: unknown[];
  expected: Expected;
}

const fixture = JSON.parse(readFileSync(join(REPO, 'test/fixtures/analysis/worked-example.json'), 'utf8')) as Fixture;
const dir = tempDir('loupe-analyze-e2e-');
const env = { LOUPE_STATE_DIR: dir };
const project = join(dir, 'worked.loupe');

const close = (actual: number | null, expected: number | null, what: string) => {
  if (expected === null) expect(actual, what).toBeNull();
  else {
    expect(actual, what).not.toBeNull();
    expect(Math.abs(actual! - expected), `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(1e-12);
  }
};
const four = (s: Statistics<Estimate>): Four => [s.pearson.value, s.spearman.value, s.kendall.value, s.roc_auc.value];

/** The report's dataset against the fixture's hand-derived block. */
function checkAgainstExpected(d: DatasetAnalysis, e: Expected): void {
  expect(d.dataset).toBe(fixture.dataset);
  expect([d.n_summaries, d.n_sentences, d.n_summaries_total, d.n_single_sentence_left_out]).toEqual([
    e.n_summaries,
    e.n_sentences,
    e.n_summaries_total,
    e.n_single_sentence_left_out,
  ]);
  expect(d.human).toEqual(e.human);
  close(d.p_hat, e.p_hat, 'p_hat');
  close(d.epsilon0, e.epsilon0, 'epsilon0');
  expect(d.epsilon0_status).toBe(e.epsilon0_status);
  expect(d.judge_names).toEqual(fixture.judges);
  for (const [name, ej] of Object.entries(e.judges)) {
    const j = d.judges[name]!;
    close(j.epsilon_hat.value, ej.epsilon_hat, `${name} ε̂`);
    expect({ tp: j.confusion.tp, fp: j.confusion.fp, tn: j.confusion.tn, fn: j.confusion.fn }).toEqual(ej.confusion);
    close(j.recall.value, ej.recall, `${name} recall`);
    close(j.specificity.value, ej.specificity, `${name} specificity`);
    for (const kind of ['hard', 'soft'] as const) {
      const cells = j.correlations[kind]!;
      for (const agg of ['min', 'mean', 'max'] as const) {
        const cell: CorrelationCell = cells[agg];
        four(cell).forEach((v, i) => close(v, ej[kind][agg][i]!, `${name} ${kind} ${agg} statistic ${i}`));
        expect([cell.n, cell.n_left_out], `${name} ${kind} ${agg} n`).toEqual([ej[kind].n, ej[kind].n_left_out]);
      }
    }
    const bias = j.averaging_bias;
    expect({
      mean_ge_min: bias.mean_ge_min,
      below_threshold: bias.below_threshold,
      holds: bias.holds,
      threshold: bias.threshold,
    }).toEqual(ej.averaging_bias);
    close(j.calibration!.brier.value, ej.brier, `${name} Brier`);
    close(j.calibration!.ece.value, ej.ece, `${name} ECE`);
    close(j.corrected_unfaithful_rate.value, ej.corrected_unfaithful_rate, `${name} corrected rate`);
  }
  const comp = (c: DatasetAnalysis['composition']['human']): Four => [c.all_faithful, c.mixed, c.all_unfaithful, c.n];
  const composition = {
    human: comp(d.composition.human),
    judges_all: comp(d.composition.judges.all),
    judges_annotated: comp(d.composition.judges.annotated),
  };
  for (const key of ['human', 'judges_all', 'judges_annotated'] as const)
    composition[key].forEach((v, i) => close(v, e.composition[key][i]!, `composition ${key} ${i}`));
  expect([d.suspicious.pool, d.suspicious.after_fragment_filter]).toEqual([
    e.suspicious.pool,
    e.suspicious.after_fragment_filter,
  ]);
  expect(d.suspicious.listed).toEqual(e.suspicious.listed);
  close(d.hidden_bias!.epsilon_bar, e.epsilon_bar, 'ε̄');
}

/** stdout must be exactly one JSON document (JSON.parse takes nothing less and nothing more). */
function analyzeJson(args: string[]): { report: AnalysisReport; stdout: string; stderr: string } {
  const result = loupe(['analyze', '--project', project, '--json', ...args], env);
  if (result.status !== 0) throw new Error(`loupe analyze failed (${result.status}):\n${result.stderr}`);
  return { report: JSON.parse(result.stdout) as AnalysisReport, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
  const summaries = writeJsonl(join(dir, 'summaries.jsonl'), fixture.summaries);
  const labels = writeJsonl(join(dir, 'labels.jsonl'), fixture.labels);
  const predictions = writeJsonl(join(dir, 'predictions.jsonl'), fixture.predictions);
  mustLoupe(['import', summaries, '--project', project], env);
  mustLoupe(['import', labels, '--project', project], env);
  expect(mustLoupe(['import', predictions, '--project', project], env)).toMatch(
    /Imported predictions .*21 judge predictions added/s,
  );
}, 120_000);

describe('loupe analyze', () => {
  let cliReport: AnalysisReport;

  it("--json --bootstrap 0 prints one JSON document with the worked example's hand-derived numbers", () => {
    const { report, stderr } = analyzeJson(['--bootstrap', '0']);
    expect(stderr).toBe(''); // no progress when stderr is not a terminal
    expect(report.settings).toMatchObject({ bootstrap: 0, seed: 0, cap: 25 });
    expect(report.datasets).toHaveLength(1);
    checkAgainstExpected(report.datasets[0]!, fixture.expected);
  });

  it('is deterministic: two runs with replicates print identical output, and the seed matters', () => {
    const first = analyzeJson(['--bootstrap', '300', '--seed', '4']);
    const second = analyzeJson(['--bootstrap', '300', '--seed', '4']);
    expect(second.stdout).toBe(first.stdout);
    // Three annotated summaries: too few for an interval (the point value kept).
    expect(first.report.datasets[0]!.p_hat_estimate).toMatchObject({ ci: null, too_few: true });
    // Intervals do not change the point estimates.
    checkAgainstExpected(first.report.datasets[0]!, fixture.expected);
    const other = analyzeJson(['--bootstrap', '300', '--seed', '5']);
    // The seed moves the hidden-bias simulation's draws.
    expect(other.report.datasets[0]!.hidden_bias!.points).not.toEqual(first.report.datasets[0]!.hidden_bias!.points);
    cliReport = analyzeJson(['--bootstrap', '200', '--seed', '1', '--cap', '3', '--dataset', fixture.dataset]).report;
  });

  it('--markdown writes the readable report to a file, or to stdout', () => {
    const file = join(dir, 'report.md');
    const both = analyzeJson(['--bootstrap', '0', '--markdown', file]);
    expect(both.report.datasets[0]!.dataset).toBe(fixture.dataset);
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^# Loupe analysis/);
    expect(text).toContain(fixture.dataset);
    const printed = mustLoupe(['analyze', '--project', project, '--bootstrap', '0', '--markdown'], env);
    expect(printed).toBe(text);
    expect(mustLoupe(['analyze', '--project', project, '--bootstrap', '0'], env)).toBe(text);
  });

  it('a project with nothing to audit still gives a report (undefined = null); a missing project or dataset is an error', () => {
    const bare = join(dir, 'bare.loupe');
    const summaries = writeJsonl(join(dir, 'bare.jsonl'), [
      {
        dataset: 'bare',
        doc_id: 'd',
        document: 'A cat sat. It slept.',
        summary_id: 's',
        summary: 'A cat sat. It slept.',
        label: 1,
      },
    ]);
    mustLoupe(['import', summaries, '--project', bare], env);
    const result = loupe(['analyze', '--project', bare, '--json'], env);
    expect(result.status, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as AnalysisReport;
    const d = report.datasets[0]!;
    expect(d.judge_names).toEqual([]);
    expect(d.p_hat).toBeNull();
    expect(d.epsilon0_status).toBe('undefined');
    expect(d.hidden_bias).toBeNull();

    const missing = loupe(['analyze', '--project', join(dir, 'nope.loupe'), '--json'], env);
    expect(missing.status).not.toBe(0);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/No project at/);
    expect(existsSync(join(dir, 'nope.loupe'))).toBe(false);
    const unknown = loupe(['analyze', '--project', project, '--json', '--dataset', 'nope'], env);
    expect(unknown.status).not.toBe(0);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toMatch(/No dataset "nope"/);
    const both = loupe(['analyze', '--project', project, '--json', '--markdown'], env);
    expect(both.status).toBe(2);
    expect(both.stdout).toBe('');
  });

  describe('through loupe serve', () => {
    let serve: ServeProcess;
    beforeAll(async () => {
      // A large dataset in the same project: an analysis that takes seconds.
      await buildSyntheticProject(project, { summaries: 2500, annotated: 60, judges: 5, dataset: 'big' });
      serve = await startServe(['--project', project], env);
    }, 180_000);
    afterAll(async () => {
      await serve?.stop();
    });

    const status = (jobId: string) => apiCall<AnalysisStatus>(serve, 'analysis.status', { jobId });
    async function settle(jobId: string): Promise<AnalysisStatus> {
      for (;;) {
        const s = await status(jobId);
        if (s.state !== 'running') return s;
        await new Promise((r) => setTimeout(r, 50));
      }
    }

    it('analysis.start then analysis.status returns the report the CLI printed', async () => {
      const started = await apiCall<AnalysisStatus>(serve, 'analysis.start', {
        bootstrap: 200,
        seed: 1,
        cap: 3,
        dataset: fixture.dataset,
      });
      expect(started.state).toBe('running');
      const done = await settle(started.jobId);
      expect(done.state).toBe('done');
      expect(done.settings).toEqual({ bootstrap: 200, seed: 1, cap: 3, dataset: fixture.dataset });
      expect(done.report).toEqual(cliReport);
      expect(done.markdown).toMatch(/^# Loupe analysis/);
    }, 60_000);

    it('keeps answering while a large analysis runs off the event loop, and cancels it', async () => {
      const started = await apiCall<AnalysisStatus>(serve, 'analysis.start', { bootstrap: 30_000, dataset: 'big' });
      // Other calls are answered while that analysis is still running.
      const order: string[] = [];
      const info = apiCall<HostInfo>(serve, 'app.info', {}).then((value) => {
        order.push('app.info');
        return value;
      });
      const datasets = apiCall<unknown[]>(serve, 'datasets.list', {}).then(() => order.push('datasets.list'));
      expect((await info).project?.path).toBe(project);
      await datasets;
      const during = await status(started.jobId);
      order.push(`status:${during.state}`);
      expect(order).toEqual(['app.info', 'datasets.list', 'status:running']);
      expect(['starting', 'loading', 'analysing big']).toContain(during.progress.phase);
      const cancelled = await apiCall<AnalysisStatus>(serve, 'analysis.cancel', { jobId: started.jobId });
      expect(cancelled.state).toBe('cancelled');
      expect((await status(started.jobId)).state).toBe('cancelled');
      const latest = await apiCall<{ running: AnalysisStatus | null; done: AnalysisStatus | null }>(
        serve,
        'analysis.latest',
        {},
      );
      expect(latest.running).toBeNull();
      expect(latest.done?.report).toEqual(cliReport);
    }, 60_000);
  });
});
