/**
 * npm run bench:judge — three figures, each against mock endpoints in their own processes at a
 * fixed 100 ms latency. A benchmark, not a test: it asserts nothing.
 *
 * 1. 2,000 sentences, one unlimited endpoint, concurrency 16: the ideal is concurrency / latency
 *    = 160 requests/s; printed: the achieved share, the latency Loupe adds per call and the CPU
 *    time per call (openai client, parsing, soft label, SQLite commit).
 * 2. Two replicas with 4 slots each (the 5th request in flight gets 429 at once), the judge's
 *    concurrency a ceiling of 16: the ideal is 2 × 4 / 100 ms = 80 requests/s; printed: the share
 *    of it, the split of answers between the replicas, and a reference client on the same two
 *    replicas (exactly 4 workers each) for what this machine allows.
 * 3. One endpoint with 4 slots: the same sentences through a reference client (a fixed pool of
 *    exactly 4 workers calling the endpoint with the openai package, no Loupe machinery) and
 *    through Loupe (ceiling 16, adaptive); printed: Loupe's rate as a share of the reference's.
 * 4. The same two replicas from the command line: `loupe judges add --base-url A --base-url B`,
 *    then `loupe judge` over 1,000 sentences (the CLI bundle as a process, its start included);
 *    printed: requests/s, the share of the ideal 80/s and the split between the replicas.
 */
import Database from 'better-sqlite3';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { EndpointConfigSchema, type EndpointConfig } from '../../shared/judges/config';
import { openProjectDatabase } from '../../db/open';
import { Repository } from '../../db/repository';
import { runImport } from '../../electron/core/imports/run';
import { createJudgeService, type JudgeService } from '../../electron/core/judges/service';
import { sentenceVerdictKind } from '../../electron/core/judges/sentence-verdict';
import { sha256Hex } from '../../electron/core/tasks/hashing';
import { builtLoupeArgs, REPO } from '../helpers/serve';

const SENTENCES = Number(process.env.BENCH_SENTENCES ?? 2000);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 100);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const SOFT = process.env.BENCH_SOFT !== '0';
const SLOT_SENTENCES = Number(process.env.BENCH_SLOT_SENTENCES ?? 1200);
const SLOTS = Number(process.env.BENCH_SLOTS ?? 4);
/** The one-endpoint comparison alternates reference and Loupe this many times. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PER_SUMMARY = 4;
const CLI_SENTENCES = Number(process.env.BENCH_CLI_SENTENCES ?? 1000);
/** BENCH_ONLY=cli: figure 4 alone. */
const ONLY_CLI = process.env.BENCH_ONLY === 'cli';

interface MockProcess {
  url: string;
  stats(): Promise<{ requests: number; answered: number; rejected: number }>;
  stop(): void;
}

async function startMock(slots: number | null = null): Promise<MockProcess> {
  const args = [
    '--import',
    'tsx',
    join(import.meta.dirname, '..', 'mock-openai', 'cli.ts'),
    '--latency',
    String(LATENCY_MS),
    ...(slots !== null ? ['--slots', String(slots)] : []),
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(line.trim()));
    child.once('exit', (code) => reject(new Error(`mock exited with ${code}`)));
  });
  const origin = url.replace(/\/v1$/, '');
  return {
    url,
    stats: async () =>
      (await (await fetch(`${origin}/__stats`)).json()) as { requests: number; answered: number; rejected: number },
    stop: () => child.kill('SIGTERM'),
  };
}

function rows(sentences = SENTENCES, dataset = 'bench'): string {
  const out: string[] = [];
  const document = 'The city council of Springfield approved a new budget on Tuesday. '.repeat(40);
  for (let s = 0; s < sentences / PER_SUMMARY; s += 1) {
    const sentences = Array.from(
      { length: PER_SUMMARY },
      (_, i) => `Sentence ${i} of summary ${s} (${dataset}) says the council met.`,
    );
    out.push(
      JSON.stringify({
        dataset,
        doc_id: `d${s % 200}`,
        document: `${document} (${s % 200})`,
        summary_id: `s${s}`,
        summary: sentences.join(' '),
      }),
    );
  }
  return out.join('\n');
}

const endpointConfig = (patch: Record<string, unknown>): EndpointConfig =>
  EndpointConfigSchema.parse({ kind: 'endpoint', model: 'bench', soft: SOFT, ...patch }) as EndpointConfig;

/** Runs a judge to its end; the rate in answers per second of wall time. */
async function timedRun(
  service: JudgeService,
  name: string,
  dataset: string,
): Promise<{ wall: number; ok: number; requests: number }> {
  const t0 = performance.now();
  const run = service.startRun(name, { dataset });
  await run.finished;
  const wall = (performance.now() - t0) / 1000;
  const s = run.status();
  return { wall, ok: s.ok, requests: s.requests };
}

/** The reference client: exactly `slots` workers sending the bodies in order with the openai package. */
async function referenceClient(
  url: string,
  bodies: ReadonlyArray<Record<string, unknown>>,
  slots: number,
): Promise<{ wall: number; ok: number; failed: number }> {
  const client = new OpenAI({ baseURL: url, apiKey: 'not-needed', maxRetries: 0, timeout: 60_000 });
  let next = 0;
  let ok = 0;
  let failed = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: slots }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++]!;
        try {
          await client.chat.completions.create(body as unknown as ChatCompletionCreateParamsNonStreaming);
          ok += 1;
        } catch {
          failed += 1;
        }
      }
    }),
  );
  return { wall: (performance.now() - t0) / 1000, ok, failed };
}

/** Figures 2 and 3: replicas and slot-limited endpoints. */
async function slotBenchmarks(dir: string): Promise<string[]> {
  const lines: string[] = [];
  const db = openProjectDatabase(Database, join(dir, 'slots.loupe'), { create: true });
  const repo = new Repository(db);
  const sizes: Record<string, number> = { replicas: SLOT_SENTENCES, warm: 200 };
  for (let round = 1; round <= ROUNDS; round += 1) sizes[`single-${round}`] = Math.ceil(SLOT_SENTENCES / ROUNDS);
  for (const [dataset, size] of Object.entries(sizes))
    await runImport(repo, { source: { type: 'upload', name: `${dataset}.jsonl`, text: rows(size, dataset) } });
  const service = createJudgeService({ repository: () => repo, env: {} });
  const r1 = await startMock(SLOTS);
  const r2 = await startMock(SLOTS);
  try {
    await service.handlers['judges.add']({
      name: 'warm-replicas',
      config: endpointConfig({ baseUrls: [r1.url, r2.url], model: 'warm', concurrency: 16 }),
    });
    await timedRun(service, 'warm-replicas', 'warm');
    // The reference client (exactly the slots of each replica), then Loupe, both warm.
    const replicaUnits = repo.judges
      .selectUnits('replicas', false)
      .map((u) => ({ sentence: u.sentence, document: repo.judges.documentText(u.documentId) ?? '' }));
    const refConfig = endpointConfig({ baseUrl: r1.url, model: 'reference' });
    const replicaBodies = replicaUnits.map((u) =>
      sentenceVerdictKind.buildRequest(refConfig, {
        document: u.document,
        documentHash: sha256Hex(u.document),
        sentence: u.sentence,
      }),
    );
    const half = Math.ceil(replicaBodies.length / 2);
    const t0 = performance.now();
    const [refA, refB] = await Promise.all([
      referenceClient(r1.url, replicaBodies.slice(0, half), SLOTS),
      referenceClient(r2.url, replicaBodies.slice(half), SLOTS),
    ]);
    const refReplicasRate = (refA.ok + refB.ok) / ((performance.now() - t0) / 1000);
    const [a0, b0] = [await r1.stats(), await r2.stats()];
    await service.handlers['judges.add']({
      name: 'replicas',
      config: endpointConfig({ baseUrls: [r1.url, r2.url], concurrency: 16 }),
    });
    const replicated = await timedRun(service, 'replicas', 'replicas');
    const [a1, b1] = [await r1.stats(), await r2.stats()];
    const idealReplicas = (2 * SLOTS) / (LATENCY_MS / 1000);
    const rateReplicas = replicated.ok / replicated.wall;
    const answeredA = a1.answered - a0.answered;
    const answeredB = b1.answered - b0.answered;
    lines.push(
      `replicas: ${replicated.ok} sentences over 2 replicas × ${SLOTS} slots (429 beyond them), ${LATENCY_MS} ms latency, judge concurrency ceiling 16`,
      `  achieved ${rateReplicas.toFixed(1)} requests/s = ${((100 * rateReplicas) / idealReplicas).toFixed(1)}% of the ideal ${idealReplicas.toFixed(0)}/s (${replicated.wall.toFixed(2)} s)`,
      `  reference client on the same two replicas (exactly ${SLOTS} workers each): ${refReplicasRate.toFixed(1)} requests/s = ${((100 * refReplicasRate) / idealReplicas).toFixed(1)}% of the ideal; Loupe = ${((100 * rateReplicas) / refReplicasRate).toFixed(1)}% of it`,
      `  split: replica 1 ${answeredA} (${((100 * answeredA) / (answeredA + answeredB)).toFixed(1)}%), replica 2 ${answeredB}; 429s: ${a1.rejected - a0.rejected} + ${b1.rejected - b0.rejected} of ${replicated.requests} requests`,
    );

    // 3. One endpoint with slots: the reference client and Loupe in turns (the machine's load drifts), same items.
    const single = endpointConfig({ baseUrl: r1.url, concurrency: 16 });
    await service.handlers['judges.add']({ name: 'single', config: single });
    const totals = { refOk: 0, refWall: 0, refFailed: 0, loupeOk: 0, loupeWall: 0, rejected: 0 };
    for (let round = 1; round <= ROUNDS; round += 1) {
      const dataset = `single-${round}`;
      const units = repo.judges
        .selectUnits(dataset, false)
        .map((u) => ({ sentence: u.sentence, document: repo.judges.documentText(u.documentId) ?? '' }));
      const bodies = units.map((u) =>
        sentenceVerdictKind.buildRequest(single, {
          document: u.document,
          documentHash: sha256Hex(u.document),
          sentence: u.sentence,
        }),
      );
      const reference = await referenceClient(r1.url, bodies, SLOTS);
      const s0 = await r1.stats();
      const loupe = await timedRun(service, 'single', dataset);
      const s1 = await r1.stats();
      totals.refOk += reference.ok;
      totals.refFailed += reference.failed;
      totals.refWall += reference.wall;
      totals.loupeOk += loupe.ok;
      totals.loupeWall += loupe.wall;
      totals.rejected += s1.rejected - s0.rejected;
    }
    const refRate = totals.refOk / totals.refWall;
    const loupeRate = totals.loupeOk / totals.loupeWall;
    const idealSingle = SLOTS / (LATENCY_MS / 1000);
    lines.push(
      `one endpoint with ${SLOTS} slots: ${totals.loupeOk} sentences in ${ROUNDS} rounds (reference, then Loupe, each round), ideal ${idealSingle.toFixed(0)}/s`,
      `  reference client (exactly ${SLOTS} workers, openai package): ${refRate.toFixed(1)} requests/s (${totals.refOk} ok, ${totals.refFailed} failed, ${totals.refWall.toFixed(2)} s)`,
      `  Loupe (ceiling 16, adaptive): ${loupeRate.toFixed(1)} requests/s (${totals.loupeOk} ok, ${totals.loupeWall.toFixed(2)} s, ${totals.rejected} 429s) = ${((100 * loupeRate) / refRate).toFixed(1)}% of the reference client`,
    );
  } finally {
    service.stopAll();
    db.close();
    r1.stop();
    r2.stop();
  }
  return lines;
}

/** Figure 4: `loupe judge` (the CLI as a process) over two replicas with slots. */
async function cliReplicas(dir: string): Promise<string[]> {
  const project = join(dir, 'cli.loupe');
  const env = { ...process.env, LOUPE_STATE_DIR: join(dir, 'cli-state') };
  const loupe = (args: string[]) => {
    const r = spawnSync(process.execPath, builtLoupeArgs(args), { cwd: REPO, env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`loupe ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    return r.stdout;
  };
  const file = join(dir, 'cli.jsonl');
  writeFileSync(file, rows(CLI_SENTENCES, 'cli'));
  loupe(['import', file, '--project', project]);
  const r1 = await startMock(SLOTS);
  const r2 = await startMock(SLOTS);
  try {
    loupe([
      'judges',
      'add',
      'cli',
      '--project',
      project,
      '--base-url',
      r1.url,
      '--base-url',
      r2.url,
      '--model',
      'bench',
      '--concurrency',
      '16',
      ...(SOFT ? ['--soft'] : []),
    ]);
    const t0 = performance.now();
    loupe(['judge', '--project', project, '--judge', 'cli']);
    const wall = (performance.now() - t0) / 1000;
    const [a, b] = [await r1.stats(), await r2.stats()];
    const answered = a.answered + b.answered;
    const ideal = (2 * SLOTS) / (LATENCY_MS / 1000);
    const rate = answered / wall;
    return [
      `CLI replicas: loupe judge over ${answered} sentences, 2 replicas × ${SLOTS} slots (429 beyond them), ${LATENCY_MS} ms latency, --concurrency 16 (process start included)`,
      `  achieved ${rate.toFixed(1)} requests/s = ${((100 * rate) / ideal).toFixed(1)}% of the ideal ${ideal.toFixed(0)}/s (${wall.toFixed(2)} s)`,
      `  split: replica 1 ${a.answered} (${((100 * a.answered) / answered).toFixed(1)}%), replica 2 ${b.answered} (${((100 * b.answered) / answered).toFixed(1)}%); 429s: ${a.rejected} + ${b.rejected}`,
    ];
  } finally {
    r1.stop();
    r2.stop();
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-bench-judge-'));
  if (ONLY_CLI) {
    try {
      process.stdout.write(`${(await cliReplicas(dir)).join('\n')}\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return;
  }
  const mock = await startMock();
  try {
    const db = openProjectDatabase(Database, join(dir, 'bench.loupe'), { create: true });
    const repo = new Repository(db);
    const imported = await runImport(repo, { source: { type: 'upload', name: 'bench.jsonl', text: rows() } });
    const service = createJudgeService({ repository: () => repo, env: {} });
    await service.handlers['judges.add']({
      name: 'bench',
      config: EndpointConfigSchema.parse({
        kind: 'endpoint',
        baseUrl: mock.url,
        model: 'bench',
        concurrency: CONCURRENCY,
        soft: SOFT,
      }),
    });
    // Warm the connection pool and the JIT outside the measurement (a different judge version).
    await service.handlers['judges.add']({
      name: 'warm',
      config: EndpointConfigSchema.parse({
        kind: 'endpoint',
        baseUrl: mock.url,
        model: 'warm',
        concurrency: CONCURRENCY,
        soft: SOFT,
      }),
    });
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
    const latencies = (
      db
        .prepare(
          `SELECT p.latency_ms AS ms FROM judge_predictions p JOIN judges j ON j.current_version_id = p.judge_version_id WHERE j.name = 'bench'`,
        )
        .all() as Array<{ ms: number }>
    )
      .map((r) => r.ms)
      .sort((a, b) => a - b);
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
    process.stdout.write(`${(await slotBenchmarks(dir)).join('\n')}\n`);
    process.stdout.write(`${(await cliReplicas(dir)).join('\n')}\n`);
  } finally {
    mock.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
