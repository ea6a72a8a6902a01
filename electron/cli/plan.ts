/**
 * `loupe plan`: how many more summaries to annotate for a target half-width of p̂, p̂_PP and ε̂
 * per judge, and the annotator time (shared/analysis/planning.ts).
 *   plan --project P [--dataset D] [--target W] [--json] [--reference people|imported|both]
 *        [--human-label unanimous|majority] [--include-revealed] [--bootstrap N] [--seed S]
 *
 * Through the contract (planning.plan) like every command: a target of 0, of 0.5 or more is the
 * contract's refusal (its message, exit 1); a non-number is the command line's mistake (exit 2).
 * --json prints the plan as one JSON document; otherwise one block per dataset, ending with the
 * `loupe sample` command that draws the most any figure needs, continuing the dataset's seed.
 */
import type { Command } from 'commander';
import {
  durationText,
  planFigureName,
  type DatasetPlan,
  type PlanLine,
  type PlanReport,
} from '../../shared/analysis/planning';
import { LIMITS } from '../../shared/limits';
import { number, projectClient } from './client';

interface PlanOptions {
  project: string;
  dataset?: string;
  target?: number;
  json?: boolean;
  reference?: string;
  humanLabel?: string;
  includeRevealed?: boolean;
  bootstrap?: number;
  seed?: number;
}

function lineText(line: PlanLine): string {
  const now = line.half_width === null ? 'no interval' : `±${line.half_width.toFixed(3)} now`;
  const head = `  ${planFigureName(line).padEnd(18)} ${now.padEnd(14)} (${line.n_now} summaries)`;
  if (line.n_more === null) return `${head}: ${line.reason ?? 'cannot be planned'}`;
  if (line.n_more === 0) return `${head}: the target is met`;
  const time = line.time_ms === null ? 'no time recorded yet' : `≈ ${durationText(line.time_ms)} of annotator time`;
  return `${head}: annotate ${line.n_more} more (${line.n_total} in all), ${time}${line.exceeds_undrawn ? ' — more than the summaries not drawn yet' : ''}`;
}

function datasetText(plan: DatasetPlan, report: PlanReport, project: string): string {
  const time =
    plan.median_ms_per_summary === null
      ? 'no time recorded yet'
      : `median ${durationText(plan.median_ms_per_summary)} per summary (n = ${plan.n_timed_summaries})`;
  const lines = [
    `${plan.dataset}: ${plan.n_annotated} annotated of ${plan.n_summaries} summaries (${plan.n_drawn} drawn, ${plan.n_undrawn} not drawn yet); ${time}.`,
    `  target: ±${report.target} (half-width of the 95% interval)`,
    ...(plan.reason ? [`  ${plan.reason}`] : []),
    ...plan.lines.map(lineText),
  ];
  if (plan.draw_more !== null && plan.draw_more > 0) {
    const lineage = plan.lineage === 'mixed' ? ' (the draws used several seeds: this continues the first)' : '';
    lines.push(
      `  every figure: draw ${plan.draw_more} more with  loupe sample --project ${project} --dataset ${plan.dataset} --n ${plan.draw_more} --seed ${plan.seed}${lineage}`,
    );
  }
  return lines.join('\n');
}

export function registerPlanCommand(program: Command): void {
  program
    .command('plan')
    .description('summaries to annotate for a target half-width of p̂, p̂_PP and ε̂ per judge, and the annotator time')
    .requiredOption('--project <path>', 'project file')
    .option('--dataset <name>', 'only this dataset')
    .option(
      '--target <w>',
      'half-width of the 95% interval to reach, above 0 and below 0.5 (default 0.02)',
      number('--target'),
    )
    .option('--json', 'print the plan as one JSON document on stdout')
    .option(
      '--reference <set>',
      "whose labels are the human reference: people, imported or both (default); p̂_PP needs people's labels on a seeded draw",
    )
    .option('--human-label <rule>', 'how several annotators resolve: unanimous (default) or majority')
    .option('--include-revealed', 'count labels given after their summary was revealed')
    .option(
      '--bootstrap <n>',
      `bootstrap replicates (default ${LIMITS.analysis.bootstrap.default})`,
      number('--bootstrap'),
    )
    .option('--seed <s>', `seed of the bootstrap streams (default ${LIMITS.analysis.seed.default})`, number('--seed'))
    .action(async (opts: PlanOptions) => {
      const client = projectClient(opts.project);
      try {
        // Absent options take the contract's defaults; strings go as given (its enums refuse the rest).
        const report = await client.call('planning.plan', {
          ...(opts.dataset !== undefined ? { dataset: opts.dataset } : {}),
          ...(opts.target !== undefined ? { target: opts.target } : {}),
          ...(opts.reference !== undefined ? { reference: opts.reference as 'people' | 'imported' | 'both' } : {}),
          ...(opts.humanLabel !== undefined ? { humanLabel: opts.humanLabel as 'unanimous' | 'majority' } : {}),
          ...(opts.includeRevealed ? { includeRevealed: true } : {}),
          ...(opts.bootstrap !== undefined ? { bootstrap: opts.bootstrap } : {}),
          ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
        });
        if (opts.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
        else
          process.stdout.write(
            report.datasets.length === 0
              ? 'No dataset to plan: import one first.\n'
              : `${report.datasets.map((d) => datasetText(d, report, opts.project)).join('\n\n')}\n`,
          );
      } finally {
        client.close();
      }
    });
}
