/**
 * The judge commands of the `loupe` CLI:
 *   judges add NAME --project P --base-url URL [--base-url REPLICA]… --model M [--api-key-env VAR] [--template FILE] [--soft]
 *                   [--concurrency N] [--timeout S] [--retries N] [--temperature T] [--top-p P]
 *                   [--max-tokens N] [--extra JSON] [--replace]
 *   judges add --baseline --project P [NAME]
 *   judges list --project P [--json] · judges remove NAME --project P · judges preview NAME --project P [--unit ID]
 *   judge --project P --judge NAME [--dataset D] [--only-sampled] [--plan]   (--plan: what a run would send, nothing sent)
 *   judge --project P --judge NAME --batch-out REQ.jsonl [--dataset D] [--only-sampled]   (OpenAI Batch requests)
 *   judge --project P --judge NAME --batch-in OUT.jsonl                                   (a batch engine's answers)
 * The key is never an argument: `--api-key-env VAR` stores the variable's NAME and the run reads it.
 */
import type { Command } from 'commander';
import { resolve } from 'node:path';
import type { ApiInput, JudgeRunStatus } from '../../shared/api';
import { BASELINE_JUDGE_NAME } from '../../shared/judges/config';
import { LIMITS } from '../../shared/limits';
import { Refusal, UsageError, number, printList, projectClient } from './client';
import { followRun, planText, reportBatchImport, reportRunEnd, runProgressLine } from './follow-run';
import { endpointTuning, readTextOption, type EndpointTuningOptions } from './endpoint-options';
import { listOption, replicasLine } from './options';

type JudgeConfigText = ApiInput<'judges.add'>['config'];

interface AddOptions extends EndpointTuningOptions {
  project: string;
  baseline?: boolean;
  baseUrl?: string[];
  model?: string;
  apiKeyEnv?: string;
  template?: string;
  soft?: boolean;
  replace?: boolean;
}

/** The options as the contract's judge configuration (which alone judges the values). */
function configFromOptions(opts: AddOptions): JudgeConfigText {
  if (opts.baseline) {
    const endpointOnly = (['baseUrl', 'model', 'apiKeyEnv', 'template', 'soft', 'extra'] as const).filter(
      (k) => opts[k] !== undefined,
    );
    if (endpointOnly.length > 0)
      throw new UsageError(
        `--baseline takes no endpoint options (got ${endpointOnly.map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(', ')})`,
      );
    return { kind: 'baseline' };
  }
  if (!opts.baseUrl || !opts.model)
    throw new UsageError('judges add needs --base-url URL and --model M (or --baseline for the offline rule)');
  return {
    kind: 'endpoint',
    // Replicas of one model: the contract names the version by the first and shares the work among all.
    baseUrls: opts.baseUrl,
    model: opts.model,
    apiKeyEnv: opts.apiKeyEnv ?? null,
    ...(opts.template !== undefined ? { template: readTextOption(opts.template, 'template') } : {}),
    ...(opts.soft ? { soft: true } : {}),
    ...endpointTuning(opts),
  };
}

function shortHash(hash: string | null): string {
  return hash === null ? '-' : hash.length > 12 ? hash.slice(0, 12) : hash;
}

/** The progress line: the judge (and dataset), then what every run's line says. */
export function progressLine(s: JudgeRunStatus): string {
  return runProgressLine(`${s.judge}${s.dataset ? ` · ${s.dataset}` : ''}`, s);
}

const J = LIMITS.judge;

export function registerJudgeCommands(program: Command): void {
  const judges = program
    .command('judges')
    .description('configure the LLM judges of a project (no key is ever stored in it)');

  judges
    .command('add')
    .description(
      'add a judge: an OpenAI-compatible endpoint (vLLM, Ollama, llama.cpp, LM Studio, OpenAI) or --baseline',
    )
    .argument('[name]', `judge name (--baseline: default "${BASELINE_JUDGE_NAME}")`)
    .requiredOption('--project <path>', 'project file')
    .option('--baseline', 'the offline baseline rule (no model, deterministic)')
    .addOption(
      listOption(
        '--base-url <url>',
        'OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1; repeat for replicas of the same model (requests are shared among them)',
      ),
    )
    .option('--model <name>', 'model name as the server knows it')
    .option('--api-key-env <VAR>', 'environment variable holding the API key (only its name is stored)')
    .option('--template <file>', "prompt template file with {document} and {sentence} (default: the paper's Table 16)")
    .option('--soft', 'soft labels from the top 20 log-probabilities')
    .option('--concurrency <n>', `requests in flight (default ${J.concurrency.default})`, number('--concurrency'))
    .option('--timeout <s>', `per-request timeout in seconds (default ${J.timeoutS.default})`, number('--timeout'))
    .option(
      '--retries <n>',
      `retries per sentence on 429/5xx/timeouts/resets (default ${J.retries.default})`,
      number('--retries'),
    )
    .option('--temperature <t>', `sampling temperature (default ${J.temperature.default})`, number('--temperature'))
    .option('--top-p <p>', `top_p (default ${J.topP.default})`, number('--top-p'))
    .option('--max-tokens <n>', `max tokens per answer (default ${J.maxTokens.default})`, number('--max-tokens'))
    .option('--extra <json>', 'extra request fields, e.g. \'{"chat_template_kwargs": {"enable_thinking": false}}\'')
    .option(
      '--replace',
      'replace the configuration of an existing judge (a changed answer-affecting field makes a new version)',
    )
    .action(async (nameArg: string | undefined, opts: AddOptions) => {
      const name = nameArg ?? (opts.baseline ? BASELINE_JUDGE_NAME : undefined);
      if (name === undefined) throw new UsageError('judges add needs a NAME');
      const config = configFromOptions(opts);
      const client = projectClient(opts.project);
      try {
        const exists = (await client.call('judges.list', {})).some((j) => j.name === name);
        let added;
        if (exists && opts.replace) {
          const { judge, newVersion } = await client.call('judges.update', { name, config });
          added = judge;
          process.stdout.write(
            `Updated judge "${judge.name}" (version ${shortHash(judge.configHash)}${newVersion ? ', new' : ', unchanged'}): ${judge.description}\n`,
          );
        } else {
          if (exists)
            throw new UsageError(`A judge named "${name}" exists already; pass --replace to change its configuration.`);
          added = await client.call('judges.add', { name, config });
          process.stdout.write(
            `Added judge "${added.name}" (version ${shortHash(added.configHash)}): ${added.description}\n`,
          );
        }
        if (added.apiKeyEnv && !process.env[added.apiKeyEnv]) {
          process.stderr.write(`Note: ${added.apiKeyEnv} is not set in this shell; set it before running the judge.\n`);
        }
      } finally {
        client.close();
      }
    });

  judges
    .command('list')
    .description('list the judges with their version and prediction counts')
    .requiredOption('--project <path>', 'project file')
    .option('--json', 'print JSON')
    .action(async (opts: { project: string; json?: boolean }) => {
      const client = projectClient(opts.project);
      try {
        printList(
          await client.call('judges.list', {}),
          opts.json,
          'No judges yet. Add one with: loupe judges add NAME --project P --base-url URL --model M',
          (j) => {
            const key =
              j.keySource === 'env'
                ? ` · key from $${j.apiKeyEnv}`
                : j.keySource === 'stored'
                  ? ' · key in the OS keychain'
                  : '';
            return (
              `${j.name}\t${j.kind}\tversion ${shortHash(j.configHash)} (${j.versions} version${j.versions === 1 ? '' : 's'})\t` +
              `${j.predictions.ok} labels, ${j.predictions.soft} soft, ${j.predictions.parseErrors} unparseable, ${j.predictions.failed} failed${key}\n  ${j.description}` +
              replicasLine(j.config?.kind === 'endpoint' ? j.config.baseUrls : [])
            );
          },
        );
      } finally {
        client.close();
      }
    });

  judges
    .command('remove')
    .description('remove a judge with all its versions and predictions')
    .argument('<name>', 'judge name')
    .requiredOption('--project <path>', 'project file')
    .action(async (name: string, opts: { project: string }) => {
      const client = projectClient(opts.project);
      try {
        const r = await client.call('judges.remove', { name });
        if (!r.removed) throw new Refusal({ code: 'not_found', message: `No judge "${name}" in this project.` });
        process.stdout.write(`Removed judge "${name}" and its ${r.predictionsRemoved} predictions.\n`);
      } finally {
        client.close();
      }
    });

  judges
    .command('preview')
    .description('print the exact request body a judge sends for one sentence')
    .argument('<name>', 'judge name')
    .requiredOption('--project <path>', 'project file')
    .option('--unit <id>', 'unit id (default: the first sentence with a document)', number('--unit'))
    .option('--dataset <name>', 'take the first sentence of this dataset')
    .action(async (name: string, opts: { project: string; unit?: number; dataset?: string }) => {
      const client = projectClient(opts.project);
      try {
        const p = await client.call('judges.preview', {
          name,
          ...(opts.unit !== undefined ? { unitId: opts.unit } : {}),
          ...(opts.dataset !== undefined ? { dataset: opts.dataset } : {}),
        });
        process.stdout.write(`${JSON.stringify(p, null, 2)}\n`);
      } finally {
        client.close();
      }
    });

  program
    .command('judge')
    .description('run a judge over the sentences of a project (Ctrl-C pauses; running again resumes)')
    .requiredOption('--project <path>', 'project file')
    .requiredOption('--judge <name>', 'judge name')
    .option('--dataset <name>', 'only this dataset')
    .option('--only-sampled', 'only the sampled summaries')
    .option(
      '--plan',
      'instead of running: print what a run would send (requests, sentences, base URLs, estimated prompt tokens); nothing is sent',
    )
    .option(
      '--batch-out <file>',
      'instead of running: write an OpenAI Batch request file (JSONL) of the sentences still to judge (vllm run-batch, the OpenAI Batch API)',
    )
    .option(
      '--batch-in <file>',
      "instead of running: store a batch engine's output file (JSONL) for the judge's current version (answers outside the request file's selection are refused; --dataset / --only-sampled narrow it and count what is still to do there)",
    )
    .action(
      async (opts: {
        project: string;
        judge: string;
        dataset?: string;
        onlySampled?: boolean;
        plan?: boolean;
        batchOut?: string;
        batchIn?: string;
      }) => {
        if ([opts.plan, opts.batchOut !== undefined, opts.batchIn !== undefined].filter(Boolean).length > 1)
          throw new UsageError('give one of --plan, --batch-out and --batch-in');
        if (opts.plan) {
          await planCommand(opts);
          return;
        }
        if (opts.batchOut !== undefined || opts.batchIn !== undefined) {
          await batchCommand(opts);
          return;
        }
        const client = projectClient(opts.project);
        try {
          const started = await client.call('judges.start', {
            name: opts.judge,
            ...(opts.dataset !== undefined ? { dataset: opts.dataset } : {}),
            ...(opts.onlySampled ? { onlySampled: true } : {}),
          });
          const status = await followRun(
            started,
            {
              status: (runId) => client.call('judges.status', { runId }),
              pause: (runId) => client.call('judges.pause', { runId }),
            },
            progressLine,
          );
          client.close();
          reportRunEnd(status, { label: status.judge, itemsNoun: 'sentences', countParseErrors: false });
        } finally {
          client.close();
        }
      },
    );
}

/** `loupe judge --plan`: what a start would send, through the contract (judges.plan); nothing is sent or stored. */
async function planCommand(opts: {
  project: string;
  judge: string;
  dataset?: string;
  onlySampled?: boolean;
}): Promise<void> {
  const client = projectClient(opts.project);
  try {
    const p = await client.call('judges.plan', {
      name: opts.judge,
      ...(opts.dataset !== undefined ? { dataset: opts.dataset } : {}),
      ...(opts.onlySampled ? { onlySampled: true } : {}),
    });
    process.stdout.write(
      `${p.judge}${p.dataset ? ` · ${p.dataset}` : ''}: ${p.requests} requests for ${p.selection} sentences (${p.done} answered before, ${p.cached} from the cache, ${p.shared} sharing a request, ${p.missing} without a document)\n` +
        planText(p),
    );
  } finally {
    client.close();
  }
}

/** `loupe judge --batch-out` / `--batch-in`: batch files through the contract (judges.batchExport / batchImport). */
async function batchCommand(opts: {
  project: string;
  judge: string;
  dataset?: string;
  onlySampled?: boolean;
  batchOut?: string;
  batchIn?: string;
}): Promise<void> {
  const client = projectClient(opts.project);
  try {
    if (opts.batchOut !== undefined) {
      const path = resolve(opts.batchOut);
      const e = await client.call('judges.batchExport', {
        name: opts.judge,
        path,
        ...(opts.dataset !== undefined ? { dataset: opts.dataset } : {}),
        ...(opts.onlySampled ? { onlySampled: true } : {}),
      });
      process.stdout.write(
        `${e.judge}: wrote ${e.requests} requests to ${path} (${e.selection} sentences: ${e.done} answered before, ${e.cached} from the cache, ${e.shared} sharing a request, ${e.missing} without a document)\n`,
      );
      if (e.requests > 0)
        process.stderr.write(
          `Run it with a batch engine (vllm run-batch, the OpenAI Batch API), then the same command with --batch-in OUTPUT.jsonl instead of --batch-out.\n`,
        );
      return;
    }
    const r = await client.call('judges.batchImport', {
      name: opts.judge,
      source: { type: 'path', path: resolve(opts.batchIn!) },
      ...(opts.dataset !== undefined ? { dataset: opts.dataset } : {}),
      ...(opts.onlySampled ? { onlySampled: true } : {}),
    });
    reportBatchImport(r, { label: r.judge, itemsNoun: 'sentences', countParseErrors: false, file: opts.batchIn! });
  } finally {
    client.close();
  }
}
