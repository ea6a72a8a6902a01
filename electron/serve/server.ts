/**
 * `loupe serve`: the same UI in a browser, Prodigy-style. Binds 127.0.0.1 only, and answers an
 * API call only when it carries the session token, names this server in its Host header (no DNS
 * rebinding) and, when the browser says where it comes from, comes from this server's own origin
 * (no cross-site requests).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import type { ApiHandlers, Envelope } from '../../shared/api';
import { dispatch } from '../core/index';

export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; font-src 'self'; " +
  "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const MAX_BODY_BYTES = 256 * 1024 * 1024;
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export interface ServeOptions {
  handlers: ApiHandlers;
  /** The built renderer (index.html and assets). */
  staticDir: string;
  port?: number;
  token?: string;
}

export interface RunningServer {
  url: string;
  token: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

function securityHeaders(res: ServerResponse): void {
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  // The token travels in the first page's URL: never hand it on in a Referer.
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
}

function sendJson(res: ServerResponse, status: number, body: Envelope): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(text);
}

function refuse(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, { ok: false, error: { code: status === 404 ? 'not_found' : 'unsupported', message } });
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new Error('body too large');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  let allowedHosts: Set<string> = new Set();
  let allowedOrigins: Set<string> = new Set();

  const server = createServer((req, res) => {
    securityHeaders(res);
    // DNS rebinding: a hostile name resolving to 127.0.0.1 still says its own name in Host.
    if (!allowedHosts.has(req.headers.host ?? '')) return refuse(res, 421, 'Unknown host');
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    if (url.pathname.startsWith('/api/')) {
      void handleApi(req, res, url.pathname.slice('/api/'.length));
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'Method not allowed');
    serveStatic(res, url.pathname);
  });

  async function handleApi(req: IncomingMessage, res: ServerResponse, method: string): Promise<void> {
    if (req.method !== 'POST') return refuse(res, 405, 'API calls are POST');
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin)) return refuse(res, 403, 'Cross-origin request refused');
    const fetchSite = req.headers['sec-fetch-site'];
    if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') return refuse(res, 403, 'Cross-site request refused');
    const given = req.headers['x-loupe-token'];
    if (typeof given !== 'string' || !sameSecret(given, token)) return refuse(res, 401, 'Missing or wrong access token');
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return refuse(res, 415, 'API calls send application/json');
    let input: unknown;
    try {
      const body = await readBody(req);
      input = body.length === 0 ? {} : JSON.parse(body);
    } catch (err) {
      return sendJson(res, 400, { ok: false, error: { code: 'invalid_input', message: `Unreadable request body: ${(err as Error).message}` } });
    }
    const result = await dispatch(options.handlers, decodeURIComponent(method), input);
    sendJson(res, result.ok ? 200 : result.error.code === 'not_found' ? 404 : result.error.code === 'internal' ? 500 : 400, result);
  }

  function serveStatic(res: ServerResponse, pathname: string): void {
    const relative = pathname === '/' ? 'index.html' : decodeURIComponent(pathname).replace(/^\/+/, '');
    const file = normalize(join(options.staticDir, relative));
    if (!file.startsWith(normalize(options.staticDir) + sep) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Not found');
      return;
    }
    res.writeHead(200, {
      'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
      'Cache-Control': relative === 'index.html' ? 'no-store' : 'max-age=31536000, immutable',
    });
    createReadStream(file).pipe(res);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  allowedOrigins = new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    token,
    port,
    server,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
