/**
 * The desktop window's hardening, with electron mocked: webPreferences, the CSP header,
 * navigation and window-open guards, permissions, <webview>, only the app's own scheme, and
 * recovery when the renderer process dies.
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
    show: ReturnType<typeof vi.fn>;
    destroy: ReturnType<typeof vi.fn>;
    destroyed: boolean;
    visible: boolean;
  }>,
  showMessageBox: null as unknown as import('vitest').Mock<(...args: any[]) => any>,
  onHeadersReceived: null as null | ((details: any, cb: (r: any) => void) => void),
  onBeforeRequest: null as null | ((details: any, cb: (r: any) => void) => void),
  permissionRequest: null as
    null | ((wc: unknown, permission: string, cb: (granted: boolean) => void, details?: unknown) => void),
  permissionCheck: null as null | ((...args: unknown[]) => boolean),
}));

vi.mock('electron', async () => {
  const { EventEmitter } = await import('node:events');
  const { vi: v } = await import('vitest');
  h.showMessageBox = v.fn();
  class FakeWebContents extends EventEmitter {
    reload = vi.fn();
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
    destroyed = false;
    visible = true;
    destroy = vi.fn(() => {
      this.destroyed = true;
    });
    isDestroyed = () => this.destroyed;
    isVisible = () => this.visible;
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
  const dialog = { showMessageBox: (...a: unknown[]) => h.showMessageBox(...a) };
  const electron = { BrowserWindow, session, dialog };
  return { ...electron, default: electron };
});

import { APP_CSP, APP_INDEX_URL } from '../../../electron/main/protocol';
import { createMainWindow, isAppUrl, resolveDevUrl, type AppPage } from '../../../electron/main/window';

const ROOT = path.resolve(__dirname, '../../..');
const page: AppPage = { rendererDir: path.join(ROOT, 'out/renderer'), devUrl: null };
const preloadPath = path.join(ROOT, 'out/preload/preload.cjs');
const indexUrl = 'app://loupe/index.html';
const oldFileUrl = pathToFileURL(path.join(page.rendererDir, 'index.html')).href;

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
  h.showMessageBox.mockReset();
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

  it('loads the bundled page from app://loupe/, never file:// nor a remote URL', () => {
    const { win } = open();
    expect(APP_INDEX_URL).toBe('app://loupe/index.html');
    expect(win.loadURL).toHaveBeenCalledWith('app://loupe/index.html');
    expect(win.loadURL).toHaveBeenCalledTimes(1);
    expect(win.loadFile).not.toHaveBeenCalled();
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
      { url: indexUrl, responseHeaders: { 'content-security-policy': ['default-src *'], 'X-Other': ['1'] } },
      callback,
    );
    const headers = callback.mock.calls[0]![0].responseHeaders;
    expect(headers['Content-Security-Policy']).toEqual([`${meta}; frame-ancestors 'none'`]);
    expect(headers['Content-Security-Policy']).toEqual([APP_CSP]); // the one the app:// handler sends
    expect(headers['content-security-policy']).toBeUndefined();
    expect(headers['X-Other']).toEqual(['1']);

    const policy = headers['Content-Security-Policy'][0] as string;
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "object-src 'none'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ]) {
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
  it.each([
    'https://evil.example/',
    'http://localhost:5173/',
    'file:///etc/passwd',
    oldFileUrl,
    `${indexUrl}/../other.html`,
    'app://loupe/assets/x.js',
    'app://evil/index.html',
    'javascript:alert(1)',
    'chrome://settings',
  ])('prevents will-navigate to %s', (url) => {
    const { wc } = open();
    const event = navEvent(url);
    wc.emit('will-navigate', event, url);
    expect(event.preventDefault).toHaveBeenCalled();
  });

  it("allows will-navigate to the app's own page (with a hash or query)", () => {
    const { wc } = open();
    for (const url of [indexUrl, `${indexUrl}#/annotate`, `${indexUrl}?x=1`, 'app://loupe/']) {
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
    expect(isAppUrl(oldFileUrl, page)).toBe(false);
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
    for (const permission of [
      'media',
      'geolocation',
      'notifications',
      'clipboard-read',
      'openExternal',
      'fullscreen',
    ]) {
      const callback = vi.fn();
      h.permissionRequest!(wc, permission, callback, {});
      expect(callback).toHaveBeenCalledWith(false);
      expect(h.permissionCheck!(wc, permission, 'file://', {})).toBe(false);
    }
  });

  it('cancels every scheme but the app’s own: network, file://, other custom schemes', () => {
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
    expect(decide('app://loupe/assets/index-abc.js')).toBe(false);
    expect(decide('data:image/png;base64,AAAA')).toBe(false);
    expect(decide('blob:app://loupe/0b5e6c1e-0000-4000-8000-000000000000')).toBe(false);
    expect(decide('devtools://devtools/bundled/inspector.html')).toBe(false);
    expect(decide('file:///etc/passwd')).toBe(true);
    expect(decide(oldFileUrl)).toBe(true);
    expect(decide('app://other/index.html')).toBe(true);
    expect(decide('chrome-extension://abc/x.js')).toBe(true);
    expect(decide('ftp://example.org/x')).toBe(true);
    expect(decide('not a url')).toBe(true);

    open({ ...page, devUrl: 'http://localhost:5173/' });
    expect(decide('http://localhost:5173/src/main.tsx')).toBe(false);
    expect(decide('ws://localhost:5173/')).toBe(false);
    expect(decide('http://localhost:9999/')).toBe(true);
  });
});

describe('render-process-gone', () => {
  const gone = (reason: string, exitCode = 1) => ({ reason, exitCode });
  const settle = () => new Promise((r) => setTimeout(r, 0));

  it('logs, asks, and reloads the page when the user chooses Reload', async () => {
    const { win, wc } = open();
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    h.showMessageBox.mockResolvedValue({ response: 0 });
    wc.emit('render-process-gone', {}, gone('crashed', 139));
    await settle();
    expect(error.mock.calls.some((c) => String(c[0]).includes('crashed'))).toBe(true);
    expect(h.showMessageBox).toHaveBeenCalledTimes(1);
    const [parent, options] = h.showMessageBox.mock.calls[0]!;
    expect(parent).toBe(win);
    expect(options.buttons).toEqual(['Reload', 'Close window']);
    expect(wc.reload).toHaveBeenCalledTimes(1);
    expect(win.destroy).not.toHaveBeenCalled();
    error.mockRestore();
  });

  it('closes the window (never leaves it dead) on Close, or when the dialog itself fails', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const first = open();
    h.showMessageBox.mockResolvedValue({ response: 1 });
    first.wc.emit('render-process-gone', {}, gone('oom'));
    await settle();
    expect(first.win.destroy).toHaveBeenCalled();
    expect(first.wc.reload).not.toHaveBeenCalled();

    const second = open();
    h.showMessageBox.mockRejectedValue(new Error('no dialog'));
    second.wc.emit('render-process-gone', {}, gone('killed'));
    await settle();
    expect(second.win.destroy).toHaveBeenCalled();
    error.mockRestore();
  });

  it('a window that died before it was shown gets a free-standing dialog', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { win, wc } = open();
    win.visible = false;
    h.showMessageBox.mockResolvedValue({ response: 0 });
    wc.emit('render-process-gone', {}, gone('launch-failed'));
    await settle();
    expect(h.showMessageBox.mock.calls[0]).toHaveLength(1);
    expect(wc.reload).toHaveBeenCalled();
    error.mockRestore();
  });

  it('ignores a clean exit and a window already destroyed', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { win, wc } = open();
    wc.emit('render-process-gone', {}, gone('clean-exit', 0));
    win.destroyed = true;
    wc.emit('render-process-gone', {}, gone('crashed'));
    await settle();
    expect(h.showMessageBox).not.toHaveBeenCalled();
    expect(wc.reload).not.toHaveBeenCalled();
    error.mockRestore();
  });
});
