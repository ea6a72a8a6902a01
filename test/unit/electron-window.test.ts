/**
 * The desktop window's hardening, with electron mocked: webPreferences, the CSP header,
 * navigation and window-open guards, permissions, <webview>, and no remote requests.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const h = vi.hoisted(() => ({
  windows: [] as Array<{
    options: Record<string, any>;
    webContents: any;
    loadFile: ReturnType<typeof vi.fn>;
    loadURL: ReturnType<typeof vi.fn>;
  }>,
  onHeadersReceived: null as null | ((details: any, cb: (r: any) => void) => void),
  onBeforeRequest: null as null | ((details: any, cb: (r: any) => void) => void),
  permissionRequest: null as null | ((wc: unknown, permission: string, cb: (granted: boolean) => void, details?: unknown) => void),
  permissionCheck: null as null | ((...args: unknown[]) => boolean),
}));

vi.mock('electron', async () => {
  const { EventEmitter } = await import('node:events');
  class FakeWebContents extends EventEmitter {
    windowOpenHandler: ((details: { url: string }) => unknown) | null = null;
    setWindowOpenHandler(handler: (details: { url: string }) => unknown) {
      this.windowOpenHandler = handler;
    }
  }
  class BrowserWindow extends EventEmitter {
    webContents = new FakeWebContents();
    loadFile = vi.fn(async () => {});
    loadURL = vi.fn(async () => {});
    show = vi.fn();
    constructor(public options: Record<string, any>) {
      super();
      h.windows.push(this as any);
    }
  }
  const session = {
    defaultSession: {
      webRequest: {
        onHeadersReceived: (fn: any) => (h.onHeadersReceived = fn),
        onBeforeRequest: (fn: any) => (h.onBeforeRequest = fn),
      },
      setPermissionRequestHandler: (fn: any) => (h.permissionRequest = fn),
      setPermissionCheckHandler: (fn: any) => (h.permissionCheck = fn),
    },
  };
  const electron = { BrowserWindow, session };
  return { ...electron, default: electron };
});

import { createMainWindow, isAppUrl, resolveDevUrl, type AppPage } from '../../electron/main/window';

const ROOT = path.resolve(__dirname, '../..');
const page: AppPage = { indexHtml: path.join(ROOT, 'out/renderer/index.html'), devUrl: null };
const preloadPath = path.join(ROOT, 'out/preload/preload.cjs');
const indexUrl = pathToFileURL(page.indexHtml).href;

function navEvent(url: string) {
  return { url, preventDefault: vi.fn() };
}

function open(p: AppPage = page) {
  createMainWindow({ page: p, preloadPath });
  const win = h.windows.at(-1)!;
  return { win, wc: win.webContents };
}

beforeEach(() => {
  h.windows.length = 0;
  h.onHeadersReceived = h.onBeforeRequest = h.permissionRequest = h.permissionCheck = null;
});

describe('BrowserWindow options', () => {
  it('isolates and sandboxes the renderer, keeps web security on and disables <webview>', () => {
    const { win } = open();
    const prefs = win.options.webPreferences;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      sandbox: true,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      preload: preloadPath,
    });
    expect(prefs.experimentalFeatures).not.toBe(true);
    expect(prefs.enableBlinkFeatures).toBeUndefined();
  });

  it('loads the bundled page from disk, never a remote URL', () => {
    const { win } = open();
    expect(win.loadFile).toHaveBeenCalledWith(page.indexHtml);
    expect(win.loadURL).not.toHaveBeenCalled();
  });

  it('loads the dev server only from localhost, and never when packaged', () => {
    expect(resolveDevUrl('http://localhost:5173/', false)).toBe('http://localhost:5173/');
    expect(resolveDevUrl('http://127.0.0.1:5173', false)).toBe('http://127.0.0.1:5173/');
    expect(resolveDevUrl('http://localhost:5173/', true)).toBeNull();
    expect(resolveDevUrl('https://evil.example/', false)).toBeNull();
    expect(resolveDevUrl('http://localhost.evil.example/', false)).toBeNull();
    expect(resolveDevUrl('file:///etc/passwd', false)).toBeNull();
    expect(resolveDevUrl('not a url', false)).toBeNull();
    expect(resolveDevUrl(undefined, false)).toBeNull();

    const { win } = open({ ...page, devUrl: 'http://localhost:5173/' });
    expect(win.loadURL).toHaveBeenCalledWith('http://localhost:5173/');
    expect(win.loadFile).not.toHaveBeenCalled();
  });
});

describe('Content-Security-Policy header', () => {
  it('is set on every response, equal to the renderer meta policy, replacing any other', () => {
    open();
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(
      readFileSync(path.join(ROOT, 'renderer/index.html'), 'utf8'),
    )?.[1];
    expect(meta).toBeTruthy();

    const callback = vi.fn();
    h.onHeadersReceived!(
      { url: indexUrl, responseHeaders: { 'content-security-policy': ["default-src *"], 'X-Other': ['1'] } },
      callback,
    );
    const headers = callback.mock.calls[0]![0].responseHeaders;
    expect(headers['Content-Security-Policy']).toEqual([`${meta}; frame-ancestors 'none'`]);
    expect(headers['content-security-policy']).toBeUndefined();
    expect(headers['X-Other']).toEqual(['1']);

    const policy = headers['Content-Security-Policy'][0] as string;
    for (const directive of ["default-src 'self'", "script-src 'self'", "object-src 'none'", "frame-ancestors 'none'", "base-uri 'none'"]) {
      expect(policy).toContain(directive);
    }
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).not.toContain('unsafe-eval');
  });

  it("in development, leaves the Vite dev server's responses to their own (dev-relaxed) meta policy", () => {
    open({ ...page, devUrl: 'http://localhost:5173/' });
    const dev = vi.fn();
    h.onHeadersReceived!({ url: 'http://localhost:5173/', responseHeaders: { 'X-Other': ['1'] } }, dev);
    expect(dev).toHaveBeenCalledWith({});
    const file = vi.fn();
    h.onHeadersReceived!({ url: indexUrl, responseHeaders: {} }, file);
    expect(file.mock.calls[0]![0].responseHeaders['Content-Security-Policy']).toHaveLength(1);
    const other = vi.fn();
    h.onHeadersReceived!({ url: 'http://localhost:9999/', responseHeaders: {} }, other);
    expect(other.mock.calls[0]![0].responseHeaders['Content-Security-Policy']).toHaveLength(1);
  });

  it('also works when the response has no headers', () => {
    open();
    const callback = vi.fn();
    h.onHeadersReceived!({ url: indexUrl }, callback);
    expect(Object.keys(callback.mock.calls[0]![0].responseHeaders)).toEqual(['Content-Security-Policy']);
  });
});

describe('navigation', () => {
  it.each(['https://evil.example/', 'http://localhost:5173/', 'file:///etc/passwd', `${indexUrl}/../other.html`, 'javascript:alert(1)'])(
    'prevents will-navigate to %s',
    (url) => {
      const { wc } = open();
      const event = navEvent(url);
      wc.emit('will-navigate', event, url);
      expect(event.preventDefault).toHaveBeenCalled();
    },
  );

  it("allows will-navigate to the app's own page (with a hash or query)", () => {
    const { wc } = open();
    for (const url of [indexUrl, `${indexUrl}#/annotate`, `${indexUrl}?x=1`]) {
      const event = navEvent(url);
      wc.emit('will-navigate', event, url);
      expect(event.preventDefault).not.toHaveBeenCalled();
    }
  });

  it('reads the URL from the legacy argument when the event has none', () => {
    const { wc } = open();
    const bad = { preventDefault: vi.fn() };
    wc.emit('will-navigate', bad, 'https://evil.example/');
    expect(bad.preventDefault).toHaveBeenCalled();
    const good = { preventDefault: vi.fn() };
    wc.emit('will-navigate', good, indexUrl);
    expect(good.preventDefault).not.toHaveBeenCalled();
  });

  it('prevents will-redirect away from the app', () => {
    const { wc } = open();
    const away = navEvent('https://evil.example/');
    wc.emit('will-redirect', away, away.url);
    expect(away.preventDefault).toHaveBeenCalled();
    const home = navEvent(indexUrl);
    wc.emit('will-redirect', home, home.url);
    expect(home.preventDefault).not.toHaveBeenCalled();
  });

  it('accepts the dev server origin only when a dev URL is set', () => {
    const dev: AppPage = { ...page, devUrl: 'http://localhost:5173/' };
    expect(isAppUrl('http://localhost:5173/#/annotate', dev)).toBe(true);
    expect(isAppUrl('http://localhost:5174/', dev)).toBe(false);
    expect(isAppUrl('http://localhost:5173/', page)).toBe(false);
    expect(isAppUrl(null, page)).toBe(false);
    expect(isAppUrl('file://remote-host/share/index.html', page)).toBe(false);
  });
});

describe('new windows, webviews, permissions, remote requests', () => {
  it('denies window.open', () => {
    const { wc } = open();
    expect(wc.windowOpenHandler!({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    expect(wc.windowOpenHandler!({ url: indexUrl })).toEqual({ action: 'deny' });
  });

  it('prevents attaching a <webview>', () => {
    const { wc } = open();
    const event = { preventDefault: vi.fn() };
    wc.emit('will-attach-webview', event, {}, {});
    expect(event.preventDefault).toHaveBeenCalled();
  });

  it('denies every permission request and check', () => {
    const { wc } = open();
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'fullscreen']) {
      const callback = vi.fn();
      h.permissionRequest!(wc, permission, callback, {});
      expect(callback).toHaveBeenCalledWith(false);
      expect(h.permissionCheck!(wc, permission, 'file://', {})).toBe(false);
    }
  });

  it('cancels requests to the network; local and dev-server requests pass', () => {
    open();
    const decide = (url: string) => {
      const callback = vi.fn();
      h.onBeforeRequest!({ url }, callback);
      return callback.mock.calls[0]![0].cancel as boolean;
    };
    expect(decide('https://evil.example/x.js')).toBe(true);
    expect(decide('http://127.0.0.1:8080/')).toBe(true);
    expect(decide('wss://evil.example/')).toBe(true);
    expect(decide(indexUrl)).toBe(false);
    expect(decide('data:image/png;base64,AAAA')).toBe(false);
    expect(decide('devtools://devtools/bundled/inspector.html')).toBe(false);

    open({ ...page, devUrl: 'http://localhost:5173/' });
    expect(decide('http://localhost:5173/src/main.tsx')).toBe(false);
    expect(decide('ws://localhost:5173/')).toBe(false);
    expect(decide('http://localhost:9999/')).toBe(true);
  });
});
