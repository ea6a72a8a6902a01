/**
 * `loupe analyze`: the judge audit from the command line.
 *   analyze --project P [--json] [--markdown [FILE]] [--bootstrap N] [--seed S] [--cap C] [--threads N] [--dataset D]
 *           [--human-label unanimous|majority] [--reference people|imported|both] [--include-revealed]
 *           [--compare-source people|JUDGE] [--timings]
 *
 * --json prints exactly one JSON document (the AnalysisReport, checked against the contract's
 * schema) on stdout and nothing else; --markdown FILE writes the readable report to FILE, and
 * --markdown without FILE (or neither option) prints it on stdout. Progress goes to stderr, and
 * only when stderr is a terminal. The analysis runs in the same worker thread as in the app, so
 * the same project and seed give the same numbers in every host. A project without judges or
 * human labels still gives a report (undefined values are null); only a missing project or
 * dataset is an error. Ctrl-C cancels (exit 130). --human-label, --reference and
 * --include-revealed are passed to the contract as given (humanLabel, reference, includeRevealed):
 * it refuses a value it does not know, with its message (exit 1). --compare-source (compareSource)
 * names the source the accuracy and scaffold blocks compare systems by; without it the people when
 * they pair ≥ 5 documents, else the report names the judge sources to pick from.
 */
import type { Command } from 'commander';
import { writeTextAtomically } from '../core/index';
import { resolve } from 'node:path';
import type { AnalysisStatus } from '../../shared/api';
import { AnalysisReportSchema } from '../../shared/analysis/schema';
import { LIMITS } from '../../shared/limits';
import { Refusal, UsageError, number, projectClient, sleep } from './client';

interface AnalyzeOptions {
  project: string;
  json?: boolean;
  markdown?: string | true;
  bootstrap?: number;
  seed?: number;
  cap?: number;
  threads?: number;
  dataset?: string;
  humanLabel?: string;
  reference?: string;
  includeRevealed?: boolean;
  compareSource?: string;
  timings?: boolean;
}

const A = LIMITS.analysis;

/** Writes to stdout and resolves once the text is handed to the OS (pipes included). */
function print(text: string): Promise<void> {
  return new Promise((done, fail) => process.stdout.write(text, (err) => (err ? fail(err) : done())));
}

export function registerAnalyzeCommand(program: Command): void {
  program
    .command('analyze')
    .description(
      'the judge audit: p̂, ε̂, ε₀, min/mean/max correlations, averaging bias, composition, suspicious examples (docs/methods.md)',
    )
    .requiredOption('--project <path>', 'project file')
    .option('--json', 'print the report as one JSON document on stdout')
    .option('--markdown [file]', 'write the readable report to FILE (stdout without FILE)')
    .option(
      '--bootstrap <n>',
      `bootstrap replicates (0 = no intervals; default ${A.bootstrap.default})`,
      number('--bootstrap'),
    )
    .option('--seed <s>', `seed of every random stream (default ${A.seed.default})`, number('--seed'))
    .option('--cap <c>', `suspicious summaries listed per dataset (default ${A.cap.default})`, number('--cap'))
    .option(
      '--threads <n>',
      'threads for the bootstrap (default: one per core, up to 8); the report is the same for any number',
      number('--threads'),
    )
    .option('--dataset <name>', 'only this dataset')
    .option(
      '--human-label <rule>',
      'how several annotators resolve: unanimous (adjudicated, else the label all agree on; default) or majority (adjudicated, else the mode of the usable labels; a tie is unresolved)',
    )
    .option(
      '--reference <set>',
      "whose labels are the human reference: people (the project's annotators), imported (imported label sets) or both (default)",
    )
    .option(
      '--include-revealed',
      'count labels given after their summary was revealed (blind: false); default: left out, counted',
    )
    .option(
      '--compare-source <source>',
      'compare systems (accuracy and scaffold metrics) by "people" or by one judge; default: people when they pair ≥ 5 documents, else the report lists the judge sources',
    )
    .option('--timings', 'print load and analysis times on stderr')
    .action(async (opts: AnalyzeOptions) => {
      if (opts.json && opts.markdown === true)
        throw new UsageError('--json prints on stdout: give --markdown a FILE to write the readable report as well');
      const client = projectClient(opts.project);
      const tty = process.stderr.isTTY === true;
      let jobId: string | null = null;
      const onSigint = () => {
        if (jobId) void client.call('analysis.cancel', { jobId }).catch(() => undefined);
      };
      process.on('SIGINT', onSigint);
      try {
        // Absent options take the contract's defaults.
        let status: AnalysisStatus = await client.call('analysis.start', {
          ...(opts.bootstrap !== undefined ? { bootstrap: opts.bootstrap } : {}),
          ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
          ...(opts.cap !== undefined ? { cap: opts.cap } : {}),
          ...(opts.threads !== undefined ? { threads: opts.threads } : {}),
          ...(opts.dataset !== undefined ? { dataset: opts.dataset } : {}),
          // Strings as given: the contract's enums refuse anything else.
          ...(opts.humanLabel !== undefined ? { humanLabel: opts.humanLabel as 'unanimous' | 'majority' } : {}),
          ...(opts.reference !== undefined ? { reference: opts.reference as 'people' | 'imported' | 'both' } : {}),
          ...(opts.includeRevealed ? { includeRevealed: true } : {}),
          ...(opts.compareSource !== undefined ? { compareSource: opts.compareSource } : {}),
        });
        jobId = status.jobId;
        let shown = 0;
        while (status.state === 'running') {
          await sleep(50);
          status = await client.call('analysis.status', { jobId });
          if (tty && status.state === 'running' && Date.now() - shown >= 250) {
            shown = Date.now();
            process.stderr.write(
              `\r\x1b[2Kanalysis: ${status.progress.phase} (${status.progress.done}/${status.progress.total})`,
            );
          }
        }
        if (tty && shown > 0) process.stderr.write('\r\x1b[2K');
        if (opts.timings) {
          const t = client.core().analysis.timings(jobId);
          if (t)
            process.stderr.write(
              `analysis: load ${Math.round(t.loadMs)} ms, analysis ${Math.round(t.analyseMs)} ms, ${t.threads} thread${t.threads === 1 ? '' : 's'}\n`,
            );
        }
        if (status.state === 'cancelled') {
          process.stderr.write('Analysis cancelled.\n');
          process.exitCode = 130;
          return;
        }
        if (status.state !== 'done' || status.report === null || status.markdown === null) {
          throw new Refusal({
            code: 'internal',
            message: `The analysis failed: ${status.error?.message ?? status.state}`,
          });
        }
        const report = AnalysisReportSchema.parse(status.report);
        if (typeof opts.markdown === 'string') await writeTextAtomically(resolve(opts.markdown), status.markdown);
        if (opts.json) await print(`${JSON.stringify(report, null, 2)}\n`);
        else if (opts.markdown === true || opts.markdown === undefined) await print(status.markdown);
        else await print(`Wrote the report to ${opts.markdown}\n`);
      } finally {
        process.off('SIGINT', onSigint);
        client.close();
      }
    });
}
