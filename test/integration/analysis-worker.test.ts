/**
 * The analysis worker thread in both forms (TypeScript source under tsx, and the esbuild bundle
 * the desktop app ships) giving the same report as the same code in this thread; the analysis.*
 * handlers through the dispatcher (start returns at once, status, cancel, conflict, latest, no
 * project, unknown dataset, closing the project). Split from test/unit/analysis/wiring.test.ts:
 * these start worker threads and build bundles.
 */
import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProjectDatabase } from '../../db/open';
import { Repository } from '../../db/repository';
import type { AnalysisReport } from '../../shared/analysis';
import type { AnalysisStatus } from '../../shared/api';
import { createCore, type Core } from '../../electron/core/index';
import { dispatch } from '../../electron/core/dispatch';
import { runImport } from '../../electron/core/imports/run';
import { runAnalysisJob } from '../../electron/core/analysis/job';
import { createAnalysisService, defaultWorkerEntry } from '../../electron/core/analysis/service';
import { MIN_SPLIT_WORK, startReplicatePool } from '../../electron/worker/replicate-pool';
import { buildSyntheticProject } from '../bench/analyze.bench';
import { tempDir } from '../helpers/tmp';
import { loadWorkedExample } from '../helpers/worked-example';

const ROOT = join(import.meta.dirname, '..', '..');
/** The contract's defaults of the human reference (analysis.start without those fields). */
const REFERENCE_DEFAULTS = { reference: 'both', humanLabel: 'unanimous', includeRevealed: false } as const;
const fixture = loadWorkedExample();
const dir = tempDir('loupe-analysis-worker-');

const jsonl = (rows: unknown[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;
const upload = (name: string, rows: unknown[]) => ({ type: 'upload' as const, name, text: jsonl(rows) });

/** The worked example, imported through the real import service. */
async function importWorkedExample(path: string): Promise<void> {
  const db = openProjectDatabase(Database, path, { create: true });
  try {
    const repo = new Repository(db);
    await runImport(repo, { source: upload('summaries.jsonl', fixture.summaries as unknown[]), as: 'summaries' });
    await runImport(repo, { source: upload('labels.jsonl', fixture.labels), as: 'labels' });
    await runImport(repo, { source: upload('predictions.jsonl', fixture.predictions), as: 'predictions' });
  } finally {
    db.close();
  }
}

const workedPath = join(dir, 'worked.loupe');
beforeAll(async () => {
  await importWorkedExample(workedPath);
});

/** Polls a job through the dispatcher until it is no longer running. */
async function settle(core: Core, jobId: string): Promise<AnalysisStatus> {
  for (;;) {
    const status = await call<AnalysisStatus>(core, 'analysis.status', { jobId });
    if (status.state !== 'running') return status;
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function call<T>(core: Core, method: string, input: unknown): Promise<T> {
  const envelope = await dispatch(core.handlers, method, input);
  if (!envelope.ok)
    throw Object.assign(new Error(`${method}: ${envelope.error.code}: ${envelope.error.message}`), {
      code: envelope.error.code,
    });
  return envelope.value as T;
}

function makeCore(): Core {
  return createCore({
    Database,
    stateDir: join(dir, 'state'),
    demoDir: join(ROOT, 'demo'),
    host: 'web',
    fileDialogs: false,
    diskPaths: false,
    canSwitchProjects: true,
  });
}

describe('the analysis worker and the analysis.* handlers', () => {
  const bigPath = join(dir, 'big.loupe');
  beforeAll(async () => {
    await buildSyntheticProject(bigPath, { summaries: 1500, annotated: 50, judges: 5, dataset: 'big' });
  }, 60_000);

  it('runs in a worker thread from the TypeScript sources: the same report as in this thread', async () => {
    const core = makeCore();
    core.openProject(workedPath);
    try {
      const started = await call<AnalysisStatus>(core, 'analysis.start', { bootstrap: 200, seed: 5 });
      expect(started.state).toBe('running');
      expect(started.settings).toEqual({ bootstrap: 200, seed: 5, cap: 25, dataset: null });
      expect(started.report).toBeNull();
      const done = await settle(core, started.jobId);
      expect(done.error).toBeNull();
      expect(done.state).toBe('done');
      expect(done.progress).toEqual({ phase: 'done', done: 3, total: 3 });
      const here = runAnalysisJob(Database, {
        projectPath: workedPath,
        dataset: null,
        settings: { bootstrap: 200, seed: 5, cap: 25, ...REFERENCE_DEFAULTS },
      });
      expect(done.report).toEqual(here.report);
      expect(done.markdown).toBe(here.markdown);
      expect(done.finishedAt).not.toBeNull();
      // Same inputs and seed: the same numbers again.
      const again = await settle(
        core,
        (await call<AnalysisStatus>(core, 'analysis.start', { bootstrap: 200, seed: 5 })).jobId,
      );
      expect(again.report).toEqual(done.report);
      const latest = await call<{ running: AnalysisStatus | null; done: AnalysisStatus | null }>(
        core,
        'analysis.latest',
        {},
      );
      expect(latest.running).toBeNull();
      expect(latest.done?.jobId).toBe(again.jobId);
    } finally {
      core.close();
    }
  });

  it('answers at once, refuses a second run of the same project, cancels, and closing the project cancels', async () => {
    const core = makeCore();
    core.openProject(bigPath);
    try {
      const first = await call<AnalysisStatus>(core, 'analysis.start', { bootstrap: 100_000 });
      expect([first.state, first.progress.phase, first.report]).toEqual(['running', 'starting', null]); // returned before any work
      await expect(call(core, 'analysis.start', {})).rejects.toMatchObject({ code: 'conflict' });
      // The event loop is free while it runs.
      const info = await call<{ version: string }>(core, 'app.info', {});
      expect(info.version).toBeTruthy();
      expect((await call<AnalysisStatus>(core, 'analysis.status', { jobId: first.jobId })).state).toBe('running');
      const latest = await call<{ running: AnalysisStatus | null }>(core, 'analysis.latest', {});
      expect(latest.running?.jobId).toBe(first.jobId);
      const cancelled = await call<AnalysisStatus>(core, 'analysis.cancel', { jobId: first.jobId });
      expect(cancelled.state).toBe('cancelled');
      expect(cancelled.report).toBeNull();
      expect((await core.analysis.wait(first.jobId)).state).toBe('cancelled');
      // Cancelling a finished job changes nothing.
      expect((await call<AnalysisStatus>(core, 'analysis.cancel', { jobId: first.jobId })).state).toBe('cancelled');

      const second = await call<AnalysisStatus>(core, 'analysis.start', { bootstrap: 100_000 });
      core.close();
      const closed = await core.analysis.wait(second.jobId);
      expect(closed.state).toBe('cancelled');
      expect(closed.error?.message).toMatch(/closed/);
    } finally {
      core.close();
    }
  }, 60_000);

  it('says what is wrong: no project, an unknown dataset or job, bad settings', async () => {
    const core = makeCore();
    try {
      await expect(call(core, 'analysis.start', {})).rejects.toMatchObject({ code: 'no_project' });
      expect(await call(core, 'analysis.latest', {})).toEqual({ running: null, done: null });
      core.openProject(workedPath);
      await expect(call(core, 'analysis.start', { dataset: 'nope' })).rejects.toMatchObject({ code: 'not_found' });
      await expect(call(core, 'analysis.status', { jobId: 'nope' })).rejects.toMatchObject({ code: 'not_found' });
      await expect(call(core, 'analysis.start', { bootstrap: -1 })).rejects.toMatchObject({ code: 'invalid_input' });
      await expect(call(core, 'analysis.start', { seed: 1.5 })).rejects.toMatchObject({ code: 'invalid_input' });
      const one = await settle(
        core,
        (await call<AnalysisStatus>(core, 'analysis.start', { dataset: 'worked-example', bootstrap: 0 })).jobId,
      );
      expect(one.state).toBe('done');
      expect(one.settings.dataset).toBe('worked-example');
      expect(one.report!.datasets.map((d) => d.dataset)).toEqual(['worked-example']);
    } finally {
      core.close();
    }
  });

  it('a worker that fails reports failed with its message', async () => {
    const service = createAnalysisService({
      project: () => ({ path: join(dir, 'missing.loupe'), repo: { datasetId: () => 1 } as unknown as Repository }),
    });
    const started = await service.handlers['analysis.start']({ bootstrap: 0, seed: 0, cap: 25, ...REFERENCE_DEFAULTS });
    const status = await service.wait(started.jobId);
    expect(status.state).toBe('failed');
    expect(status.error?.message).toMatch(/No project file/);
  });
});

describe('the bundled worker of the desktop app (out/main/analysis-worker.cjs)', () => {
  let outDir: string;
  let mainFile: string;
  beforeAll(async () => {
    // Inside the repository, so the bundle resolves the SQLite driver from its node_modules as
    // the packaged app resolves its own.
    mkdirSync(join(ROOT, 'node_modules', '.cache'), { recursive: true });
    outDir = mkdtempSync(join(ROOT, 'node_modules', '.cache', 'loupe-analysis-bundle-'));
    const { buildElectron } = (await import(join(ROOT, 'scripts/build-electron.mjs'))) as {
      buildElectron(o: { outDir: string; logLevel?: string }): Promise<{
        mainFile: string;
        analysisWorkerFile: string;
        metafiles: { analysisWorker: { inputs: Record<string, unknown> } };
      }>;
    };
    const built = await buildElectron({ outDir, logLevel: 'error' });
    mainFile = built.mainFile;
    expect(built.analysisWorkerFile).toBe(join(outDir, 'main', 'analysis-worker.cjs'));
    const workerCode = readFileSync(built.analysisWorkerFile, 'utf8');
    // No static require of a driver (each runtime loads its own) nor of electron.
    const required = [...workerCode.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]!);
    expect(required.filter((m) => !m.startsWith('node:'))).toEqual([]);
    expect(
      Object.keys(built.metafiles.analysisWorker.inputs).some((i) => i.endsWith('shared/analysis/analyze.ts')),
    ).toBe(true);
  }, 120_000);
  afterAll(() => {
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  });

  it('is found next to main.cjs and gives the same report', async () => {
    const entry = defaultWorkerEntry(pathToFileURL(mainFile).href);
    expect(entry.script.href).toBe(pathToFileURL(join(outDir, 'main', 'analysis-worker.cjs')).href);
    const db = openProjectDatabase(Database, workedPath, { create: false });
    const service = createAnalysisService({
      project: () => ({ path: workedPath, repo: new Repository(db) }),
      worker: entry,
    });
    try {
      const started = await service.handlers['analysis.start']({
        bootstrap: 100,
        seed: 9,
        cap: 25,
        ...REFERENCE_DEFAULTS,
      });
      const status = await service.wait(started.jobId);
      expect(status.error).toBeNull();
      const here = runAnalysisJob(Database, {
        projectPath: workedPath,
        dataset: null,
        settings: { bootstrap: 100, seed: 9, cap: 25, ...REFERENCE_DEFAULTS },
      });
      expect(status.report).toEqual(here.report as AnalysisReport);
      expect(status.markdown).toBe(here.markdown);
    } finally {
      db.close();
    }
  });

  it('and from the sources, the worker is worker.ts started through worker-tsx.mjs', () => {
    const source = pathToFileURL(join(ROOT, 'electron/core/analysis/service.ts')).href;
    const entry = defaultWorkerEntry(source);
    expect(entry.script.href).toBe(pathToFileURL(join(ROOT, 'electron/worker/analysis-worker-tsx.mjs')).href);
    expect(entry.data.entry).toBe(pathToFileURL(join(ROOT, 'electron/worker/analysis-worker.ts')).href);
  });
});

describe('bootstrap helper threads', () => {
  it('are asked for before the load with the largest dataset and the replicates, and start only for a bootstrap that splits', async () => {
    const expected: Array<[number, number]> = [];
    const db = new Database(workedPath, { readonly: true });
    const job = runAnalysisJob(
      Database,
      { projectPath: workedPath, dataset: null, settings: { bootstrap: 50, seed: 1, cap: 25, ...REFERENCE_DEFAULTS } },
      () => undefined,
      { expect: (summaries, bootstrap) => expected.push([summaries, bootstrap]) },
    );
    const largest = db
      .prepare('SELECT max(n) FROM (SELECT count(*) AS n FROM summaries GROUP BY dataset_id)')
      .pluck()
      .get() as number;
    db.close();
    expect(job.type).toBe('done');
    expect(largest).toBeGreaterThan(0);
    expect(expected).toEqual([[largest, 50]]);

    const entry = defaultWorkerEntry();
    const pool = startReplicatePool({ script: entry.script.href, data: entry.data }, 2);
    try {
      pool.expect(1000, MIN_SPLIT_WORK / 1000 - 1);
      expect(pool.started()).toBe(0);
      pool.expect(1000, MIN_SPLIT_WORK / 1000);
      expect(pool.started()).toBe(1);
      pool.expect(1000, MIN_SPLIT_WORK / 1000);
      expect(pool.started()).toBe(1);
    } finally {
      await pool.close();
    }
    const single = startReplicatePool({ script: entry.script.href, data: entry.data }, 1);
    single.expect(1000, MIN_SPLIT_WORK);
    expect(single.started()).toBe(0);
    await single.close();
  });
});
