/**
 * Over HTTP, in process: `loupe serve`'s core (makeCore with web, as the
 * serve command builds it) behind the real HTTP server, the mock endpoint counting requests.
 *
 * - A judge may name only the key variables the person who started serve allowed: naming another
 *   is refused at judges.add and judges.update, and a judge stored earlier (by the CLI, which reads
 *   any variable) is refused at judges.start, each naming --allow-key-env, with no request sent.
 * - An endpoint that echoes keys leaves no trace of any known secret (the judge's key, another
 *   allowed variable's value) in the project file bytes, the
 *   stored raw answers and errors, the run status, the predictions export, the dataset card or
 *   what serve writes to stderr.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { JudgeInfo, JudgeRunStatus } from '../../../shared/api';
import { createKeyAccess } from '../../../electron/core/keys';
import { redact } from '../../../shared/judges/redact';
import { makeCore } from '../../../electron/cli/client';
import type { Core } from '../../../electron/core/index';
import { runImport } from '../../../electron/core/imports/run';
import { createLinkRegistry } from '../../../electron/serve/links';
import { startServer, type RunningServer } from '../../../electron/serve/server';
import { startMockOpenAI, type MockServer } from '../../mock-openai/server';
import { summaryRows } from '../../mock-openai/project';
import { tempDir } from '../../helpers/tmp';

// Not shaped like keys (no "sk-", no "Bearer"): only the known-secret redaction can catch them.
const PRIVATE = 'private-value-of-the-serve-process-1618';
const ALLOWED = 'allowed-judge-key-value-2718281828';
const OTHER = 'other-allowed-secret-value-3141592653';
const CLI_KEY = 'key-the-cli-resolved-earlier-5772156649';
const ENV = {
  PRIVATE: 'LOUPE_KEYS_TEST_PRIVATE',
  ALLOWED: 'LOUPE_KEYS_TEST_ALLOWED',
  OTHER: 'LOUPE_KEYS_TEST_OTHER',
  CLI: 'LOUPE_KEYS_TEST_CLI',
} as const;
const SECRETS = [PRIVATE, ALLOWED, OTHER];

const dir = tempDir('loupe-judge-keys-');
const project = join(dir, 'keys.loupe');
let mock: MockServer;
let server: RunningServer;
let core: Core;
const stderr: string[] = [];

interface Envelope<T> {
  ok: boolean;
  value?: T;
  error?: { code: string; message: string };
}

function api<T>(method: string, input: unknown = {}): Promise<Envelope<T>> {
  const body = JSON.stringify(input);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        path: `/api/${method}`,
        method: 'POST',
        headers: {
          host: `127.0.0.1:${server.port}`,
          origin: `http://127.0.0.1:${server.port}`,
          'content-type': 'application/json',
          'x-loupe-token': server.token,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve(JSON.parse(text) as Envelope<T>));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function ok<T>(method: string, input: unknown = {}): Promise<T> {
  const answer = await api<T>(method, input);
  if (!answer.ok) throw new Error(`${method}: ${answer.error?.code}: ${answer.error?.message}`);
  return answer.value as T;
}

async function runToEnd(name: string): Promise<JudgeRunStatus> {
  let status = await ok<JudgeRunStatus>('judges.start', { name });
  while (status.state === 'running') {
    await new Promise((r) => setTimeout(r, 5));
    status = await ok<JudgeRunStatus>('judges.status', { runId: status.runId });
  }
  return status;
}

const endpoint = (model: string, apiKeyEnv: string | null, extra: Record<string, unknown> = {}) => ({
  kind: 'endpoint',
  baseUrl: mock.url,
  model,
  apiKeyEnv,
  concurrency: 2,
  retries: 0,
  ...extra,
});

beforeAll(async () => {
  mock = await startMockOpenAI();
  vi.stubEnv('LOUPE_STATE_DIR', join(dir, 'state'));
  vi.stubEnv(ENV.PRIVATE, PRIVATE);
  vi.stubEnv(ENV.ALLOWED, ALLOWED);
  vi.stubEnv(ENV.OTHER, OTHER);
  vi.stubEnv(ENV.CLI, CLI_KEY);

  // The CLI's own commands (the person at the terminal) may name any variable: stored earlier.
  const cli = makeCore({ web: false });
  cli.createProject(project);
  await runImport(cli.repository(), {
    source: {
      type: 'upload',
      name: 'rows.jsonl',
      text: summaryRows(2)
        .map((r) => JSON.stringify(r))
        .join('\n'),
    },
  });
  await cli.handlers['judges.add']({ name: 'earlier', config: endpoint('m-earlier', ENV.PRIVATE) as never });
  await cli.handlers['judges.add']({ name: 'cli', config: endpoint('m-cli', ENV.CLI) as never });
  const run = cli.judges.startRun('cli', {});
  await run.finished;
  expect(mock.requests.map((r) => r.headers.authorization)).toEqual(Array(6).fill(`Bearer ${CLI_KEY}`));
  cli.close();

  // `loupe serve --allow-key-env LOUPE_KEYS_TEST_ALLOWED --allow-key-env LOUPE_KEYS_TEST_OTHER`
  const staticDir = join(dir, 'static');
  mkdirSync(staticDir);
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  const links = createLinkRegistry();
  core = makeCore({ web: true, links, allowedKeyEnv: new Set([ENV.ALLOWED, ENV.OTHER]) });
  core.openProject(project);
  server = await startServer({ handlers: core.handlers, staticDir, links });
  const write = process.stderr.write.bind(process.stderr);
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
    stderr.push(String(chunk));
    return (write as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
  });
  mock.reset();
});

afterAll(async () => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  await server?.close();
  core?.close();
  await mock.close();
});

describe('over HTTP a judge names only the key variables serve was started with', () => {
  it('refuses another variable at judges.add, judges.update and (for a judge stored earlier) judges.start, sending nothing', async () => {
    const added = await api<JudgeInfo>('judges.add', { name: 'thief', config: endpoint('m-thief', ENV.PRIVATE) });
    expect(added.ok).toBe(false);
    expect(added.error?.code).toBe('forbidden');
    expect(added.error?.message).toContain(`--allow-key-env ${ENV.PRIVATE}`);
    expect((await ok<JudgeInfo[]>('judges.list')).map((j) => j.name)).not.toContain('thief');

    await ok('judges.add', { name: 'plain', config: endpoint('m-plain', ENV.ALLOWED) });
    const updated = await api('judges.update', { name: 'plain', config: endpoint('m-plain', ENV.PRIVATE) });
    expect(updated.error?.code).toBe('forbidden');
    expect(updated.error?.message).toContain(`--allow-key-env ${ENV.PRIVATE}`);
    expect((await ok<JudgeInfo[]>('judges.list')).find((j) => j.name === 'plain')?.apiKeyEnv).toBe(ENV.ALLOWED);

    const started = await api('judges.start', { name: 'earlier' });
    expect(started.error?.code).toBe('forbidden');
    expect(started.error?.message).toContain(`--allow-key-env ${ENV.PRIVATE}`);
    // A batch import's redaction does not read it either, and nothing was sent anywhere.
    expect(mock.count()).toBe(0);
    expect(JSON.stringify([added, updated, started])).not.toContain(PRIVATE);
  });

  it('an allowed variable is sent as the key, and no known secret an endpoint echoes is stored, exported, shown or logged', async () => {
    // Answers echo the bare key, one sentence's error body too, another answer carries the other
    // allowed variable's value (which no judge of this run uses).
    mock.setResponder((req) => {
      const sentence = req.sentence ?? '';
      if (sentence.includes('(0.0)')) return { type: 'echoKey', status: 401 };
      if (sentence.includes('(0.1)')) return { type: 'answer', content: `{"faithful": 0} also seen: ${OTHER}` };
      return { type: 'echoKey' };
    });
    await ok('judges.add', { name: 'echo', config: endpoint('m-echo', ENV.ALLOWED) });
    const status = await runToEnd('echo');
    mock.setResponder(undefined);
    expect(mock.requests.map((r) => r.headers.authorization)).toEqual(Array(6).fill(`Bearer ${ALLOWED}`));
    expect(status).toMatchObject({ state: 'done', failed: 1 });

    const shown = JSON.stringify([status, await ok('judges.runs'), await ok('judges.list')]);
    const predictions = await ok<{ content: string }>('export.build', { format: 'jsonl', predictions: true });
    const predictionsCsv = await ok<{ content: string }>('export.build', { format: 'csv', predictions: true });
    const card = await ok<{ content: string }>('export.build', { format: 'jsonl', card: true });
    expect(predictions.content).toContain('"judge":"echo"');
    expect(card.content).toContain('"name": "echo"');
    for (const text of [shown, predictions.content, predictionsCsv.content, card.content, stderr.join('')]) {
      for (const secret of [...SECRETS, CLI_KEY]) expect(text).not.toContain(secret);
    }

    // What was stored says it was redacted, and the file bytes (database and WAL) hold no secret.
    const db = new Database(project, { readonly: true });
    const rows = db
      .prepare(
        `SELECT p.raw, p.error_message AS error FROM judge_predictions p JOIN judge_versions v ON v.id = p.judge_version_id JOIN judges j ON j.id = v.judge_id WHERE j.name = 'echo'`,
      )
      .all() as Array<{ raw: string | null; error: string | null }>;
    db.close();
    expect(rows).toHaveLength(6);
    expect(rows.filter((r) => (r.raw ?? r.error ?? '').includes('[redacted]'))).toHaveLength(6);
    const bytes = () => [project, `${project}-wal`].filter(existsSync).map((f) => readFileSync(f));
    for (const file of bytes())
      for (const secret of [...SECRETS, CLI_KEY]) expect(file.includes(Buffer.from(secret))).toBe(false);
  });

  it('the dataset card drops a known secret that a judge setting holds (its configuration keeps it: requests need it)', async () => {
    await ok('judges.add', {
      name: 'configured',
      config: endpoint('m-configured', ENV.ALLOWED, { extra: { provider_token: OTHER } }),
    });
    const card = await ok<{ content: string }>('export.build', { format: 'jsonl', card: true });
    expect(card.content).toContain('"name": "configured"');
    expect(card.content).toContain('"provider_token": "[redacted]"');
    expect(card.content).not.toContain(OTHER);
  });
});

describe('the known secrets', () => {
  it('hold the allowed variables from the start and each resolved key, in their JSON-escaped form too', () => {
    const keys = createKeyAccess({
      env: { A: 'alpha-secret', B: 'be"ta\\secret', C: 'gamma-secret' },
      allowedKeyEnv: new Set(['A', 'B']),
    });
    expect(keys.known).toEqual(['alpha-secret', 'be"ta\\secret', 'be\\"ta\\\\secret']);
    expect(() => keys.readEnv('C', 'The judge "x"')).toThrow(/--allow-key-env C/);
    const any = createKeyAccess({ env: { C: 'gamma-secret' }, allowedKeyEnv: 'any' });
    expect(any.known).toEqual([]);
    expect(any.readEnv('C', 'x')).toBe('gamma-secret');
    expect(any.redactKnown('gamma-secret in "Bearer words" of a document')).toBe(
      '[redacted] in "Bearer words" of a document',
    );
    // The shape-based redaction stays for endpoint messages.
    expect(redact('Bearer abc', any.known)).toBe('Bearer [redacted]');
  });
});
