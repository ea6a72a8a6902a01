/**
 * The `loupe` command line: the same services as the app, for scripts and the web harness.
 *   npm run --silent loupe -- serve --project P [--port N] [--annotator NAME]
 *   npm run --silent loupe -- import FILE --project P [--as KIND] [--dataset NAME]
 *   npm run --silent loupe -- sample --project P --dataset D --n 25 --seed 0 [--annotator NAME | --annotators A,B,C [--overlap 0.2]]
 *   npm run --silent loupe -- export --project P --out FILE.jsonl|.csv [--history] [--dataset D]
 *   npm run --silent loupe -- datasets --project P
 *   npm run --silent loupe -- export --project P --predictions --out FILE.jsonl|.csv [--dataset D]
 *   npm run --silent loupe -- export --project P --review --out FILE.jsonl|.csv [--dataset D] [--card CARD.json]
 *   npm run --silent loupe -- review --project P --queue Q --dataset D …, review-table, corrections (electron/cli/review.ts)
 *   npm run --silent loupe -- judges add|list|remove|preview … and judge --project P --judge NAME (electron/cli/judges.ts)
 *   npm run --silent loupe -- merge --project P OTHER.loupe… [--json] (electron/cli/merge.ts)
 *   npm run --silent loupe -- analyze --project P [--json] [--markdown [FILE]] [--bootstrap N] [--seed S] [--cap C] [--dataset D] (electron/cli/analyze.ts)
 */
import Database from 'better-sqlite3';
import { Command, InvalidArgumentError, Option } from 'commander';
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { ApiError } from '../../shared/api';
import { LOUPE_VERSION } from '../../shared/domain';
import { IMPORT_KINDS, ImportValidationError, formatProblem, type ImportKind } from '../../shared/formats/types';
import { createCore, type Core } from '../core/index';
import { buildCardExport, buildExport } from '../core/export/build';
import { ImportCancelled, runImport, type ImportProgress } from '../core/imports/run';
import { startServer } from '../serve/server';
import { DEMO_DIR, RENDERER_OUT, stateDir } from './paths';
import { ensureRendererBuilt } from './renderer-build';
import { registerJudgeCommands } from './judges';
import { registerAnalyzeCommand } from './analyze';
import { registerReviewCommands } from './review';
import { registerMergeCommand } from './merge';

function makeCore(web: boolean, annotator?: string): Core {
  return createCore({
    Database,
    stateDir: stateDir(),
    demoDir: DEMO_DIR,
    host: web ? 'web' : 'electron',
    fileDialogs: false,
    // loupe serve answers a browser: it never reads paths the page names; CLI commands do.
    diskPaths: !web,
    canSwitchProjects: false,
    annotator: annotator ?? null,
  });
}

function openExisting(core: Core, path: string): void {
  if (!existsSync(path)) throw new UsageError(`No project at ${path}. Create one with: loupe import FILE --project ${path}`);
  core.openProject(path);
}

class UsageError extends Error {}

const integer = (name: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`${name} must be a whole number ≥ 0`);
  return n;
};

/** A folder import can use dozens of files: list them by folder beyond a handful. */
export function describeFiles(files: readonly string[]): string {
  if (files.length <= 8) return files.join(', ');
  const byFolder = new Map<string, number>();
  for (const file of files) {
    const slash = file.lastIndexOf('/');
    const folder = slash === -1 ? '' : file.slice(0, slash + 1);
    byFolder.set(folder, (byFolder.get(folder) ?? 0) + 1);
  }
  // Big folders (article files) by count; the few telling parts by name.
  return [...byFolder]
    .flatMap(([folder, n]) => (n > 5 ? [`${folder} (${n} files)`] : files.filter((f) => f.startsWith(folder) && !f.slice(folder.length).includes('/'))))
    .join(', ');
}

function progressPrinter(): (p: ImportProgress) => void {
  let last = 0;
  return (p) => {
    const now = Date.now();
    if (now - last < 200 && p.done !== p.total) return;
    last = now;
    const line = `${p.phase} ${p.done}/${p.total}`;
    if (process.stderr.isTTY) process.stderr.write(`\r\x1b[2K${line}`);
    else process.stderr.write(`${line}\n`);
  };
}

const program = new Command('loupe').version(LOUPE_VERSION).description('Blind sentence-level faithfulness annotation');

program
  .command('serve')
  .description('serve the UI in a browser at 127.0.0.1 (prints the URL with its token first)')
  .option('--project <path>', 'project file (created when missing; default: the demo project)')
  .option('--port <n>', 'port (default: a free one)', integer('--port'))
  .option('--annotator <name>', 'preselect the annotator')
  .action(async (opts: { project?: string; port?: number; annotator?: string }) => {
    ensureRendererBuilt();
    const core = makeCore(true, opts.annotator);
    if (opts.project) {
      const path = resolve(opts.project);
      if (existsSync(path)) core.openProject(path);
      else core.createProject(path);
    } else {
      process.stderr.write('No --project given: opening the demo project.\n');
      await core.openDemo();
    }
    const running = await startServer({ handlers: core.handlers, staticDir: RENDERER_OUT, ...(opts.port !== undefined ? { port: opts.port } : {}) });
    process.stdout.write(`${running.url}\n`);
    process.stderr.write(`Loupe ${LOUPE_VERSION} serving ${core.current()?.path} — open the URL above (it carries the access token).\n`);
    const stop = () => {
      void running.close().then(() => {
        core.close();
        process.exit(0);
      });
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });

program
  .command('import')
  .description('import a file or folder into a project (created when missing)')
  .argument('<file>', 'file or folder')
  .requiredOption('--project <path>', 'project file')
  .addOption(new Option('--as <kind>', 'format (detected when unambiguous)').choices([...IMPORT_KINDS]))
  .option('--dataset <name>', 'dataset name')
  .action(async (file: string, opts: { project: string; as?: ImportKind; dataset?: string }) => {
    const core = makeCore(false);
    const path = resolve(opts.project);
    if (existsSync(path)) core.openProject(path);
    else core.createProject(path);
    const controller = new AbortController();
    process.once('SIGINT', () => controller.abort());
    const result = await runImport(
      core.repository(),
      { source: { type: 'path', path: resolve(file) }, ...(opts.as ? { as: opts.as } : {}), ...(opts.dataset ? { dataset: opts.dataset } : {}) },
      progressPrinter(),
      controller.signal,
    );
    if (process.stderr.isTTY) process.stderr.write('\n');
    process.stdout.write(
      `Imported ${result.kind} into ${path}: ${result.summariesAdded} summaries added (${result.summariesUnchanged} already there), ` +
        `${result.unitsAdded} sentences, ${result.labelsAdded} labels added (${result.labelsUnchanged} already there)` +
        `${result.predictionsKept || result.kind === 'predictions' ? `, ${result.predictionsKept} judge predictions added` : ''}.\n` +
        `Datasets: ${result.datasets.join(', ')}\nFiles used: ${describeFiles(result.filesUsed)}\n` +
        result.notes.map((n) => `Note: ${n}\n`).join(''),
    );
    core.close();
  });

program
  .command('sample')
  .description('draw a reproducible uniform sample of summaries to annotate')
  .requiredOption('--project <path>', 'project file')
  .requiredOption('--dataset <name>', 'dataset')
  .option('--n <n>', 'how many summaries', integer('--n'), 25)
  .option('--seed <s>', 'seed', integer('--seed'), 0)
  .option('--annotator <name>', 'assign the batch to this annotator')
  .option('--annotators <a,b,c>', 'split the batch among these annotators (comma-separated)')
  .option('--overlap <share>', 'share of the batch (0–1) labeled by two of the --annotators (e.g. 0.2)')
  .action(async (opts: { project: string; dataset: string; n: number; seed: number; annotator?: string; annotators?: string; overlap?: string }) => {
    const annotators = opts.annotators
      ?.split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '');
    if (opts.annotators !== undefined && (annotators ?? []).length === 0) throw new UsageError('--annotators needs at least one name');
    if (annotators && opts.annotator) throw new UsageError('give --annotator (the whole batch) or --annotators (split), not both');
    const overlap = opts.overlap === undefined ? undefined : Number(opts.overlap);
    if (overlap !== undefined && !(opts.overlap!.trim() !== '' && Number.isFinite(overlap) && overlap >= 0 && overlap <= 1)) {
      throw new UsageError(`--overlap must be a number from 0 to 1, got "${opts.overlap}"`);
    }
    if (overlap !== undefined && overlap > 0 && !annotators) throw new UsageError('--overlap needs --annotators');
    const core = makeCore(false);
    openExisting(core, resolve(opts.project));
    const batch = await core.handlers['sampling.draw']({
      dataset: opts.dataset,
      n: opts.n,
      seed: opts.seed,
      ...(opts.annotator ? { annotator: opts.annotator } : {}),
      ...(annotators ? { annotators, overlap: overlap ?? 0 } : {}),
    });
    const assigned = batch.assignments.map((a) => `${a.annotator}: ${a.summaryIds.join(' ')}`).join('\n');
    process.stdout.write(
      `Batch ${batch.batch} of ${batch.dataset} (seed ${batch.seed}, hash-rank-v1): ${batch.summaryIds.length} summaries` +
        `${batch.exhausted ? ` (only ${batch.summaryIds.length} unsampled were left)` : ''}\n${batch.summaryIds.join('\n')}\n` +
        (assigned ? `Assigned (overlap-balanced-v1, overlap ${batch.overlap ?? 0}):\n${assigned}\n` : ''),
    );
    core.close();
  });

program
  .command('export')
  .description('write the labeled sentences (one row per sentence and annotator)')
  .requiredOption('--project <path>', 'project file')
  .requiredOption('--out <file>', 'output .jsonl or .csv')
  .option('--history', 'include each label history')
  .option('--predictions', 'write the judge predictions instead (one row per sentence and judge, with the config hash)')
  .option('--review', 'write the review results instead (one row per review decision)')
  .option('--card <file>', 'also write the dataset card (JSON: counts, who, when, version, splitters, judges without keys)')
  .option('--dataset <name>', 'only this dataset')
  .action((opts: { project: string; out: string; history?: boolean; predictions?: boolean; review?: boolean; card?: string; dataset?: string }) => {
    if (opts.predictions && opts.review) throw new UsageError('--predictions and --review write different files: give one');
    const ext = extname(opts.out).toLowerCase();
    if (ext !== '.jsonl' && ext !== '.csv') throw new UsageError('--out must end in .jsonl or .csv');
    const core = makeCore(false);
    const project = resolve(opts.project);
    openExisting(core, project);
    const file = buildExport(
      core.repository(),
      {
        format: ext === '.csv' ? 'csv' : 'jsonl',
        history: opts.history ?? false,
        predictions: opts.predictions ?? false,
        review: opts.review ?? false,
        ...(opts.dataset ? { dataset: opts.dataset } : {}),
      },
      core.current()!.name,
    );
    const temp = `${opts.out}.tmp`;
    writeFileSync(temp, file.content);
    renameSync(temp, opts.out);
    process.stdout.write(`Wrote ${file.rows} rows to ${opts.out}\n`);
    if (opts.card) {
      const card = buildCardExport(core.repository(), opts.dataset ? { dataset: opts.dataset } : {}, core.current()!.name);
      writeFileSync(`${opts.card}.tmp`, card.content);
      renameSync(`${opts.card}.tmp`, opts.card);
      process.stdout.write(`Wrote the dataset card to ${opts.card}\n`);
    }
    core.close();
  });

program
  .command('datasets')
  .description('list the datasets of a project')
  .requiredOption('--project <path>', 'project file')
  .action(async (opts: { project: string }) => {
    const core = makeCore(false);
    openExisting(core, resolve(opts.project));
    for (const d of await core.handlers['datasets.list']({})) {
      process.stdout.write(`${d.name}\t${d.summaries} summaries\t${d.units} sentences\t${d.documentsMissing} documents missing\t${d.sampled} sampled\n`);
    }
    core.close();
  });

registerJudgeCommands(program, {
  open: (project) => {
    const core = makeCore(false);
    openExisting(core, resolve(project));
    return core;
  },
  usage: (message) => new UsageError(message),
});

registerAnalyzeCommand(program, {
  open: (project) => {
    const core = makeCore(false);
    openExisting(core, resolve(project));
    return core;
  },
  usage: (message) => new UsageError(message),
});

registerReviewCommands(program, {
  open: (project) => {
    const core = makeCore(false);
    openExisting(core, resolve(project));
    return core;
  },
  usage: (message) => new UsageError(message),
});

registerMergeCommand(program, {
  open: (project) => {
    const core = makeCore(false);
    openExisting(core, resolve(project));
    return core;
  },
  usage: (message) => new UsageError(message),
});

program.parseAsync(process.argv).catch((err: unknown) => {
  if (err instanceof ImportValidationError) {
    process.stderr.write(`\n${err.message.split('\n')[0]}\n${err.problems.map((p) => `  ${formatProblem(p)}`).join('\n')}\n`);
    process.exit(1);
  }
  if (err instanceof ImportCancelled || err instanceof ApiError || err instanceof UsageError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(err instanceof UsageError ? 2 : 1);
  }
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
