/**
 * The `loupe` command line: the same services as the app, for scripts and the web harness. Every
 * subcommand (serve's own startup aside) is a host like IPC and HTTP: it turns its options into the
 * contract's input and calls `dispatch` (electron/cli/client.ts), so it refuses exactly what the
 * contract refuses, with the contract's message (exit 1), and stores nothing then. Exit 2: a
 * mistake in the command line itself (missing option, non-number, wrong --out extension).
 *   npm run --silent loupe -- serve --project P [--port N] [--annotator NAME]… [--allow-key-env VAR]… (stdout: one annotator link per --annotator, then the lead link)
 *   npm run --silent loupe -- import FILE --project P [--as KIND] [--dataset NAME]
 *   npm run --silent loupe -- sample --project P --dataset D --n 25 --seed 0 [--annotator NAME | --annotators A,B,C [--overlap 0.2]]
 *   npm run --silent loupe -- export --project P --out FILE.jsonl|.csv [--history] [--dataset D] [--raw-csv]
 *   npm run --silent loupe -- datasets --project P
 *   npm run --silent loupe -- export --project P --predictions --out FILE.jsonl|.csv [--dataset D]
 *   npm run --silent loupe -- export --project P --review --out FILE.jsonl|.csv [--dataset D] [--card CARD.json]
 *   npm run --silent loupe -- review --project P --queue Q --dataset D …, review-table, corrections (electron/cli/review.ts)
 *   npm run --silent loupe -- judges add|list|remove|preview … and judge --project P --judge NAME (electron/cli/judges.ts)
 *   npm run --silent loupe -- merge --project P OTHER.loupe… [--json] (electron/cli/merge.ts)
 *   npm run --silent loupe -- analyze --project P [--json] [--markdown [FILE]] [--bootstrap N] [--seed S] [--cap C] [--threads N] [--dataset D] (electron/cli/analyze.ts)
 *   npm run --silent loupe -- plan --project P [--dataset D] [--target W] [--json] (electron/cli/plan.ts)
 *   npm run --silent loupe -- proposals list|accept ID|decline ID --project P … (electron/cli/proposals.ts)
 *   npm run --silent loupe -- claims list|keyfacts list --project P [--search T] [--limit N] [--cursor C | --all] … (electron/cli/sets.ts)
 */
import { Command, InvalidArgumentError } from 'commander';
import { existsSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { type AnnotatorLink, type ApiInput, type Job } from '../../shared/api';
import { LIMITS } from '../../shared/limits';
import { LOUPE_VERSION } from '../../shared/domain';
import { ASSIGNMENT_ALGORITHM } from '../../shared/sampling';
import { IMPORT_KINDS, type ImportKind } from '../../shared/formats/types';
import { startServer } from '../serve/server';
import { createLinkRegistry } from '../serve/links';
import { dispatch, writeTextAtomically } from '../core/index';
import { RENDERER_OUT } from './paths';
import { ensureRendererBuilt } from './renderer-build';
import { Refusal, UsageError, makeCore, number, projectClient, sleep } from './client';
import { registerJudgeCommands } from './judges';
import { registerAnalyzeCommand } from './analyze';
import { registerPlanCommand } from './plan';
import { registerReviewCommands } from './review';
import { registerMergeCommand } from './merge';
import { registerAccuracyCommands } from './accuracy';
import { registerProposalsCommands } from './proposals';
import { registerSetListCommands } from './sets';
import { listOption, refuseRepeatedOptions } from './options';
import { describeSkippedLabels, describeSkippedPredictions, importedParts } from '../../shared/formats/import-summary';

/** serve's own startup: a TCP port (not a contract input). */
const port = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65_535)
    throw new InvalidArgumentError('--port must be a whole number from 0 to 65535');
  return n;
};

/** serve's own startup: a variable name for --allow-key-env (the judge config's own rule). */
const keyEnvName = (value: string) => {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(value))
    throw new InvalidArgumentError('--allow-key-env takes an environment variable name such as OPENAI_API_KEY');
  return value;
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
    .flatMap(([folder, n]) =>
      n > 5
        ? [`${folder} (${n} files)`]
        : files.filter((f) => f.startsWith(folder) && !f.slice(folder.length).includes('/')),
    )
    .join(', ');
}

/** The import's progress line from the polled job: at most every 200 ms, and always its end. */
function progressPrinter(): (job: Job) => void {
  let last = 0;
  let printed = '';
  return (job) => {
    const line = `${job.phase} ${job.done}/${job.total}`;
    const now = Date.now();
    if (line === printed || (now - last < 200 && job.done !== job.total)) return;
    last = now;
    printed = line;
    if (process.stderr.isTTY) process.stderr.write(`\r\x1b[2K${line}`);
    else process.stderr.write(`${line}\n`);
  };
}

/**
 * The whole command line, built without running it: the entry point (electron/cli/loupe.ts) parses
 * argv with it, and the tests walk its registered commands and options.
 */
export function buildProgram(): Command {
  const program = new Command('loupe')
    .version(LOUPE_VERSION)
    .description('Blind sentence-level faithfulness annotation');
  // Mistakes in the command line itself (a missing option, a non-number) exit 2; the contract's refusals exit 1.
  program.exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2));

  program
    .command('serve')
    .description(
      'serve the UI in a browser at 127.0.0.1 (prints the links with their tokens first: one per --annotator, then the lead link)',
    )
    .option('--project <path>', 'project file (created when missing; default: the demo project)')
    .option('--port <n>', 'port (default: a free one)', port)
    .addOption(
      listOption(
        '--annotator <name>',
        'hand out an annotator link for this person (repeatable): it can only annotate, as NAME',
      ).default([]),
    )
    .addOption(
      listOption(
        '--allow-key-env <name>',
        'let an endpoint judge read its API key from this environment variable (repeatable; default: none, since whoever holds the lead link configures judges)',
        keyEnvName,
      ).default([]),
    )
    .action(async (opts: { project?: string; port?: number; annotator: string[]; allowKeyEnv: string[] }) => {
      ensureRendererBuilt();
      const links = createLinkRegistry();
      const core = makeCore({ web: true, links, allowedKeyEnv: new Set(opts.allowKeyEnv) });
      if (opts.project) {
        const path = resolve(opts.project);
        if (existsSync(path)) core.openProject(path);
        else core.createProject(path);
      } else {
        process.stderr.write('No --project given: opening the demo project.\n');
        await core.openDemo();
      }
      const running = await startServer({
        handlers: core.handlers,
        staticDir: RENDERER_OUT,
        links,
        changes: core.onChange,
        ...(opts.port !== undefined ? { port: opts.port } : {}),
      });
      // Through the contract, as the lead: an imported label set's name is refused like any call would be.
      const handedOut: AnnotatorLink[] = [];
      for (const name of opts.annotator) {
        const created = await dispatch(core.handlers, 'links.create', { annotator: name });
        if (!created.ok) {
          await running.close();
          core.close();
          throw new Refusal(created.error);
        }
        handedOut.push(created.value as AnnotatorLink);
      }
      // stdout: the annotator links (one line each, in --annotator order), then the lead link last.
      process.stdout.write(handedOut.map((l) => `${l.url}\n`).join('') + `${running.url}\n`);
      const legend = handedOut.map(
        (l, i) => `line ${i + 1}: ${l.annotator}'s annotator link (annotation only, as ${l.annotator})`,
      );
      process.stderr.write(
        `Loupe ${LOUPE_VERSION} serving ${core.current()?.path} — open a link above (each carries its access token).\n` +
          (legend.length > 0
            ? `${legend.join('\n')}\nline ${legend.length + 1}: the lead link (everything; hand it to no annotator)\n`
            : '') +
          (opts.allowKeyEnv.length > 0
            ? `Endpoint judges may read their API key from: ${opts.allowKeyEnv.map((n) => `$${n}`).join(', ')}\n`
            : ''),
      );
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
    .option('--as <kind>', `format: ${IMPORT_KINDS.join(', ')} (detected when unambiguous)`)
    .option('--dataset <name>', 'dataset name')
    .action(async (file: string, opts: { project: string; as?: string; dataset?: string }) => {
      const path = resolve(opts.project);
      const client = projectClient(path, { create: true });
      const tty = process.stderr.isTTY === true;
      let jobId: string | null = null;
      let cancelling = false;
      const onSigint = () => {
        if (cancelling) process.exit(130); // a second Ctrl-C: leave at once
        cancelling = true;
        if (jobId) void client.call('jobs.cancel', { jobId }).catch(() => undefined);
      };
      process.on('SIGINT', onSigint);
      try {
        // --as is the contract's to check (an unknown kind is refused with its list).
        const started = await client.call('imports.start', {
          source: { type: 'path', path: resolve(file) },
          ...(opts.as !== undefined ? { as: opts.as as ImportKind } : {}),
          ...(opts.dataset !== undefined ? { dataset: opts.dataset } : {}),
        });
        jobId = started.jobId;
        if (cancelling) void client.call('jobs.cancel', { jobId }).catch(() => undefined);
        const print = progressPrinter();
        let job = await client.call('jobs.get', { jobId });
        while (job.state === 'running') {
          print(job);
          await sleep(50);
          job = await client.call('jobs.get', { jobId });
        }
        print(job);
        if (job.state !== 'done' || job.result === null) {
          const error = job.error ?? { message: `The import ended ${job.state}.`, problems: [] };
          // Problems are printed after a blank line of their own; a one-line refusal ends the progress line first.
          if (tty && error.problems.length === 0) process.stderr.write('\n');
          throw new Refusal({
            code: job.state === 'cancelled' ? 'conflict' : 'import_failed',
            message: error.message,
            problems: error.problems,
          });
        }
        if (tty) process.stderr.write('\n');
        const result = job.result;
        process.stdout.write(
          `Imported ${result.kind} into ${path}: ${importedParts(result).join('; ')}.\n` +
            `Datasets: ${result.datasets.join(', ') || 'none'}\nFiles used: ${describeFiles(result.filesUsed)}\n` +
            result.predictionsSkipped
              .map(
                (x) => `Predictions skipped: ${describeSkippedPredictions(x)}; the record is imported without them\n`,
              )
              .join('') +
            (result.labelsSkipped ?? [])
              .map(
                (x) =>
                  `Annotation skipped: ${describeSkippedLabels(x)}; the record and its other labels are imported\n`,
              )
              .join('') +
            result.notes.map((n) => `Note: ${n}\n`).join(''),
        );
      } finally {
        process.off('SIGINT', onSigint);
        client.close();
      }
    });

  program
    .command('sample')
    .description('draw a reproducible uniform sample of summaries to annotate')
    .requiredOption('--project <path>', 'project file')
    .requiredOption('--dataset <name>', 'dataset')
    .option('--n <n>', `how many summaries (default ${LIMITS.sampling.n.default})`, number('--n'))
    .option('--seed <s>', `seed (default ${LIMITS.sampling.seed.default})`, number('--seed'))
    .option('--annotator <name>', 'assign the batch to this annotator')
    .option('--annotators <a,b,c>', 'split the batch among these annotators (comma-separated)')
    .option(
      '--overlap <share>',
      'share of the batch (0–1) labeled by two of the --annotators (e.g. 0.2)',
      number('--overlap'),
    )
    .action(
      async (opts: {
        project: string;
        dataset: string;
        n?: number;
        seed?: number;
        annotator?: string;
        annotators?: string;
        overlap?: number;
      }) => {
        const annotators = opts.annotators
          ?.split(',')
          .map((name) => name.trim())
          .filter((name) => name !== '');
        const client = projectClient(opts.project);
        try {
          const batch = await client.call('sampling.draw', {
            dataset: opts.dataset,
            // The contract's form default (sampling.draw itself requires n).
            n: opts.n ?? LIMITS.sampling.n.default!,
            ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
            ...(opts.annotator !== undefined ? { annotator: opts.annotator } : {}),
            ...(annotators !== undefined ? { annotators } : {}),
            ...(opts.overlap !== undefined ? { overlap: opts.overlap } : {}),
          });
          const assigned = batch.assignments.map((a) => `${a.annotator}: ${a.summaryIds.join(' ')}`).join('\n');
          process.stdout.write(
            `Batch ${batch.batch} of ${batch.dataset} (seed ${batch.seed}, hash-rank-v1): ${batch.summaryIds.length} summaries` +
              `${batch.exhausted ? ` (only ${batch.summaryIds.length} unsampled were left)` : ''}\n${batch.summaryIds.join('\n')}\n` +
              (assigned ? `Assigned (${ASSIGNMENT_ALGORITHM}, overlap ${batch.overlap ?? 0}):\n${assigned}\n` : ''),
          );
        } finally {
          client.close();
        }
      },
    );

  interface ExportOptions {
    project: string;
    out: string;
    history?: boolean;
    predictions?: boolean;
    review?: boolean;
    accuracy?: boolean;
    claims?: boolean;
    keyfacts?: boolean;
    scaffold?: boolean;
    scaffoldAlignments?: boolean;
    card?: string;
    dataset?: string;
    rawCsv?: boolean;
  }

  program
    .command('export')
    .description('write the labeled sentences (one row per sentence and annotator)')
    .requiredOption('--project <path>', 'project file')
    .requiredOption('--out <file>', 'output .jsonl or .csv')
    .option('--history', 'include each label history')
    .option(
      '--predictions',
      'write the judge predictions instead (one row per sentence and judge, with the config hash)',
    )
    .option('--review', 'write the review results instead (one row per review decision)')
    .option(
      '--accuracy',
      'write the claims and key facts instead, with their labels, judge outputs and provenance (import back with --as accuracy)',
    )
    .option('--claims', 'the same as --accuracy')
    .option('--keyfacts', 'the same as --accuracy')
    .option(
      '--scaffold',
      'write the Semantic Scaffolds instead, one line per document (current version; JSON Lines; import back with --as scaffold)',
    )
    .option(
      '--scaffold-alignments',
      'write the scaffold alignments instead, one line per summary and source (JSON Lines; import back with --as scaffold-alignments)',
    )
    .option(
      '--card <file>',
      'also write the dataset card (JSON: counts, who, when, version, splitters, judges without keys)',
    )
    .option('--dataset <name>', 'only this dataset')
    .option(
      '--raw-csv',
      "CSV: write cells exactly as stored (default: a cell starting with = + - @ TAB or CR gets a leading ' so spreadsheets do not run it)",
    )
    .action(async (opts: ExportOptions) => {
      const accuracy = Boolean(opts.accuracy || opts.claims || opts.keyfacts);
      if ([opts.predictions, opts.review, accuracy, opts.scaffold, opts.scaffoldAlignments].filter(Boolean).length > 1)
        throw new UsageError(
          '--predictions, --review, --accuracy, --scaffold and --scaffold-alignments write different files: give one',
        );
      const ext = extname(opts.out).toLowerCase();
      if (ext !== '.jsonl' && ext !== '.csv') throw new UsageError('--out must end in .jsonl or .csv');
      if ((opts.scaffold || opts.scaffoldAlignments) && ext !== '.jsonl')
        throw new UsageError('--scaffold and --scaffold-alignments write JSON Lines: --out must end in .jsonl');
      const input: ApiInput<'export.build'> = {
        format: ext === '.csv' ? 'csv' : 'jsonl',
        history: opts.history ?? false,
        predictions: opts.predictions ?? false,
        review: opts.review ?? false,
        ...(accuracy ? { accuracy: true } : {}),
        ...(opts.scaffold ? { scaffold: true } : {}),
        ...(opts.scaffoldAlignments ? { scaffoldAlignments: true } : {}),
        ...(opts.dataset !== undefined ? { dataset: opts.dataset } : {}),
        ...(opts.rawCsv ? { rawCsv: true } : {}),
      };
      const client = projectClient(opts.project);
      try {
        // The card is asked for first when there is one: a refusal then writes neither file.
        const card = opts.card !== undefined ? await client.call('export.build', { ...input, card: true }) : null;
        // Streamed by the core to the file, rows read in batches: memory stays flat in the project's size.
        const file = await client.call('export.write', { ...input, path: resolve(opts.out) });
        process.stdout.write(`Wrote ${file.rows} rows to ${opts.out}\n`);
        if (card && opts.card !== undefined) {
          await writeTextAtomically(opts.card, card.content);
          process.stdout.write(`Wrote the dataset card to ${opts.card}\n`);
        }
      } finally {
        client.close();
      }
    });

  program
    .command('datasets')
    .description('list the datasets of a project')
    .requiredOption('--project <path>', 'project file')
    .action(async (opts: { project: string }) => {
      const client = projectClient(opts.project);
      try {
        for (const d of await client.call('datasets.list', {})) {
          process.stdout.write(
            `${d.name}\t${d.summaries} summaries\t${d.units} sentences\t${d.documentsMissing} documents missing\t${d.sampled} sampled\n`,
          );
        }
      } finally {
        client.close();
      }
    });

  registerJudgeCommands(program);
  registerAnalyzeCommand(program);
  registerPlanCommand(program);
  registerReviewCommands(program);
  registerMergeCommand(program);
  registerAccuracyCommands(program);
  registerProposalsCommands(program);
  registerSetListCommands(program);
  refuseRepeatedOptions(program);
  return program;
}
