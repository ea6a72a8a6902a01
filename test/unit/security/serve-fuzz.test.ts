/**
 * A bounded, seeded fuzz of `loupe serve`'s HTTP surface. 2,000 requests with
 * hostile targets (%-sequences, overlong and invalid UTF-8, absolute- and asterisk-form), odd
 * methods and versions, duplicate, oversized and garbage headers, bad Host/Origin/Sec-Fetch-Site,
 * bad JSON bodies, with and without the token. Every one must get a well-formed HTTP answer below
 * 500, and the server must still answer a good call in between and afterwards.
 * The same seed gives the same requests on every machine; a failure names the seed and request.
 */
import Database from 'better-sqlite3';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStream, type Xoshiro128StarStar } from '../../../shared/stats/prng';
import { createCore } from '../../../electron/core/index';
import { startServer, type RunningServer } from '../../../electron/serve/server';
import { rawRequest, type RawAnswer } from '../../helpers/raw-http';
import { tempDir } from '../../helpers/tmp';

const SEED = 20_260_110;
const REQUESTS = 2_000;
const PARALLEL = 8;
/** A good call after every this many batches. */
const GOOD_CALL_EVERY = 25;
const MAX_BODY_BYTES = 64 * 1024;

const dir = tempDir();
let server: RunningServer;

beforeAll(async () => {
  const staticDir = join(dir, 'static');
  mkdirSync(join(staticDir, 'assets'), { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  writeFileSync(join(staticDir, 'assets', 'app.js'), 'export {};');
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
  server = await startServer({ handlers: core.handlers, staticDir, maxBodyBytes: MAX_BODY_BYTES });
  afterAll(async () => {
    await server.close();
    core.close();
  });
});

/** Draws from one seeded stream: the request list is a pure function of SEED. */
class Draw {
  constructor(private readonly stream: Xoshiro128StarStar) {}
  int(n: number): number {
    return this.stream.nextInt(n);
  }
  chance(p: number): boolean {
    return this.stream.nextFloat() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  times<T>(max: number, make: () => T): T[] {
    return Array.from({ length: this.int(max + 1) }, make);
  }
}

const SEGMENTS = [
  '%',
  '%4',
  '%ZZ',
  '%%',
  '%00',
  '%41',
  '%2e%2e',
  '%2E%2e',
  '..',
  '.',
  '%2f',
  '%5c',
  '%c0%ae',
  '%c0%af',
  '%e0%80%ae',
  '%c0%ae%c0%ae',
  '%ff',
  '%fe%ff',
  '%ed%a0%80',
  '%f4%90%80%80',
  '%E0%A4%A',
  '%e2%82%ac',
  '%F0%9F%98%80',
  'index.html',
  'p.loupe',
  'assets',
  'app.js',
  'api',
  '~',
  "!$&'()*+,;=:@",
  'a%20b',
  '%0d%0a',
  '%3Cimg%3E',
  '__proto__',
] as const;
// Read-only methods whose answer on an empty project is schema-stable (an empty list), plus odd names.
const API_METHODS = [
  'datasets.list',
  'datasets.list',
  'annotators.list',
  'projects.open',
  'nope',
  '',
  '%',
  '%E0%A4%A',
  'datasets%2Elist',
  '__proto__',
  'constructor',
  'datasets.list/x',
  '%c0%ae',
] as const;
const METHODS = [
  'GET',
  'GET',
  'GET',
  'HEAD',
  'POST',
  'POST',
  'POST',
  'POST',
  'PUT',
  'DELETE',
  'OPTIONS',
  'PATCH',
  'TRACE',
  'PROPFIND',
  'M-SEARCH',
  'CONNECT',
  'get',
  'FOO',
  'G@T',
  'P\tOST',
] as const;
const VERSIONS = [
  'HTTP/1.1',
  'HTTP/1.1',
  'HTTP/1.1',
  'HTTP/1.1',
  'HTTP/1.0',
  'HTTP/2.0',
  'HTTP/9.9',
  'HTTP/1.1x',
  'HTTX/1.1',
] as const;
const BODIES = [
  '',
  '{}',
  '{}',
  '{',
  '[1,',
  '{"a":}',
  'null',
  '"x"',
  '1e999999',
  '[]',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"x":1}}}',
  '{"path":"/etc/passwd"}',
] as const;

function segment(d: Draw): string {
  if (d.chance(0.1)) return 'a'.repeat(1 + d.int(3000));
  return d.pick(SEGMENTS);
}

function originForm(d: Draw): string {
  const prefix = d.pick(['/', '/', '/api/', '/assets/', '//']);
  const rest =
    prefix === '/api/' ? [d.pick(API_METHODS), ...d.times(1, () => segment(d))] : d.times(4, () => segment(d));
  let target = prefix + rest.join('/');
  if (d.chance(0.2)) target += `?${d.times(3, () => `${segment(d)}=${segment(d)}`).join('&')}`;
  if (d.chance(0.05)) target += `#${segment(d)}`;
  return target;
}

function target(d: Draw, port: number): string {
  const roll = d.int(100);
  if (roll < 75) return originForm(d);
  if (roll < 85) return `http://127.0.0.1:${port}${originForm(d)}`;
  if (roll < 95)
    return d.pick([
      'http://[',
      'http://[::1',
      'http://[::1]:99999/',
      'http://x:99999/',
      'http://%/',
      'https://evil.example/api/app.info',
      'file:///etc/passwd',
      'http:',
      'http://',
      `http://127.0.0.1:${port}`,
    ]);
  if (roll < 98) return '*';
  return `127.0.0.1:${port}`;
}

function hostLines(d: Draw, port: number): string[] {
  const good = `Host: 127.0.0.1:${port}`;
  const roll = d.int(100);
  if (roll < 75) return [good];
  return d.pick([
    [],
    ['Host: evil.example'],
    [`Host: localhost:${port}`],
    ['Host: 127.0.0.1'],
    [`Host: 127.0.0.1:${port}, evil`],
    [good, 'Host: evil.example'],
    ['Host:'],
    [`Host: 127.0.0.1:${port + 1}`],
  ]);
}

function garbageHeader(d: Draw): string[] {
  return d.pick([
    ['X-Ctl: a\u0001b'],
    ['Bad Name: x'],
    ['no colon here'],
    [`X-Big: ${'b'.repeat(20_000)}`],
    ['Content-Length: abc'],
    ['Content-Length: -1'],
    ['Content-Length: 1', 'Content-Length: 2'],
    ['Expect: 100-continue'],
    ['Expect: bogus'],
    ['Connection: Upgrade', 'Upgrade: websocket'],
    ['Transfer-Encoding: gzip'],
    [' folded: line'],
    ['X-Empty:'],
    [':'],
    Array.from({ length: 120 }, (_, i) => `X-Many-${i}: ${i}`),
    ['Cookie: a=%; b=%E0%A4%A'],
    ['Accept-Encoding: gzip, deflate, br, *;q=0'],
  ]);
}

interface FuzzRequest {
  description: string;
  bytes: Buffer;
}

/** One random request; its body length always matches what it declares, so none can hang. */
function fuzzRequest(d: Draw, port: number, token: string): FuzzRequest {
  const method = d.pick(METHODS);
  const version = d.pick(VERSIONS);
  const requestTarget = target(d, port);
  const headers = [...hostLines(d, port)];
  const tokenRoll = d.int(100);
  if (tokenRoll < 55) headers.push(`X-Loupe-Token: ${token}`);
  else if (tokenRoll < 70) headers.push(`X-Loupe-Token: ${'x'.repeat(token.length)}`);
  else if (tokenRoll < 75) headers.push(`X-Loupe-Token: ${token}`, `X-Loupe-Token: ${token}`);
  if (d.chance(0.3))
    headers.push(
      `Origin: ${d.pick([`http://127.0.0.1:${port}`, 'http://evil.example', 'null', '%', `http://localhost:${port}`])}`,
    );
  if (d.chance(0.2)) headers.push(`Sec-Fetch-Site: ${d.pick(['same-origin', 'cross-site', 'none', 'same-site', '%'])}`);
  const contentRoll = d.int(100);
  if (contentRoll < 70) headers.push('Content-Type: application/json');
  else if (contentRoll < 85)
    headers.push(
      `Content-Type: ${d.pick(['text/plain', 'application/json; charset=utf-8', 'multipart/form-data; boundary=x', ''])}`,
    );
  if (d.chance(0.3)) headers.push(...garbageHeader(d));

  let body: Buffer;
  const bodyRoll = d.int(100);
  if (bodyRoll < 70) body = Buffer.from(d.pick(BODIES));
  else if (bodyRoll < 80) {
    const depth = 1 + d.int(5000);
    body = Buffer.from('['.repeat(depth) + ']'.repeat(depth));
  } else if (bodyRoll < 90) body = Buffer.from(Array.from({ length: 1 + d.int(64) }, () => d.int(256)));
  else body = Buffer.from(`{"x":"${'y'.repeat(d.int(2 * MAX_BODY_BYTES))}"}`);

  const framing = d.int(100);
  let payload: Buffer;
  if (framing < 85) {
    headers.push(`Content-Length: ${body.length}`);
    payload = body;
  } else if (framing < 93) {
    // Properly terminated chunks: the parser reads to the end, never waits.
    headers.push('Transfer-Encoding: chunked');
    payload = Buffer.concat([
      body.length > 0 ? Buffer.from(`${body.length.toString(16)}\r\n`) : Buffer.alloc(0),
      body,
      Buffer.from(body.length > 0 ? '\r\n0\r\n\r\n' : '0\r\n\r\n'),
    ]);
  } else {
    // Declares more than the limit and sends nothing: refused before any byte is read.
    headers.push(`Content-Length: ${MAX_BODY_BYTES + 1 + d.int(1_000_000_000)}`);
    payload = Buffer.alloc(0);
  }
  headers.push('Connection: close');
  const head = `${method} ${requestTarget} ${version}\r\n${headers.join('\r\n')}\r\n\r\n`;
  const shownHeaders = headers.map((h) => (h.length > 80 ? `${h.slice(0, 80)}…(${h.length})` : h));
  return {
    description: `${method} ${requestTarget.length > 120 ? `${requestTarget.slice(0, 120)}…` : requestTarget} ${version} [${shownHeaders.join(' | ')}] body ${payload.length} bytes`,
    bytes: Buffer.concat([Buffer.from(head, 'latin1'), payload]),
  };
}

async function goodCall(): Promise<RawAnswer> {
  const head = `POST /api/datasets.list HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nX-Loupe-Token: ${server.token}\r\nOrigin: http://127.0.0.1:${server.port}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`;
  return rawRequest(server.port, head, { withBody: true });
}

describe('loupe serve under a seeded request fuzz', () => {
  it(
    `answers all ${REQUESTS} hostile requests below 500 and keeps answering good ones (seed ${SEED})`,
    { timeout: 120_000 },
    async () => {
      const d = new Draw(createStream(SEED, 'serve-fuzz'));
      const requests = Array.from({ length: REQUESTS }, () => fuzzRequest(d, server.port, server.token));
      const seen = new Map<number, number>();
      for (let start = 0; start < requests.length; start += PARALLEL) {
        const batch = requests.slice(start, start + PARALLEL);
        const answers = await Promise.all(
          batch.map((request, i) =>
            rawRequest(server.port, request.bytes).catch((err: Error) => {
              throw new Error(`seed ${SEED}, request #${start + i}: ${request.description}: ${err.message}`);
            }),
          ),
        );
        answers.forEach((answer, i) => {
          const where = `seed ${SEED}, request #${start + i}: ${batch[i]!.description} → ${answer.statusLine}`;
          expect(answer.status, where).toBeGreaterThanOrEqual(200);
          expect(answer.status, where).toBeLessThan(500);
          seen.set(answer.status, (seen.get(answer.status) ?? 0) + 1);
        });
        if ((start / PARALLEL + 1) % GOOD_CALL_EVERY === 0) {
          const between = await goodCall();
          expect(between.status, `good call after request #${start + PARALLEL}: ${between.body}`).toBe(200);
        }
      }

      const good = await goodCall();
      expect(good.status).toBe(200);
      expect(JSON.parse(good.body)).toEqual({ ok: true, value: [] });
      // The fuzz reaches every layer: parser (400/431), Host (421), method (405), Origin/Sec-Fetch
      // (403), token (401), content type (415), size (413), bad body or input (400), routing (404), success (200).
      for (const status of [200, 400, 401, 403, 404, 405, 413, 415, 421, 431])
        expect(seen.get(status) ?? 0, `status ${status} reached; seen ${JSON.stringify([...seen])}`).toBeGreaterThan(0);
    },
  );
});
