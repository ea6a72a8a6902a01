/**
 * The app://loupe/ scheme the window loads the UI from (electron/main/protocol.ts), with
 * electron's protocol module mocked and real files on disk: index and assets with their MIME
 * types and the CSP, 404 for traversal (plain and encoded), other hosts and missing files.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

const h = vi.hoisted(() => ({
  privileged: [] as unknown[],
  handled: new Map<string, (request: Request) => Promise<Response>>(),
}));

vi.mock('electron', () => {
  const protocol = {
    registerSchemesAsPrivileged: (schemes: unknown[]) => h.privileged.push(...schemes),
    handle: (scheme: string, handler: (request: Request) => Promise<Response>) => h.handled.set(scheme, handler),
  };
  return { protocol, default: { protocol } };
});

import {
  APP_CSP,
  createAppProtocolHandler,
  installAppProtocol,
  registerAppScheme,
  resolveAppFile,
} from '../../../electron/main/protocol';

const dir = mkdtempSync(path.join(os.tmpdir(), 'loupe-protocol-'));
const rendererDir = path.join(dir, 'renderer');
mkdirSync(path.join(rendererDir, 'assets'), { recursive: true });
writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Loupe</title>');
writeFileSync(path.join(rendererDir, 'assets', 'index-abc.js'), 'console.log(1)');
writeFileSync(path.join(rendererDir, 'assets', 'index-abc.css'), 'body{}');
writeFileSync(path.join(rendererDir, 'assets', 'blob.bin'), 'x');
// Beside the renderer folder, and in a sibling folder whose name starts the same way.
writeFileSync(path.join(dir, 'secret.txt'), 'TOP SECRET');
mkdirSync(path.join(dir, 'renderer-evil'));
writeFileSync(path.join(dir, 'renderer-evil', 'x.js'), 'TOP SECRET');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const serve = createAppProtocolHandler({ rendererDir });
const get = (url: string, method = 'GET') => serve(new Request(url, { method }));

describe('app:// protocol handler', () => {
  it('serves index.html (also for app://loupe/) as HTML with the CSP', async () => {
    for (const url of ['app://loupe/index.html', 'app://loupe/', 'app://loupe/index.html?x=1#/annotate']) {
      const res = await get(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toBe(APP_CSP);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await res.text()).toContain('<title>Loupe</title>');
    }
    expect(APP_CSP).toContain("frame-ancestors 'none'");
    expect(APP_CSP).toContain("script-src 'self'");
  });

  it('serves assets with their MIME types (unknown extensions as octet-stream, not sniffed)', async () => {
    const js = await get('app://loupe/assets/index-abc.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await js.text()).toBe('console.log(1)');
    expect((await get('app://loupe/assets/index-abc.css')).headers.get('content-type')).toBe('text/css; charset=utf-8');
    const bin = await get('app://loupe/assets/blob.bin');
    expect(bin.headers.get('content-type')).toBe('application/octet-stream');
    expect(bin.headers.get('content-security-policy')).toBe(APP_CSP);
  });

  it.each([
    'app://loupe/../secret.txt',
    'app://loupe/assets/../../secret.txt',
    'app://loupe/%2e%2e/secret.txt',
    'app://loupe/%2E%2E/%2E%2E/secret.txt',
    'app://loupe/..%2fsecret.txt',
    'app://loupe/assets/..%2F..%2Fsecret.txt',
    'app://loupe/%2e%2e%2fsecret.txt',
    'app://loupe/..%5csecret.txt',
    'app://loupe/assets%5c..%5c..%5csecret.txt',
    'app://loupe/%2e%2e%2frenderer-evil%2fx.js',
    'app://loupe/index.html%00.js',
    'app://loupe/%',
    `app://loupe/${encodeURIComponent(path.join(dir, 'secret.txt'))}`,
  ])('refuses %s with 404, never the file outside', async (url) => {
    const res = await get(url);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('TOP SECRET');
  });

  it('answers 404 for unknown files, folders and other hosts', async () => {
    for (const url of [
      'app://loupe/missing.js',
      'app://loupe/assets/',
      'app://loupe/assets',
      'app://evil/index.html',
      'app://loupe.evil/index.html',
    ]) {
      const res = await get(url);
      expect(res.status, url).toBe(404);
      expect(res.headers.get('content-security-policy')).toBe(APP_CSP);
    }
  });

  it('allows GET and HEAD only', async () => {
    const head = await get('app://loupe/index.html', 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await get('app://loupe/index.html', 'POST');
    expect(post.status).toBe(405);
  });

  it('resolveAppFile names files inside the renderer folder only', () => {
    expect(resolveAppFile('app://loupe/assets/index-abc.js', rendererDir)).toBe(
      path.join(rendererDir, 'assets', 'index-abc.js'),
    );
    expect(resolveAppFile('app://loupe/', rendererDir)).toBe(path.join(rendererDir, 'index.html'));
    expect(resolveAppFile('app://loupe/..%2f..%2fsecret.txt', rendererDir)).toBeNull();
    expect(resolveAppFile('file:///etc/passwd', rendererDir)).toBeNull();
    expect(resolveAppFile('not a url', rendererDir)).toBeNull();
  });
});

describe('app:// registration', () => {
  it('declares app as a standard, secure scheme without bypassing the CSP', () => {
    registerAppScheme();
    expect(h.privileged).toEqual([
      { scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) },
    ]);
    const privileges = (h.privileged[0] as { privileges: Record<string, boolean> }).privileges;
    expect(privileges.bypassCSP).not.toBe(true);
    expect(privileges.allowServiceWorkers).not.toBe(true);
    expect(privileges.corsEnabled).not.toBe(true);
  });

  it('installAppProtocol handles the app scheme with the folder handler', async () => {
    installAppProtocol(rendererDir);
    const handler = h.handled.get('app')!;
    expect((await handler(new Request('app://loupe/index.html'))).status).toBe(200);
    expect((await handler(new Request('app://loupe/../secret.txt'))).status).toBe(404);
  });
});
