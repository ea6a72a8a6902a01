/**
 * The desktop window and everything that keeps its renderer boxed in: webPreferences, the CSP
 * header, navigation and window-open guards, the permission policy, the ban on every scheme but
 * the app's own, and what happens when the renderer process dies. Runs in the Electron main
 * process.
 *
 * The renderer is trusted only while it shows our own page: `app://loupe/index.html`, served
 * from the built renderer folder by electron/main/protocol.ts (or, in development, the localhost
 * URL of the Vite dev server). The IPC binding uses the same `isAppUrl` test to refuse calls from
 * any other frame.
 */
import {
  BrowserWindow,
  dialog,
  session as electronSession,
  type RenderProcessGoneDetails,
  type Session,
  type WebContents,
} from 'electron';
import { APP_HOST, APP_INDEX_URL, APP_SCHEME } from './protocol';

/** Where the app's own page lives. */
export interface AppPage {
  /** Absolute path of the built renderer folder (`out/renderer`), served on app://loupe/. */
  rendererDir: string;
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

/**
 * True for the app's own page: app://loupe/index.html (or app://loupe/, which serves it), with any
 * query or hash (the renderer routes in memory or by hash, not by path), or any URL on the dev
 * server's origin.
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
  return (
    url.protocol === `${APP_SCHEME}:` &&
    url.host === APP_HOST &&
    (url.pathname === '/index.html' || url.pathname === '/')
  );
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

/** Schemes whose requests never leave the page's own data (no host to reach). */
const LOCAL_DATA_SCHEMES = new Set(['data:', 'blob:', 'devtools:']);

/** The request allow-list of installSessionPolicy: everything not named here is cancelled. */
export function isAllowedRequest(rawUrl: string, devOrigin: string | null, devWsOrigin: string | null): boolean {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return false;
  }
  if (url.protocol === `${APP_SCHEME}:`) return url.host === APP_HOST;
  if (LOCAL_DATA_SCHEMES.has(url.protocol)) return true;
  return devOrigin !== null && (url.origin === devOrigin || url.origin === devWsOrigin);
}

/**
 * Session-wide policy: the CSP header on every response, every permission denied (Loupe needs
 * none: no camera, notifications, clipboard-read, geolocation, …), and only the app's own
 * scheme loads: every request is cancelled unless it is app://loupe/, data:/blob: (images the
 * page makes), devtools: (the developer tools) or, in development, the dev server. That blocks
 * the network and file:// alike.
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
  // header can carry: protocol.ts's APP_CSP (a test compares the three). Written as a literal so
  // electronegativity can parse and evaluate it. Development only:
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
    callback({ cancel: !isAllowedRequest(details.url, devOrigin, devWsOrigin) });
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
  win.webContents.on('render-process-gone', (_event, details) => {
    void recoverFromRendererGone(win, details);
  });
  const loading = win.loadURL(deps.page.devUrl ?? APP_INDEX_URL);
  loading.catch((err: unknown) => console.error('[loupe] could not load the renderer:', err));
  return win;
}

const GONE_REASONS: Readonly<Record<RenderProcessGoneDetails['reason'], string>> = {
  'clean-exit': 'exited',
  'abnormal-exit': 'exited abnormally',
  killed: 'was killed',
  crashed: 'crashed',
  oom: 'ran out of memory',
  'launch-failed': 'could not start',
  'integrity-failure': 'failed a code integrity check',
  'memory-eviction': 'was evicted to free memory',
};

/**
 * The window's renderer process died (crash, out of memory, killed): log it and ask whether to
 * reload the page or close the window, so the user is never left with a blank, dead window. If
 * even the dialog fails, the window is closed. A clean exit (the window closing) needs nothing.
 */
export async function recoverFromRendererGone(
  win: BrowserWindow,
  details: RenderProcessGoneDetails,
): Promise<'reloaded' | 'closed' | 'ignored'> {
  const what = GONE_REASONS[details.reason] ?? details.reason;
  console.error(
    `[loupe] the window's renderer process ${what} (reason ${details.reason}, exit code ${details.exitCode})`,
  );
  if (details.reason === 'clean-exit' || win.isDestroyed()) return 'ignored';
  const options = {
    type: 'error' as const,
    title: 'Loupe',
    message: 'The Loupe window stopped working',
    detail: `Its page ${what}. Labels already recorded are saved in the project file. Reload the page to continue.`,
    buttons: ['Reload', 'Close window'],
    defaultId: 0,
    cancelId: 1,
    noLink: true,
  };
  let reload = false;
  try {
    // A hidden window (it died before it was shown) would hide a sheet attached to it.
    const { response } = await (win.isVisible() ? dialog.showMessageBox(win, options) : dialog.showMessageBox(options));
    reload = response === 0;
  } catch (err) {
    console.error('[loupe] could not ask whether to reload:', err);
  }
  if (win.isDestroyed()) return 'ignored';
  if (reload) {
    win.webContents.reload();
    return 'reloaded';
  }
  win.destroy();
  return 'closed';
}
