/**
 * End to end: the real `loupe serve` child with `--allow-key-env`, the mock
 * endpoint in this process counting requests, and the real `loupe judge` on the same project.
 * Over HTTP a judge naming a variable serve was not started with is refused (add, and start of a
 * judge the CLI stored earlier) naming --allow-key-env, and nothing is sent; an allowed variable
 * is sent as the key and an echo of it is in no file byte, status or stderr; the CLI's own
 * `loupe judge` still reads whatever variable its judge names.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JudgeRunStatus } from '../../shared/api';
import { mustLoupe, writeJsonl } from '../helpers/project';
import { loupeArgs, REPO, startServe, type ServeProcess } from '../helpers/serve';
import { tempDir } from '../helpers/tmp';
import { startMockOpenAI, type MockServer } from '../mock-openai/server';
import { summaryRows, until } from '../mock-openai/project';

const PRIVATE = 'serve-process-private-value-1123581321';
const ALLOWED = 'serve-allowed-key-value-2357111317';
const dir = tempDir('loupe-serve-keys-');
const project = join(dir, 'keys.loupe');
const env = { LOUPE_STATE_DIR: dir, LOUPE_SERVE_KEYS_PRIVATE: PRIVATE, LOUPE_SERVE_KEYS_ALLOWED: ALLOWED };
let mock: MockServer;
let serve: ServeProcess;

interface Envelope<T> {
  ok: boolean;
  value?: T;
  error?: { code: string; message: string };
}

async function api<T>(method: string, input: unknown): Promise<Envelope<T>> {
  const res = await fetch(`${serve.origin}/api/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-loupe-token': serve.lead.token, origin: serve.origin },
    body: JSON.stringify(input),
  });
  return (await res.json()) as Envelope<T>;
}

/** `loupe judge` without blocking this process's event loop (the mock answers from here). */
function loupeJudge(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, loupeArgs(['judge', ...args]), {
    cwd: REPO,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

const endpoint = (model: string, apiKeyEnv: string) => ({
  kind: 'endpoint',
  baseUrl: mock.url,
  model,
  apiKeyEnv,
  retries: 0,
  concurrency: 2,
});

beforeAll(async () => {
  mock = await startMockOpenAI();
  mustLoupe(['import', writeJsonl(join(dir, 'rows.jsonl'), summaryRows(2)), '--project', project], env);
  // Stored by the person at the terminal, naming a variable serve will not allow.
  mustLoupe(
    [
      'judges',
      'add',
      'earlier',
      '--project',
      project,
      '--base-url',
      mock.url,
      '--model',
      'm-earlier',
      '--api-key-env',
      'LOUPE_SERVE_KEYS_PRIVATE',
      '--retries',
      '0',
    ],
    env,
  );
  serve = await startServe(['--project', project, '--allow-key-env', 'LOUPE_SERVE_KEYS_ALLOWED'], env);
});

afterAll(async () => {
  await serve?.stop();
  await mock?.close();
});

describe('loupe serve --allow-key-env', () => {
  it('refuses a variable it was not started with, at judges.add and at judges.start of a judge stored earlier, sending nothing', async () => {
    // stderr follows the printed links: wait for the line rather than race it.
    await until(
      () => serve.stderr().includes('Endpoint judges may read their API key from: $LOUPE_SERVE_KEYS_ALLOWED'),
      10_000,
      'the allowed names on stderr',
    );
    mock.reset();
    const added = await api('judges.add', { name: 'thief', config: endpoint('m-thief', 'LOUPE_SERVE_KEYS_PRIVATE') });
    expect(added).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(added.error?.message).toContain('--allow-key-env LOUPE_SERVE_KEYS_PRIVATE');
    const started = await api('judges.start', { name: 'earlier' });
    expect(started).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(started.error?.message).toContain('--allow-key-env LOUPE_SERVE_KEYS_PRIVATE');
    expect(mock.count()).toBe(0);
  });

  it('sends an allowed variable as the key; its echo is in no file byte, run status or stderr', async () => {
    mock.reset();
    mock.setResponder((req) =>
      (req.sentence ?? '').includes('(1.2)') ? { type: 'echoKey', status: 401 } : { type: 'echoKey' },
    );
    const added = await api('judges.add', {
      name: 'allowed',
      config: endpoint('m-allowed', 'LOUPE_SERVE_KEYS_ALLOWED'),
    });
    expect(added.ok).toBe(true);
    let status = (await api<JudgeRunStatus>('judges.start', { name: 'allowed' })).value!;
    while (status.state === 'running') {
      await new Promise((r) => setTimeout(r, 10));
      status = (await api<JudgeRunStatus>('judges.status', { runId: status.runId })).value!;
    }
    mock.setResponder(undefined);
    expect(mock.requests.map((r) => r.headers.authorization)).toEqual(Array(6).fill(`Bearer ${ALLOWED}`));
    expect(status).toMatchObject({ state: 'done', ok: 5, failed: 1 });
    const shown = JSON.stringify([
      status,
      (await api('judges.runs', {})).value,
      (await api('export.build', { format: 'jsonl', predictions: true })).value,
      (await api('export.build', { format: 'jsonl', card: true })).value,
    ]);
    expect(shown).toContain('"judge":"allowed"');
    expect(shown).not.toContain(ALLOWED);
    await serve.stop();
    for (const file of [project, `${project}-wal`])
      if (existsSync(file)) expect(readFileSync(file).includes(Buffer.from(ALLOWED))).toBe(false);
    expect(serve.stderr()).not.toContain(ALLOWED);
    expect(serve.stderr()).not.toContain(PRIVATE);
  });

  it("the CLI's own loupe judge reads the variable its judge names, allowed or not", async () => {
    mock.reset();
    const run = await loupeJudge(['--project', project, '--judge', 'earlier']);
    expect(run.code, run.stderr).toBe(0);
    expect(mock.requests.map((r) => r.headers.authorization)).toEqual(Array(6).fill(`Bearer ${PRIVATE}`));
    expect(run.stdout + run.stderr).not.toContain(PRIVATE);
  });
});
