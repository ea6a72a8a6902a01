/**
 * The desktop window and everything that keeps its renderer boxed in: webPreferences, the CSP
 * header, navigation and window-open guards, the permission policy and the ban on remote
 * requests. Runs in the Electron main process.
 *
 * The renderer is trusted only while it shows our own page: `out/renderer/index.html` from
 * file:// (or, in development, the localhost URL of the Vite dev server). The IPC binding uses
 * the same `isAppUrl` test to refuse calls from any other frame.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BrowserWindow,
  session as electronSession,
  type Session,
  type WebContents,
} from 'electron';

/** Where the app's own page lives. */
export interface AppPage {
  /** Absolute path of the built renderer (`out/renderer/index.html`). */
  indexHtml: string;
  /** Development only: the Vite dev server (`ELECTRON_RENDERER_URL`), always on localhost. */
  devUrl: string | null;
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The dev-server URL, if one is set and acceptable: never in a packaged app, and only
 * http(s) on the loopback interface, so an environment variable cannot point the window at
 * remote content.
 */
export function resolveDevUrl(raw: string | undefined, isPackaged: boolean): string | null {
  if (!raw || isPackaged) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !LOCAL_HOSTS.has(url.hostname)) return null;
  return url.href;
}

function samePath(a: string, b: string): boolean {
  const na = path.normalize(a);
  const nb = path.normalize(b);
  return process.platform === 'win32' ? na.toLowerCase() === nb.toLowerCase() : na === nb;
}

/**
 * True for the app's own page: the index file itself (any query or hash: the renderer must
 * route in memory or by hash, not by path) or any URL on the dev server's origin.
 */
export function isAppUrl(rawUrl: string | null | undefined, page: AppPage): boolean {
  if (!rawUrl) return false;
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return false;
  }
  if (page.devUrl && url.origin === new URL(page.devUrl).origin) return true;
  if (url.protocol !== 'file:' || (url.host !== '' && url.host !== 'localhost')) return false;
  let filePath: string;
  try {
    filePath = fileURLToPath(url);
  } catch {
    return false;
  }
  return samePath(filePath, page.indexHtml);
}

/**
 * Guards for any WebContents: navigation away from the app's page, new windows and <webview>
 * are refused. Installed for every WebContents the app creates (`web-contents-created`).
 */
const hardened = new WeakSet<WebContents>();

export function hardenWebContents(contents: WebContents, page: AppPage): void {
  if (hardened.has(contents)) return; // the main window is hardened at creation and by the app hook
  hardened.add(contents);
  // Electron 45 passes an Event carrying `url`; the second argument is the deprecated form.
  const guard = (event: { preventDefault(): void; url?: string }, legacyUrl?: string) => {
    const url = event.url ?? legacyUrl;
    if (!isAppUrl(url, page)) event.preventDefault();
  };
  contents.on('will-navigate', guard);
  contents.on('will-redirect', guard);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

function withoutCsp(headers: Record<string, string[]> | undefined): Record<string, string[]> {
  const kept: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (name.toLowerCase() !== 'content-security-policy') kept[name] = value;
  }
  return kept;
}

/**
 * Session-wide policy: the CSP header on every response, every permission denied (Loupe needs
 * none: no camera, notifications, clipboard-read, geolocation, …), and no request leaves the
 * machine: http(s)/ws(s) requests are cancelled unless they go to the dev server.
 */
export function installSessionPolicy(ses: Session, page: AppPage): void {
  const devOrigin = page.devUrl ? new URL(page.devUrl).origin : null;
  const devWsOrigin = devOrigin ? devOrigin.replace(/^http/, 'ws') : null;
  const originOf = (raw: string): string | null => {
    try {
      return new URL(raw).origin;
    } catch {
      return null;
    }
  };

  // The renderer's <meta http-equiv="Content-Security-Policy"> plus frame-ancestors, which only a
  // header can carry (a test compares them). Written as a literal so electronegativity can parse and evaluate it. Development only:
  // the Vite dev server's page keeps just its own meta policy, which Vite relaxes for its inline
  // React Refresh preamble and HMR (a header would be enforced on top and block them).
  ses.webRequest.onHeadersReceived((details, callback) => {
    if (devOrigin && originOf(details.url) === devOrigin) {
      callback({});
      return;
    }
    callback({
      responseHeaders: {
        ...withoutCsp(details.responseHeaders),
        'Content-Security-Policy': [
          "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        ],
      },
    });
  });

  ses.webRequest.onBeforeRequest((details, callback) => {
    let url: URL;
    try {
      url = new URL(details.url);
    } catch {
      callback({ cancel: true });
      return;
    }
    const remote = ['http:', 'https:', 'ws:', 'wss:', 'ftp:'].includes(url.protocol);
    const allowed = !remote || url.origin === devOrigin || url.origin === devWsOrigin;
    callback({ cancel: !allowed });
  });

  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
}

export interface MainWindowDeps {
  page: AppPage;
  /** Absolute path of `out/preload/preload.cjs`. */
  preloadPath: string;
  /** Window icon (Linux/Windows, unpackaged runs); packaged builds get theirs from the bundle. */
  icon?: string;
  /** Defaults to Electron's default session. */
  session?: Session;
}

/** Creates the main window, hardens it and loads the app's page (never remote content). */
export function createMainWindow(deps: MainWindowDeps): BrowserWindow {
  installSessionPolicy(deps.session ?? electronSession.defaultSession, deps.page);
  // The options stay inline so that electronegativity sees them.
  const win = new BrowserWindow({
    width: 1280,
    height: 860,
    minWidth: 880,
    minHeight: 560,
    show: false,
    title: 'Loupe',
    backgroundColor: '#ffffff',
    ...(deps.icon ? { icon: deps.icon } : {}),
    webPreferences: {
      preload: deps.preloadPath,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      sandbox: true,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      // Middle-click would otherwise open links in a new window (denied anyway, see below).
      disableBlinkFeatures: 'Auxclick',
    },
  });
  hardenWebContents(win.webContents, deps.page);
  win.once('ready-to-show', () => win.show());
  const loading = deps.page.devUrl ? win.loadURL(deps.page.devUrl) : win.loadFile(deps.page.indexHtml);
  loading.catch((err: unknown) => console.error('[loupe] could not load the renderer:', err));
  return win;
}
