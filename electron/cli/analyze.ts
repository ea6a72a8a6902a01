/**
 * `loupe analyze`: the judge audit of issue 4 from the command line.
 *   analyze --project P [--json] [--markdown [FILE]] [--bootstrap N] [--seed S] [--cap C] [--dataset D] [--timings]
 *
 * --json prints exactly one JSON document (the AnalysisReport, checked against the contract's
 * schema) on stdout and nothing else; --markdown FILE writes the readable report to FILE, and
 * --markdown without FILE (or neither option) prints it on stdout. Progress goes to stderr, and
 * only when stderr is a terminal. The analysis runs in the same worker thread as in the app, so
 * the same project and seed give the same numbers in every host. A project without judges or
 * human labels still gives a report (undefined values are null); only a missing project or
 * dataset is an error. Ctrl-C cancels (exit 130).
 */
import { type Command, InvalidArgumentError } from 'commander';
import { renameSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ApiError } from '../../shared/api';
import { AnalysisReportSchema } from '../../shared/analysis/schema';
import type { CliContext } from './judges';

interface AnalyzeOptions {
  project: string;
  json?: boolean;
  markdown?: string | true;
  bootstrap: number;
  seed: number;
  cap: number;
  dataset?: string;
  timings?: boolean;
}

const whole = (name: string, max: number) => (value: string) => {
  const n = Number(value);
  if (value.trim() === '' || !Number.isSafeInteger(n) || n < 0 || n > max) throw new InvalidArgumentError(`${name} must be a whole number from 0 to ${max}`);
  return n;
};

function writeAtomically(file: string, text: string): void {
  const temp = `${file}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, file);
}

/** Writes to stdout and resolves once the text is handed to the OS (pipes included). */
function print(text: string): Promise<void> {
  return new Promise((done, fail) => process.stdout.write(text, (err) => (err ? fail(err) : done())));
}

export function registerAnalyzeCommand(program: Command, ctx: CliContext): void {
  program
    .command('analyze')
    .description('the judge audit: p̂, ε̂, ε₀, min/mean/max correlations, averaging bias, composition, suspicious examples (PROTOCOL.md)')
    .requiredOption('--project <path>', 'project file')
    .option('--json', 'print the report as one JSON document on stdout')
    .option('--markdown [file]', 'write the readable report to FILE (stdout without FILE)')
    .option('--bootstrap <n>', 'bootstrap replicates (0 = no intervals)', whole('--bootstrap', 100_000), 2000)
    .option('--seed <s>', 'seed of every random stream', whole('--seed', Number.MAX_SAFE_INTEGER), 0)
    .option('--cap <c>', 'suspicious summaries listed per dataset', whole('--cap', 100_000), 25)
    .option('--dataset <name>', 'only this dataset')
    .option('--timings', 'print load and analysis times on stderr')
    .action(async (opts: AnalyzeOptions) => {
      if (opts.json && opts.markdown === true) throw ctx.usage('--json prints on stdout: give --markdown a FILE to write the readable report as well');
      const core = ctx.open(opts.project);
      const tty = process.stderr.isTTY === true;
      let jobId: string | null = null;
      const onSigint = () => {
        if (jobId) void core.analysis.handlers['analysis.cancel']({ jobId });
      };
      process.on('SIGINT', onSigint);
      try {
        const started = await core.handlers['analysis.start']({
          bootstrap: opts.bootstrap,
          seed: opts.seed,
          cap: opts.cap,
          ...(opts.dataset !== undefined ? { dataset: opts.dataset } : {}),
        });
        jobId = started.jobId;
        const ticker = tty
          ? setInterval(() => {
              void core.handlers['analysis.status']({ jobId: started.jobId }).then((s) => {
                if (s.state === 'running') process.stderr.write(`\r\x1b[2Kanalysis: ${s.progress.phase} (${s.progress.done}/${s.progress.total})`);
              });
            }, 250)
          : null;
        const status = await core.analysis.wait(started.jobId);
        if (ticker) {
          clearInterval(ticker);
          process.stderr.write('\r\x1b[2K');
        }
        if (opts.timings) {
          const t = core.analysis.timings(started.jobId);
          if (t) process.stderr.write(`analysis: load ${Math.round(t.loadMs)} ms, analysis ${Math.round(t.analyseMs)} ms\n`);
        }
        if (status.state === 'cancelled') {
          process.stderr.write('Analysis cancelled.\n');
          process.exitCode = 130;
          return;
        }
        if (status.state !== 'done' || status.report === null || status.markdown === null) {
          throw new ApiError({ code: 'internal', message: `The analysis failed: ${status.error?.message ?? status.state}` });
        }
        const report = AnalysisReportSchema.parse(status.report);
        if (typeof opts.markdown === 'string') writeAtomically(resolve(opts.markdown), status.markdown);
        if (opts.json) await print(`${JSON.stringify(report, null, 2)}\n`);
        else if (opts.markdown === true || opts.markdown === undefined) await print(status.markdown);
        else await print(`Wrote the report to ${opts.markdown}\n`);
      } finally {
        process.off('SIGINT', onSigint);
        core.close();
      }
    });
}
