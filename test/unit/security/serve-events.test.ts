/**
 * `GET /api/events` of `loupe serve`: the core's change events as server-sent events, with the
 * API's checks (token, Host, origin: 401 / 421 / 403), filtered by the token's role (an annotator
 * link never hears of judges), a heartbeat on an idle stream, a revoked link's stream ended, and
 * a stream opened again after a drop hearing the changes that follow.
 */
import Database from 'better-sqlite3';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnnotatorLink, ChangeEvent } from '../../../shared/api';
import { createCore, type Core } from '../../../electron/core/index';
import { runImport } from '../../../electron/core/imports/run';
import { createLinkRegistry } from '../../../electron/serve/links';
import { startServer, type RunningServer } from '../../../electron/serve/server';
import { parseEventBlocks } from '../../../renderer/api/httpClient';
import { newsRows, writeJsonl } from '../../helpers/project';
import { tempDir } from '../../helpers/tmp';

const dir = tempDir();
let server: RunningServer;
let core: Core;
let alice: AnnotatorLink;

interface Stream {
  status: number;
  events: ChangeEvent[];
  heartbeats: number;
  ended: boolean;
  close(): void;
}

/** Opens the event stream and collects what arrives until closed. */
function openStream(headers: Record<string, string | undefined>, method = 'GET'): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const sent = Object.fromEntries(
      Object.entries({ host: `127.0.0.1:${server.port}`, ...headers }).filter(([, v]) => v !== undefined),
    ) as Record<string, string>;
    const req = request(
      { host: '127.0.0.1', port: server.port, path: '/api/events', method, headers: sent },
      (res: IncomingMessage) => {
        const stream: Stream = {
          status: res.statusCode ?? 0,
          events: [],
          heartbeats: 0,
          ended: false,
          close: () => req.destroy(),
        };
        let buffered = '';
        res.on('data', (chunk: Buffer) => {
          buffered += chunk.toString();
          const end = buffered.lastIndexOf('\n\n');
          if (end === -1) return;
          const blocks = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          stream.heartbeats += (blocks.match(/^: heartbeat$/gm) ?? []).length;
          stream.events.push(...(parseEventBlocks(blocks).events as ChangeEvent[]));
        });
        res.on('end', () => (stream.ended = true));
        res.on('close', () => (stream.ended = true));
        resolve(stream);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const lead = () => ({ 'x-loupe-token': server.token });
const tokenOf = (link: AnnotatorLink) => new URL(link.url!).searchParams.get('token')!;

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

beforeAll(async () => {
  const staticDir = join(dir, 'static');
  mkdirSync(staticDir);
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  const links = createLinkRegistry();
  core = createCore({
    Database,
    stateDir: dir,
    demoDir: dir,
    host: 'web',
    fileDialogs: false,
    diskPaths: true,
    canSwitchProjects: false,
    links,
  });
  core.createProject(join(dir, 'events.loupe'));
  await runImport(core.repository(), {
    source: { type: 'path', path: writeJsonl(join(dir, 'news.jsonl'), newsRows(2)) },
  });
  server = await startServer({ handlers: core.handlers, staticDir, links, changes: core.onChange, heartbeatMs: 40 });
  alice = await core.handlers['links.create']({ annotator: 'alice' });
});
afterAll(async () => {
  await server.close();
  core.close();
});

describe('GET /api/events', () => {
  it('is refused without the token, with a wrong one, from another origin or site, under another Host name, and for POST', async () => {
    expect((await openStream({})).status).toBe(401);
    expect((await openStream({ 'x-loupe-token': 'not-the-token' })).status).toBe(401);
    expect((await openStream({ ...lead(), origin: 'http://evil.example' })).status).toBe(403);
    expect((await openStream({ ...lead(), 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await openStream({ ...lead(), host: 'evil.example:80' })).status).toBe(421);
    expect((await openStream(lead(), 'POST')).status).toBe(405);
  });

  it('streams each change to the lead, and to an annotator link only what it may see (no judge)', async () => {
    const leadStream = await openStream({
      ...lead(),
      origin: `http://127.0.0.1:${server.port}`,
      'sec-fetch-site': 'same-origin',
    });
    const aliceStream = await openStream({ 'x-loupe-token': tokenOf(alice) });
    expect([leadStream.status, aliceStream.status]).toEqual([200, 200]);

    await core.handlers['judges.add']({ name: 'secret-judge', config: { kind: 'baseline' } as never });
    await core.handlers['imports.start']({
      source: { type: 'path', path: writeJsonl(join(dir, 'more.jsonl'), newsRows(3, 'more')) },
    });
    await until(() => leadStream.events.some((e) => e.what === 'imports.summaries'), 'the import event (lead)');
    await until(() => aliceStream.events.some((e) => e.what === 'imports.summaries'), 'the import event (alice)');

    expect(leadStream.events.map((e) => [e.namespace, e.what])).toEqual([
      ['judges', 'judges.add'],
      ['imports', 'imports.summaries'],
    ]);
    expect(leadStream.events[1]).toMatchObject({ dataset: 'more', by: null });
    // Alice hears of the import, nothing of the judge: no event and no judge's name in her stream.
    expect(aliceStream.events.map((e) => e.what)).toEqual(['imports.summaries']);
    expect(JSON.stringify(aliceStream.events)).not.toContain('judge');
    // Sequence numbers say how many events the core told: alice's skips the one she may not see.
    expect(leadStream.events[1]!.seq).toBe(leadStream.events[0]!.seq + 1);
    leadStream.close();
    aliceStream.close();
  });

  it('sends a heartbeat on an idle stream', async () => {
    const stream = await openStream(lead());
    await until(() => stream.heartbeats >= 2, 'two heartbeats');
    expect(stream.events).toEqual([]);
    stream.close();
  });

  it('a stream opened again after a drop hears the changes that follow', async () => {
    const first = await openStream(lead());
    first.close();
    await until(() => first.ended, 'the drop');
    await core.handlers['links.create']({ annotator: 'carol' });
    const again = await openStream(lead());
    await core.handlers['links.create']({ annotator: 'dave' });
    await until(() => again.events.length > 0, 'an event on the new stream');
    expect(again.events.map((e) => e.what)).toEqual(['links.create']);
    again.close();
  });

  it('ends the stream of a link revoked meanwhile, and refuses it from then on', async () => {
    const bob = await core.handlers['links.create']({ annotator: 'bob' });
    const stream = await openStream({ 'x-loupe-token': tokenOf(bob) });
    expect(stream.status).toBe(200);
    expect(await core.handlers['links.revoke']({ id: bob.id })).toEqual({ revoked: true });
    await until(() => stream.ended, 'the revoked stream to end');
    expect((await openStream({ 'x-loupe-token': tokenOf(bob) })).status).toBe(401);
  });
});
