/**
 * npm run bench:analyze — the judge audit end to end at the paper's HaluEval size: a project of
 * 20,000 summaries (about 3.6 sentences each), 5 judges with hard and soft labels on every
 * sentence, 100 human-annotated summaries, built through the real import path (summaries,
 * labels and predictions JSONL, each through runImport, the code `loupe import` runs); then
 * `loupe analyze --project P --json` with 2,000 replicates timed as a child process (start-up,
 * database load, worker thread, analysis, JSON on stdout), and the same for 1,000 summaries.
 * BENCH_PROJECT=DIR keeps the projects built there (bench-20000.loupe, bench-1000.loupe), and a
 * later run with the same DIR times them without building them again (for profiling one size, the
 * same files). BENCH_SIZES=20000 times only the sizes listed (comma-separated).
 * A benchmark, not a test: it prints figures and asserts nothing about time.
 *
 * `buildSyntheticProject` is also used by the tests that need an analysis that takes a while.
 */
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openProjectDatabase } from '../../db/open';
import { Repository } from '../../db/repository';
import { runImport } from '../../electron/core/imports/run';
import { builtLoupeArgs, REPO } from '../helpers/serve';
import { rng, sentence } from './generate';

export interface SyntheticOptions {
  summaries: number;
  /** Summaries with human labels (the first ones by id); every fifth has a second annotator. */
  annotated: number;
  judges: number;
  dataset?: string;
  seed?: number;
}

export interface SyntheticCounts {
  summaries: number;
  sentences: number;
  labels: number;
  predictions: number;
  importSeconds: number;
}

/** Sentence counts 1–6 with mean 3.6 (HaluEval-like), as cumulative probabilities. */
const LENGTHS: Array<[number, number]> = [
  [1, 0.05],
  [2, 0.17],
  [3, 0.4],
  [4, 0.7],
  [5, 0.9],
  [6, 1],
];

/**
 * Writes a synthetic project at `path` through the real import path. Deterministic: the same
 * options give the same project. Latent truth per sentence (unfaithful with probability 0.08 in
 * a summary labeled faithful, 0.35 otherwise); each judge flips it with its own error rate and
 * reports a soft label around it; annotators see the truth (a second one disagrees sometimes).
 */
export async function buildSyntheticProject(path: string, options: SyntheticOptions): Promise<SyntheticCounts> {
  const random = rng(options.seed ?? 7);
  const dataset = options.dataset ?? 'halulike';
  const judges = Array.from({ length: options.judges }, (_, j) => ({ name: `judge-${j + 1}`, error: 0.08 + 0.05 * j }));
  const summaryLines: string[] = [];
  const labelLines: string[] = [];
  const predictionLines: string[] = [];
  let sentences = 0;
  const width = String(options.summaries).length;
  for (let i = 0; i < options.summaries; i += 1) {
    const summaryId = `s${String(i).padStart(width, '0')}`;
    const u = random();
    const length = LENGTHS.find(([, p]) => u < p)![0];
    const units = Array.from({ length }, () => sentence(random, 6 + Math.floor(random() * 12)));
    const label = random() < 0.5 ? 1 : 0;
    const truth = units.map(() => (random() < (label === 1 ? 0.08 : 0.35) ? 0 : 1));
    summaryLines.push(
      JSON.stringify({
        dataset,
        doc_id: `d${i}`,
        document: `${units.join(' ')} ${sentence(random, 20)}`,
        summary_id: summaryId,
        summary: units.join(' '),
        label,
        sentences: units,
      }),
    );
    sentences += length;
    truth.forEach((t, index) => {
      for (const judge of judges) {
        const hard = random() < judge.error ? 1 - t : t;
        const soft = Math.min(1, Math.max(0, hard === 1 ? 0.55 + 0.45 * random() : 0.45 * random()));
        predictionLines.push(
          JSON.stringify({
            dataset,
            summary_id: summaryId,
            sentence_index: index,
            judge: judge.name,
            hard,
            soft: Math.round(soft * 1e4) / 1e4,
          }),
        );
      }
      if (i < options.annotated) {
        const human = (v: number) => (random() < 0.04 ? 'unclear' : v === 1 ? 'faithful' : 'unfaithful');
        labelLines.push(
          JSON.stringify({
            dataset,
            summary_id: summaryId,
            sentence_index: index,
            label: human(t),
            annotator: 'ann-1',
          }),
        );
        if (i % 5 === 0)
          labelLines.push(
            JSON.stringify({
              dataset,
              summary_id: summaryId,
              sentence_index: index,
              label: human(random() < 0.1 ? 1 - t : t),
              annotator: 'ann-2',
            }),
          );
      }
    });
  }

  const db = openProjectDatabase(Database, path, { create: true });
  const started = performance.now();
  try {
    const repo = new Repository(db);
    const upload = (name: string, lines: string[]) => ({
      type: 'upload' as const,
      name,
      text: `${lines.join('\n')}\n`,
    });
    await runImport(repo, { source: upload('summaries.jsonl', summaryLines), as: 'summaries' });
    if (labelLines.length > 0) await runImport(repo, { source: upload('labels.jsonl', labelLines), as: 'labels' });
    if (predictionLines.length > 0)
      await runImport(repo, { source: upload('predictions.jsonl', predictionLines), as: 'predictions' });
  } finally {
    db.close();
  }
  return {
    summaries: options.summaries,
    sentences,
    labels: labelLines.length,
    predictions: predictionLines.length,
    importSeconds: (performance.now() - started) / 1000,
  };
}

interface Run {
  seconds: number;
  load: string;
  bytes: number;
}

function analyzeOnce(project: string, bootstrap: number, threads: number): Run {
  const started = performance.now();
  const result = spawnSync(
    process.execPath,
    builtLoupeArgs([
      'analyze',
      '--project',
      project,
      '--json',
      '--bootstrap',
      String(bootstrap),
      '--threads',
      String(threads),
      '--timings',
    ]),
    {
      cwd: REPO,
      encoding: 'utf8',
      maxBuffer: 512 * 1024 * 1024,
    },
  );
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`loupe analyze failed (${result.status}):\n${result.stderr}`);
  JSON.parse(result.stdout);
  return { seconds, load: result.stderr.trim(), bytes: Buffer.byteLength(result.stdout) };
}

/** Node + tsx start-up and loading the CLI's modules, without an analysis (what every command pays). */
function startupSeconds(): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, builtLoupeArgs(['--version']), { cwd: REPO, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(result.stderr);
  return (performance.now() - started) / 1000;
}

async function main(): Promise<void> {
  const kept = process.env.BENCH_PROJECT;
  if (kept) mkdirSync(kept, { recursive: true });
  const dir = kept ?? mkdtempSync(join(tmpdir(), 'loupe-bench-analyze-'));
  const runs = Number(process.env.BENCH_RUNS ?? 3);
  const sizes = process.env.BENCH_SIZES?.split(',').map(Number);
  try {
    console.log(
      `bench:analyze  loupe analyze --json --bootstrap 2000 as a child process (npm run loupe: the bundled CLI), median of ${runs} runs (this machine: ${(await import('node:os')).cpus().length} cores)`,
    );
    for (const [size, aim, aim2] of [
      [20_000, 10, 3.5],
      [1_000, 1, 1],
    ] as const) {
      if (sizes && !sizes.includes(size)) continue;
      const project = join(dir, `bench-${size}.loupe`);
      if (kept && existsSync(project))
        console.log(`  ${size.toLocaleString('en-US')} summaries: the project ${project}`);
      else {
        const counts = await buildSyntheticProject(project, { summaries: size, annotated: 100, judges: 5 });
        console.log(
          `  ${size.toLocaleString('en-US')} summaries (${counts.sentences.toLocaleString('en-US')} sentences, ${counts.predictions.toLocaleString('en-US')} predictions, ${counts.labels} human labels; imported in ${counts.importSeconds.toFixed(1)} s)`,
        );
      }
      // One thread, then two, alternating within each round so both see the same machine load.
      const byThreads = new Map<number, Run[]>([
        [1, []],
        [2, []],
      ]);
      for (let round = 0; round < runs; round += 1)
        for (const [threads, list] of byThreads) list.push(analyzeOnce(project, 2000, threads));
      const medians = new Map<number, Run>();
      for (const [threads, list] of byThreads) {
        const sorted = [...list].sort((a, b) => a.seconds - b.seconds);
        const median = sorted[Math.floor(sorted.length / 2)]!;
        medians.set(threads, median);
        console.log(
          `    --threads ${threads}: end to end ${median.seconds.toFixed(2)} s (runs ${list.map((t) => t.seconds.toFixed(2)).join(', ')} s; aim < ${threads === 2 ? aim2 : aim} s); ${median.load}; JSON ${(median.bytes / 1024).toFixed(0)} kB`,
        );
      }
      console.log(`    two threads / one: ${(medians.get(2)!.seconds / medians.get(1)!.seconds).toFixed(2)}`);
    }
    console.log(`  start-up alone (loupe --version): ${startupSeconds().toFixed(2)} s`);
  } finally {
    if (!kept) rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void main();
