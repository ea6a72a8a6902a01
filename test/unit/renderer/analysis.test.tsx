// @vitest-environment happy-dom
/**
 * Analysis view: run → poll → the per-dataset audit in the paper's layout, on the real core with
 * the analysis job scripted at the transport, its report computed by the real pure `analyzeProject`
 * on a tiny project (so its shape is the contract's: every answer is parsed by the contract's schemas). Tables (bold on
 * the displayed-higher of min/mean, "undefined", n), ε₀ statuses, the verdict's conditions, the
 * charts' elements, SVG and PNG export, report downloads, empty states, the key, and blindness:
 * the annotation store never receives report data.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from '../../../renderer/App';
import { exportHooks, serializeSvg } from '../../../renderer/charts/export';
import { displayedHigher } from '../../../renderer/components/analysis/format';
import { formatEstimate } from '../../../renderer/format';
import { epsilonChartScale } from '../../../renderer/components/analysis/EpsilonChart';
import { hiddenBiasGapDomain } from '../../../renderer/components/analysis/HiddenBiasChart';
import { linearScale } from '../../../renderer/charts/scale';
import { useAnnotation } from '../../../renderer/state/annotation';
import { analysisPolling, resetAnalysis, useAnalysis } from '../../../renderer/state/analysis';
import { resetRendererState } from '../../../renderer/testing/transport';
import { API, type AnalysisStatus, type DatasetStats, type JudgeInfo } from '../../../shared/api';
import { createRendererCore, type HostSeed, type RendererCore } from '../../helpers/renderer-core';
import { analyzeProject, renderMarkdown } from '../../../shared/analysis';
import type {
  AnalysisDataset,
  AnalysisReport,
  AnalysisSummary,
  AnalysisUnit,
  DatasetAnalysis,
  JudgePrediction,
} from '../../../shared/analysis';
import type { HumanLabel } from '../../../shared/domain';

// ───────────────────────────── a tiny project ─────────────────────────────

const HOSTILE = '<img src=x onerror="window.pwned=1">';
const EVIL = `x${HOSTILE}`;
const SENTENCES = [
  'The mayor opened the new bridge on Monday.',
  'It cost four million dollars to build it.',
  'Officials said traffic would improve soon.',
  'The bridge crosses the river near the old mill.',
];
type H = HumanLabel | null;
type Hard = 0 | 1;
interface Row {
  y: 0 | 1 | null;
  human: H[];
  /** qwen's hard labels (soft labels follow them). */
  qwen: Hard[];
  /** The hostile judge flags the last sentence of every summary (min and max constant → undefined correlations). */
  evilMissing?: boolean;
}

function dataset(name: string, rows: Row[], judges: string[] = ['qwen', EVIL]): AnalysisDataset {
  const summaries: AnalysisSummary[] = rows.map((row, g) => {
    const units: AnalysisUnit[] = row.human.map((human, i) => {
      const predictions: Record<string, JudgePrediction> = {};
      if (judges.includes('qwen'))
        predictions.qwen = { hard: row.qwen[i]!, soft: row.qwen[i] ? 0.85 - 0.1 * i : 0.15 + 0.1 * i };
      if (judges.includes(EVIL) && !(row.evilMissing && i === 0))
        predictions[EVIL] = { hard: i === row.human.length - 1 ? 0 : 1, soft: null };
      return {
        index: i,
        text: SENTENCES[i % SENTENCES.length]!,
        human,
        humanStatus: human === null ? 'none' : 'single',
        judges: predictions,
      };
    });
    return {
      summaryId: `${name}-${String(g).padStart(2, '0')}`,
      docId: `doc-${g % 5}`,
      globalLabel: row.y,
      units,
      annotated: units.some((u) => u.humanStatus !== 'none'),
    };
  });
  return { name, judges, summaries };
}

const F = 'faithful' as const;
const U = 'unfaithful' as const;
const C = 'unclear' as const;

/** p̂ = 2/3 with lengths 2–4: ε₀ is a root (≈ 0.298). */
const CNN: Row[] = [
  { y: 1, human: [F, F, F], qwen: [1, 1, 1] },
  { y: 1, human: [F, U, F], qwen: [1, 0, 1] },
  { y: 0, human: [U, U], qwen: [0, 0] },
  { y: 0, human: [F, U, U], qwen: [1, 0, 1] },
  { y: 1, human: [F, F], qwen: [1, 1] },
  { y: 0, human: [U, F, F, F], qwen: [0, 1, 1, 0] },
  { y: 1, human: [F, F, C], qwen: [1, 1, 0] },
  { y: 0, human: [F, U], qwen: [1, 0] },
  { y: 1, human: [null, null, null], qwen: [1, 1, 0] },
  { y: 0, human: [null, null], qwen: [0, 1], evilMissing: true },
  { y: 1, human: [null, null, null], qwen: [1, 1, 1] },
  { y: 0, human: [null, null, null], qwen: [0, 0, 1] },
  { y: 1, human: [null], qwen: [1] },
];
/** p̂ = ½ with lengths 2 and 4: ε₀ unconditional. */
const HALU: Row[] = [
  { y: 1, human: [F, U], qwen: [1, 0] },
  { y: 0, human: [U, F, U, F], qwen: [0, 1, 0, 1] },
  { y: 1, human: [F, F, U, U], qwen: [1, 1, 0, 1] },
  { y: 0, human: [U, F], qwen: [0, 1] },
  { y: 1, human: [null, null], qwen: [1, 1] },
  { y: 0, human: [null, null, null, null], qwen: [1, 0, 0, 1] },
];
/** No human labels: ε₀ undefined. */
const XSUM: Row[] = [
  { y: 1, human: [null, null], qwen: [1, 1] },
  { y: 0, human: [null, null, null], qwen: [1, 0, 0] },
  { y: 1, human: [null, null, null], qwen: [1, 1, 0] },
];

const PROJECT: AnalysisDataset[] = [dataset('cnn', CNN), dataset('halu', HALU), dataset('xsum', XSUM, ['qwen'])];
const DATASET_STATS: DatasetStats[] = PROJECT.map((d) => ({
  name: d.name,
  documents: 5,
  documentsMissing: 0,
  summaries: d.summaries.length,
  units: d.summaries.reduce((sum, s) => sum + s.units.length, 0),
  sampled: 8,
  batches: 1,
}));

const reportCache = new Map<string, AnalysisReport>();
function reportFor(input: {
  bootstrap: number;
  seed: number;
  cap: number;
  dataset?: string | undefined;
}): AnalysisReport {
  const key = JSON.stringify([input.bootstrap, input.seed, input.cap, input.dataset ?? null]);
  let report = reportCache.get(key);
  if (!report) {
    const datasets = input.dataset ? PROJECT.filter((d) => d.name === input.dataset) : PROJECT;
    report = analyzeProject(datasets, { bootstrap: input.bootstrap, seed: input.seed, cap: input.cap });
    reportCache.set(key, report);
  }
  return report;
}

// ─────────────────────── the analysis job, scripted at the transport ───────────────────────
// The real core answers everything else. The analysis worker is a thread, which the unit tier does
// not start, so analysis.* is scripted here: its polls, progress, failure and cancellation, with the
// report computed by the real pure analyzeProject on the tiny project above.

interface FakeAnalysis {
  /** Status polls answered "running" before the job is done. */
  pollsBeforeDone: number;
  /** How the job ends. */
  outcome: 'done' | 'failed';
  /** Overrides of the report (a deliberately edited copy), applied when done. */
  editReport: ((report: AnalysisReport) => AnalysisReport) | null;
  latest: { running: AnalysisStatus | null; done: AnalysisStatus | null };
  jobs: Map<string, AnalysisStatus>;
}

let core: RendererCore;
let fake: FakeAnalysis;

/** Every answer goes through the contract's output schema, as a host does. */
function parsed<M extends 'analysis.start' | 'analysis.status' | 'analysis.cancel'>(
  method: M,
  status: AnalysisStatus,
): AnalysisStatus {
  return API[method].output.parse(structuredClone(status)) as AnalysisStatus;
}

function status(partial: Partial<AnalysisStatus> & Pick<AnalysisStatus, 'jobId' | 'settings'>): AnalysisStatus {
  return {
    state: 'running',
    progress: { phase: 'starting', done: 0, total: 5 },
    report: null,
    markdown: null,
    error: null,
    startedAt: '2025-01-01T00:00:00.000Z',
    finishedAt: null,
    ...partial,
  };
}

function doneStatus(
  jobId: string,
  input: { bootstrap: number; seed: number; cap: number; dataset?: string | undefined },
): AnalysisStatus {
  let report = reportFor(input);
  if (fake.editReport) report = fake.editReport(structuredClone(report));
  return status({
    jobId,
    state: 'done',
    settings: { bootstrap: input.bootstrap, seed: input.seed, cap: input.cap, dataset: input.dataset ?? null },
    progress: { phase: 'done', done: 5, total: 5 },
    report,
    markdown: renderMarkdown(report),
    finishedAt: '2025-01-01T00:00:05.000Z',
  });
}

interface SetupOptions {
  info?: HostSeed;
  datasets?: DatasetStats[];
  judges?: string[];
  latest?: FakeAnalysis['latest'];
}

/** A judge whose predictions were imported, as judges.list answers it (the report's judges are the tiny project's). */
function importedJudge(name: string): JudgeInfo {
  return API['judges.list'].output.parse([
    {
      name,
      kind: 'imported',
      config: null,
      configHash: 'imported',
      description: 'Predictions imported from a file.',
      keySource: 'none',
      apiKeyEnv: null,
      versions: 1,
      predictions: { ok: 0, parseErrors: 0, failed: 0, soft: 0 },
      activeRunId: null,
      updatedAt: '2025-01-01T00:00:00.000Z',
    },
  ])[0]!;
}

function scriptAnalysisJobs(options: SetupOptions): void {
  fake = {
    pollsBeforeDone: 2,
    outcome: 'done',
    editReport: null,
    latest: options.latest ?? { running: null, done: null },
    jobs: new Map(),
  };
  const inputs = new Map<string, { bootstrap: number; seed: number; cap: number; dataset?: string | undefined }>();
  let nextJob = 1;
  core.override('datasets.list', () => structuredClone(options.datasets ?? DATASET_STATS));
  core.override('sampling.list', () => []);
  core.override('judges.list', () => (options.judges ?? ['qwen', EVIL]).map(importedJudge));
  core.override('analysis.latest', () => API['analysis.latest'].output.parse(structuredClone(fake.latest)));
  core.override('analysis.start', (raw) => {
    const input = API['analysis.start'].input.parse(raw);
    const jobId = `job-${nextJob++}`;
    inputs.set(jobId, input);
    const started = status({
      jobId,
      settings: { bootstrap: input.bootstrap, seed: input.seed, cap: input.cap, dataset: input.dataset ?? null },
    });
    fake.jobs.set(jobId, started);
    return parsed('analysis.start', started);
  });
  core.override('analysis.status', ({ jobId }) => {
    const job = fake.jobs.get(jobId)!;
    if (job.state !== 'running') return parsed('analysis.status', job);
    let next: AnalysisStatus;
    if (fake.pollsBeforeDone > 0) {
      fake.pollsBeforeDone -= 1;
      const done = Math.min(4, job.progress.done + 1);
      next = { ...job, progress: { phase: `analysing ${PROJECT[done % 3]!.name}`, done, total: 5 } };
    } else if (fake.outcome === 'failed') {
      next = {
        ...job,
        state: 'failed',
        error: { message: `worker crashed on ${HOSTILE}` },
        finishedAt: '2025-01-01T00:00:02.000Z',
      };
    } else {
      next = doneStatus(jobId, inputs.get(jobId) ?? { ...job.settings, dataset: job.settings.dataset ?? undefined });
    }
    fake.jobs.set(jobId, next);
    return parsed('analysis.status', next);
  });
  core.override('analysis.cancel', ({ jobId }) => {
    const job = fake.jobs.get(jobId)!;
    const next: AnalysisStatus =
      job.state === 'running' ? { ...job, state: 'cancelled', finishedAt: '2025-01-01T00:00:01.000Z' } : job;
    fake.jobs.set(jobId, next);
    return parsed('analysis.cancel', next);
  });
  core.override('dialog.saveExport', ({ fileName }) => ({ path: `/home/me/${fileName}` }));
}

async function openAnalysisView(options: SetupOptions = {}) {
  // Labeled already: the annotator has nothing unfinished, so the reveal gate does not ask (tested in renderer-reveal).
  core = await createRendererCore(
    [{ document: 'The mayor opened the bridge.', sentences: ['The mayor opened the bridge.'], labels: ['faithful'] }],
    options.info,
  );
  scriptAnalysisJobs(options);
  render(<App bridge={core.bridge} />);
  fireEvent.click(await screen.findByTestId('nav-analysis'));
  await screen.findByTestId('analysis-view');
  await waitFor(() => expect(useAnalysis.getState().loaded).toBe(true));
}

async function runToDone() {
  fireEvent.click(screen.getByTestId('analysis-run'));
  await waitFor(() => expect(screen.getAllByTestId('dataset-section').length).toBeGreaterThan(0), { timeout: 5000 });
}

const section = (name: string) =>
  screen.getAllByTestId('dataset-section').find((el) => el.getAttribute('data-dataset') === name)!;
const rowOf = (container: HTMLElement, testId: string, judge: string) =>
  within(container)
    .getAllByTestId(testId)
    .find((el) => el.getAttribute('data-judge') === judge)!;
const reportOf = (name: string): DatasetAnalysis =>
  useAnalysis.getState().result!.report!.datasets.find((d) => d.dataset === name)!;

let downloads: Array<{ fileName: string; blob: Blob }>;

// The view is a lazy chunk of the App: loaded once here, so no test's first wait races its import on a busy machine.
beforeAll(async () => {
  await import('../../../renderer/views/AnalysisView');
});

beforeEach(() => {
  resetRendererState();
  resetAnalysis();
  analysisPolling.intervalMs = 10;
  downloads = [];
  vi.spyOn(exportHooks, 'download').mockImplementation((fileName, blob) => {
    downloads.push({ fileName, blob });
  });
});
afterEach(() => {
  cleanup();
  resetAnalysis();
  analysisPolling.intervalMs = 400;
  vi.restoreAllMocks();
});

// ───────────────────────────── tests ─────────────────────────────

describe('running the analysis', () => {
  it('sends the settings, polls with a progress indicator, and shows the settings used with the result', async () => {
    await openAnalysisView();
    expect(screen.getByTestId('analysis-none').textContent).toContain('Run');
    // Defaults: 2,000 replicates, seed 0, cap 25, every dataset.
    expect((screen.getByTestId('analysis-bootstrap') as HTMLInputElement).value).toBe('2000');
    expect((screen.getByTestId('analysis-seed') as HTMLInputElement).value).toBe('0');
    expect((screen.getByTestId('analysis-cap') as HTMLInputElement).value).toBe('25');
    fireEvent.change(screen.getByTestId('analysis-bootstrap'), { target: { value: '200' } });
    fireEvent.change(screen.getByTestId('analysis-seed'), { target: { value: '7' } });
    analysisPolling.intervalMs = 40;
    fireEvent.click(screen.getByTestId('analysis-run'));

    await waitFor(() =>
      expect(core.callsTo('analysis.start')).toEqual([
        { bootstrap: 200, seed: 7, cap: 25, reference: 'both', humanLabel: 'unanimous', includeRevealed: false },
      ]),
    );
    const progress = await screen.findByTestId('analysis-progress');
    expect(within(progress).getByRole('progressbar').getAttribute('aria-valuemax')).toBe('5');
    expect(screen.getByTestId('analysis-cancel')).toBeTruthy();
    expect((screen.getByTestId('analysis-run') as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() =>
      expect(screen.getByTestId('analysis-progress').getAttribute('data-phase')).toMatch(/^analysing /),
    );

    await waitFor(() => expect(screen.getAllByTestId('dataset-section')).toHaveLength(3), { timeout: 5000 });
    expect(screen.queryByTestId('analysis-progress')).toBeNull();
    expect(core.callsTo('analysis.status').length).toBeGreaterThanOrEqual(3);
    const used = screen.getByTestId('analysis-settings-used').textContent!;
    expect(used).toContain('200 bootstrap replicates');
    expect(used).toContain('seed 7');
    expect(used).toContain('review cap 25');
    expect(used).toContain('all datasets');
    expect(screen.queryByTestId('analysis-settings-differ')).toBeNull();
    fireEvent.change(screen.getByTestId('analysis-cap'), { target: { value: '10' } });
    expect(screen.getByTestId('analysis-settings-differ').textContent).toContain('Run');

    // No poll after the job is done.
    const polls = core.callsTo('analysis.status').length;
    await act(() => new Promise((resolve) => setTimeout(resolve, 120)));
    expect(core.callsTo('analysis.status').length).toBe(polls);
  });

  it('sends whose labels are the reference, the human-label rule and "include labels given after a reveal", and shows the ones the report used', async () => {
    await openAnalysisView();
    expect((screen.getByTestId('analysis-reference') as HTMLSelectElement).value).toBe('both');
    expect((screen.getByTestId('analysis-human-label') as HTMLSelectElement).value).toBe('unanimous');
    expect((screen.getByTestId('analysis-include-revealed') as HTMLInputElement).checked).toBe(false);
    fireEvent.change(screen.getByTestId('analysis-reference'), { target: { value: 'people' } });
    fireEvent.change(screen.getByTestId('analysis-human-label'), { target: { value: 'majority' } });
    fireEvent.click(screen.getByTestId('analysis-include-revealed'));
    // The fake computes with its defaults; the report says what it used, and the view shows that.
    fake.editReport = (report) => ({
      ...report,
      settings: { ...report.settings, reference: 'people', human_label: 'majority', include_revealed: true },
    });
    await runToDone();
    expect(core.callsTo('analysis.start')).toEqual([
      { bootstrap: 2000, seed: 0, cap: 25, reference: 'people', humanLabel: 'majority', includeRevealed: true },
    ]);
    const used = screen.getByTestId('analysis-reference-used').textContent!;
    expect(used).toContain("the project's people");
    expect(used).toContain('majority');
    expect(used).toContain('labels given after a reveal included');
    expect(screen.queryByTestId('analysis-settings-differ')).toBeNull();
    fireEvent.change(screen.getByTestId('analysis-human-label'), { target: { value: 'unanimous' } });
    expect(screen.getByTestId('analysis-settings-differ')).toBeTruthy();
  });

  it('runs one dataset when chosen', async () => {
    await openAnalysisView();
    fireEvent.change(screen.getByTestId('analysis-dataset'), { target: { value: 'halu' } });
    await runToDone();
    expect(core.callsTo('analysis.start')).toEqual([
      {
        bootstrap: 2000,
        seed: 0,
        cap: 25,
        dataset: 'halu',
        reference: 'both',
        humanLabel: 'unanimous',
        includeRevealed: false,
      },
    ]);
    expect(screen.getAllByTestId('dataset-section').map((el) => el.getAttribute('data-dataset'))).toEqual(['halu']);
    expect(screen.getByTestId('analysis-settings-used').textContent).toContain('dataset halu');
  });

  it('checks the settings inline and sends nothing while they are wrong', async () => {
    await openAnalysisView();
    fireEvent.change(screen.getByTestId('analysis-bootstrap'), { target: { value: '2e3' } });
    fireEvent.change(screen.getByTestId('analysis-cap'), { target: { value: '100001' } });
    expect(screen.getByTestId('analysis-bootstrap-error').textContent).toContain('whole number');
    expect(screen.getByTestId('analysis-cap-error').textContent).toContain('100,000');
    expect((screen.getByTestId('analysis-run') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.submit(screen.getByTestId('analysis-run').closest('form')!);
    await act(() => Promise.resolve());
    expect(core.callsTo('analysis.start')).toEqual([]);
  });

  it('cancels: the cancel call, a cancelled notice, and no more polls', async () => {
    await openAnalysisView();
    fake.pollsBeforeDone = 1000;
    fireEvent.click(screen.getByTestId('analysis-run'));
    await screen.findByTestId('analysis-progress');
    fireEvent.click(screen.getByTestId('analysis-cancel'));
    await screen.findByTestId('analysis-cancelled');
    expect(core.callsTo('analysis.cancel')).toEqual([{ jobId: 'job-1' }]);
    const polls = core.callsTo('analysis.status').length;
    await act(() => new Promise((resolve) => setTimeout(resolve, 80)));
    expect(core.callsTo('analysis.status').length).toBe(polls);
    expect((screen.getByTestId('analysis-run') as HTMLButtonElement).disabled).toBe(false);
    expect(screen.queryAllByTestId('dataset-section')).toHaveLength(0);
  });

  it('shows a failure as text in the error banner', async () => {
    await openAnalysisView();
    fake.outcome = 'failed';
    fireEvent.click(screen.getByTestId('analysis-run'));
    const banner = await screen.findByTestId('error-banner', {}, { timeout: 5000 });
    expect(banner.textContent).toContain(`worker crashed on ${HOSTILE}`);
    expect(banner.querySelector('img')).toBeNull();
  });

  it('reattaches on open: the newest report at once, and a running job is followed to its end', async () => {
    const done = doneStatusFor('job-9', { bootstrap: 50, seed: 3, cap: 25 });
    const running = status({
      jobId: 'job-10',
      settings: { bootstrap: 60, seed: 4, cap: 25, dataset: null },
      progress: { phase: 'loading', done: 1, total: 5 },
    });
    core = await createRendererCore([{ document: 'd', sentences: ['A sentence.'], labels: ['faithful'] }]);
    scriptAnalysisJobs({ latest: { running, done } });
    fake.jobs.set('job-10', running);
    fake.pollsBeforeDone = 1;
    render(<App bridge={core.bridge} />);
    fireEvent.click(await screen.findByTestId('nav-analysis'));
    expect(await screen.findByTestId('analysis-previous')).toBeTruthy();
    expect(screen.getByTestId('analysis-settings-used').textContent).toContain('seed 3');
    await screen.findByTestId('analysis-progress');
    await waitFor(() => expect(screen.getByTestId('analysis-settings-used').textContent).toContain('seed 4'), {
      timeout: 5000,
    });
    expect(screen.queryByTestId('analysis-previous')).toBeNull();
    expect(core.callsTo('analysis.start')).toEqual([]);
  });
});

/** A done status without a fake installed yet (for analysis.latest). */
function doneStatusFor(jobId: string, input: { bootstrap: number; seed: number; cap: number }): AnalysisStatus {
  const report = reportFor(input);
  return status({
    jobId,
    state: 'done',
    settings: { ...input, dataset: null },
    progress: { phase: 'done', done: 5, total: 5 },
    report,
    markdown: renderMarkdown(report),
    finishedAt: '2025-01-01T00:00:05.000Z',
  });
}

describe('the Table 2 layout', () => {
  it('puts the higher of min and mean in bold, writes value ± half-width, and shows n and the left-out count', async () => {
    await openAnalysisView();
    await runToDone();
    const cnn = section('cnn');
    const data = reportOf('cnn');
    const qwenHard = data.judges.qwen!.correlations.hard;
    expect(displayedHigher(qwenHard.min.pearson, qwenHard.mean.pearson)).toBe('mean');

    const row = rowOf(cnn, 'correlation-row', 'qwen');
    const min = within(row).getByTestId('corr-hard-min');
    const mean = within(row).getByTestId('corr-hard-mean');
    expect(mean.getAttribute('data-bold')).toBe('true');
    expect(mean.querySelector('strong')?.textContent).toBe(
      formatEstimate(qwenHard.mean.pearson, { style: 'plus-minus' }),
    );
    expect(min.getAttribute('data-bold')).toBe('false');
    expect(min.querySelector('strong')).toBeNull();
    const half = ((qwenHard.min.pearson.ci![1] - qwenHard.min.pearson.ci![0]) / 2).toFixed(2);
    expect(min.textContent).toBe(`${qwenHard.min.pearson.value!.toFixed(2)} ± ${half}`);
    // max is there, never bold.
    expect(within(row).getByTestId('corr-hard-max').getAttribute('data-bold')).toBe('false');
    expect(within(row).getByTestId('corr-hard-n').textContent).toBe(String(qwenHard.min.n));
    // Soft labels have their own pair.
    expect(within(row).getByTestId('corr-soft-mean').textContent).toContain('±');

    // The hostile judge lacks a prediction in one summary: n and the left-out count.
    const evil = rowOf(cnn, 'correlation-row', EVIL);
    const evilHard = data.judges[EVIL]!.correlations.hard;
    expect(evilHard.min.n_left_out).toBe(1);
    expect(within(evil).getByTestId('corr-hard-n').textContent).toBe(`${evilHard.min.n} (1 left out)`);
  });

  it('writes "undefined" (never 0) with the reason, and "no soft labels" for a judge without them', async () => {
    await openAnalysisView();
    await runToDone();
    const evil = rowOf(section('cnn'), 'correlation-row', EVIL);
    expect(reportOf('cnn').judges[EVIL]!.correlations.hard.min.pearson.value).toBeNull();
    const min = within(evil).getByTestId('corr-hard-min');
    expect(min.textContent).toBe('undefined');
    expect(min.getAttribute('title')).toContain('constant');
    expect(within(evil).getByTestId('corr-hard-max').textContent).toBe('undefined');
    // Neither of a pair with an undefined side is bold.
    expect(within(evil).getByTestId('corr-hard-mean').getAttribute('data-bold')).toBe('false');
    expect(within(evil).getByTestId('corr-soft-none').textContent).toContain('no soft labels');
    expect(section('cnn').querySelector('[data-testid="correlation-table"]')!.textContent).not.toMatch(
      /\b0\.00 ± 0\.00\b/,
    );
  });

  it('equal displays get no bold; the statistic selector switches every table', async () => {
    await openAnalysisView();
    fake.editReport = (report) => {
      const hard = report.datasets[0]!.judges.qwen!.correlations.hard;
      // 0.5012 and 0.4996 both display as 0.50.
      hard.min.pearson = { ...hard.min.pearson, value: 0.4996 };
      hard.mean.pearson = { ...hard.mean.pearson, value: 0.5012 };
      return report;
    };
    await runToDone();
    const row = rowOf(section('cnn'), 'correlation-row', 'qwen');
    expect(within(row).getByTestId('corr-hard-min').getAttribute('data-bold')).toBe('false');
    expect(within(row).getByTestId('corr-hard-mean').getAttribute('data-bold')).toBe('false');
    expect(row.querySelector('strong')?.closest('[data-testid]')?.getAttribute('data-testid')).not.toMatch(
      /^corr-hard-(min|mean)$/,
    );

    // ROC-AUC: a constant aggregate has AUC 0.5 (defined), where Pearson is undefined.
    fireEvent.change(within(section('cnn')).getByTestId('statistic-select'), { target: { value: 'roc_auc' } });
    const evil = rowOf(section('cnn'), 'correlation-row', EVIL);
    expect(within(evil).getByTestId('corr-hard-min').textContent).toMatch(/^0\.50/);
    expect((within(section('halu')).getByTestId('statistic-select') as HTMLSelectElement).value).toBe('roc_auc');
    expect(within(section('halu')).getByTestId('correlation-table').textContent).toContain('ROC-AUC');
  });
});

describe('dataset header and verdict', () => {
  it('states n summaries / sentences and p̂ with its interval and n', async () => {
    await openAnalysisView();
    await runToDone();
    const data = reportOf('cnn');
    const facts = within(section('cnn')).getByTestId('dataset-facts');
    expect(within(facts).getByTestId('facts-summaries').textContent).toContain(
      `${data.n_summaries} analysed of ${data.n_summaries_total}`,
    );
    expect(within(facts).getByTestId('facts-summaries').textContent).toContain(`${data.n_sentences} sentences`);
    expect(within(facts).getByTestId('facts-summaries').textContent).toContain('1 with one sentence left out');
    const p = within(facts).getByTestId('facts-p-hat').textContent!;
    expect(p).toContain(data.p_hat!.toFixed(3));
    expect(p).toContain(`[${data.p_hat_estimate.ci![0].toFixed(3)}, ${data.p_hat_estimate.ci![1].toFixed(3)}]`);
    expect(p).toContain(`n = ${data.p_hat_estimate.n} sentences, ${data.p_hat_estimate.n_summaries} summaries`);
  });

  it('renders the three ε₀ statuses: root, unconditional and undefined with its reason', async () => {
    await openAnalysisView();
    await runToDone();
    const cnn = reportOf('cnn');
    const halu = reportOf('halu');
    const xsum = reportOf('xsum');
    expect([cnn.epsilon0_status, halu.epsilon0_status, xsum.epsilon0_status]).toEqual([
      'root',
      'unconditional',
      'undefined',
    ]);

    const root = within(section('cnn')).getByTestId('facts-epsilon0');
    expect(root.getAttribute('data-status')).toBe('root');
    expect(root.textContent).toContain(`ε₀ = ${cnn.epsilon0!.toFixed(3)}`);
    expect(root.textContent).toContain(`at p̂ = ${cnn.p_hat!.toFixed(3)}`);
    const unconditional = within(section('halu')).getByTestId('facts-epsilon0');
    expect(unconditional.getAttribute('data-status')).toBe('unconditional');
    expect(unconditional.textContent).toContain('every ε̂ < ½');
    const undefinedStatus = within(section('xsum')).getByTestId('facts-epsilon0');
    expect(undefinedStatus.getAttribute('data-status')).toBe('undefined');
    expect(undefinedStatus.textContent).toContain(xsum.epsilon0_reason!);
  });

  it('states the verdict as its conditions with marks and words', async () => {
    await openAnalysisView();
    await runToDone();
    const cnn = section('cnn');
    const data = reportOf('cnn');
    expect(data.judges.qwen!.averaging_bias).toMatchObject({ mean_ge_min: true, below_threshold: true, holds: true });

    const qwen = rowOf(cnn, 'verdict-row', 'qwen');
    for (const id of ['verdict-mean-ge-min', 'verdict-below', 'verdict-upper']) {
      expect(within(qwen).getByTestId(id).getAttribute('data-state')).toBe('yes');
      expect(within(qwen).getByTestId(id).textContent).toContain('✓');
      expect(within(qwen).getByTestId(id).textContent).toContain('holds');
    }
    expect(within(qwen).getByTestId('verdict-below').textContent).toContain(
      `ε̂ ${data.judges.qwen!.epsilon_hat.value!.toFixed(3)} < ε₀ = ${data.epsilon0!.toFixed(3)}`,
    );
    expect(within(qwen).getByTestId('verdict-upper').textContent).toContain(
      `upper end ${data.judges.qwen!.epsilon_hat.ci![1].toFixed(3)} <`,
    );
    expect(within(qwen).getByTestId('verdict-mean-ge-min').textContent).toContain('mean − min');
    expect(within(qwen).getByTestId('verdict-words').textContent).toContain('Both conditions hold');

    // The hostile judge: min is undefined (condition 1 undefined), and ε̂ = 1/3 > ε₀ (condition 2 fails).
    const evil = rowOf(cnn, 'verdict-row', EVIL);
    expect(data.judges[EVIL]!.averaging_bias).toMatchObject({
      mean_ge_min: null,
      below_threshold: false,
      holds: false,
    });
    expect(within(evil).getByTestId('verdict-mean-ge-min').getAttribute('data-state')).toBe('undefined');
    expect(within(evil).getByTestId('verdict-mean-ge-min').textContent).toContain('undefined');
    expect(within(evil).getByTestId('verdict-below').getAttribute('data-state')).toBe('no');
    expect(within(evil).getByTestId('verdict-below').textContent).toContain('✗');
    expect(within(evil).getByTestId('verdict-words').textContent).toBe(
      'Not shown by this judge: ε̂ is not below the threshold.',
    );

    // Unconditional ε₀: the threshold is ½.
    const haluQwen = rowOf(section('halu'), 'verdict-row', 'qwen');
    expect(within(haluQwen).getByTestId('verdict-below').textContent).toContain('½ (ε₀ unconditional)');
    // Undefined ε₀: undetermined, said so.
    const xsumQwen = rowOf(section('xsum'), 'verdict-row', 'qwen');
    expect(within(xsumQwen).getByTestId('verdict-below').getAttribute('data-state')).toBe('undefined');
    expect(within(xsumQwen).getByTestId('verdict-words').textContent).toMatch(/^Undetermined: /);
  });
});

describe('charts', () => {
  it('ε̂: one whisker per judge with an interval, the ε₀ line at its value, or at ½ when unconditional', async () => {
    await openAnalysisView();
    await runToDone();
    const data = reportOf('cnn');
    const svg = within(section('cnn')).getByTestId('chart-epsilon');
    const whiskers = svg.querySelectorAll('[data-role="whisker"]');
    expect(whiskers).toHaveLength(data.judge_names.length);
    expect(svg.querySelectorAll('[data-role="point"]')).toHaveLength(data.judge_names.length);
    const scale = epsilonChartScale(data);
    const line = svg.querySelector('[data-role="epsilon0-line"]')!;
    expect(Number(line.getAttribute('y1'))).toBeCloseTo(scale(data.epsilon0!), 6);
    expect(line.getAttribute('y2')).toBe(line.getAttribute('y1'));
    expect(line.getAttribute('stroke-dasharray')).toBeTruthy();
    expect(svg.querySelector('[data-role="epsilon0-label"]')!.textContent).toBe(`ε₀ = ${data.epsilon0!.toFixed(3)}`);
    // Whisker ends sit at the interval.
    const qwenWhisker = svg.querySelector('[data-judge="qwen"] [data-role="whisker"] line')!;
    const ci = data.judges.qwen!.epsilon_hat.ci!;
    expect(Number(qwenWhisker.getAttribute('y1'))).toBeCloseTo(scale(ci[0]), 6);
    expect(Number(qwenWhisker.getAttribute('y2'))).toBeCloseTo(scale(ci[1]), 6);
    expect(svg.textContent).toContain(`n = ${data.judges.qwen!.epsilon_hat.n}`);

    const halu = within(section('halu')).getByTestId('chart-epsilon');
    const haluLine = halu.querySelector('[data-role="epsilon0-line"]')!;
    expect(Number(haluLine.getAttribute('y1'))).toBeCloseTo(epsilonChartScale(reportOf('halu'))(0.5), 6);
    expect(halu.querySelector('[data-role="epsilon0-label"]')!.textContent).toBe(
      'unconditional: every ε̂ < ½ qualifies',
    );

    // No human labels: no ε̂, no whisker, no line; the reason instead.
    const xsum = within(section('xsum')).getByTestId('chart-epsilon');
    expect(xsum.querySelectorAll('[data-role="whisker"]')).toHaveLength(0);
    expect(xsum.querySelector('[data-role="epsilon0-line"]')).toBeNull();
    expect(xsum.querySelector('[data-role="epsilon0-undefined"]')!.textContent).toContain('ε₀ undefined');
    expect(xsum.querySelector('[data-role="undefined"]')!.textContent).toBe('undefined');
  });

  it('hidden bias: two curves with a legend and axis labels; composition bars with n; a reliability diagram per judge with soft labels', async () => {
    await openAnalysisView();
    await runToDone();
    const data = reportOf('cnn');
    const bias = data.hidden_bias!;
    const curve = within(section('cnn')).getByTestId('chart-hidden-bias');
    const perfect = curve.querySelector('[data-role="curve-perfect"]')!.getAttribute('d')!;
    const noisy = curve.querySelector('[data-role="curve-noisy"]')!.getAttribute('d')!;
    const defined = bias.points.filter((p) => p.perfect.gap !== null).length;
    expect(perfect.startsWith('M')).toBe(true);
    expect(perfect.split(/[ML]/).filter(Boolean)).toHaveLength(defined);
    expect(noisy.startsWith('M')).toBe(true);
    // The first point is at y = 0, on the left edge, at its gap.
    const first = bias.points[0]!;
    const y = linearScale(hiddenBiasGapDomain(bias), [58 + 230, 58]);
    expect(perfect.split(' ')[0]).toBe(`M66.00,${y(first.perfect.gap!).toFixed(2)}`);
    expect(curve.querySelectorAll('[data-role="legend-item"]')).toHaveLength(2);
    expect(curve.textContent).toContain('perfect judge');
    expect(curve.textContent).toContain(`judge with ε̄ = ${bias.epsilon_bar!.toFixed(3)}`);
    const axisLabels = Array.from(curve.querySelectorAll('[data-role="axis-label"]')).map((el) => el.textContent);
    expect(axisLabels).toEqual(['ρ(Y, mean) − ρ(Y, min)', 'y: share of summaries labelled by the averaging rule']);
    expect(curve.querySelector('[data-role="chart-note"]')!.textContent).toContain(
      `${bias.n_simulated_summaries.toLocaleString('en-US')} summaries`,
    );

    const composition = within(section('cnn')).getByTestId('chart-composition');
    const rows = composition.querySelectorAll('[data-role="composition-row"]');
    expect(Array.from(rows).map((r) => r.getAttribute('data-n'))).toEqual([
      String(data.composition.human.n),
      String(data.composition.judges.annotated.n),
      String(data.composition.judges.all.n),
    ]);
    const mixed = rows[0]!.querySelector('[data-class="mixed"]')!;
    expect(Number(mixed.getAttribute('data-share'))).toBe(data.composition.human.mixed);
    expect(rows[0]!.querySelectorAll('[data-role="segment"]')).toHaveLength(3);
    expect(composition.textContent).toContain(`n = ${data.composition.human.n}`);

    // qwen has soft labels, the hostile judge none: one diagram.
    const calibration = within(section('cnn')).getAllByTestId('chart-calibration');
    expect(calibration).toHaveLength(1);
    const cal = data.judges.qwen!.calibration!;
    expect(calibration[0]!.querySelector('[data-role="diagonal"]')).toBeTruthy();
    expect(calibration[0]!.querySelectorAll('[data-role="bin"]')).toHaveLength(
      cal.bins.filter((b) => b.count > 0).length,
    );
    expect(
      Array.from(calibration[0]!.querySelectorAll('[data-role="bin-count"]')).map((t) => Number(t.textContent)),
    ).toEqual(cal.bins.map((b) => b.count));
    expect(calibration[0]!.textContent).toContain(
      `Brier ${cal.brier.value!.toFixed(3)} [${cal.brier.ci![0].toFixed(3)}, ${cal.brier.ci![1].toFixed(3)}]`,
    );
    expect(calibration[0]!.textContent).toContain(`ECE ${cal.ece.value!.toFixed(3)}`);
    expect(calibration[0]!.textContent).toContain(`n = ${cal.brier.n} sentences`);
  });

  it('exports a standalone SVG (XML declaration, one xmlns, size, no page attributes) and downloads it', async () => {
    await openAnalysisView();
    await runToDone();
    const figure = within(section('cnn')).getByTestId('figure-epsilon');
    fireEvent.click(within(figure).getByTestId('chart-export-svg'));
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(downloads[0]!.fileName).toBe('loupe-cnn-epsilon.svg');
    expect(downloads[0]!.blob.type).toBe('image/svg+xml');
    const text = await downloads[0]!.blob.text();
    expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<svg')).toBe(true);
    const root = text.slice(text.indexOf('<svg'), text.indexOf('>', text.indexOf('<svg')));
    expect(root.match(/xmlns="http:\/\/www\.w3\.org\/2000\/svg"/g)).toHaveLength(1);
    expect(root).toMatch(/width="\d+"/);
    expect(root).toMatch(/viewBox="0 0 \d+ \d+"/);
    expect(text).not.toContain('data-');
    expect(text).toContain(`ε₀ = ${reportOf('cnn').epsilon0!.toFixed(3)}`);
    // The hostile judge name is escaped text in the file too.
    expect(text).not.toContain('<img');
    const doc = new DOMParser().parseFromString(text.replace(/^<\?xml[^>]*>\n/, ''), 'image/svg+xml');
    expect(doc.querySelector('parsererror')).toBeNull();
    expect(doc.documentElement.querySelectorAll('line').length).toBeGreaterThan(0);
    expect(within(figure).getByTestId('chart-export-message').textContent).toBe('Downloaded loupe-cnn-epsilon.svg');

    // serializeSvg alone: the same for any chart element.
    const standalone = serializeSvg(
      within(section('halu')).getByTestId('chart-composition') as unknown as SVGSVGElement,
    );
    expect(standalone).toContain('xmlns="http://www.w3.org/2000/svg"');
  });

  it('exports a PNG: the SVG drawn on a 2× canvas and downloaded as image/png', async () => {
    await openAnalysisView();
    await runToDone();
    const drawn: unknown[][] = [];
    const context = {
      fillStyle: '',
      fillRect: vi.fn(),
      scale: vi.fn(),
      drawImage: vi.fn((...args: unknown[]) => drawn.push(args)),
    };
    const image = { decoded: true };
    const loaded: string[] = [];
    vi.spyOn(exportHooks, 'loadImage').mockImplementation(async (url) => {
      loaded.push(url);
      return image as unknown as CanvasImageSource;
    });
    const canvases: HTMLCanvasElement[] = [];
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(function (this: HTMLCanvasElement) {
      canvases.push(this);
      return context as never;
    });
    vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation((callback: BlobCallback, type?: string) =>
      callback(new Blob(['png'], { type })),
    );

    const figure = within(section('cnn')).getByTestId('figure-hidden-bias');
    const svg = within(figure).getByTestId('chart-hidden-bias');
    const [, , width, height] = svg.getAttribute('viewBox')!.split(' ').map(Number);
    fireEvent.click(within(figure).getByTestId('chart-export-png'));
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(loaded[0]).toMatch(/^blob:/);
    expect(canvases[0]!.width).toBe(2 * width!);
    expect(canvases[0]!.height).toBe(2 * height!);
    expect(context.scale).toHaveBeenCalledWith(2, 2);
    expect(drawn[0]).toEqual([image, 0, 0, width, height]);
    expect(downloads[0]!.fileName).toBe('loupe-cnn-hidden-bias.png');
    expect(downloads[0]!.blob.type).toBe('image/png');
  });
});

describe('lists, downloads and empty states', () => {
  it('lists suspicious summaries (pool, cap) and opens one read-only in a side panel without annotation calls', async () => {
    await openAnalysisView();
    await runToDone();
    const data = reportOf('cnn');
    expect(data.suspicious.listed.length).toBeGreaterThan(0);
    const suspicious = within(section('cnn')).getByTestId('suspicious');
    const pool = within(suspicious).getByTestId('suspicious-pool').textContent!;
    expect(pool).toContain(`Pool: ${data.suspicious.pool} suspicious`);
    expect(pool).toContain(`listed ${data.suspicious.listed.length} (cap 25)`);
    const rows = within(suspicious).getAllByTestId('suspicious-row');
    expect(rows.map((r) => r.getAttribute('data-summary'))).toEqual(data.suspicious.listed.map((e) => e.summary_id));
    const entry = data.suspicious.listed[0]!;
    expect(rows[0]!.textContent).toContain(entry.flagged_sentences.join(', '));
    expect(rows[0]!.textContent).toContain(entry.doc_id);

    const annotationCalls = core.calls.filter((c) => c.method.startsWith('annotation.')).length;
    fireEvent.click(within(rows[0]!).getByTestId('suspicious-open'));
    const panel = await screen.findByTestId('suspicious-panel');
    expect(within(panel).getByTestId('suspicious-panel-summary').textContent).toBe(entry.summary_id);
    expect(within(panel).getByTestId('suspicious-panel-note').textContent).toContain(
      'stay hidden until you decide each flagged sentence',
    );
    expect(core.calls.filter((c) => c.method.startsWith('annotation.')).length).toBe(annotationCalls);
    fireEvent.keyDown(window, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('suspicious-panel')).toBeNull());

    const review = within(suspicious).getByTestId('review-table');
    expect(review.textContent).toContain(`${data.suspicious.review.flagged_sentences}`);
  });

  it('shows the disagreement lists and the corrected rate with its interval and n', async () => {
    await openAnalysisView();
    await runToDone();
    const data = reportOf('cnn');
    const lists = within(section('cnn')).getAllByTestId('human-vs-judge');
    expect(lists.map((l) => l.getAttribute('data-judge'))).toEqual(data.judge_names);
    expect(lists[0]!.querySelector('summary')!.textContent).toContain(
      `${data.disagreements.human_vs_judge.qwen!.length} sentence`,
    );
    expect(lists[0]!.querySelectorAll('tbody tr')).toHaveLength(data.disagreements.human_vs_judge.qwen!.length);
    expect(within(section('cnn')).getByTestId('judges-split').querySelector('summary')!.textContent).toContain(
      `${data.disagreements.n_judges_split_all} over all analysed summaries`,
    );
    const corrected = data.judges.qwen!.corrected_unfaithful_rate;
    const cell = within(rowOf(section('cnn'), 'reliability-row', 'qwen')).getByTestId('corrected-rate');
    expect(cell.textContent).toContain(`${(100 * corrected.value!).toFixed(1)}%`);
    expect(cell.textContent).toContain(`n = ${corrected.n} judged sentences`);
  });

  it('downloads the report as JSON and Markdown (a browser download; the native dialog on the desktop)', async () => {
    await openAnalysisView();
    await runToDone();
    const result = useAnalysis.getState().result!;
    fireEvent.click(screen.getByTestId('download-json'));
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(downloads[0]!.fileName).toBe('loupe-analysis-all-datasets-seed0.json');
    expect(JSON.parse(await downloads[0]!.blob.text())).toEqual(result.report);
    fireEvent.click(screen.getByTestId('download-markdown'));
    await waitFor(() => expect(downloads).toHaveLength(2));
    expect(downloads[1]!.fileName).toBe('loupe-analysis-all-datasets-seed0.md');
    expect(await downloads[1]!.blob.text()).toBe(result.markdown);
    cleanup();

    resetRendererState();
    resetAnalysis();
    await openAnalysisView({ info: { host: 'electron', fileDialogs: true } });
    await runToDone();
    fireEvent.click(screen.getByTestId('download-markdown'));
    await waitFor(() => expect(core.callsTo('dialog.saveExport')).toHaveLength(1));
    expect(core.callsTo('dialog.saveExport')[0]!.fileName).toBe('loupe-analysis-all-datasets-seed0.md');
    expect(core.callsTo('dialog.saveExport')[0]!.content).toBe(useAnalysis.getState().result!.markdown);
    expect((await screen.findByTestId('download-message')).textContent).toBe(
      'Saved /home/me/loupe-analysis-all-datasets-seed0.md',
    );
    expect(downloads).toHaveLength(2);
  });

  it('says what to do when there are no datasets, no judges or no human labels', async () => {
    await openAnalysisView({ datasets: [], judges: [] });
    await waitFor(() => expect(screen.getByTestId('empty-datasets').textContent).toContain('Import'));
    expect(screen.getByTestId('empty-no-judges').textContent).toContain('Add a judge in Judges (G)');
    expect((screen.getByTestId('analysis-run') as HTMLButtonElement).disabled).toBe(true);
    cleanup();

    resetRendererState();
    resetAnalysis();
    await openAnalysisView();
    await runToDone();
    // xsum is sampled (8 summaries): label them, no "draw a sample first".
    expect(within(section('xsum')).getByTestId('empty-humans').textContent).toContain(
      'Label the sentences of the 8 sampled summaries in Annotate',
    );
    expect(within(section('xsum')).getByTestId('empty-humans').textContent).not.toContain('draw a sample');
    expect(within(section('cnn')).queryByTestId('empty-humans')).toBeNull();
  });

  it('says so for a dataset without judge predictions', async () => {
    await openAnalysisView();
    fake.editReport = (report) => {
      const d = report.datasets[0]!;
      d.judge_names = [];
      d.judges = {};
      return report;
    };
    await runToDone();
    const cnn = section('cnn');
    expect(within(cnn).getByTestId('empty-judges').textContent).toContain('Add a judge in Judges (G)');
    expect(within(cnn).queryByTestId('correlation-table')).toBeNull();
    expect(within(cnn).getByTestId('chart-composition')).toBeTruthy();
  });
});

describe('blindness, markup and the key', () => {
  it('keeps report data out of the annotation store and out of Annotate', async () => {
    await openAnalysisView();
    await runToDone();
    const annotation = JSON.stringify(useAnnotation.getState(), (_key, value) =>
      typeof value === 'function' ? undefined : value,
    );
    for (const leak of ['qwen', EVIL, 'epsilon', 'p_hat', 'pearson', 'suspicious', 'cnn-0', 'averaging'])
      expect(annotation).not.toContain(leak);
    expect(JSON.stringify(useAnalysis.getState())).toContain('epsilon_hat');

    fireEvent.click(screen.getByTestId('nav-annotate'));
    await screen.findByTestId('progress');
    expect(screen.queryByTestId('analysis-view')).toBeNull();
    expect(document.body.textContent).not.toContain('qwen');
    expect(document.body.textContent).not.toContain('ε₀');
    const after = JSON.stringify(useAnnotation.getState(), (_key, value) =>
      typeof value === 'function' ? undefined : value,
    );
    for (const leak of ['qwen', 'epsilon', 'cnn-0']) expect(after).not.toContain(leak);
  });

  it('renders judge names and messages with markup as text', async () => {
    await openAnalysisView();
    await runToDone();
    const view = screen.getByTestId('analysis-view');
    expect(view.querySelector('img')).toBeNull();
    expect((window as unknown as { pwned?: number }).pwned).toBeUndefined();
    expect(rowOf(section('cnn'), 'correlation-row', EVIL).querySelector('th')!.textContent).toBe(EVIL);
    expect(rowOf(section('cnn'), 'verdict-row', EVIL).querySelector('th')!.textContent).toBe(EVIL);
    const chartJudge = Array.from(
      within(section('cnn')).getByTestId('chart-epsilon').querySelectorAll('[data-role="judge"]'),
    ).find((el) => el.getAttribute('data-judge') === EVIL)!;
    expect(chartJudge.querySelector('title')!.textContent).toContain(EVIL);
    expect(chartJudge.textContent).toContain('x<img src=x');
  });

  it('opens with A from the Annotate view, but not while typing', async () => {
    // The real core refuses a label on a summary without its document, so this one stays unlabeled.
    core = await createRendererCore([{ document: null, sentences: ['A sentence without a document.'] }]);
    scriptAnalysisJobs({});
    render(<App bridge={core.bridge} />);
    const attach = await screen.findByTestId('attach-document-text');
    fireEvent.keyDown(attach, { key: 'a' });
    expect(screen.queryByTestId('analysis-view')).toBeNull();
    expect(screen.queryByTestId('reveal-dialog')).toBeNull();
    fireEvent.keyDown(document.body, { key: 'a' });
    // The summary is unlabeled, so the reveal gate asks first (tested in renderer-reveal).
    fireEvent.click(await screen.findByTestId('reveal-confirm'));
    await screen.findByTestId('analysis-view');
    expect(screen.getByTestId('nav-analysis').getAttribute('aria-current')).toBe('page');
    expect(screen.getByTestId('nav-analysis').textContent).toContain('A');
    // Leaving stops the polling of a running job; the job is not cancelled.
    await waitFor(() => expect(useAnalysis.getState().loaded).toBe(true));
    fake.pollsBeforeDone = 1000;
    fireEvent.click(screen.getByTestId('analysis-run'));
    await screen.findByTestId('analysis-progress');
    fireEvent.click(screen.getByTestId('nav-judges'));
    const polls = core.callsTo('analysis.status').length;
    await act(() => new Promise((resolve) => setTimeout(resolve, 80)));
    expect(core.callsTo('analysis.status').length).toBe(polls);
    expect(core.callsTo('analysis.cancel')).toEqual([]);
  });
});
