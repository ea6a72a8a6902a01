/**
 * The `app://loupe/` scheme the window loads the renderer from, instead of file:// (a file://
 * page shares its origin with every local file; this one is an origin of its own, and the
 * grantFileProtocolExtraPrivileges fuse is off). The handler serves only the files of the built
 * renderer folder: a path that decodes to anything outside it (`..`, `%2e%2e`, `%2f`, a
 * backslash, a NUL) and a missing file answer 404. Every response carries the CSP.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { protocol } from 'electron';

export const APP_SCHEME = 'app';
export const APP_HOST = 'loupe';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

/**
 * The policy of every page response (the renderer's <meta> policy plus frame-ancestors, which only
 * a header can carry). window.ts sets the same literal on the session (electronegativity reads
 * it there); a test checks the two are equal.
 */
export const APP_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const MIME_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

export function mimeTypeFor(filePath: string): string {
  return MIME_TYPES[path.extname(filePath).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Registers the scheme as standard and secure (a real origin, like https) with fetch support.
 * Not `bypassCSP`, not service workers, not CORS: nothing else may read from it. Must run before
 * the app is ready.
 */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
  ]);
}

/**
 * The file of `rendererDir` a URL names, or null when it names none: another host, a path that
 * cannot be decoded, or one that would resolve outside the folder.
 */
export function resolveAppFile(rawUrl: string, rendererDir: string): string | null {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return null;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.pathname);
  } catch {
    return null; // malformed escape
  }
  // Separators and dot segments the URL parser did not see (they were escaped) stay refused.
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/').filter((s) => s !== '');
  if (segments.some((s) => s === '..' || s === '.')) return null;
  const relative = segments.length === 0 ? 'index.html' : segments.join('/');
  const root = path.resolve(rendererDir);
  const file = path.resolve(root, relative);
  const inside = path.relative(root, file);
  if (inside === '' || inside.startsWith('..') || path.isAbsolute(inside)) return null;
  return file;
}

function headersFor(contentType: string): Record<string, string> {
  return {
    'Content-Type': contentType,
    'Content-Security-Policy': APP_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-cache',
  };
}

function notFound(): Response {
  return new Response('Not found', { status: 404, headers: headersFor('text/plain; charset=utf-8') });
}

export interface AppProtocolDeps {
  /** The built renderer folder (`out/renderer`, inside app.asar when packaged). */
  rendererDir: string;
  /** Defaults to fs.promises.readFile (Electron's fs reads inside app.asar). */
  readFile?(file: string): Promise<Uint8Array>;
}

/** The `protocol.handle` handler of the app scheme. */
export function createAppProtocolHandler(deps: AppProtocolDeps): (request: Request) => Promise<Response> {
  const readFile = deps.readFile ?? ((file: string) => fs.readFile(file));
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new Response('Method not allowed', {
        status: 405,
        headers: { ...headersFor('text/plain; charset=utf-8'), Allow: 'GET, HEAD' },
      });
    }
    const file = resolveAppFile(request.url, deps.rendererDir);
    if (!file) return notFound();
    let body: Uint8Array;
    try {
      body = await readFile(file);
    } catch {
      return notFound(); // missing, a directory, unreadable
    }
    return new Response(request.method === 'HEAD' ? null : Buffer.from(body), {
      status: 200,
      headers: headersFor(mimeTypeFor(file)),
    });
  };
}

/** Serves the renderer on app://loupe/ (after ready, before the window loads). */
export function installAppProtocol(rendererDir: string): void {
  protocol.handle(APP_SCHEME, createAppProtocolHandler({ rendererDir }));
}
