/**
 * The accuracy commands through the CLI bundle, against the mock endpoint running in this process
 * (requests counted while the CLI runs): `loupe systems add|list|remove`, `loupe accuracy run` for
 * each task with the judge run's progress line (a rerun sends 0 requests; Ctrl-C pauses with exit
 * 130 and the same command resumes with only the rest), and `loupe export --accuracy` in JSON Lines
 * and CSV imported back with `--as accuracy` into new projects, whose own exports give the same
 * records (claims and key facts with decomposer / extractor and version, labels, judge outputs,
 * system outputs and failures).
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Repository } from '../../db/repository';
import { loupe, mustLoupe, writeJsonl } from '../helpers/project';
import { loupeArgs, REPO } from '../helpers/serve';
import { makeAccuracyCliProject } from '../helpers/accuracy-cli';
import { tempDir } from '../helpers/tmp';
import { startMockOpenAI, type MockServer } from '../mock-openai/server';
import { accuracyResponder } from '../mock-openai/accuracy';
import { summaryRows, until } from '../mock-openai/project';

const dir = tempDir('loupe-accuracy-cli-');
const project = join(dir, 'acc.loupe');
const env = { LOUPE_STATE_DIR: dir };
let mock: MockServer;

const DOC1 =
  'The city will spend 2 million euros to renovate the central library. Work starts on 1 March 2025 and will last 18 months. During the works, the library moves to a temporary site in the old post office.';
const DOC2 = 'The council approved a new park on Monday. The park will open in June.';

function cli(args: string[]) {
  const child = spawn(process.execPath, loupeArgs(args), {
    cwd: REPO,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  return { done, kill: (signal: NodeJS.Signals) => child.kill(signal) };
}

const run = (args: string[]) => cli(['accuracy', 'run', '--project', project, ...args]).done;
const records = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
/** A record without what says where it lives in this project (the import writes its sets as source imported). */
const portable = (r: Record<string, unknown>) => {
  const { source: _source, version: _version, ...rest } = r;
  void _source;
  void _version;
  return rest;
};

beforeAll(async () => {
  mock = await startMockOpenAI({ respond: accuracyResponder });
  makeAccuracyCliProject({
    dir,
    project,
    env,
    rows: [
      {
        doc_id: 'd1',
        document: DOC1,
        summary_id: 's1',
        summary:
          'The city will renovate the central library, and work starts on 1 March 2025. The library moves to a temporary site.',
      },
      {
        doc_id: 'd2',
        document: DOC2,
        summary_id: 's2',
        summary: 'The council approved a new park, and it will open in 2026.',
      },
    ],
    judgeUrl: mock.url,
  });
});
afterAll(async () => {
  await mock.close();
});

describe('loupe accuracy / systems / export --accuracy (CLI)', () => {
  it('runs each task with the progress line; a rerun sends 0 requests', async () => {
    const first = await run(['--task', 'claim_decomposition', '--judge', 'checker']);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/checker · claim_decomposition · \d+\/3 \(\d+%\) sentences/);
    expect(first.stderr).toMatch(/tokens [\d.]+k? in \/ [\d.]+k? out/);
    expect(first.stdout).toMatch(/^checker · claim_decomposition: done: 3 answered \(3\/3; 3 requests, 0 cached\)/m);
    mock.reset();
    const again = await run(['--task', 'claim_decomposition', '--judge', 'checker']);
    expect(again.code).toBe(0);
    expect(mock.count()).toBe(0);
    expect(again.stdout).toMatch(/0 requests, 3 cached/);

    for (const task of ['keyfact_extraction', 'claim_verdict', 'keyfact_alignment']) {
      const r = await run(['--task', task, '--judge', 'checker', '--dataset', 'acc']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^checker · ${task}: done`, 'm'));
    }
    // The contract's refusal: summary_generation runs a system, not a judge.
    const refused = await run(['--task', 'summary_generation', '--judge', 'checker', '--dataset', 'acc']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/summary_generation runs a system/);
  });

  it('systems add|list|remove and summary generation with a failing system recorded', async () => {
    mustLoupe(['systems', 'add', 'good', '--project', project, '--base-url', mock.url, '--model', 'sys-good'], env);
    mustLoupe(
      ['systems', 'add', 'down', '--project', project, '--base-url', mock.url, '--model', 'sys-down', '--retries', '1'],
      env,
    );
    mustLoupe(['systems', 'add', 'spare', '--project', project, '--base-url', mock.url, '--model', 'sys-spare'], env);
    mock.setResponder((req) =>
      req.body?.model === 'sys-down' ? { type: 'status', status: 500 } : accuracyResponder(req),
    );
    const good = await run(['--task', 'summary_generation', '--system', 'good', '--dataset', 'acc']);
    expect(good.code, good.stderr).toBe(0);
    const down = await run(['--task', 'summary_generation', '--system', 'down', '--dataset', 'acc']);
    expect(down.code).toBe(3); // done, with failed calls
    expect(down.stderr).toMatch(/errors 4 \(server_error 4\)/);
    const list = mustLoupe(['systems', 'list', '--project', project], env);
    expect(list).toMatch(/^good\tendpoint\tversion [0-9a-f]{12}\t2 summaries, 0 failed\tsys-good$/m);
    expect(list).toMatch(/^down\tendpoint\tversion [0-9a-f]{12}\t0 summaries, 2 failed \(error 2\)\tsys-down$/m);
    expect(mustLoupe(['systems', 'remove', 'spare', '--project', project], env)).toMatch(/Removed system "spare"/);
    expect(mustLoupe(['systems', 'list', '--project', project], env)).not.toMatch(/^spare/m);
    mock.setResponder(accuracyResponder);
  });

  it('Ctrl-C pauses (exit 130) and the same command resumes with only the rest', async () => {
    const big = join(dir, 'big.loupe');
    mustLoupe(['import', writeJsonl(join(dir, 'big.jsonl'), summaryRows(20)), '--project', big], env);
    mustLoupe(
      ['judges', 'add', 'slow', '--project', big, '--base-url', mock.url, '--model', 'slow', '--concurrency', '2'],
      env,
    );
    mock.reset();
    mock.setLatency(60);
    const first = cli(['accuracy', 'run', '--project', big, '--task', 'claim_decomposition', '--judge', 'slow']);
    await until(() => mock.count() >= 10, 60_000, 'ten requests');
    first.kill('SIGINT');
    const paused = await first.done;
    expect(paused.code).toBe(130);
    expect(paused.stdout).toMatch(/paused at \d+\/60/);
    const db = new Database(big, { readonly: true });
    const kept = (
      db
        .prepare("SELECT count(*) AS n FROM task_results WHERE kind = 'claim_decomposition' AND error_kind IS NULL")
        .get() as { n: number }
    ).n;
    db.close();
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(60);
    mock.reset();
    mock.setLatency(0);
    const resumed = await cli(['accuracy', 'run', '--project', big, '--task', 'claim_decomposition', '--judge', 'slow'])
      .done;
    expect(resumed.code).toBe(0);
    expect(mock.count()).toBe(60 - kept);
  });

  it('export --accuracy (JSON Lines and CSV) imports back with --as accuracy: the same records', async () => {
    // A person's label on a claim and on a key fact, through the repository as the app records them.
    const db = new Database(project);
    const repo = new Repository(db);
    const key = repo.corpus.summaryKey('acc', 's2')!;
    const claims = repo.sets.claimsOfSet(repo.sets.currentClaimSet(key)!.id);
    const ann = repo.ensureAnnotator('ann', 'person');
    repo.itemLabels.recordClaimLabel({
      claimId: claims[1]!.id,
      annotatorId: ann.id,
      label: 'unsupported',
      errorType: 'number_or_date',
      note: 'the amount is 2.4, not 2.1',
      timeSpentMs: null,
      cause: 'label',
    });
    const fact = repo.sets.keyFactsOfSet(
      repo.sets.currentKeyFactSet(repo.corpus.summaryInfo(key)!.documentKey)!.id,
    )[1]!;
    repo.itemLabels.recordKeyFactLabel({
      keyFactId: fact.id,
      summaryKey: key,
      annotatorId: ann.id,
      label: 'covered',
      conveyedBy: { claims: [claims[1]!.id], sentences: [] },
      note: 'via the budget claim',
      timeSpentMs: null,
      cause: 'label',
    });
    db.close();

    const jsonl = join(dir, 'acc.jsonl');
    const csv = join(dir, 'acc.csv');
    expect(mustLoupe(['export', '--project', project, '--accuracy', '--out', jsonl], env)).toMatch(/^Wrote \d+ rows/);
    expect(mustLoupe(['export', '--project', project, '--claims', '--out', csv], env)).toMatch(/^Wrote \d+ rows/);
    const original = records(jsonl);
    const types = new Set(original.map((r) => r.type));
    for (const t of [
      'summary',
      'system_output',
      'key_facts',
      'claims',
      'claim_label',
      'key_fact_label',
      'claim_prediction',
      'key_fact_prediction',
      'sentence_keyfact_prediction',
    ])
      expect(types.has(t), t).toBe(true);
    const claimSet = original.find((r) => r.type === 'claims' && r.summary_id === 's2')!;
    expect(claimSet).toMatchObject({
      decomposer: expect.stringMatching(/^task:claim_decomposition@[0-9a-f]{64}$/),
      decomposer_version: '1',
      source: 'model',
    });
    expect(original.find((r) => r.type === 'claim_label')).toMatchObject({
      summary_id: 's2',
      claim_index: 1,
      annotator: 'ann',
      label: 'unsupported',
      error_type: 'number_or_date',
      note: 'the amount is 2.4, not 2.1',
    });
    // Notes travel with the labels, so the round trip below keeps them too.
    expect(original.find((r) => r.type === 'key_fact_label')).toMatchObject({
      annotator: 'ann',
      label: 'covered',
      note: 'via the budget claim',
    });
    expect(original.filter((r) => r.type === 'system_output').map((r) => [r.system, r.failure])).toEqual([
      ['down', 'error'],
      ['down', 'error'],
    ]);
    // The CSV form: the same records as rows, type first (written through csv-write.ts, cells neutralised).
    expect(readFileSync(csv, 'utf8').split('\n')[0]).toMatch(/^type,dataset,doc_id,summary_id,/);

    for (const [file, name] of [
      [jsonl, 'back-jsonl'],
      [csv, 'back-csv'],
    ] as const) {
      const copy = join(dir, `${name}.loupe`);
      const imported = loupe(['import', file, '--as', 'accuracy', '--project', copy], env);
      expect(imported.status, imported.stderr).toBe(0);
      const again = join(dir, `${name}.jsonl`);
      mustLoupe(['export', '--project', copy, '--accuracy', '--out', again], env);
      const back = records(again);
      expect(back.map(portable)).toEqual(original.map(portable));
      expect(
        back.filter((r) => r.type === 'claims' || r.type === 'key_facts').every((r) => r.source === 'imported'),
      ).toBe(true);
    }
  });
});
