/** A project for the accuracy CLI tests, made through the CLI: the rows imported (dataset `acc`) and the mock as judge `checker`. */
import { join } from 'node:path';
import { mustLoupe, writeJsonl } from './project';

export interface AccuracyCliRow {
  doc_id: string;
  document: string;
  summary_id: string;
  summary: string;
}

export function makeAccuracyCliProject(options: {
  dir: string;
  project: string;
  env: Record<string, string>;
  rows: AccuracyCliRow[];
  judgeUrl: string;
}): void {
  const { dir, project, env } = options;
  mustLoupe(
    [
      'import',
      writeJsonl(
        join(dir, 'rows.jsonl'),
        options.rows.map((row) => ({ dataset: 'acc', ...row })),
      ),
      '--project',
      project,
    ],
    env,
  );
  mustLoupe(
    ['judges', 'add', 'checker', '--project', project, '--base-url', options.judgeUrl, '--model', 'mock-judge'],
    env,
  );
}
