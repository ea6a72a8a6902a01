/**
 * The `loupe judge` CLI as a child process against the mock endpoint running in this process
 * (so requests can be counted while the CLI runs): SIGKILL mid-run then a rerun sends only what
 * had not been stored; Ctrl-C pauses and a rerun resumes; a finished run sends nothing again;
 * the API key (from the environment variable the judge names) appears in no stored, exported or
 * printed text.
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mustLoupe, writeJsonl } from '../helpers/project';
import { loupeArgs, REPO } from '../helpers/serve';
import { tempDir } from '../helpers/tmp';
import { startMockOpenAI, type MockServer } from '../mock-openai/server';
import { summaryRows, until } from '../mock-openai/project';

const KEY = 'sk-e2e-secret-KEY-5a4b3c2d1e0f';
const dir = tempDir('loupe-judge-cli-');
const project = join(dir, 'cli.loupe');
const env = { LOUPE_STATE_DIR: dir, LOUPE_E2E_KEY: KEY };
const printed: string[] = [];
let mock: MockServer;

interface Child {
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  kill(signal: NodeJS.Signals): void;
}

/**
 * Runs the CLI without blocking this process's event loop (the mock answers from here). `node`
 * runs the bundle directly, so the signal reaches the CLI's own process (a wrapper such as the
 * `tsx` command runs scripts in a child of its own, which a SIGKILL would leave running).
 */
function cli(args: string[]): Child {
  const child = spawn(process.execPath, loupeArgs(args), {
    cwd: REPO,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve) =>
      child.on('close', (code, signal) => {
        printed.push(stdout, stderr);
        resolve({ code, signal, stdout, stderr });
      }),
  );
  return { done, kill: (signal) => child.kill(signal) };
}

function storedAnswers(judge: string): number {
  const db = new Database(project, { readonly: true });
  try {
    return (
      db
        .prepare(
          `SELECT count(*) AS n FROM judge_predictions p JOIN judges j ON j.current_version_id = p.judge_version_id
           WHERE j.name = ? AND p.error_kind IS NULL`,
        )
        .get(judge) as { n: number }
    ).n;
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  mock = await startMockOpenAI({ latencyMs: 60 });
  printed.push(mustLoupe(['import', writeJsonl(join(dir, 'rows.jsonl'), summaryRows(20)), '--project', project], env));
});
afterAll(async () => {
  await mock.close();
});

const add = (name: string, model: string, extra: string[] = []) =>
  printed.push(
    mustLoupe(
      [
        'judges',
        'add',
        name,
        '--project',
        project,
        '--base-url',
        mock.url,
        '--model',
        model,
        '--api-key-env',
        'LOUPE_E2E_KEY',
        ...extra,
      ],
      env,
    ),
  );

describe('loupe judge (CLI)', () => {
  it('after SIGKILL mid-run, a rerun sends only the sentences that had not been stored', async () => {
    add('qwen', 'm1', ['--soft', '--concurrency', '4']);
    mock.reset();
    const first = cli(['judge', '--project', project, '--judge', 'qwen']);
    await until(() => mock.count() >= 20, 60_000, 'twenty requests');
    first.kill('SIGKILL');
    const killed = await first.done;
    expect(killed.signal).toBe('SIGKILL');
    const kept = storedAnswers('qwen');
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(60);

    mock.reset();
    const second = await cli(['judge', '--project', project, '--judge', 'qwen']).done;
    expect(second.code).toBe(0);
    expect(mock.count()).toBe(60 - kept);
    expect(storedAnswers('qwen')).toBe(60);
    expect(second.stdout).toMatch(/^qwen: done: 60 answered \(60\/60; \d+ requests, \d+ cached\)/m);
    // The progress line: done/total, rate, requests, tokens, errors.
    expect(second.stderr).toMatch(/qwen · \d+\/60 \(\d+%\)/);
    expect(second.stderr).toMatch(/tokens [\d.]+k? in \/ [\d.]+k? out/);
    expect(second.stderr).toMatch(/no errors/);

    mock.reset();
    const third = await cli(['judge', '--project', project, '--judge', 'qwen']).done;
    expect(third.code).toBe(0);
    expect(mock.count()).toBe(0);
    expect(third.stdout).toMatch(/0 requests, 60 cached/);
  });

  it('Ctrl-C pauses (exit 130) and the same command resumes where it stopped', async () => {
    add('llama', 'm2', ['--concurrency', '2']);
    mock.reset();
    const first = cli(['judge', '--project', project, '--judge', 'llama', '--dataset', 'news']);
    await until(() => mock.count() >= 10, 60_000, 'ten requests');
    first.kill('SIGINT');
    const paused = await first.done;
    expect(paused.code).toBe(130);
    expect(paused.stdout).toMatch(/^llama: paused at \d+\/60/m);
    expect(paused.stderr).toMatch(/Run the same command again to resume/);
    const kept = storedAnswers('llama');
    expect(kept).toBeGreaterThan(0);
    mock.reset();
    const resumed = await cli(['judge', '--project', project, '--judge', 'llama', '--dataset', 'news']).done;
    expect(resumed.code).toBe(0);
    expect(mock.count()).toBe(60 - kept);
  });

  it('the key is in no project file, export, list or output, even when the endpoint echoes it', async () => {
    add('leaky', 'm3', ['--retries', '0', '--concurrency', '4']);
    mock.setResponder((req) =>
      /\(\d+\.0\)/.test(req.sentence ?? '')
        ? {
            type: 'status',
            status: 400,
            body: JSON.stringify({ error: { message: `rejected ${String(req.headers.authorization)} (key ${KEY})` } }),
          }
        : undefined,
    );
    const run = await cli(['judge', '--project', project, '--judge', 'leaky']).done;
    mock.setResponder(undefined);
    expect(run.code).toBe(3); // some calls failed: a rerun retries them
    expect(run.stdout).toMatch(/20 failed calls/);
    expect(run.stderr).toMatch(/client_error 20/);
    expect(
      mock.requests.filter((r) => r.body?.model === 'm3').every((r) => r.headers.authorization === `Bearer ${KEY}`),
    ).toBe(true);

    const outputs: string[] = [];
    for (const [name, args] of [
      ['p.jsonl', ['--predictions']],
      ['p.csv', ['--predictions']],
      ['l.jsonl', ['--history']],
      ['l.csv', []],
    ] as const) {
      printed.push(mustLoupe(['export', '--project', project, '--out', join(dir, name), ...args], env));
      outputs.push(readFileSync(join(dir, name), 'utf8'));
    }
    expect(outputs[0]!.split('\n').filter(Boolean)).toHaveLength(60 + 60 + 40);
    printed.push(mustLoupe(['judges', 'list', '--project', project, '--json'], env));
    printed.push(mustLoupe(['judges', 'list', '--project', project], env));
    printed.push(mustLoupe(['judges', 'preview', 'leaky', '--project', project], env));
    expect(printed.join('\n')).toContain('<key from $LOUPE_E2E_KEY>');

    const key = Buffer.from(KEY);
    for (const text of [...printed, ...outputs]) expect(text.includes(KEY)).toBe(false);
    for (const file of readdirSync(dir).filter((f) => f.startsWith('cli.loupe'))) {
      expect(readFileSync(join(dir, file)).includes(key), file).toBe(false);
    }
    // The stored error messages were redacted, not dropped.
    const db = new Database(project, { readonly: true });
    const messages = db
      .prepare(`SELECT error_message AS m FROM judge_predictions WHERE error_kind IS NOT NULL`)
      .all() as Array<{ m: string }>;
    db.close();
    expect(messages).toHaveLength(20);
    expect(messages.every((x) => x.m.includes('[redacted]'))).toBe(true);
    expect(existsSync(join(dir, 'judge-keys.json'))).toBe(false); // the CLI never stores keys
  });
});
