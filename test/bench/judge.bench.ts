/**
 * npm run bench:judge — 2,000 sentences against the mock endpoint (its own process) at a fixed
 * 100 ms latency with concurrency 16. The ideal is concurrency / latency = 160 requests/s; the
 * figure printed is the achieved rate as a share of it, plus Loupe's own cost per call: the
 * observed latency above the server's 100 ms, and the CPU time of this process per call (openai
 * client, parsing, soft label, SQLite commit). A benchmark, not a test: it asserts nothing.
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { EndpointConfigSchema } from '../../shared/judges/config';
import { openProjectDatabase } from '../../db/open';
import { Repository } from '../../db/repository';
import { runImport } from '../../electron/core/imports/run';
import { createJudgeService } from '../../electron/core/judges/service';

const SENTENCES = Number(process.env.BENCH_SENTENCES ?? 2000);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 100);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const SOFT = process.env.BENCH_SOFT !== '0';
const PER_SUMMARY = 4;

async function startMock(): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '..', 'mock-openai', 'cli.ts'), '--latency', String(LATENCY_MS)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(line.trim()));
    child.once('exit', (code) => reject(new Error(`mock exited with ${code}`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

function rows(): string {
  const out: string[] = [];
  const document = 'The city council of Springfield approved a new budget on Tuesday. '.repeat(40);
  for (let s = 0; s < SENTENCES / PER_SUMMARY; s += 1) {
    const sentences = Array.from({ length: PER_SUMMARY }, (_, i) => `Sentence ${i} of summary ${s} says the council met.`);
    out.push(JSON.stringify({ dataset: 'bench', doc_id: `d${s % 200}`, document: `${document} (${s % 200})`, summary_id: `s${s}`, summary: sentences.join(' ') }));
  }
  return out.join('\n');
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-bench-judge-'));
  const mock = await startMock();
  try {
    const db = openProjectDatabase(Database, join(dir, 'bench.loupe'), { create: true });
    const repo = new Repository(db);
    const imported = await runImport(repo, { source: { type: 'upload', name: 'bench.jsonl', text: rows() } });
    const service = createJudgeService({ repository: () => repo, env: {} });
    await service.handlers['judges.add']({
      name: 'bench',
      config: EndpointConfigSchema.parse({ kind: 'endpoint', baseUrl: mock.url, model: 'bench', concurrency: CONCURRENCY, soft: SOFT }),
    });
    // Warm the connection pool and the JIT outside the measurement (a different judge version).
    await service.handlers['judges.add']({ name: 'warm', config: EndpointConfigSchema.parse({ kind: 'endpoint', baseUrl: mock.url, model: 'warm', concurrency: CONCURRENCY, soft: SOFT }) });
    const warm = service.startRun('warm', {});
    await new Promise((r) => setTimeout(r, 1000));
    await warm.cancel();

    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const run = service.startRun('bench', {});
    await run.finished;
    const wall = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const status = run.status();
    const latencies = (db.prepare(`SELECT p.latency_ms AS ms FROM judge_predictions p JOIN judges j ON j.current_version_id = p.judge_version_id WHERE j.name = 'bench'`).all() as Array<{ ms: number }>).map((r) => r.ms).sort((a, b) => a - b);
    const mean = latencies.reduce((a, b) => a + b, 0) / latencies.length;
    const pct = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;

    const t1 = performance.now();
    const cachedRun = service.startRun('bench', {});
    await cachedRun.finished;
    const cachedWall = (performance.now() - t1) / 1000;

    const ideal = CONCURRENCY / (LATENCY_MS / 1000);
    const achieved = status.ok / wall;
    const cpuMsPerCall = (cpu.user + cpu.system) / 1000 / status.requests;
    process.stdout.write(
      [
        `judge benchmark: ${imported.unitsAdded} sentences, mock latency ${LATENCY_MS} ms, concurrency ${CONCURRENCY}, soft labels ${SOFT ? 'on (top 20 log-probabilities)' : 'off'}`,
        `  answered ${status.ok}/${status.total} in ${wall.toFixed(2)} s (${status.requests} requests, ${status.errors.length} error kinds)`,
        `  achieved ${achieved.toFixed(1)} requests/s = ${((100 * achieved) / ideal).toFixed(1)}% of the ideal ${ideal.toFixed(0)}/s`,
        `  observed latency per call: mean ${mean.toFixed(1)} ms, p50 ${pct(0.5)} ms, p95 ${pct(0.95)} ms, p99 ${pct(0.99)} ms → Loupe + client + transport overhead ≈ ${(mean - LATENCY_MS).toFixed(1)} ms per call`,
        `  CPU time of the Loupe process: ${cpuMsPerCall.toFixed(2)} ms per call (openai client, parsing, soft label, SQLite commit)`,
        `  rerun from the cache: ${cachedRun.status().cached} sentences, ${cachedRun.status().requests} requests, ${(cachedWall * 1000).toFixed(0)} ms`,
      ].join('\n') + '\n',
    );
    service.stopAll();
    db.close();
  } finally {
    mock.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
