/**
 * The judge commands of the `loupe` CLI:
 *   judges add NAME --project P --base-url URL --model M [--api-key-env VAR] [--template FILE] [--soft]
 *                   [--concurrency N] [--timeout S] [--retries N] [--temperature T] [--top-p P]
 *                   [--max-tokens N] [--extra JSON] [--replace]
 *   judges add --baseline --project P [NAME]
 *   judges list --project P [--json] · judges remove NAME --project P · judges preview NAME --project P [--unit ID]
 *   judge --project P --judge NAME [--dataset D] [--only-sampled]
 * The key is never an argument: `--api-key-env VAR` stores the variable's NAME and the run reads it.
 */
import { type Command, InvalidArgumentError } from 'commander';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ApiError, type JudgeRunStatus } from '../../shared/api';
import { BASELINE_JUDGE_NAME, JudgeConfigSchema, type JudgeConfigInput } from '../../shared/judges/config';
import type { Core } from '../core/index';

export interface CliContext {
  /** Creates a core with the project open (exits with a usage error when it does not exist). */
  open(project: string): Core;
  usage(message: string): Error;
}

const integer = (name: string, min = 0) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`${name} must be a whole number ≥ ${min}`);
  return n;
};
const decimal = (name: string) => (value: string) => {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw new InvalidArgumentError(`${name} must be a number`);
  return n;
};

interface AddOptions {
  project: string;
  baseline?: boolean;
  baseUrl?: string;
  model?: string;
  apiKeyEnv?: string;
  template?: string;
  soft?: boolean;
  concurrency?: number;
  timeout?: number;
  retries?: number;
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  extra?: string;
  replace?: boolean;
}

function configFromOptions(opts: AddOptions, ctx: CliContext): JudgeConfigInput {
  if (opts.baseline) {
    const endpointOnly = (['baseUrl', 'model', 'apiKeyEnv', 'template', 'soft', 'extra'] as const).filter((k) => opts[k] !== undefined);
    if (endpointOnly.length > 0) throw ctx.usage(`--baseline takes no endpoint options (got ${endpointOnly.map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(', ')})`);
    return { kind: 'baseline' };
  }
  if (!opts.baseUrl || !opts.model) throw ctx.usage('judges add needs --base-url URL and --model M (or --baseline for the offline rule)');
  let extra: unknown;
  if (opts.extra !== undefined) {
    try {
      extra = JSON.parse(opts.extra);
    } catch {
      throw ctx.usage(`--extra must be a JSON object, e.g. '{"chat_template_kwargs": {"enable_thinking": false}}'`);
    }
  }
  let template: string | undefined;
  if (opts.template !== undefined) {
    try {
      template = readFileSync(opts.template, 'utf8').replace(/^\uFEFF/, '');
    } catch {
      throw ctx.usage(`Cannot read the template file ${opts.template}`);
    }
  }
  return {
    kind: 'endpoint',
    baseUrl: opts.baseUrl,
    model: opts.model,
    apiKeyEnv: opts.apiKeyEnv ?? null,
    ...(template !== undefined ? { template } : {}),
    ...(opts.soft ? { soft: true } : {}),
    ...(opts.concurrency !== undefined ? { concurrency: opts.concurrency } : {}),
    ...(opts.timeout !== undefined ? { timeoutS: opts.timeout } : {}),
    ...(opts.retries !== undefined ? { retries: opts.retries } : {}),
    ...(opts.temperature !== undefined ? { temperature: opts.temperature } : {}),
    ...(opts.topP !== undefined ? { topP: opts.topP } : {}),
    ...(opts.maxTokens !== undefined ? { maxTokens: opts.maxTokens } : {}),
    ...(extra !== undefined ? { extra: extra as Record<string, never> } : {}),
  };
}

function shortHash(hash: string | null): string {
  return hash === null ? '-' : hash.length > 12 ? hash.slice(0, 12) : hash;
}

function compact(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e4 ? `${(n / 1e3).toFixed(1)}k` : String(n);
}

function duration(seconds: number): string {
  if (seconds < 90) return `${Math.round(seconds)}s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)}m`;
  return `${(seconds / 3600).toFixed(1)}h`;
}

/** The progress line: done/total, rate, ETA, tokens, errors by kind. */
export function progressLine(s: JudgeRunStatus): string {
  const pct = s.total > 0 ? ` (${Math.floor((100 * s.done) / s.total)}%)` : '';
  const parts = [`${s.judge}${s.dataset ? ` · ${s.dataset}` : ''}`, `${s.done}/${s.total}${pct}`];
  if (s.ratePerSecond !== null) parts.push(`${s.ratePerSecond.toFixed(1)}/s`);
  if (s.etaSeconds !== null && s.state === 'running') parts.push(`ETA ${duration(s.etaSeconds)}`);
  if (s.requests > 0) parts.push(`${s.requests} requests`, `tokens ${compact(s.tokens.prompt)} in / ${compact(s.tokens.completion)} out`);
  if (s.cached > 0) parts.push(`${s.cached} cached`);
  const errors = s.errors.reduce((n, e) => n + e.count, 0);
  parts.push(errors === 0 ? 'no errors' : `errors ${errors} (${s.errors.map((e) => `${e.kind} ${e.count}`).join(', ')})`);
  if (s.state !== 'running') parts.push(s.message);
  return parts.join(' · ');
}

export function registerJudgeCommands(program: Command, ctx: CliContext): void {
  const judges = program.command('judges').description('configure the LLM judges of a project (no key is ever stored in it)');

  judges
    .command('add')
    .description('add a judge: an OpenAI-compatible endpoint (vLLM, Ollama, llama.cpp, LM Studio, OpenAI) or --baseline')
    .argument('[name]', `judge name (--baseline: default "${BASELINE_JUDGE_NAME}")`)
    .requiredOption('--project <path>', 'project file')
    .option('--baseline', 'the offline baseline rule (no model, deterministic)')
    .option('--base-url <url>', 'OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1')
    .option('--model <name>', 'model name as the server knows it')
    .option('--api-key-env <VAR>', 'environment variable holding the API key (only its name is stored)')
    .option('--template <file>', 'prompt template file with {document} and {sentence} (default: the paper\'s Table 16)')
    .option('--soft', 'soft labels from the top 20 log-probabilities')
    .option('--concurrency <n>', 'requests in flight (default 8)', integer('--concurrency', 1))
    .option('--timeout <s>', 'per-request timeout in seconds (default 120)', decimal('--timeout'))
    .option('--retries <n>', 'retries per sentence on 429/5xx/timeouts/resets (default 4)', integer('--retries'))
    .option('--temperature <t>', 'sampling temperature (default 0)', decimal('--temperature'))
    .option('--top-p <p>', 'top_p (default 1)', decimal('--top-p'))
    .option('--max-tokens <n>', 'max tokens per answer (default 8192)', integer('--max-tokens', 1))
    .option('--extra <json>', 'extra request fields, e.g. \'{"chat_template_kwargs": {"enable_thinking": false}}\'')
    .option('--replace', 'replace the configuration of an existing judge (a changed answer-affecting field makes a new version)')
    .action(async (nameArg: string | undefined, opts: AddOptions) => {
      const name = nameArg ?? (opts.baseline ? BASELINE_JUDGE_NAME : undefined);
      if (!name) throw ctx.usage('judges add needs a NAME');
      const parsed = JudgeConfigSchema.safeParse(configFromOptions(opts, ctx));
      if (!parsed.success) throw ctx.usage(`Invalid judge configuration:\n${z.prettifyError(parsed.error)}`);
      const core = ctx.open(opts.project);
      try {
        const exists = core.repository().judges.judgeByName(name) !== null;
        if (exists && opts.replace) {
          const { judge, newVersion } = await core.handlers['judges.update']({ name, config: parsed.data });
          process.stdout.write(`Updated judge "${judge.name}" (version ${shortHash(judge.configHash)}${newVersion ? ', new' : ', unchanged'}): ${judge.description}\n`);
        } else {
          if (exists) throw ctx.usage(`A judge named "${name}" exists already; pass --replace to change its configuration.`);
          const judge = await core.handlers['judges.add']({ name, config: parsed.data });
          process.stdout.write(`Added judge "${judge.name}" (version ${shortHash(judge.configHash)}): ${judge.description}\n`);
        }
        if (parsed.data.kind === 'endpoint' && parsed.data.apiKeyEnv && !process.env[parsed.data.apiKeyEnv]) {
          process.stderr.write(`Note: ${parsed.data.apiKeyEnv} is not set in this shell; set it before running the judge.\n`);
        }
      } finally {
        core.close();
      }
    });

  judges
    .command('list')
    .description('list the judges with their version and prediction counts')
    .requiredOption('--project <path>', 'project file')
    .option('--json', 'print JSON')
    .action(async (opts: { project: string; json?: boolean }) => {
      const core = ctx.open(opts.project);
      try {
        const list = await core.handlers['judges.list']({});
        if (opts.json) {
          process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
          return;
        }
        if (list.length === 0) process.stdout.write('No judges yet. Add one with: loupe judges add NAME --project P --base-url URL --model M\n');
        for (const j of list) {
          const key = j.keySource === 'env' ? ` · key from $${j.apiKeyEnv}` : j.keySource === 'stored' ? ' · key in the OS keychain' : '';
          process.stdout.write(
            `${j.name}\t${j.kind}\tversion ${shortHash(j.configHash)} (${j.versions} version${j.versions === 1 ? '' : 's'})\t` +
              `${j.predictions.ok} labels, ${j.predictions.soft} soft, ${j.predictions.parseErrors} unparseable, ${j.predictions.failed} failed${key}\n  ${j.description}\n`,
          );
        }
      } finally {
        core.close();
      }
    });

  judges
    .command('remove')
    .description('remove a judge with all its versions and predictions')
    .argument('<name>', 'judge name')
    .requiredOption('--project <path>', 'project file')
    .action(async (name: string, opts: { project: string }) => {
      const core = ctx.open(opts.project);
      try {
        const r = await core.handlers['judges.remove']({ name });
        if (!r.removed) throw new ApiError({ code: 'not_found', message: `No judge "${name}" in this project.` });
        process.stdout.write(`Removed judge "${name}" and its ${r.predictionsRemoved} predictions.\n`);
      } finally {
        core.close();
      }
    });

  judges
    .command('preview')
    .description('print the exact request body a judge sends for one sentence')
    .argument('<name>', 'judge name')
    .requiredOption('--project <path>', 'project file')
    .option('--unit <id>', 'unit id (default: the first sentence with a document)', integer('--unit'))
    .option('--dataset <name>', 'take the first sentence of this dataset')
    .action(async (name: string, opts: { project: string; unit?: number; dataset?: string }) => {
      const core = ctx.open(opts.project);
      try {
        const p = await core.handlers['judges.preview']({ name, ...(opts.unit !== undefined ? { unitId: opts.unit } : {}), ...(opts.dataset ? { dataset: opts.dataset } : {}) });
        process.stdout.write(`${JSON.stringify(p, null, 2)}\n`);
      } finally {
        core.close();
      }
    });

  program
    .command('judge')
    .description('run a judge over the sentences of a project (Ctrl-C pauses; running again resumes)')
    .requiredOption('--project <path>', 'project file')
    .requiredOption('--judge <name>', 'judge name')
    .option('--dataset <name>', 'only this dataset')
    .option('--only-sampled', 'only the sampled summaries')
    .action(async (opts: { project: string; judge: string; dataset?: string; onlySampled?: boolean }) => {
      const core = ctx.open(opts.project);
      const run = core.judges.startRun(opts.judge, { dataset: opts.dataset, onlySampled: opts.onlySampled ?? false });
      const tty = process.stderr.isTTY === true;
      let last = 0;
      const print = (force = false) => {
        const now = Date.now();
        if (!force && now - last < (tty ? 200 : 1000)) return;
        last = now;
        const line = progressLine(run.status());
        process.stderr.write(tty ? `\r\x1b[2K${line}` : `${line}\n`);
      };
      const ticker = setInterval(() => print(), tty ? 250 : 1000);
      const unsubscribe = run.onChange(() => print());
      print(true);
      let interrupted = false;
      const onSigint = () => {
        if (interrupted) process.exit(130); // a second Ctrl-C: leave at once
        interrupted = true;
        process.stderr.write(`${tty ? '\n' : ''}Pausing: requests in flight are dropped and will be sent again on resume…\n`);
        void run.pause('user');
      };
      process.on('SIGINT', onSigint);
      // The run ends (done, cancelled, failed) or pauses (Ctrl-C, or the circuit): either way the CLI stops.
      await new Promise<void>((resolve) => {
        void run.finished.then(() => resolve());
        run.onChange(() => {
          if (run.status().state === 'paused') resolve();
        });
      });
      await run.pause('user'); // no-op unless still running
      clearInterval(ticker);
      unsubscribe();
      process.off('SIGINT', onSigint);
      const s = run.status();
      print(true);
      if (tty) process.stderr.write('\n');
      core.close();
      for (const note of s.notes) process.stderr.write(`Note: ${note}\n`);
      process.stdout.write(`${s.judge}: ${s.message} (${s.done}/${s.total}; ${s.requests} requests, ${s.cached} cached)\n`);
      if (s.state === 'paused') {
        process.stderr.write(`Run the same command again to resume: answered sentences are not sent again.\n`);
        process.exitCode = s.pauseReason === 'user' ? 130 : 4;
      } else if (s.state === 'failed') process.exitCode = 1;
      else if (s.failed > 0) process.exitCode = 3;
    });
}
