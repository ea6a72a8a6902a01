// @vitest-environment happy-dom
/** The browser's bridge: token handling, the wire format of `loupe serve`, errors as values. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHttpBridge, takeToken } from '../../../renderer/api/httpClient';
import { pickBridge } from '../../../renderer/api';
import { ApiError } from '../../../renderer/api/errors';
import type { LoupeBridge } from '../../../shared/api';

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

afterEach(() => {
  window.sessionStorage.clear();
  delete window.loupe;
  window.history.replaceState(null, '', '/');
});

describe('token', () => {
  it('is read from ?token=, kept in sessionStorage and removed from the address bar', () => {
    window.history.replaceState(null, '', '/index.html?token=s3cret&view=x#top');
    expect(takeToken({ location: window.location, history: window.history, storage: window.sessionStorage })).toBe(
      's3cret',
    );
    expect(window.sessionStorage.getItem('loupe.token')).toBe('s3cret');
    expect(window.location.search).toBe('?view=x');
    expect(window.location.hash).toBe('#top');
    expect(window.location.href).not.toContain('s3cret');
    // A reload (no token in the URL any more) finds it in sessionStorage.
    expect(takeToken({ location: window.location, history: window.history, storage: window.sessionStorage })).toBe(
      's3cret',
    );
  });

  it('is null when neither the URL nor the session has one', () => {
    expect(
      takeToken({ location: window.location, history: window.history, storage: window.sessionStorage }),
    ).toBeNull();
  });
});

describe('calls', () => {
  it('POST /api/<method> with the JSON input and the token header, returning the value', async () => {
    const fetch = vi.fn(async (_url: string, _init: RequestInit) => jsonResponse({ ok: true, value: { attached: 2 } }));
    const bridge = createHttpBridge({ token: 'tok', fetch: fetch as unknown as typeof globalThis.fetch });
    await expect(bridge.call('annotation.attachDocument', { key: 3, text: 'doc' })).resolves.toEqual({ attached: 2 });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/annotation.attachDocument');
    expect(init.method).toBe('POST');
    expect(init.headers).toEqual({ 'Content-Type': 'application/json', 'X-Loupe-Token': 'tok' });
    expect(JSON.parse(init.body as string)).toEqual({ key: 3, text: 'doc' });
  });

  it('turns an error envelope into an ApiError with its code and problems', async () => {
    const problems = [{ file: 'a.jsonl', line: 3, field: 'summary', expected: 'a string', found: 'null' }];
    const fetch = vi.fn(async () =>
      jsonResponse({ ok: false, error: { code: 'import_failed', message: 'Nothing was imported', problems } }, 400),
    );
    const bridge = createHttpBridge({ token: 'tok', fetch: fetch as unknown as typeof globalThis.fetch });
    const error = await bridge.call('jobs.get', { jobId: 'j1' }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'import_failed', message: 'Nothing was imported', problems });
  });

  it('explains a refused token and an unreachable server', async () => {
    const refused = createHttpBridge({
      token: null,
      fetch: (async () => new Response('forbidden', { status: 403 })) as unknown as typeof globalThis.fetch,
    });
    await expect(refused.call('app.info', {})).rejects.toThrow(/HTTP 403.*token/);
    const down = createHttpBridge({
      token: 't',
      fetch: (async () => {
        throw new TypeError('Failed to fetch');
      }) as unknown as typeof globalThis.fetch,
    });
    await expect(down.call('app.info', {})).rejects.toThrow(/Cannot reach the Loupe server/);
  });

  it('has no menu and no file paths in the browser', () => {
    const bridge = createHttpBridge({ token: 't', fetch: vi.fn() as unknown as typeof globalThis.fetch });
    expect(bridge.host).toBe('web');
    expect(bridge.pathForFile(new File(['x'], 'a.txt'))).toBeNull();
    expect(typeof bridge.onMenu(() => {})).toBe('function');
  });
});

describe('pickBridge', () => {
  it('prefers the preload bridge and falls back to HTTP with the URL token', async () => {
    const preload: LoupeBridge = {
      host: 'electron',
      call: vi.fn(),
      onMenu: () => () => {},
      onChange: () => () => {},
      pathForFile: () => '/x',
    };
    window.loupe = preload;
    expect(pickBridge(window)).toBe(preload);

    delete window.loupe;
    window.history.replaceState(null, '', '/?token=abc');
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(jsonResponse({ ok: true, value: [] }));
    const bridge = pickBridge(window);
    expect(bridge.host).toBe('web');
    expect(window.location.search).toBe('');
    await bridge.call('annotators.list', {});
    const init = fetch.mock.calls[0]![1]!;
    expect((init.headers as Record<string, string>)['X-Loupe-Token']).toBe('abc');
    fetch.mockRestore();
  });
});
