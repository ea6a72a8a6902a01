/** Builds small projects for integration and end-to-end tests through the real CLI (its bundle, out/cli/loupe.cjs). */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { REPO, loupeArgs } from './serve';

export interface SummaryRow {
  dataset: string;
  doc_id: string;
  document: string;
  summary_id: string;
  summary: string;
  label?: 0 | 1;
}

export function writeJsonl(path: string, rows: unknown[]): string {
  writeFileSync(path, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return path;
}

/** Runs `loupe …` and returns its output; throws with stderr when it fails. */
export function loupe(
  args: string[],
  env: Record<string, string> = {},
): { stdout: string; stderr: string; status: number } {
  const result = spawnSync(process.execPath, loupeArgs(args), {
    cwd: REPO,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  return { stdout: result.stdout, stderr: result.stderr, status: result.status ?? -1 };
}

export function mustLoupe(args: string[], env: Record<string, string> = {}): string {
  const r = loupe(args, env);
  if (r.status !== 0) throw new Error(`loupe ${args.join(' ')} failed (${r.status}):\n${r.stderr}`);
  return r.stdout;
}

export const NEWS_DOCUMENT =
  'The city council of Springfield approved a new budget on Tuesday. The plan adds 12 million dollars for schools. ' +
  'Mayor Jane Smith said the vote was a victory for families. Opponents argued that taxes would rise by 3.5 percent. ' +
  'The budget takes effect in January.';

export function newsRows(count: number, dataset = 'news'): SummaryRow[] {
  return Array.from({ length: count }, (_, i) => ({
    dataset,
    doc_id: `doc-${i}`,
    document: `${NEWS_DOCUMENT} Story number ${i}.`,
    summary_id: `sum-${String(i).padStart(3, '0')}`,
    summary:
      'The Springfield council approved a budget on Tuesday. It adds 12 million dollars for schools. Mayor Jane Smith called it a victory.',
    label: (i % 2) as 0 | 1,
  }));
}
