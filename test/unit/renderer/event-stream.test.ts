/**
 * The browser client's event stream (renderer/api/httpClient.ts): the token in a header, `change`
 * events parsed and validated, a dropped stream opened again and a resync told once it is back,
 * one stream for all of a page's listeners, closed with the last one.
 */
import { describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../../shared/api';
import { createHttpBridge } from '../../../renderer/api/httpClient';

const change = (seq: number, what: string): ChangeEvent => ({
  seq,
  namespace: 'scaffold',
  what,
  dataset: null,
  by: null,
});
const block = (e: ChangeEvent) => `id: ${e.seq}\nevent: change\ndata: ${JSON.stringify(e)}\n\n`;

/** A response whose body is these chunks; `open` leaves it open after them (a live stream). */
function streamResponse(chunks: string[], open = false): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(new TextEncoder().encode(c));
      if (!open) controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
}

async function until(check: () => boolean, what: string): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > 10_000) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('the browser event stream', () => {
  it('reads change events with the token, reconnects after a drop and says resync, then goes on', async () => {
    const requests: Array<{ url: string; token: string | null }> = [];
    const answers = [
      // A chunk boundary inside an event, a heartbeat, a malformed event: only valid events pass.
      () =>
        streamResponse([
          'retry: 5\n: connected\n\n',
          block(change(1, 'imports.scaffold')).slice(0, 20),
          block(change(1, 'imports.scaffold')).slice(20),
          ': heartbeat\n\nevent: change\ndata: {"seq":"x"}\n\n',
        ]),
      () => streamResponse([block(change(3, 'scaffold.edit'))], true),
    ];
    const fetchImpl = (async (url: string, init?: RequestInit) => {
      requests.push({ url, token: new Headers(init?.headers).get('X-Loupe-Token') });
      const next = answers.shift();
      if (!next) throw new Error('no more connections');
      return next();
    }) as typeof fetch;
    const bridge = createHttpBridge({ token: 'lead-token', fetch: fetchImpl, baseUrl: 'http://127.0.0.1:9' });
    const heard: ChangeEvent[] = [];
    const unsubscribe = bridge.onChange((e) => heard.push(e));
    await until(() => heard.length >= 3, 'three events');
    expect(heard.map((e) => e.what)).toEqual(['imports.scaffold', 'resync', 'scaffold.edit']);
    expect(requests).toEqual([
      { url: 'http://127.0.0.1:9/api/events', token: 'lead-token' },
      { url: 'http://127.0.0.1:9/api/events', token: 'lead-token' },
    ]);
    unsubscribe();
  });

  it('opens one stream for every listener of the page, and tells nothing when the token is refused', async () => {
    let calls = 0;
    const fetchImpl = (async () => {
      calls += 1;
      return new Response('{"ok":false}', { status: 401 });
    }) as typeof fetch;
    const bridge = createHttpBridge({ token: 'revoked', fetch: fetchImpl, retryMs: 60_000 });
    const heard: ChangeEvent[] = [];
    const a = bridge.onChange((e) => heard.push(e));
    const b = bridge.onChange((e) => heard.push(e));
    await until(() => calls === 1, 'the first connection');
    a();
    b();
    // The last listener gone, the next one opens a new stream.
    const c = bridge.onChange((e) => heard.push(e));
    await until(() => calls === 2, 'a new connection');
    c();
    expect(heard).toEqual([]);
  });
});
