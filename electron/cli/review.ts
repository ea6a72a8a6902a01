/**
 * The review commands of the `loupe` CLI. The review itself happens in the app; these
 * list what is to review and what came of it:
 *   review --project P --queue suspicious|human-judge|judges-split|human-human --dataset D
 *          [--judge J]… [--error-type T] [--cap N] [--fast-ms MS] [--reviewer NAME] [--json]
 *   review-table --project P [--dataset D] [--judge J]… [--cap N] [--json]          (Table 4)
 *   corrections --project P [--dataset D] [--flips] [--json]                          (corrected global labels)
 * Listings carry no label (the queue is blind, like the card); the table and the corrections do.
 */
import type { Command } from 'commander';
import { REVIEW_DEFAULT_CAP, REVIEW_DEFAULT_FAST_MS, REVIEW_QUEUES, type ReviewQueueKind } from '../../shared/api';
import { ERROR_TYPES, type ErrorType } from '../../shared/domain';
import { number, projectClient } from './client';
import { listOption } from './options';

const percent = (value: number | null) => (value === null ? 'undefined' : `${(100 * value).toFixed(1)}%`);

export function registerReviewCommands(program: Command): void {
  program
    .command('review')
    .description('list a review queue (the review happens in the app); no labels are printed')
    .requiredOption('--project <path>', 'project file')
    // Queue and error type are the contract's to check (an unknown one is refused with its list).
    .requiredOption('--queue <queue>', `which queue: ${REVIEW_QUEUES.join(', ')}`)
    .requiredOption('--dataset <name>', 'dataset')
    .addOption(
      listOption(
        '--judge <name>',
        'a judge of the panel that defines the queue (repeat; default: every judge with predictions)',
      ),
    )
    .option(
      '--error-type <type>',
      `only summaries with a marked sentence carrying this error type: ${ERROR_TYPES.join(', ')}`,
    )
    .option('--cap <n>', `at most this many summaries (default ${REVIEW_DEFAULT_CAP})`, number('--cap'))
    .option(
      '--fast-ms <ms>',
      `flag decisions faster than this per sentence (default ${REVIEW_DEFAULT_FAST_MS})`,
      number('--fast-ms'),
    )
    .option('--reviewer <name>', 'decided/fast refer to this adjudicator (default: anyone)')
    .option('--json', 'print the queue as one JSON document')
    .action(
      async (opts: {
        project: string;
        queue: string;
        dataset: string;
        judge?: string[];
        errorType?: string;
        cap?: number;
        fastMs?: number;
        reviewer?: string;
        json?: boolean;
      }) => {
        const client = projectClient(opts.project);
        try {
          const queue = await client.call('review.queue', {
            queue: opts.queue as ReviewQueueKind,
            dataset: opts.dataset,
            ...(opts.cap !== undefined ? { cap: opts.cap } : {}),
            ...(opts.fastMs !== undefined ? { fastMs: opts.fastMs } : {}),
            ...(opts.judge ? { judges: opts.judge } : {}),
            ...(opts.errorType !== undefined ? { errorType: opts.errorType as ErrorType } : {}),
            ...(opts.reviewer !== undefined ? { reviewer: opts.reviewer } : {}),
          });
          if (opts.json) {
            process.stdout.write(`${JSON.stringify(queue, null, 2)}\n`);
            return;
          }
          const judges = queue.queue === 'human-human' ? '' : `, ${queue.judgeCount} judge(s)`;
          process.stdout.write(
            `${queue.queue} queue of ${queue.dataset}${judges}: pool ${queue.pool}, ${queue.matching} matching, ${queue.items.length} listed (cap ${queue.cap})\n`,
          );
          if (queue.items.length > 0) process.stdout.write('doc_id\tsummary_id\tsentences\tmarked\tdecided\tfast\n');
          for (const item of queue.items) {
            process.stdout.write(
              `${item.docId}\t${item.summaryId}\t${item.sentences}\t${item.marked.join(',')}\t${item.decided.length}/${item.marked.length}\t` +
                `${item.fast.length > 0 ? `FAST ${item.fast.join(',')}` : ''}${item.documentMissing ? ' (document missing)' : ''}\n`,
            );
          }
        } finally {
          client.close();
        }
      },
    );

  program
    .command('review-table')
    .description('Table 4 per dataset: suspicious pool, reviewed, U, F, unclear, %U and error types')
    .requiredOption('--project <path>', 'project file')
    .option('--dataset <name>', 'one dataset')
    .addOption(listOption('--judge <name>', 'a judge of the panel (repeat; default: every judge with predictions)'))
    .option('--cap <n>', `suspicious summaries listed per dataset (default ${REVIEW_DEFAULT_CAP})`, number('--cap'))
    .option('--json', 'print one JSON document')
    .action(async (opts: { project: string; dataset?: string; judge?: string[]; cap?: number; json?: boolean }) => {
      const client = projectClient(opts.project);
      try {
        const tables = await client.call('review.table', {
          ...(opts.cap !== undefined ? { cap: opts.cap } : {}),
          ...(opts.dataset !== undefined ? { dataset: opts.dataset } : {}),
          ...(opts.judge ? { judges: opts.judge } : {}),
        });
        if (opts.json) {
          process.stdout.write(`${JSON.stringify(tables, null, 2)}\n`);
          return;
        }
        process.stdout.write('dataset\tpool\treviewed\tU\tF\tunclear\tnot reviewed\t%U\n');
        for (const t of tables) {
          process.stdout.write(
            `${t.dataset}\t${t.pool}\t${t.reviewed}\t${t.unfaithful}\t${t.faithful}\t${t.unclear}\t${t.notReviewed}\t${percent(t.pctUnfaithful)} (n=${t.pctUnfaithfulN})\n`,
          );
        }
      } finally {
        client.close();
      }
    });

  program
    .command('corrections')
    .description(
      "corrected global labels (conjunctive rule over adjudicated-or-resolved sentence labels) beside the benchmark's",
    )
    .requiredOption('--project <path>', 'project file')
    .option('--dataset <name>', 'one dataset')
    .option('--flips', 'only the summaries whose label flips')
    .option('--json', 'print one JSON document')
    .action(async (opts: { project: string; dataset?: string; flips?: boolean; json?: boolean }) => {
      const client = projectClient(opts.project);
      try {
        const all = await client.call(
          'review.corrections',
          opts.dataset !== undefined ? { dataset: opts.dataset } : {},
        );
        if (opts.json) {
          process.stdout.write(
            `${JSON.stringify(opts.flips ? all.map((d) => ({ ...d, summaries: d.flips })) : all, null, 2)}\n`,
          );
          return;
        }
        const show = (v: number | null) => (v === null ? '-' : String(v));
        for (const d of all) {
          process.stdout.write(
            `${d.dataset}: ${d.summaries.length} summaries with human labels, ${d.flips.length} flip(s)\n`,
          );
          process.stdout.write('doc_id\tsummary_id\tbenchmark\tcorrected\tbasis\n');
          for (const c of opts.flips ? d.flips : d.summaries) {
            process.stdout.write(
              `${c.docId}\t${c.summaryId}\t${show(c.benchmarkLabel)}\t${show(c.correctedLabel)}\t${c.basis}${c.flipped ? '\tFLIP' : ''}\n`,
            );
          }
        }
      } finally {
        client.close();
      }
    });
}
