/**
 * npm run bench:import — import a generated 20,000-summary Loupe JSONL file (HaluEval's size,
 * news-length documents) into a fresh project and print summaries/s and peak memory; then export
 * it (JSONL and CSV, streamed and in memory, each in its own process) with time and peak memory.
 * BENCH_SUMMARIES=100000 for the 100k case; BENCH_EXPORT=0 measures the import alone.
 * BENCH_STREAM_ABOVE_MB sets the import's byte budget (default: the importer's STREAM_ABOVE_BYTES):
 * 0 streams any file, a large value reads it whole, to compare the two roads on one file.
 * A benchmark, not a test: it prints figures and asserts nothing about time.
 */
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { openProjectDatabase } from '../../db/open';
import { Repository } from '../../db/repository';
import { runImport, STREAM_ABOVE_BYTES } from '../../electron/core/imports/run';
import { halulikeRows } from './generate';

const SUMMARIES = Number(process.env.BENCH_SUMMARIES ?? 20_000);
const WITH_EXPORT = process.env.BENCH_EXPORT !== '0';
const STREAM_ABOVE =
  process.env.BENCH_STREAM_ABOVE_MB !== undefined
    ? Number(process.env.BENCH_STREAM_ABOVE_MB) * 1024 * 1024
    : STREAM_ABOVE_BYTES;
const TSX = join(import.meta.dirname, '..', '..', 'node_modules', 'tsx', 'dist', 'cli.mjs');

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-bench-import-'));
  const file = join(dir, 'halulike.jsonl');
  const out = createWriteStream(file);
  for (const row of halulikeRows(SUMMARIES)) {
    if (!out.write(JSON.stringify(row) + '\n')) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');

  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
  const projectPath = join(dir, 'bench.loupe');
  const db = openProjectDatabase(Database, projectPath, { create: true });
  const repo = new Repository(db);
  const started = performance.now();
  const phases: Record<string, number> = {};
  let phase = '';
  let phaseStart = started;
  const streamed = statSync(file).size > STREAM_ABOVE;
  const result = await runImport(
    repo,
    { source: { type: 'path', path: file }, streamAboveBytes: STREAM_ABOVE },
    (p) => {
      if (p.phase !== phase) {
        const t = performance.now();
        if (phase) phases[phase] = (phases[phase] ?? 0) + (t - phaseStart);
        phase = p.phase;
        phaseStart = t;
      }
    },
  );
  const seconds = (performance.now() - started) / 1000;
  phases[phase] = (phases[phase] ?? 0) + (performance.now() - phaseStart);
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024);
  db.close();

  const mb = (n: number) => (n / 1024 / 1024).toFixed(0);
  console.log(
    `bench:import  ${SUMMARIES} summaries, ${result.unitsAdded} sentences, file ${mb(statSync(file).size)} MB`,
  );
  console.log(
    `  read         ${streamed ? 'streamed (two passes)' : 'whole (one pass)'}, budget ${mb(STREAM_ABOVE)} MB`,
  );
  console.log(`  total        ${seconds.toFixed(2)} s  (aim: under 15 s)`);
  console.log(`  throughput   ${(SUMMARIES / seconds).toFixed(0)} summaries/s`);
  console.log(`  peak memory  ${mb(peakRss)} MB RSS`);
  console.log(
    `  phases       ${Object.entries(phases)
      .map(([k, v]) => `${k} ${(v / 1000).toFixed(2)} s`)
      .join(', ')}`,
  );

  // Export of the imported project, each in a process of its own so its peak memory is the export's:
  // streamed (today's export.write) and built in memory first (export.build, the path before it).
  for (const format of WITH_EXPORT ? (['jsonl', 'csv'] as const) : [])
    for (const mode of ['stream', 'build'] as const) {
      const target = join(dir, `export-${mode}.${format}`);
      const run = spawnSync(
        process.execPath,
        [TSX, join(import.meta.dirname, 'export-run.ts'), projectPath, target, mode],
        {
          encoding: 'utf8',
          maxBuffer: 1024 * 1024,
        },
      );
      if (run.status !== 0) {
        console.log(`  export ${format} ${mode}: failed\n${run.stderr}`);
        continue;
      }
      const figures = JSON.parse(run.stdout.trim().split('\n').pop()!) as {
        seconds: number;
        rows: number;
        peakMb: number;
      };
      console.log(
        `  export ${format.padEnd(5)} ${mode === 'stream' ? 'streamed' : 'in memory'}  ${figures.seconds.toFixed(2)} s, ` +
          `${figures.rows} rows, ${mb(statSync(target).size)} MB file, peak ${figures.peakMb.toFixed(0)} MB RSS`,
      );
      rmSync(target, { force: true });
    }
  rmSync(dir, { recursive: true, force: true });
}

void main();
