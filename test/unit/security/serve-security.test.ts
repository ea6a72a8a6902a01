import Database from 'better-sqlite3';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiHandlers } from '../../../shared/api';
import { createCore } from '../../../electron/core/index';
import { startServer, type RunningServer } from '../../../electron/serve/server';
import { rawGet, rawRequest } from '../../helpers/raw-http';
import { tempDir } from '../../helpers/tmp';

const dir = tempDir();
let server: RunningServer;
let staticDir: string;
let handlers: ApiHandlers;
/** Small enough to test 413 without sending hundreds of megabytes. */
const MAX_BODY_BYTES = 64 * 1024;

/** Raw HTTP so the test controls every header a browser or an attacker would send. */
function call(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        path,
        method: init.method ?? 'GET',
        headers: { host: `127.0.0.1:${server.port}`, ...init.headers },
      },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on('error', reject);
    if (init.body) req.write(init.body);
    req.end();
  });
}

const api = (method: string, headers: Record<string, string>, body = '{}') =>
  call(`/api/${method}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

beforeAll(async () => {
  staticDir = join(dir, 'static');
  mkdirSync(staticDir);
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  const core = createCore({
    Database,
    stateDir: dir,
    demoDir: dir,
    host: 'web',
    fileDialogs: false,
    diskPaths: false,
    canSwitchProjects: false,
  });
  core.createProject(join(dir, 'p.loupe'));
  handlers = core.handlers;
  server = await startServer({ handlers, staticDir, maxBodyBytes: MAX_BODY_BYTES });
  afterAll(async () => {
    await server.close();
    core.close();
  });
});

describe('loupe serve security', () => {
  it('listens on 127.0.0.1 only and prints a URL with the token', () => {
    expect(server.server.address()).toMatchObject({ address: '127.0.0.1' });
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${server.token}`);
    expect(server.token.length).toBeGreaterThanOrEqual(32);
  });

  it('answers a call with the token from its own origin', async () => {
    const res = await api('app.info', { 'x-loupe-token': server.token, origin: `http://127.0.0.1:${server.port}` });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ ok: true, value: { host: 'web', canSwitchProjects: false } });
  });

  it('refuses a call without the token, or with a wrong one', async () => {
    expect((await api('app.info', {})).status).toBe(401);
    expect((await api('app.info', { 'x-loupe-token': 'x'.repeat(server.token.length) })).status).toBe(401);
  });

  it('refuses cross-origin requests even with the token (CSRF)', async () => {
    const res = await api('app.info', { 'x-loupe-token': server.token, origin: 'http://evil.example' });
    expect(res.status).toBe(403);
    const site = await api('app.info', { 'x-loupe-token': server.token, 'sec-fetch-site': 'cross-site' });
    expect(site.status).toBe(403);
  });

  it('refuses a foreign Host header (DNS rebinding), for pages and API alike', async () => {
    expect((await call('/', { headers: { host: 'rebind.example:80' } })).status).toBe(421);
    expect((await api('app.info', { host: `evil.example:${server.port}`, 'x-loupe-token': server.token })).status).toBe(
      421,
    );
  });

  it('refuses form posts (no JSON content type) and GETs on the API', async () => {
    expect(
      (
        await call('/api/app.info', {
          method: 'POST',
          headers: { 'x-loupe-token': server.token, 'content-type': 'text/plain' },
          body: '{}',
        })
      ).status,
    ).toBe(415);
    expect((await call('/api/app.info', { headers: { 'x-loupe-token': server.token } })).status).toBe(405);
  });

  it('sends a strict CSP and no referrer on pages, and does not serve files outside its folder', async () => {
    const page = await call('/');
    expect(page.status).toBe(200);
    expect(String(page.headers['content-security-policy'])).toContain("script-src 'self'");
    expect(String(page.headers['content-security-policy'])).not.toContain('unsafe');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect((await call('/../p.loupe')).status).toBe(404);
    expect((await call('/%2e%2e/p.loupe')).status).toBe(404);
  });

  it('rejects invalid input with a readable error, and unknown methods', async () => {
    const bad = await api('annotation.load', { 'x-loupe-token': server.token }, JSON.stringify({ key: 'x' }));
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error.code).toBe('invalid_input');
    expect((await api('nope', { 'x-loupe-token': server.token })).status).toBe(404);
  });

  it('does not let the browser switch to another project file or import from a disk path', async () => {
    const open = await api('projects.open', { 'x-loupe-token': server.token }, JSON.stringify({ path: '/etc/passwd' }));
    expect(JSON.parse(open.body).error.code).toBe('unsupported');
    const imp = await api(
      'imports.start',
      { 'x-loupe-token': server.token },
      JSON.stringify({ source: { type: 'path', path: '/etc' } }),
    );
    expect(JSON.parse(imp.body).error.code).toBe('unsupported');
  });
});

/** A raw POST to the API with the token, from this server's origin, with the exact body bytes given. */
function rawApi(
  method: string,
  body: string | Buffer,
  extraHeaders: string[] = [],
): Promise<Awaited<ReturnType<typeof rawRequest>>> {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const head = [
    `POST /api/${method} HTTP/1.1`,
    `Host: 127.0.0.1:${server.port}`,
    `X-Loupe-Token: ${server.token}`,
    'Content-Type: application/json',
    `Content-Length: ${bytes.length}`,
    ...extraHeaders,
    'Connection: close',
  ];
  return rawRequest(server.port, Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), bytes]), {
    withBody: true,
  });
}

/** A good call still succeeds (datasets.list: an empty list on this empty project). */
async function stillAnswers(): Promise<void> {
  const res = await api('datasets.list', { 'x-loupe-token': server.token });
  expect(res.status).toBe(200);
  expect(JSON.parse(res.body)).toEqual({ ok: true, value: [] });
}

describe('loupe serve on hostile request targets', () => {
  // Each of these threw out of the request handler and ended the process before the fix.
  it.each([
    '/%',
    '/%E0%A4%A',
    '/%c0%ae%c0%ae/p.loupe',
    '/%c0%ae%c0%ae%c0%af%c0%ae%c0%ae%c0%afp.loupe',
    '/%00',
    '/index.html%00.js',
  ])('answers GET %s with 400 and keeps serving', async (target) => {
    const res = await rawGet(server.port, target);
    expect(res.status).toBe(400);
    await stillAnswers();
  });

  it('answers an absolute-form target that does not parse (GET http://[ HTTP/1.1) with 400', async () => {
    expect((await rawGet(server.port, 'http://[')).status).toBe(400);
    expect((await rawGet(server.port, 'http://[::1')).status).toBe(400);
    await stillAnswers();
  });

  it('serves an absolute-form target that parses by its path, still under the Host check', async () => {
    expect((await rawGet(server.port, `http://127.0.0.1:${server.port}/`)).status).toBe(200);
    expect((await rawGet(server.port, 'http://evil.example/', { host: 'evil.example' })).status).toBe(421);
    expect((await rawGet(server.port, '*')).status).toBe(404);
    expect((await rawGet(server.port, '*', { method: 'OPTIONS' })).status).toBe(405);
  });

  it('answers /api/% with the token 400 (an invalid_input envelope), not an exit', async () => {
    const res = await rawApi('%', '{}');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect((await rawApi('%E0%A4%A', '{}')).status).toBe(400);
    expect((await rawApi('datasets%2Elist', '{}')).status).toBe(200);
    await stillAnswers();
  });

  it('keeps the traversal guard: decoded dot segments never leave the static folder', async () => {
    expect((await rawGet(server.port, '/%2e%2e/p.loupe')).status).toBe(404);
    expect((await rawGet(server.port, '/..%2fp.loupe')).status).toBe(404);
    expect((await rawGet(server.port, '/%2e%2e%2fp.loupe')).status).toBe(404);
    expect((await rawGet(server.port, '/index.html')).status).toBe(200);
  });

  it('answers unknown paths and methods 404, and an unknown API method 404', async () => {
    expect((await rawGet(server.port, '/nope/%41')).status).toBe(404);
    expect((await rawGet(server.port, '/', { method: 'DELETE' })).status).toBe(405);
    expect((await rawApi('nope', '{}')).status).toBe(404);
    expect((await rawApi('__proto__', '{}')).status).toBe(404);
  });

  it('answers a malformed or non-UTF-8 JSON body with a 400 envelope', async () => {
    for (const body of ['{', '[1,', '{"a":}', 'nul', Buffer.from([0xff, 0xfe, 0x7b])]) {
      const res = await rawApi('datasets.list', body);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    }
  });

  it('answers an oversize body 413, whether declared up front or only found while reading', async () => {
    const declared = await rawRequest(
      server.port,
      `POST /api/datasets.list HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nX-Loupe-Token: ${server.token}\r\nContent-Type: application/json\r\nContent-Length: ${MAX_BODY_BYTES + 1}\r\n\r\n`,
      { withBody: true },
    );
    expect(declared.status).toBe(413);
    expect(declared.headers.connection).toBe('close');
    const chunked = `POST /api/datasets.list HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nX-Loupe-Token: ${server.token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const piece = 'x'.repeat(16 * 1024);
    const chunks = Array.from({ length: 5 }, () => `${piece.length.toString(16)}\r\n${piece}\r\n`).join('');
    expect((await rawRequest(server.port, `${chunked}${chunks}0\r\n\r\n`, { withBody: true })).status).toBe(413);
    await stillAnswers();
  });

  it('answers bytes the HTTP parser rejects (clientError) with 400 or 431, and CONNECT with 405', async () => {
    expect((await rawRequest(server.port, 'GARBAGE\r\n\r\n')).status).toBe(400);
    expect((await rawGet(server.port, '/', { headers: ['no colon here'] })).status).toBe(400);
    expect((await rawGet(server.port, '/', { headers: [`X-Big: ${'a'.repeat(20_000)}`] })).status).toBe(431);
    expect((await rawGet(server.port, '/', { headers: ['Content-Length: 1', 'Content-Length: 2'] })).status).toBe(400);
    expect(
      (
        await rawRequest(
          server.port,
          `CONNECT 127.0.0.1:${server.port} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`,
        )
      ).status,
    ).toBe(405);
    await stillAnswers();
  });

  it('answers 500 when a handler throws something that cannot even be described, and keeps serving', async () => {
    // A thrown null-prototype object makes the error formatter itself throw: the rejection escapes
    // dispatch, which used to be an unhandled rejection (process exit) behind `void handleApi(...)`.
    const throwing: ApiHandlers = {
      ...handlers,
      'datasets.list': async () => {
        throw Object.create(null) as Error;
      },
    };
    const fragile = await startServer({ handlers: throwing, staticDir });
    try {
      const res = await rawRequest(
        fragile.port,
        `POST /api/datasets.list HTTP/1.1\r\nHost: 127.0.0.1:${fragile.port}\r\nX-Loupe-Token: ${fragile.token}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
        { withBody: true },
      );
      expect(res.status).toBe(500);
      expect(JSON.parse(res.body)).toMatchObject({ ok: false, error: { code: 'internal' } });
      expect((await rawGet(fragile.port, '/')).status).toBe(200);
    } finally {
      await fragile.close();
    }
  });
});
