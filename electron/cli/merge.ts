/**
 * `loupe merge` (teams without a server):
 *   merge --project P OTHER.loupe… [--json]
 * brings the label histories of annotators' copies into P (electron/core/merge/merge.ts): per
 * file, the events added, those already present, the annotators and any problem. A file with a
 * problem merges nothing (the others still merge); the exit status is 1 when any file had one.
 */
import type { Command } from 'commander';
import type { MergeFileResult } from '../../shared/api';
import { projectClient } from './client';

export function formatMergeResult(r: MergeFileResult): string {
  const lines = [`${r.path}${r.sourceProject ? ` (project ${r.sourceProject})` : ''}`];
  if (r.problems.length > 0) {
    lines.push(`  not merged (nothing written): ${r.problems.length} problem(s)`);
    for (const p of r.problems) lines.push(`  problem: ${p}`);
    return lines.join('\n');
  }
  lines.push(`  events added: ${r.eventsAdded}`);
  lines.push(`  already present: ${r.eventsPresent}`);
  lines.push(
    `  annotators: ${r.annotators.length ? r.annotators.join(', ') : '(none)'}${r.annotatorsAdded.length ? ` (new here: ${r.annotatorsAdded.join(', ')})` : ''}`,
  );
  lines.push(
    `  summaries matched: ${r.summariesMatched}${r.summariesNotInProject ? `; ${r.summariesNotInProject} unlabeled summaries not in this project ignored` : ''}`,
  );
  lines.push('  problems: none');
  return lines.join('\n');
}

export function registerMergeCommand(program: Command): void {
  program
    .command('merge')
    .description("merge annotators' copies of the project (their label histories, with provenance; idempotent)")
    .requiredOption('--project <path>', 'project file to merge into')
    .argument('<other...>', "annotators' project files")
    .option('--json', 'print the per-file results as one JSON document')
    .action(async (others: string[], opts: { project: string; json?: boolean }) => {
      const client = projectClient(opts.project);
      let results: MergeFileResult[];
      try {
        results = await client.call('merge.projects', { paths: others });
      } finally {
        client.close();
      }
      if (opts.json) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
      else process.stdout.write(`${results.map(formatMergeResult).join('\n')}\n`);
      const failed = results.filter((r) => r.problems.length > 0).length;
      if (failed > 0) {
        process.stderr.write(`${failed} of ${results.length} file(s) not merged because of problems.\n`);
        process.exitCode = 1;
      }
    });
}
