/**
 * npm run bench:annotate — on a project of HaluEval's size (20,000 summaries) plus summaries of a
 * 30,000-word document, time in Chromium from a label keypress to the next sentence being
 * current and painted (p50/p95). The label write to SQLite is part of the measured path.
 * It also prints the label write's own cost on a 200-summary and a 20,000-summary project (same
 * run; ./label-write-cost.ts); BENCH_WRITE_ONLY=1 prints only that.
 * A benchmark, not a test: it prints figures and asserts nothing.
 */
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openProjectDatabase } from '../../db/open';
import { Repository } from '../../db/repository';
import { webCore } from '../helpers/web-core';
import { runImport } from '../../electron/core/imports/run';
import { launchChromium } from '../helpers/browser';
import { startServe } from '../helpers/serve';
import { documentText, halulikeRows, rng, sentence } from './generate';
import { describeWriteCost, measureWriteCost } from './label-write-cost';
import { addKeypressTrace, describeKeypressTotals, emptyKeypressTotals } from './trace-summary';

const SUMMARIES = Number(process.env.BENCH_SUMMARIES ?? 20_000);
const KEYPRESSES = Number(process.env.BENCH_KEYPRESSES ?? 150);

function percentile(sorted: number[], p: number): number {
  const i = (sorted.length - 1) * p;
  const lo = Math.floor(i);
  return sorted[lo]! + (sorted[Math.min(lo + 1, sorted.length - 1)]! - sorted[lo]!) * (i - lo);
}

async function main(): Promise<void> {
  const writeDir = mkdtempSync(join(tmpdir(), 'loupe-bench-write-'));
  try {
    const costs = [await measureWriteCost(writeDir, 200, 100), await measureWriteCost(writeDir, 20_000, 5_000)];
    console.log(describeWriteCost(costs));
  } finally {
    rmSync(writeDir, { recursive: true, force: true });
  }
  if (process.env.BENCH_WRITE_ONLY) return;
  const dir = mkdtempSync(join(tmpdir(), 'loupe-bench-annotate-'));
  const project = join(dir, 'bench.loupe');
  const big = join(dir, 'halulike.jsonl');
  writeFileSync(big, [...halulikeRows(SUMMARIES)].map((r) => JSON.stringify(r)).join('\n'));
  const random = rng(7);
  const longDoc = documentText(random, 30_000);
  const longRows = Array.from({ length: 60 }, (_, i) => ({
    dataset: 'long',
    doc_id: 'long-doc',
    document: longDoc,
    summary_id: `long-${i}`,
    summary: Array.from({ length: 4 }, () => sentence(random, 18)).join(' '),
  }));
  const longFile = join(dir, 'long.jsonl');
  writeFileSync(longFile, longRows.map((r) => JSON.stringify(r)).join('\n'));

  const db = openProjectDatabase(Database, project, { create: true });
  const repo = new Repository(db);
  await runImport(repo, { source: { type: 'path', path: big } });
  await runImport(repo, { source: { type: 'path', path: longFile } });
  db.close();
  const core = webCore(dir);
  core.openProject(project);
  await core.handlers['sampling.draw']({ dataset: 'long', n: 60, seed: 0, annotator: 'bench' });
  // The issue's size: a 5,000-summary sample of the big dataset in the bench annotator's own queue
  // (after the long document's summaries, where the keys are pressed), and one for someone else.
  const sampled = Number(process.env.BENCH_SAMPLE ?? 5_000);
  if (sampled > 0)
    await core.handlers['sampling.draw']({ dataset: 'halulike', n: sampled, seed: 1, annotator: 'bench' });
  await core.handlers['sampling.draw']({ dataset: 'halulike', n: 100, seed: 0, annotator: 'someone-else' });
  core.close();

  // A production build of the UI just before serving it (BENCH_UNMINIFIED=1: not minified, so a
  // BENCH_PROFILE names React's and our functions) (out/renderer is shared with test runs,
  // whose NODE_ENV=test builds are React's development build); the served build is checked below.
  const built = spawnSync(
    process.execPath,
    [
      join('node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--logLevel',
      'error',
      ...(process.env.BENCH_UNMINIFIED ? ['--minify', 'false'] : []),
    ],
    {
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  if (built.status !== 0) throw new Error('vite build failed');
  // The bundle `npm run loupe` runs, built here when stale (a fresh clone has none yet).
  const cli = (await import(pathToFileURL(join(import.meta.dirname, '..', '..', 'scripts', 'loupe.mjs')).href)) as {
    isStale(): boolean;
    buildCliBundle(): Promise<void>;
  };
  if (cli.isStale()) await cli.buildCliBundle();
  const serve = await startServe(['--project', project, '--annotator', 'bench'], { LOUPE_STATE_DIR: dir });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(serve.url);
    await page.getByTestId('unit-current').waitFor({ timeout: 60_000 });
    const words = (await page.getByTestId('document').evaluate((el) => el.textContent ?? '')).split(/\s+/).length;
    // out/renderer is shared: a build made under NODE_ENV=test (a test run's globalSetup) is React's
    // development build, several times slower per render. Say so rather than print its figures as ours.
    const developmentBuild = await page.evaluate(async () => {
      const src = document.querySelector<HTMLScriptElement>('script[type="module"][src]')?.src;
      return src ? (await (await fetch(src)).text()).includes('jsxDEV') : false;
    });
    if (developmentBuild)
      console.log(
        '  WARNING: the served UI is a development build of React (out/renderer was rebuilt by a test run): figures are not representative',
      );
    await page.evaluate(() => {
      const w = window as unknown as {
        __lat: number[];
        __dom: number[];
        __t0: number | null;
        __stored: number[];
        __pressed: number[];
      };
      w.__lat = [];
      w.__dom = [];
      // Keypress → its sentence no longer "saving" (the write returned): the durable part, off the paint path.
      w.__stored = [];
      w.__pressed = [];
      window.addEventListener(
        'keydown',
        (e) => {
          if (e.key === 'f') w.__pressed.push(e.timeStamp);
        },
        true,
      );
      new MutationObserver((records) => {
        for (const r of records) {
          if (r.oldValue === 'saving' && (r.target as Element).getAttribute('data-write') !== 'saving') {
            const t0 = w.__pressed.shift();
            if (t0 !== undefined) w.__stored.push(performance.now() - t0);
          }
        }
      }).observe(document.body, {
        attributes: true,
        attributeFilter: ['data-write'],
        attributeOldValue: true,
        subtree: true,
      });
      performance.setResourceTimingBufferSize(100_000);
      w.__t0 = null;
      window.addEventListener(
        'keydown',
        (e) => {
          if (e.key === 'f') w.__t0 = e.timeStamp;
        },
        true,
      );
      new MutationObserver(() => {
        if (w.__t0 === null) return;
        const t0 = w.__t0;
        w.__t0 = null;
        w.__dom.push(performance.now() - t0);
        // After the change is in the DOM, wait for the frame that paints it.
        requestAnimationFrame(() => setTimeout(() => w.__lat.push(performance.now() - t0), 0));
      }).observe(document.body, { attributes: true, attributeFilter: ['aria-current'], subtree: true });
    });
    // BENCH_PROFILE=1: also print where the renderer spends its time (CPU profile, self time).
    const profiler = process.env.BENCH_PROFILE ? await page.context().newCDPSession(page) : null;
    const selfTime = new Map<string, number>();
    if (profiler) {
      await profiler.send('Profiler.enable');
      await profiler.send('Profiler.setSamplingInterval', { interval: 100 });
    }
    // Only the label keypresses are profiled, not the summary switches between them.
    const collect = async () => {
      if (!profiler) return;
      const { profile } = await profiler.send('Profiler.stop');
      const deltas = profile.timeDeltas ?? [];
      const byId = new Map(profile.nodes.map((n) => [n.id, n]));
      const parentOf = new Map<number, number>();
      for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
      (profile.samples ?? []).forEach((id, i) => {
        const node = byId.get(id)!;
        const parent = byId.get(parentOf.get(id) ?? -1);
        const name = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.split('/').pop()}:${node.callFrame.lineNumber}${process.env.BENCH_PROFILE === 'callers' ? ` ← ${parent?.callFrame.functionName}:${parent?.callFrame.lineNumber}` : ''}`;
        selfTime.set(name, (selfTime.get(name) ?? 0) + (deltas[i] ?? 0) / 1000);
      });
    };
    // BENCH_TRACE=1: also print the main thread's work per keypress up to its paint (Chrome trace).
    const tracing = Boolean(process.env.BENCH_TRACE);
    const traced = emptyKeypressTotals();
    let pressed = 0;
    while (pressed < KEYPRESSES) {
      const units = await page.locator('[data-testid^="label-badge-"]').count();
      const current = Number(await page.getByTestId('unit-current').getAttribute('data-index'));
      if (profiler) await profiler.send('Profiler.start');
      if (tracing)
        await browser.startTracing(page, {
          categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing'],
        });
      for (let i = current; i < units - 1 && pressed < KEYPRESSES; i += 1) {
        const before = await page.evaluate(() => (window as unknown as { __lat: number[] }).__lat.length);
        await page.keyboard.press('f');
        await page.waitForFunction((n) => (window as unknown as { __lat: number[] }).__lat.length > n, before);
        pressed += 1;
      }
      await collect();
      if (tracing) addKeypressTrace((await browser.stopTracing()).toString('utf8'), traced);
      if (pressed >= KEYPRESSES) break;
      // The last sentence of a summary: label it (no next sentence to time), then open the next summary.
      await page.evaluate(() => ((window as unknown as { __t0: number | null }).__t0 = null));
      await page.keyboard.press('c');
      await page
        .getByTestId('summary-done')
        .waitFor()
        .catch(async (err: unknown) => {
          await page.screenshot({ path: join(tmpdir(), 'bench-annotate-failure.png') });
          throw err;
        });
      const shown = await page.getByTestId('summary-position').innerText();
      await page.keyboard.press('Enter');
      await page.waitForFunction(
        (before) =>
          document.querySelector('[data-testid="summary-position"]')?.textContent !== before &&
          document.querySelector('[data-testid="unit-current"]')?.getAttribute('data-index') === '0',
        shown,
      );
      await page.evaluate(() => ((window as unknown as { __t0: number | null }).__t0 = null));
    }
    const series = await page.evaluate(() => (window as unknown as { __lat: number[] }).__lat);
    if (process.env.BENCH_SERIES) console.log(series.map((v) => v.toFixed(0)).join(' '));
    const latencies = [...series].sort((a, b) => a - b);
    if (profiler) {
      console.log('  renderer CPU by function (self ms):');
      for (const [name, ms] of [...selfTime].sort((a, b) => b[1] - a[1]).slice(0, 15))
        console.log(`    ${ms.toFixed(0).padStart(6)}  ${name}`);
    }
    if (tracing) console.log(describeKeypressTotals(traced));
    const dom = (await page.evaluate(() => (window as unknown as { __dom: number[] }).__dom)).sort((a, b) => a - b);
    const writes = (
      await page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .filter((e) => e.name.includes('/api/annotation.record'))
          .map((e) => e.duration),
      )
    ).sort((a, b) => a - b);
    const stored = (await page.evaluate(() => (window as unknown as { __stored: number[] }).__stored)).sort(
      (a, b) => a - b,
    );
    const queueLength = await page.locator('.queue-pane .pane-title .muted').innerText();
    console.log(
      `bench:annotate  project of ${SUMMARIES} summaries + 60 on a ${words}-word document, queue ${queueLength}, ${latencies.length} keypresses`,
    );
    console.log(
      `  keypress → next sentence current and painted: p50 ${percentile(latencies, 0.5).toFixed(1)} ms, p95 ${percentile(latencies, 0.95).toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms (aim: p95 ≤ 22 ms, the next frame at 60 Hz)`,
    );
    console.log(
      `  keypress → next sentence current in the DOM (before paint): p50 ${percentile(dom, 0.5).toFixed(1)} ms, p95 ${percentile(dom, 0.95).toFixed(1)} ms (aim: p95 < 5 ms)`,
    );
    if (stored.length > 0)
      console.log(
        `  keypress → label stored ("saving" cleared): p50 ${percentile(stored, 0.5).toFixed(1)} ms, p95 ${percentile(stored, 0.95).toFixed(1)} ms`,
      );
    console.log(
      `  of which the label write (HTTP + SQLite commit): p50 ${percentile(writes, 0.5).toFixed(1)} ms, p95 ${percentile(writes, 0.95).toFixed(1)} ms`,
    );
  } finally {
    await browser.close();
    await serve.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
