/**
 * The Summarization Accuracy commands of the `loupe` CLI, through the contract like
 * every command (electron/cli/client.ts):
 *   systems add NAME --project P --base-url URL [--base-url REPLICA]… --model M [--api-key-env VAR] [--prompt FILE]
 *                    [--temperature T] [--top-p P] [--max-tokens N] [--concurrency N] [--timeout S]
 *                    [--retries N] [--extra JSON]
 *   systems list --project P [--json] · systems remove NAME --project P
 *   accuracy tasks --project P [--json]
 *   accuracy preview|plan --task T --project P (--judge J | --system S) [--dataset D] [--lines claims] [--prompts combined]
 *   accuracy run --task T --project P (--judge J | --system S) [--dataset D] [--only-sampled] [--lines claims] [--prompts combined]
 *                [--batch-out REQ.jsonl | --batch-in OUT.jsonl]   (OpenAI Batch files instead of live calls)
 * `accuracy run` prints the judge run's progress line on stderr; Ctrl-C pauses (exit 130) and the
 * same command resumes (answered items are not sent again). Exit codes as `loupe judge`: 0 done,
 * 3 done with failed calls, 130 paused by Ctrl-C, 4 paused by the circuit, 1 failed, 2 usage.
 */
import type { Command } from 'commander';
import { resolve } from 'node:path';
import type { ApiInput } from '../../shared/api';
import type { AccuracyRunStatus } from '../../shared/contract/accuracy';
import { Refusal, UsageError, number, printList, projectClient } from './client';
import { followRun, planText, reportBatchImport, reportRunEnd, runProgressLine } from './follow-run';
import { endpointTuning, readTextOption, type EndpointTuningOptions } from './endpoint-options';
import { listOption, replicasLine } from './options';
import { systemUrls } from '../../shared/contract/systems';

interface SystemAddOptions extends EndpointTuningOptions {
  project: string;
  baseUrl: string[];
  model: string;
  apiKeyEnv?: string;
  prompt?: string;
}

interface TaskOptions {
  project: string;
  task: string;
  judge?: string;
  system?: string;
  dataset?: string;
  onlySampled?: boolean;
  lines?: string;
  prompts?: string;
  batchOut?: string;
  batchIn?: string;
}

/** The progress line of a task run: model · task · dataset, then what every run's line says. */
export function accuracyProgressLine(s: AccuracyRunStatus): string {
  return runProgressLine(`${s.model} · ${s.task}${s.dataset ? ` · ${s.dataset}` : ''}`, s, s.itemNoun);
}

/** The options as the contract's run input (the contract alone judges task, judge/system, dataset, lines and prompts). */
function runInput(opts: TaskOptions): ApiInput<'accuracy.start'> {
  if (opts.judge !== undefined && opts.system !== undefined)
    throw new UsageError('give --judge (the tasks on claims and key facts) or --system (summary_generation), not both');
  return {
    task: opts.task as ApiInput<'accuracy.start'>['task'],
    ...(opts.judge !== undefined ? { judge: opts.judge } : {}),
    ...(opts.system !== undefined ? { system: opts.system } : {}),
    ...(opts.dataset !== undefined ? { dataset: opts.dataset } : {}),
    ...(opts.onlySampled ? { onlySampled: true } : {}),
    ...(opts.lines !== undefined ? { lines: opts.lines as 'sentences' | 'claims' } : {}),
    ...(opts.prompts !== undefined ? { prompts: opts.prompts as 'paper' | 'combined' } : {}),
  };
}

function systemConfig(opts: SystemAddOptions): ApiInput<'systems.add'>['config'] {
  return {
    // One URL stays the plain field; replicas of the same model go as the list.
    ...(opts.baseUrl.length === 1 ? { baseUrl: opts.baseUrl[0]! } : { baseUrls: opts.baseUrl }),
    model: opts.model,
    apiKeyEnv: opts.apiKeyEnv ?? null,
    ...(opts.prompt !== undefined ? { prompt: readTextOption(opts.prompt, 'prompt') } : {}),
    ...endpointTuning(opts),
  };
}

const taskOptions = (command: Command, withRun = false): Command => {
  command
    .requiredOption('--project <path>', 'project file')
    .requiredOption(
      '--task <task>',
      'claim_decomposition, keyfact_extraction, claim_verdict, keyfact_alignment, keyfact_alignment_per_fact, summary_generation, scaffold_extraction, scaffold_alignment or direct_score',
    )
    .option('--judge <name>', 'the judge (judges add) that answers: every task but summary_generation')
    .option('--system <name>', 'the system under test (systems add) that writes summaries: summary_generation')
    .option('--dataset <name>', 'only this dataset (summary_generation: the dataset whose documents to summarise)')
    .option('--lines <lines>', 'keyfact_alignment: align against the summary sentences (default) or its claims')
    .option(
      '--prompts <set>',
      "scaffold_extraction, scaffold_alignment: the paper's separate prompts, App. G.1–G.6 (paper, default) or one combined request (combined, cheaper)",
    );
  if (withRun) command.option('--only-sampled', 'only the sampled summaries');
  return command;
};

export function registerAccuracyCommands(program: Command): void {
  const systems = program
    .command('systems')
    .description('the systems under test: OpenAI-compatible models that write summaries (no key is ever stored)');

  systems
    .command('add')
    .description(
      'add a system under test; each document is sent to it as one user message asking for a summary, no system message',
    )
    .argument('<name>', 'system name')
    .requiredOption('--project <path>', 'project file')
    .addOption(
      listOption(
        '--base-url <url>',
        'OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1; repeat for replicas of the same model',
      ).makeOptionMandatory(),
    )
    .requiredOption('--model <name>', 'model name as the server knows it')
    .option('--api-key-env <VAR>', 'environment variable holding the API key (only its name is stored)')
    .option(
      '--prompt <file>',
      'the user message, with {document} (default "Summarize the following document.\\n\\n{document}")',
    )
    .option('--temperature <t>', 'sampling temperature (default 0)', number('--temperature'))
    .option('--top-p <p>', 'top_p (default 1)', number('--top-p'))
    .option('--max-tokens <n>', 'max tokens per summary (default 1024)', number('--max-tokens'))
    .option('--concurrency <n>', 'requests in flight (default 4)', number('--concurrency'))
    .option('--timeout <s>', 'per-request timeout in seconds (default 120)', number('--timeout'))
    .option('--retries <n>', 'retries per document on 429/5xx/timeouts/resets (default 4)', number('--retries'))
    .option('--extra <json>', 'extra request fields')
    .action(async (name: string, opts: SystemAddOptions) => {
      const config = systemConfig(opts);
      const client = projectClient(opts.project);
      try {
        const s = await client.call('systems.add', { name, config });
        process.stdout.write(
          `Added system "${s.name}" (version ${s.configHash.slice(0, 12)}): ${s.config?.model} at ${s.config?.baseUrl ?? s.config?.baseUrls?.[0]}\n`,
        );
        if (s.config?.apiKeyEnv && !process.env[s.config.apiKeyEnv])
          process.stderr.write(
            `Note: ${s.config.apiKeyEnv} is not set in this shell; set it before running the system.\n`,
          );
      } finally {
        client.close();
      }
    });

  systems
    .command('list')
    .description('list the systems with their summaries and failures')
    .requiredOption('--project <path>', 'project file')
    .option('--json', 'print JSON')
    .action(async (opts: { project: string; json?: boolean }) => {
      const client = projectClient(opts.project);
      try {
        printList(
          await client.call('systems.list', {}),
          opts.json,
          'No systems yet. Add one with: loupe systems add NAME --project P --base-url URL --model M',
          (s) => {
            const failures = s.failures.map((f) => `${f.kind} ${f.count}`).join(', ');
            return `${s.name}\t${s.kind}\tversion ${s.configHash.slice(0, 12)}\t${s.ok} summaries, ${s.failed} failed${failures ? ` (${failures})` : ''}${s.config ? `\t${s.config.model}` : ''}${replicasLine(s.config ? systemUrls(s.config) : [])}`;
          },
        );
      } finally {
        client.close();
      }
    });

  systems
    .command('remove')
    .description('remove a system and its recorded outputs (the summaries it wrote stay in their dataset)')
    .argument('<name>', 'system name')
    .requiredOption('--project <path>', 'project file')
    .action(async (name: string, opts: { project: string }) => {
      const client = projectClient(opts.project);
      try {
        const r = await client.call('systems.remove', { name });
        if (!r.removed) throw new Refusal({ code: 'not_found', message: `No system "${name}" in this project.` });
        process.stdout.write(`Removed system "${name}".\n`);
      } finally {
        client.close();
      }
    });

  const accuracy = program
    .command('accuracy')
    .description(
      'the LLM tasks of the Summarization Accuracy evaluation: claims, key facts, their judges, systems under test',
    );

  accuracy
    .command('tasks')
    .description('list the tasks with their prompt templates and versions')
    .requiredOption('--project <path>', 'project file')
    .option('--json', 'print JSON')
    .action(async (opts: { project: string; json?: boolean }) => {
      const client = projectClient(opts.project);
      try {
        const tasks = await client.call('accuracy.tasks', {});
        if (opts.json) process.stdout.write(`${JSON.stringify(tasks, null, 2)}\n`);
        else
          for (const t of tasks)
            process.stdout.write(`${t.task} (version ${t.version}, per ${t.itemNoun}): ${t.description}\n`);
      } finally {
        client.close();
      }
    });

  taskOptions(
    accuracy.command('preview').description('print the exact request of the first item a run would send'),
  ).action(async (opts: TaskOptions) => {
    const client = projectClient(opts.project);
    try {
      process.stdout.write(`${JSON.stringify(await client.call('accuracy.preview', runInput(opts)), null, 2)}\n`);
    } finally {
      client.close();
    }
  });

  taskOptions(
    accuracy.command('plan').description('count what a run would send (nothing is sent or stored)'),
    true,
  ).action(async (opts: TaskOptions) => {
    const client = projectClient(opts.project);
    try {
      const p = await client.call('accuracy.plan', runInput(opts));
      process.stdout.write(
        `${p.model} · ${p.task}: ${p.requests} requests for ${p.selection} items (${p.done} answered before, ${p.missing} left out)\n`,
      );
      for (const note of p.notes) process.stdout.write(`Note: ${note}\n`);
      process.stdout.write(planText(p));
    } finally {
      client.close();
    }
  });

  taskOptions(
    accuracy.command('run').description('run a task (cached by content; Ctrl-C pauses, running again resumes)'),
    true,
  )
    .option(
      '--batch-out <file>',
      'instead of running: write an OpenAI Batch request file (JSONL) of the items still to do (vllm run-batch, the OpenAI Batch API)',
    )
    .option(
      '--batch-in <file>',
      "instead of running: store a batch engine's output file (JSONL) for this task and configuration",
    )
    .action(async (opts: TaskOptions) => {
      if (opts.batchOut !== undefined && opts.batchIn !== undefined)
        throw new UsageError('give --batch-out or --batch-in, not both');
      if (opts.batchOut !== undefined || opts.batchIn !== undefined) return batchCommand(opts);
      const client = projectClient(opts.project);
      try {
        const status = await followRun(
          await client.call('accuracy.start', runInput(opts)),
          {
            status: (runId) => client.call('accuracy.status', { runId }),
            pause: (runId) => client.call('accuracy.pause', { runId }),
          },
          accuracyProgressLine,
        );
        client.close();
        reportRunEnd(status, { label: `${status.model} · ${status.task}`, itemsNoun: 'items', countParseErrors: true });
      } finally {
        client.close();
      }
    });
}

/** `loupe accuracy run --batch-out` / `--batch-in`: batch files through the contract (accuracy.batchExport / batchImport). */
async function batchCommand(opts: TaskOptions): Promise<void> {
  const run = runInput(opts);
  const client = projectClient(opts.project);
  try {
    if (opts.batchOut !== undefined) {
      const path = resolve(opts.batchOut);
      const e = await client.call('accuracy.batchExport', { run, path });
      process.stdout.write(
        `${e.model} · ${e.task}: wrote ${e.requests} requests to ${path} (${e.selection} items: ${e.done} answered before, ${e.cached} from the cache, ${e.missing} left out)\n`,
      );
      for (const note of e.notes) process.stderr.write(`Note: ${note}\n`);
      if (e.requests > 0)
        process.stderr.write(
          `Run it with a batch engine (vllm run-batch, the OpenAI Batch API), then the same command with --batch-in OUTPUT.jsonl instead of --batch-out.\n`,
        );
      return;
    }
    const r = await client.call('accuracy.batchImport', {
      run,
      source: { type: 'path', path: resolve(opts.batchIn!) },
    });
    reportBatchImport(r, {
      label: `${r.model} · ${r.task}`,
      itemsNoun: 'items',
      countParseErrors: true,
      file: opts.batchIn!,
    });
  } finally {
    client.close();
  }
}
