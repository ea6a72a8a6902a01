/** A small project for judge tests: real SQLite file, real importer, the judge service on top. */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { openProjectDatabase, type Database as Db } from '../../db/open';
import { Repository } from '../../db/repository';
import { runImport } from '../../electron/core/imports/run';
import { createJudgeService, type JudgeService, type JudgeServiceOptions } from '../../electron/core/judges/service';

export const DOCUMENT =
  'The city council of Springfield approved a new budget on Tuesday. The plan adds 12 million dollars for schools. ' +
  'Mayor Jane Smith said the vote was a victory for families. Opponents argued that taxes would rise by 3.5 percent.';

/** `count` summaries of three sentences each; sentence i of summary k is unique ("… (k.i)"). */
export function summaryRows(count: number, dataset = 'news'): Array<Record<string, unknown>> {
  return Array.from({ length: count }, (_, k) => ({
    dataset,
    doc_id: `doc-${k % Math.max(1, Math.ceil(count / 2))}`,
    document: `${DOCUMENT} Story ${k % Math.max(1, Math.ceil(count / 2))}.`,
    summary_id: `sum-${String(k).padStart(3, '0')}`,
    summary: `The council approved a budget (${k}.0). It adds money for schools (${k}.1). The mayor was pleased (${k}.2).`,
    label: (k % 2) as 0 | 1,
  }));
}

export interface JudgeProject {
  path: string;
  db: Db;
  repo: Repository;
  service: JudgeService;
  /** A new service on the same repository (e.g. other options). */
  withService(options: Partial<JudgeServiceOptions>): JudgeService;
  close(): void;
}

export const FAST_TUNING = { backoffBaseMs: 10, backoffMaxMs: 50, circuitThreshold: 5 } as const;

export async function judgeProject(
  dir: string,
  name: string,
  summaries: number,
  options: Partial<JudgeServiceOptions> = {},
): Promise<JudgeProject> {
  const path = join(dir, `${name}.loupe`);
  const db = openProjectDatabase(Database, path, { create: true });
  const repo = new Repository(db);
  const rows = summaryRows(summaries);
  await runImport(repo, {
    source: { type: 'upload', name: 'rows.jsonl', text: rows.map((r) => JSON.stringify(r)).join('\n') },
  });
  const make = (extra: Partial<JudgeServiceOptions>) =>
    createJudgeService({
      repository: () => repo,
      env: {},
      allowedKeyEnv: 'any',
      tuning: FAST_TUNING,
      ...options,
      ...extra,
    });
  const service = make({});
  return {
    path,
    db,
    repo,
    service,
    withService: make,
    close: () => {
      service.stopAll();
      db.close();
    },
  };
}

/** Polls a condition (the runs are background work). */
export async function until(check: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
