/**
 * The `loupe` CLI is a host like IPC and HTTP: each subcommand builds the
 * contract's input and goes through dispatch, so it refuses exactly what the contract refuses,
 * with the contract's message (computed here with parseApiInput), exits 1 and stores nothing.
 * "Nothing" is checked as the row count of every table of the project file, which a valid call
 * of the same command is shown to change.
 */
import Database from 'better-sqlite3';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseApiInput, type ApiInput, type ApiMethod } from '../../shared/api';
import { loupe, mustLoupe, newsRows, writeJsonl } from '../helpers/project';
import { tempDir } from '../helpers/tmp';

const dir = tempDir('loupe-cli-contract-');
const project = join(dir, 'contract.loupe');
const env = { LOUPE_STATE_DIR: join(dir, 'state') };

/** Rows per table of the project file: what "stored nothing" compares. */
function rowCounts(): Record<string, number> {
  const db = new Database(project, { readonly: true });
  try {
    const tables = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
      .all() as Array<{ name: string }>;
    return Object.fromEntries(
      tables.map(({ name }) => [name, (db.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n]),
    );
  } finally {
    db.close();
  }
}

/** The contract's refusal text for this input; fails the test if the contract would accept it. */
function refusal<M extends ApiMethod>(method: M, input: ApiInput<M>): string {
  const checked = parseApiInput(method, input);
  if (checked.ok) throw new Error(`the contract accepts ${method} ${JSON.stringify(input)}: not a refusal case`);
  return checked.error.message;
}

/** Runs the command and expects the contract's refusal: exit 1, exactly its message on stderr, nothing on stdout, nothing stored. */
function expectRefused(args: string[], message: string): void {
  const before = rowCounts();
  const r = loupe(args, env);
  expect(r.stderr).toBe(`${message}\n`);
  expect(r.status).toBe(1);
  expect(r.stdout).toBe('');
  expect(rowCounts()).toEqual(before);
}

/** A summary whose first sentence a spreadsheet would run as a formula. */
const FORMULA = '=SUM(1+1) is what the council approved.';

beforeAll(() => {
  const rows = newsRows(6);
  rows[0] = { ...rows[0]!, summary: `${FORMULA} It adds 12 million dollars for schools.` };
  mustLoupe(['import', writeJsonl(join(dir, 'rows.jsonl'), rows), '--project', project], env);
}, 60_000);

describe('loupe subcommands refuse what the contract refuses, with its message, and store nothing', () => {
  it('sample: bounds (n, seed), the annotator/annotators rule and the overlap range; a valid draw stores a batch', () => {
    expectRefused(
      ['sample', '--project', project, '--dataset', 'news', '--n', '0', '--seed', '99999999999'],
      refusal('sampling.draw', { dataset: 'news', n: 0, seed: 99999999999 }),
    );
    expectRefused(
      ['sample', '--project', project, '--dataset', 'news', '--n', '2', '--annotator', 'a', '--annotators', 'b,c'],
      refusal('sampling.draw', { dataset: 'news', n: 2, annotator: 'a', annotators: ['b', 'c'] }),
    );
    expectRefused(
      ['sample', '--project', project, '--dataset', 'news', '--n', '2', '--overlap', '2', '--annotators', 'a,b'],
      refusal('sampling.draw', { dataset: 'news', n: 2, overlap: 2, annotators: ['a', 'b'] }),
    );
    // The counts do see a stored batch (and its annotators): the refusals above are not vacuous.
    const before = rowCounts();
    expect(
      mustLoupe(['sample', '--project', project, '--dataset', 'news', '--n', '2', '--annotators', 'a,b'], env),
    ).toMatch(/^Batch 1 of news/);
    const after = rowCounts();
    expect(after.sample_batches).toBe(before.sample_batches! + 1);
    expect(after.annotators).toBe(before.annotators! + 2);
  });

  it("a non-number is the command line's own mistake (exit 2), stored nowhere", () => {
    const before = rowCounts();
    const r = loupe(['sample', '--project', project, '--dataset', 'news', '--n', 'many'], env);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--n must be a number');
    expect(rowCounts()).toEqual(before);
  });

  it('judges add: a configuration bound (concurrency 0) adds no judge', () => {
    const baseUrl = 'http://127.0.0.1:9/v1';
    expectRefused(
      ['judges', 'add', 'j', '--project', project, '--base-url', baseUrl, '--model', 'm', '--concurrency', '0'],
      refusal('judges.add', {
        name: 'j',
        config: { kind: 'endpoint', baseUrl, model: 'm', apiKeyEnv: null, concurrency: 0 },
      }),
    );
    expect(JSON.parse(mustLoupe(['judges', 'list', '--project', project, '--json'], env))).toEqual([]);
  });

  it('analyze and review: negative replicates and caps, an unknown queue', () => {
    expectRefused(['analyze', '--project', project, '--bootstrap', '-1'], refusal('analysis.start', { bootstrap: -1 }));
    expectRefused(
      ['review', '--project', project, '--queue', 'suspicious', '--dataset', 'news', '--cap', '-1'],
      refusal('review.queue', { queue: 'suspicious', dataset: 'news', cap: -1 }),
    );
    expectRefused(
      ['review', '--project', project, '--queue', 'everything', '--dataset', 'news'],
      refusal('review.queue', { queue: 'everything' as ApiInput<'review.queue'>['queue'], dataset: 'news' }),
    );
  });

  it('import: an unknown --as is refused before the project file is created', () => {
    const fresh = join(dir, 'fresh.loupe');
    const file = join(dir, 'rows.jsonl');
    const r = loupe(['import', file, '--project', fresh, '--as', 'spreadsheet'], env);
    expect(r.stderr).toBe(
      `${refusal('imports.start', { source: { type: 'path', path: resolve(file) }, as: 'spreadsheet' as ApiInput<'imports.start'>['as'] })}\n`,
    );
    expect(r.status).toBe(1);
    expect(existsSync(fresh)).toBe(false);
  });

  it("export --raw-csv maps to the contract's rawCsv: formula-looking cells are written as stored only then", () => {
    const guarded = join(dir, 'guarded.csv');
    const raw = join(dir, 'raw.csv');
    mustLoupe(['export', '--project', project, '--out', guarded], env);
    mustLoupe(['export', '--project', project, '--out', raw, '--raw-csv'], env);
    expect(readFileSync(guarded, 'utf8')).toContain(`'${FORMULA}`);
    expect(readFileSync(raw, 'utf8')).toContain(FORMULA);
    expect(readFileSync(raw, 'utf8')).not.toContain(`'${FORMULA}`);
  });
});
