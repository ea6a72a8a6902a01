/**
 * `loupe serve`: the same UI in a browser, Prodigy-style. Binds 127.0.0.1 only, and answers an
 * API call only when it carries the session token, names this server in its Host header (no DNS
 * rebinding) and, when the browser says where it comes from, comes from this server's own origin
 * (no cross-site requests).
 *
 * Roles: the session token is the lead's (everything); an annotator link's token (see
 * ./links.ts) makes its calls the annotator's, and dispatch refuses what that role may not call
 * (403) before any handler runs. A token that is neither (wrong, or a revoked link) is 401.
 *
 * Live views: `GET /api/events` is a server-sent event stream of the core's change events, with
 * the same token, Host and origin checks as a call; each event is filtered for the token's role
 * (`changeFor`: an annotator link hears nothing of judges), a comment line is sent as a heartbeat,
 * and a link revoked meanwhile ends its stream.
 *
 * Hostile input: every request ends in an HTTP answer, never in an exception that
 * takes the process down. Unparsable targets, malformed %-escapes and overlong UTF-8 are 400,
 * unknown paths 404, oversize bodies 413, a handler bug 500; bytes the HTTP parser itself
 * rejects get a 400/431 from the 'clientError' guard.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { pipeline } from 'node:stream';
import { extname, join, normalize, sep } from 'node:path';
import { LEAD, changeFor, type ApiHandlers, type Caller, type ChangeEvent, type Envelope } from '../../shared/api';
import type { ApiErrorCode } from '../../shared/errors';
import { dispatch } from '../core/index';
import { linkUrl, type ServeLinkRegistry } from './links';
import { newToken, sameSecret } from './secret';

export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; font-src 'self'; " +
  "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const DEFAULT_MAX_BODY_BYTES = 256 * 1024 * 1024;
const DEFAULT_HEARTBEAT_MS = 15_000;
/** What a browser's client waits before it reconnects a dropped event stream. */
const EVENTS_RETRY_MS = 1000;
export const EVENTS_PATH = '/api/events';
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
  /** Largest API request body accepted (default 256 MiB); larger ones are answered 413. */
  maxBodyBytes?: number;
  /** Annotator links (the same registry the core was given as its `links` capability). */
  links?: ServeLinkRegistry;
  /** The core's change events (`Core.onChange`), streamed at GET /api/events. */
  changes?: (listener: (event: ChangeEvent) => void) => () => void;
  /** How often an idle event stream gets a heartbeat comment (default 15 s). */
  heartbeatMs?: number;
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
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

const REFUSAL_CODES: Partial<Record<number, ApiErrorCode>> = {
  400: 'invalid_input',
  404: 'not_found',
  413: 'invalid_input',
  500: 'internal',
};

/** The HTTP status of a contract answer: a role refusal is 403, a missing thing 404, a bug 500, any other refusal 400. */
export function statusOf(result: Envelope): number {
  if (result.ok) return 200;
  const code = result.error.code;
  return code === 'forbidden' ? 403 : code === 'not_found' ? 404 : code === 'internal' ? 500 : 400;
}

function refuse(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, { ok: false, error: { code: REFUSAL_CODES[status] ?? 'unsupported', message } });
}

/** `decodeURIComponent` that answers null (not a URIError) for `%`, `%E0%A4%A`, overlong UTF-8 or a NUL. */
export function decodePercentEscapes(text: string): string | null {
  try {
    const decoded = decodeURIComponent(text);
    return decoded.includes('\0') ? null : decoded;
  } catch {
    return null;
  }
}

/** The request target as a URL, or null when it does not parse (e.g. absolute-form `http://[`). */
function parseTarget(target: string | undefined): URL | null {
  try {
    // A fixed base: the Host header is checked separately and never trusted to build URLs.
    return new URL(target ?? '/', 'http://127.0.0.1');
  } catch {
    return null;
  }
}

class BodyTooLarge extends Error {}

/** An error's message for the log, even for a thrown value that refuses to become a string. */
function describeError(err: unknown): string {
  if (err instanceof Error) return err.message;
  try {
    return String(err);
  } catch {
    return 'a value that cannot be shown';
  }
}

/** A bare answer written straight to the socket (no request object exists), then close. */
function answerOnSocket(socket: Duplex, status: number): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/**
 * Bytes the HTTP parser rejects (bad request line, bad header, oversized headers) never reach the
 * request handler: answer them here and close, as Node would, but without ever throwing.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET') socket.destroy();
  else
    answerOnSocket(
      socket,
      err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400,
    );
}

async function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxBytes) throw new BodyTooLarge(`body larger than ${maxBytes} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const token = options.token ?? newToken();
  let allowedHosts: Set<string> = new Set();
  let allowedOrigins: Set<string> = new Set();

  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;

  const server = createServer((req, res) => {
    // Every request ends in an answer: whatever escapes the handler becomes a 500, never an exit.
    answer(req, res).catch((err: unknown) => answerFailure(res, err));
  });
  server.on('clientError', answerClientError);
  // Without a listener Node drops CONNECT requests unanswered: say no instead.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => answerOnSocket(socket, 405));

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    securityHeaders(res);
    // DNS rebinding: a hostile name resolving to 127.0.0.1 still says its own name in Host.
    if (!allowedHosts.has(req.headers.host ?? '')) return refuse(res, 421, 'Unknown host');
    const url = parseTarget(req.url);
    if (url === null) return refuse(res, 400, 'Unparsable request target');
    if (url.pathname === EVENTS_PATH) return handleEvents(req, res);
    if (url.pathname.startsWith('/api/')) return handleApi(req, res, url.pathname.slice('/api/'.length));
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return refuse(res, 405, 'Method not allowed');
    }
    serveStatic(res, url.pathname);
  }

  function answerFailure(res: ServerResponse, err: unknown): void {
    try {
      process.stderr.write(`loupe serve: request failed: ${describeError(err)}\n`);
      if (res.headersSent) res.destroy();
      else refuse(res, 500, 'Internal error');
    } catch {
      res.destroy();
    }
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, encodedMethod: string): Promise<void> {
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      return refuse(res, 405, 'API calls are POST');
    }
    const crossSite = crossSiteRefusal(req);
    if (crossSite) return refuse(res, 403, crossSite);
    const caller = callerOf(req.headers['x-loupe-token']);
    if (caller === null) return refuse(res, 401, 'Missing, wrong or revoked access token');
    if (!(req.headers['content-type'] ?? '').startsWith('application/json'))
      return refuse(res, 415, 'API calls send application/json');
    const method = decodePercentEscapes(encodedMethod);
    if (method === null) return refuse(res, 400, 'Malformed %-escape in the method name');
    const declaredLength = Number(req.headers['content-length'] ?? 0);
    if (declaredLength > maxBodyBytes) return refuseTooLarge(res);
    let input: unknown;
    try {
      const body = await readBody(req, maxBodyBytes);
      input = body.length === 0 ? {} : JSON.parse(body);
    } catch (err) {
      if (err instanceof BodyTooLarge) return refuseTooLarge(res);
      return sendJson(res, 400, {
        ok: false,
        error: { code: 'invalid_input', message: `Unreadable request body: ${describeError(err)}` },
      });
    }
    // Checked again after the body: a link revoked while its request was on the way stores nothing.
    if (callerOf(req.headers['x-loupe-token']) === null)
      return refuse(res, 401, 'Missing, wrong or revoked access token');
    const result = await dispatch(options.handlers, method, input, caller);
    sendJson(res, statusOf(result), result);
  }

  /** Why a request from another site or origin is refused; null when it comes from this server's page. */
  function crossSiteRefusal(req: IncomingMessage): string | null {
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin)) return 'Cross-origin request refused';
    const fetchSite = req.headers['sec-fetch-site'];
    if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none')
      return 'Cross-site request refused';
    return null;
  }

  const streams = new Set<ServerResponse>();

  /** GET /api/events: the change events this token's role may see, as server-sent events. */
  function handleEvents(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'GET') {
      res.setHeader('Allow', 'GET');
      return refuse(res, 405, 'The event stream is GET');
    }
    const crossSite = crossSiteRefusal(req);
    if (crossSite) return refuse(res, 403, crossSite);
    const token = req.headers['x-loupe-token'];
    const caller = callerOf(token);
    if (caller === null) return refuse(res, 401, 'Missing, wrong or revoked access token');
    if (!options.changes) return refuse(res, 404, 'No event stream on this server');
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
    });
    res.write(`retry: ${EVENTS_RETRY_MS}\n: connected\n\n`);
    streams.add(res);
    // A link revoked while its stream is open hears nothing more.
    const stillAllowed = () => {
      if (callerOf(token) !== null) return true;
      res.end();
      return false;
    };
    const unsubscribe = options.changes((event) => {
      if (!stillAllowed()) return;
      const visible = changeFor(event, caller);
      if (visible) res.write(`id: ${visible.seq}\nevent: change\ndata: ${JSON.stringify(visible)}\n\n`);
    });
    const heartbeat = setInterval(() => {
      if (stillAllowed()) res.write(': heartbeat\n\n');
    }, options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS);
    const stop = () => {
      clearInterval(heartbeat);
      unsubscribe();
      streams.delete(res);
    };
    res.on('close', stop);
  }

  /** The lead for the session token, an annotator for a live link's token, else null. */
  function callerOf(given: string | string[] | undefined): Caller | null {
    if (typeof given !== 'string') return null;
    if (sameSecret(given, token)) return LEAD;
    return options.links?.callerFor(given) ?? null;
  }

  function refuseTooLarge(res: ServerResponse): void {
    // The rest of the body is not read: close the connection after the answer.
    res.setHeader('Connection', 'close');
    refuse(res, 413, `Request body larger than ${maxBodyBytes} bytes`);
  }

  function serveStatic(res: ServerResponse, pathname: string): void {
    const decoded = pathname === '/' ? 'index.html' : decodePercentEscapes(pathname);
    if (decoded === null) return refuse(res, 400, 'Malformed %-escape in the path');
    const relative = decoded.replace(/^\/+/, '');
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
    // A read error mid-file (file removed, permissions) cuts this response, not the process.
    pipeline(createReadStream(file), res, (err) => {
      if (err) res.destroy();
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  allowedOrigins = new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
  options.links?.setOrigin(`http://127.0.0.1:${port}`);
  return {
    url: linkUrl(`http://127.0.0.1:${port}`, token),
    token,
    port,
    server,
    close: () =>
      new Promise((resolve) => {
        // Open event streams would keep the server from closing: end them first.
        for (const stream of streams) stream.end();
        server.close(() => resolve());
      }),
  };
}
