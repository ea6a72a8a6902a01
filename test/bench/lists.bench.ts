/**
 * npm run bench:lists — every list-returning contract method a view or the CLI calls, timed
 * through `dispatch` as a host calls it (input and output validation included) on a project of
 * BENCH_SUMMARIES summaries (default 100,000; HaluEval's shape, two summaries per document):
 * claim sets on nine summaries in ten, key-fact sets on nine documents in ten, one sample of the
 * whole dataset in one person's queue (their first summaries labeled), three imported label sets
 * on the first summaries (two of them on the same ones), two judges' predictions on the first sentence of every summary.
 * Prints each call's time (median of three when one takes under two seconds) and answer size
 * (bytes of its JSON); a paged list also prints its whole cursor walk.
 * BENCH_PROJECT=FILE keeps the project built there, and a later run with the same FILE times the
 * calls on it without building it again; BENCH_ONLY=PREFIX times only the methods it starts
 * (for profiling one call). annotation.reveal is timed last, on a copy of the project (it writes).
 * A benchmark, not a test: it prints figures and asserts nothing.
 */
import Database from 'better-sqlite3';
import { once } from 'node:events';
import { copyFileSync, createWriteStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openProjectDatabase } from '../../db/open';
import { Repository } from '../../db/repository';
import { dispatch, type Core } from '../../electron/core/index';
import { webCore } from '../helpers/web-core';
import { runImport } from '../../electron/core/imports/run';
import type { ApiMethod } from '../../shared/api';
import { halulikeRows } from './generate';

const SUMMARIES = Number(process.env.BENCH_SUMMARIES ?? 100_000);
const DATASET = 'halulike';
/** Imported label sets (read-only annotators). */
const ANNOTATORS = ['ann-1', 'ann-2', 'ann-3'];
/** The person whose queue is one sample of the whole dataset. */
const PERSON = 'person-1';
const PERSON_DONE = 50;
const LABELED = Math.min(2_000, SUMMARIES);
const JUDGES = ['judge-a', 'judge-b'];
/** A summary deep in the person's queue (keys are import order; the queue is in draw order). */
const DEEP_KEY = Math.floor(SUMMARIES * 0.7);

async function writeLines(path: string, lines: Iterable<unknown>): Promise<void> {
  const out = createWriteStream(path);
  for (const line of lines) if (!out.write(JSON.stringify(line) + '\n')) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

function* labelLines(): Generator<object> {
  for (let i = 0; i < LABELED; i += 1)
    for (const [a, annotator] of ANNOTATORS.entries()) {
      // ann-1 and ann-2 label the same summaries (the human-human queue); ann-3 every third.
      if (a === 2 && i % 3 !== 0) continue;
      yield {
        dataset: DATASET,
        summary_id: `s-${i}`,
        sentence_index: 0,
        label: (i + a) % 7 === 0 ? 'unfaithful' : 'faithful',
        annotator,
      };
    }
}

function* predictionLines(): Generator<object> {
  for (let i = 0; i < SUMMARIES; i += 1)
    for (const [j, judge] of JUDGES.entries()) {
      const hard = (i + j * (i % 5 === 0 ? 1 : 0)) % 11 === 0 ? 0 : 1;
      yield { dataset: DATASET, summary_id: `s-${i}`, sentence_index: 0, judge, hard, soft: hard };
    }
}

/** Claim sets on nine summaries in ten, key-fact sets on nine documents in ten, through the set repository. */
function addSets(repo: Repository): { claimSets: number; keyFactSets: number } {
  let claimSets = 0;
  let keyFactSets = 0;
  const made = {
    source: 'imported',
    maker: 'import:bench',
    makerVersion: '1',
    basedOnId: null,
    createdBy: null,
    note: null,
    importKey: null,
    importId: null,
  } as const;
  repo.transaction(() => {
    const seenDocuments = new Set<number>();
    for (const { key } of repo.exportSummaryKeys(DATASET)) {
      const info = repo.corpus.summaryInfo(key)!;
      if (key % 10 !== 3) {
        const sentences = repo.corpus.sentences(key);
        repo.sets.insertClaimSet(key, {
          ...made,
          items: sentences.flatMap((u) => [
            { sentenceUnitId: u.unitId, text: `${u.text.slice(0, 40)} (claim a)`, from: [] },
            { sentenceUnitId: u.unitId, text: `${u.text.slice(20, 60)} (claim b)`, from: [] },
          ]),
        });
        claimSets += 1;
      }
      if (!seenDocuments.has(info.documentKey)) {
        seenDocuments.add(info.documentKey);
        if (info.documentKey % 10 !== 7) {
          repo.sets.insertKeyFactSet(info.documentKey, {
            ...made,
            items: Array.from({ length: 5 }, (_, f) => ({ text: `Key fact ${f + 1} of ${info.docId}.`, from: [] })),
          });
          keyFactSets += 1;
        }
      }
    }
  });
  return { claimSets, keyFactSets };
}

interface Timing {
  ms: number;
  bytes: number;
  value: unknown;
}

async function timeCall(core: Core, method: ApiMethod, input: unknown): Promise<Timing> {
  const once = async (): Promise<Timing> => {
    const started = performance.now();
    const envelope = await dispatch(core.handlers, method, input);
    const ms = performance.now() - started;
    if (!envelope.ok) throw new Error(`${method}: ${envelope.error.message}`);
    return { ms, bytes: Buffer.byteLength(JSON.stringify(envelope.value)), value: envelope.value };
  };
  const first = await once();
  if (first.ms >= 2_000) return first;
  const runs = [first, await once(), await once()].sort((a, b) => a.ms - b.ms);
  return runs[1]!;
}

const size = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} kB`;

function report(label: string, t: Timing, note = ''): void {
  const v = t.value as { items?: unknown[]; total?: number } | unknown[];
  const rows = Array.isArray(v) ? `${v.length} rows` : Array.isArray(v?.items) ? `${v.items.length} items` : '';
  const total = !Array.isArray(v) && typeof v?.total === 'number' ? ` of ${v.total}` : '';
  console.log(
    `  ${label.padEnd(60)} ${t.ms.toFixed(1).padStart(8)} ms  ${size(t.bytes).padStart(9)}  ${rows}${total}${note ? `  ${note}` : ''}`,
  );
}

/** A paged list's whole cursor walk: pages, mean and slowest page, bytes in all. */
async function walk(core: Core, method: ApiMethod, input: Record<string, unknown>): Promise<void> {
  let cursor: string | null | undefined = undefined;
  const times: number[] = [];
  let bytes = 0;
  let items = 0;
  do {
    const started = performance.now();
    const envelope = await dispatch(core.handlers, method, { ...input, ...(cursor ? { cursor } : {}) });
    times.push(performance.now() - started);
    if (!envelope.ok) throw new Error(`${method}: ${envelope.error.message}`);
    const page = envelope.value as { items: unknown[]; nextCursor: string | null };
    bytes += Buffer.byteLength(JSON.stringify(page));
    items += page.items.length;
    cursor = page.nextCursor;
  } while (cursor);
  const sum = times.reduce((a, b) => a + b, 0);
  console.log(
    `  ${`${method} walk ${JSON.stringify(input)}`.padEnd(60)} ${sum.toFixed(0).padStart(8)} ms  ${size(bytes).padStart(9)}  ${times.length} pages, ${items} items, mean ${(sum / times.length).toFixed(1)} ms, slowest ${Math.max(...times).toFixed(1)} ms`,
  );
}

/**
 * annotation.reveal writes, so it runs on a copy of the project (a kept BENCH_PROJECT stays
 * unrevealed), once: the first call records a reveal for each unfinished summary of the person's
 * queue, the second finds none left.
 */
async function timeReveal(dir: string, project: string): Promise<void> {
  const copy = join(dir, 'reveal.loupe');
  for (const suffix of ['', '-wal']) if (existsSync(project + suffix)) copyFileSync(project + suffix, copy + suffix);
  const core = openCore(dir, copy);
  try {
    const input = { annotator: PERSON, view: 'analysis', confirmFor: PERSON };
    for (const note of ['records', 'again, none left']) {
      const started = performance.now();
      const envelope = await dispatch(core.handlers, 'annotation.reveal', input);
      const ms = performance.now() - started;
      if (!envelope.ok) throw new Error(`annotation.reveal: ${envelope.error.message}`);
      const value = envelope.value as { revealed: number };
      report(
        `annotation.reveal ${JSON.stringify(input)}`,
        { ms, bytes: Buffer.byteLength(JSON.stringify(value)), value },
        `${note}: ${value.revealed} reveals`,
      );
    }
  } finally {
    core.close();
  }
}

function openCore(dir: string, project: string): Core {
  const core = webCore(dir);
  core.openProject(project);
  return core;
}

/** Builds the bench project at `project` (files in `dir`); returns what it holds, in words. */
async function buildProject(dir: string, project: string): Promise<string> {
  const summaries = join(dir, 'summaries.jsonl');
  const labels = join(dir, 'labels.jsonl');
  const predictions = join(dir, 'predictions.jsonl');
  await writeLines(summaries, halulikeRows(SUMMARIES));
  await writeLines(labels, labelLines());
  await writeLines(predictions, predictionLines());

  const built = performance.now();
  const db = openProjectDatabase(Database, project, { create: true });
  const repo = new Repository(db);
  await runImport(repo, { source: { type: 'path', path: summaries } });
  await runImport(repo, { source: { type: 'path', path: labels }, as: 'labels' });
  await runImport(repo, { source: { type: 'path', path: predictions }, as: 'predictions' });
  const sets = addSets(repo);
  db.close();

  const core = openCore(dir, project);
  try {
    await core.handlers['sampling.draw']({ dataset: DATASET, n: SUMMARIES, seed: 1, annotator: PERSON });
    // The person labels every sentence of their first summaries (the queue resumes after them).
    const queue = await core.handlers['annotation.queue']({ annotator: PERSON });
    for (const item of queue.items.slice(0, PERSON_DONE)) {
      const summary = await core.handlers['annotation.load']({ key: item.key, annotator: PERSON });
      for (const unit of summary.units)
        await core.handlers['annotation.record']({
          unitId: unit.id,
          annotator: PERSON,
          state: { label: 'faithful', errorType: null, note: null },
          timeSpentMs: 3_000,
          cause: 'label',
        });
    }
  } finally {
    core.close();
  }
  return (
    `${SUMMARIES.toLocaleString('en-US')} summaries, ${sets.claimSets.toLocaleString('en-US')} claim sets, ${sets.keyFactSets.toLocaleString('en-US')} key-fact sets, ` +
    `${JUDGES.length} judges, ${ANNOTATORS.length} annotators; built in ${((performance.now() - built) / 1000).toFixed(1)} s`
  );
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-bench-lists-'));
  try {
    const kept = process.env.BENCH_PROJECT;
    const project = kept ?? join(dir, 'bench.loupe');
    const holds = kept && existsSync(kept) ? `the project ${kept}` : await buildProject(dir, project);
    const core = openCore(dir, project);
    console.log(`bench:lists  ${holds}`);
    console.log(`  ${'method (input)'.padEnd(60)} ${'time'.padStart(11)}  ${'answer'.padStart(9)}`);

    const calls: Array<[ApiMethod, Record<string, unknown>]> = [
      ['datasets.list', {}],
      ['annotators.list', {}],
      ['annotators.activity', {}],
      ['sampling.list', {}],
      ['annotation.queue', { annotator: PERSON }],
      ['annotation.queue', { annotator: PERSON, around: DEEP_KEY }],
      ['annotation.queue', { annotator: PERSON, position: Math.floor(SUMMARIES * 0.9) }],
      ['annotation.queue', { annotator: PERSON, before: String(DEEP_KEY) }],
      ['annotation.queue', { annotator: PERSON, dataset: DATASET }],
      ['annotation.next', { annotator: PERSON, after: DEEP_KEY }],
      ['annotation.next', { annotator: PERSON, after: null }],
      ['annotation.revealStatus', { annotator: PERSON }],
      ['claims.list', { dataset: DATASET }],
      ['claims.list', {}],
      ['claims.list', { dataset: DATASET, search: 's-9999' }],
      ['claims.list', { dataset: DATASET, state: 'without' }],
      ['keyfacts.list', { dataset: DATASET }],
      ['keyfacts.list', {}],
      ['keyfacts.list', { dataset: DATASET, search: 'doc-4999' }],
      ['review.queue', { queue: 'suspicious', dataset: DATASET }],
      ['review.queue', { queue: 'human-judge', dataset: DATASET }],
      ['review.queue', { queue: 'judges-split', dataset: DATASET }],
      ['review.queue', { queue: 'human-human', dataset: DATASET }],
      ['review.table', {}],
      ['proposals.list', {}],
      ['judges.list', {}],
      ['judges.runs', {}],
      ['systems.list', {}],
    ];
    const only = process.env.BENCH_ONLY;
    for (const [method, input] of calls.filter(([m]) => only === undefined || m.startsWith(only)))
      report(`${method} ${JSON.stringify(input)}`, await timeCall(core, method, input));

    const paged = (await dispatch(core.handlers, 'claims.list', { dataset: DATASET })) as {
      ok: boolean;
      value?: unknown;
    };
    if (only === undefined || only.startsWith('annotation'))
      await walk(core, 'annotation.queue', { annotator: PERSON, limit: 5_000 });
    if (
      paged.ok &&
      !Array.isArray(paged.value) &&
      (only === undefined || only.startsWith('claims') || only.startsWith('keyfacts'))
    ) {
      await walk(core, 'claims.list', { dataset: DATASET, limit: 5_000 });
      await walk(core, 'keyfacts.list', { dataset: DATASET, limit: 5_000 });
    }
    core.close();
    if (only === undefined || 'annotation.reveal'.startsWith(only)) await timeReveal(dir, project);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
