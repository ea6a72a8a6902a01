/**
 * npm run bench:import — import a generated 20,000-summary Loupe JSONL file (HaluEval's size,
 * news-length documents) into a fresh project and print summaries/s and peak memory.
 * A benchmark, not a test: it prints figures and asserts nothing about time.
 */
import Database from 'better-sqlite3';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { openProjectDatabase } from '../../db/open';
import { Repository } from '../../db/repository';
import { runImport } from '../../electron/core/imports/run';
import { halulikeRows } from './generate';

const SUMMARIES = Number(process.env.BENCH_SUMMARIES ?? 20_000);

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
  const db = openProjectDatabase(Database, join(dir, 'bench.loupe'), { create: true });
  const repo = new Repository(db);
  const started = performance.now();
  const phases: Record<string, number> = {};
  let phase = '';
  let phaseStart = started;
  const result = await runImport(repo, { source: { type: 'path', path: file } }, (p) => {
    if (p.phase !== phase) {
      const t = performance.now();
      if (phase) phases[phase] = (phases[phase] ?? 0) + (t - phaseStart);
      phase = p.phase;
      phaseStart = t;
    }
  });
  const seconds = (performance.now() - started) / 1000;
  phases[phase] = (phases[phase] ?? 0) + (performance.now() - phaseStart);
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024);
  db.close();

  const mb = (n: number) => (n / 1024 / 1024).toFixed(0);
  console.log(
    `bench:import  ${SUMMARIES} summaries, ${result.unitsAdded} sentences, file ${mb(statSync(file).size)} MB`,
  );
  console.log(`  total        ${seconds.toFixed(2)} s  (aim: under 15 s)`);
  console.log(`  throughput   ${(SUMMARIES / seconds).toFixed(0)} summaries/s`);
  console.log(`  peak memory  ${mb(peakRss)} MB RSS`);
  console.log(
    `  phases       ${Object.entries(phases)
      .map(([k, v]) => `${k} ${(v / 1000).toFixed(2)} s`)
      .join(', ')}`,
  );
  rmSync(dir, { recursive: true, force: true });
}

void main();
