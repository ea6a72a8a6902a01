import Database from 'better-sqlite3';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../electron/core/index';
import { startServer, type RunningServer } from '../../electron/serve/server';
import { tempDir } from '../helpers/tmp';

const dir = tempDir();
let server: RunningServer;

/** Raw HTTP so the test controls every header a browser or an attacker would send. */
function call(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method: init.method ?? 'GET', headers: { host: `127.0.0.1:${server.port}`, ...init.headers } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    if (init.body) req.write(init.body);
    req.end();
  });
}

const api = (method: string, headers: Record<string, string>, body = '{}') =>
  call(`/api/${method}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

beforeAll(async () => {
  const staticDir = join(dir, 'static');
  mkdirSync(staticDir);
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  const core = createCore({ Database, stateDir: dir, demoDir: dir, host: 'web', fileDialogs: false, canSwitchProjects: false });
  core.createProject(join(dir, 'p.loupe'));
  server = await startServer({ handlers: core.handlers, staticDir });
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
    expect((await api('app.info', { host: `evil.example:${server.port}`, 'x-loupe-token': server.token })).status).toBe(421);
  });

  it('refuses form posts (no JSON content type) and GETs on the API', async () => {
    expect((await call('/api/app.info', { method: 'POST', headers: { 'x-loupe-token': server.token, 'content-type': 'text/plain' }, body: '{}' })).status).toBe(415);
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
    const imp = await api('imports.start', { 'x-loupe-token': server.token }, JSON.stringify({ source: { type: 'path', path: '/etc' } }));
    expect(JSON.parse(imp.body).error.code).toBe('unsupported');
  });
});
