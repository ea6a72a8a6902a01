/**
 * The desktop entry, with electron, the core and the N-API SQLite driver mocked: what it creates
 * on ready, the command line, single instance, quitting, that dialogs and project switches reach
 * the right places, which disk paths the page may use, the app:// scheme and LOUPE_USER_DATA.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { API_METHODS, ApiError, type ApiHandlers } from '../../../shared/api';

const h = vi.hoisted(() => ({
  state: null as any,
}));

function freshState() {
  let resolveReady!: () => void;
  const ready = new Promise<void>((r) => (resolveReady = r));
  return {
    ready,
    resolveReady,
    lock: true,
    isPackaged: false,
    privileged: [] as unknown[],
    protocolHandlers: new Map<string, (request: Request) => Promise<Response>>(),
    ipcOn: new Map<string, (...args: any[]) => void>(),
    appEvents: new Map<string, (...args: any[]) => void>(),
    calls: [] as string[],
    windows: [] as any[],
    ipc: new Map<string, (...args: any[]) => any>(),
    menus: 0,
    messageBoxes: [] as any[],
    showOpenDialog: vi.fn(async () => ({ canceled: false, filePaths: ['/picked/a.loupe'] })),
    setPath: vi.fn(),
    quit: vi.fn(),
    exit: vi.fn(),
    enableSandbox: vi.fn(),
  };
}

vi.mock('electron', async () => {
  const { EventEmitter } = await import('node:events');
  const s = () => h.state;
  class BrowserWindow extends EventEmitter {
    static getFocusedWindow = () => null;
    static getAllWindows = () => s().windows;
    static fromId = (id: number) => s().windows.find((w: any) => w.id === id) ?? null;
    id = s().windows.length + 1;
    webContents = Object.assign(new EventEmitter(), { send: vi.fn(), setWindowOpenHandler: vi.fn(), reload: vi.fn() });
    setTitle = vi.fn();
    loadFile = vi.fn(async () => {});
    loadURL = vi.fn(async () => {});
    isDestroyed = () => false;
    isVisible = () => true;
    destroy = vi.fn();
    isMinimized = () => false;
    restore = vi.fn();
    focus = vi.fn();
    constructor(public options: any) {
      super();
      s().calls.push('new BrowserWindow');
      s().windows.push(this);
    }
  }
  const app = {
    get isPackaged() {
      return s().isPackaged;
    },
    on: (event: string, fn: (...args: any[]) => void) => s().appEvents.set(event, fn),
    whenReady: () => s().ready,
    requestSingleInstanceLock: () => s().lock,
    getPath: (name: string) => `/state/${name}`,
    setPath: (...a: unknown[]) => s().setPath(...a),
    enableSandbox: () => s().enableSandbox(),
    getVersion: () => '0.1.0',
    quit: () => s().quit(),
    exit: (code: number) => s().exit(code),
  };
  const session = {
    defaultSession: {
      webRequest: { onHeadersReceived: vi.fn(), onBeforeRequest: vi.fn() },
      setPermissionRequestHandler: vi.fn(),
      setPermissionCheckHandler: vi.fn(),
    },
  };
  const ipcMain = {
    handle: (channel: string, fn: (...args: any[]) => any) => s().ipc.set(channel, fn),
    removeHandler: (channel: string) => s().ipc.delete(channel),
    on: (channel: string, fn: (...args: any[]) => void) => s().ipcOn.set(channel, fn),
    removeListener: (channel: string) => s().ipcOn.delete(channel),
  };
  const protocol = {
    registerSchemesAsPrivileged: (schemes: unknown[]) => {
      s().calls.push('registerSchemesAsPrivileged');
      s().privileged.push(...schemes);
    },
    handle: (scheme: string, fn: (request: Request) => Promise<Response>) => {
      s().calls.push(`protocol.handle ${scheme}`);
      s().protocolHandlers.set(scheme, fn);
    },
  };
  const Menu = {
    buildFromTemplate: (t: unknown) => ({ template: t }),
    setApplicationMenu: () => s().menus++,
  };
  const dialog = {
    showOpenDialog: (...a: unknown[]) => s().showOpenDialog(...a),
    showSaveDialog: vi.fn(),
    showMessageBox: async (...a: unknown[]) => {
      s().messageBoxes.push(a.at(-1));
      return { response: 0 };
    },
    showErrorBox: vi.fn(),
  };
  const electron = { app, BrowserWindow, session, ipcMain, Menu, dialog, protocol };
  return { ...electron, default: electron };
});

vi.mock('better-sqlite3-napi', () => ({ default: class NapiDatabase {} }));

const project = { path: '/p/x.loupe', name: 'x', schemaVersion: 1, isDemo: false };

// The real dispatcher (main/ipc.ts takes it from the core's index, as every host does).
vi.mock('../../../electron/core/index', async () => ({
  dispatch: (await vi.importActual<typeof import('../../../electron/core/dispatch')>('../../../electron/core/dispatch'))
    .dispatch,
  createCore: vi.fn((options: unknown) => {
    const s = h.state;
    s.calls.push('createCore');
    const unsupported = async () => {
      throw new ApiError({ code: 'unsupported', message: 'no dialogs here' });
    };
    const handlers = Object.fromEntries(API_METHODS.map((m) => [m, vi.fn(unsupported)])) as unknown as ApiHandlers;
    handlers['projects.recent'] = vi.fn(async () => [
      { path: project.path, name: project.name, openedAt: '2025-01-01T00:00:00Z' },
    ]);
    handlers['projects.open'] = vi.fn(async ({ path: p }) => ({ ...project, path: p }));
    handlers['projects.create'] = vi.fn(async ({ path: p }) => ({ ...project, path: p }));
    handlers['merge.projects'] = vi.fn(async () => []);
    handlers['imports.start'] = vi.fn(async () => ({ jobId: 'job-1' }));
    s.core = {
      options,
      handlers,
      openProject: vi.fn((p: string) => {
        s.calls.push(`openProject ${p}`);
        if (p.includes('broken')) throw new Error('not a Loupe project');
        return { ...project, path: p };
      }),
      createProject: vi.fn(),
      openDemo: vi.fn(),
      current: vi.fn(() => null),
      onChange: vi.fn((listener: (event: unknown) => void) => {
        s.changeListener = listener;
        return () => {};
      }),
      close: vi.fn(),
    };
    return s.core;
  }),
}));

const ROOT = path.resolve(__dirname, '../../..');
// main.ts finds its siblings from its own folder: out/main in the bundle (→ out/renderer,
// out/preload, the app two levels up); here that folder is electron/main, so outDir is electron/.
const OUT_DIR = path.resolve(ROOT, 'electron');
const APP_ROOT = path.resolve(OUT_DIR, '..');
const appFrame = { url: 'app://loupe/index.html', parent: null };

const savedArgv = process.argv;
const savedUserData = process.env.LOUPE_USER_DATA;

async function launch(args: string[] = [], setup: (s: any) => void = () => {}) {
  h.state = freshState();
  setup(h.state);
  process.argv = ['/usr/bin/electron', '.', ...args];
  vi.resetModules();
  const main = await import('../../../electron/main/main');
  h.state.resolveReady();
  await new Promise((r) => setTimeout(r, 0));
  return { main, s: h.state };
}

beforeEach(() => {
  delete process.env.LOUPE_USER_DATA;
});
afterEach(() => {
  process.argv = savedArgv;
  if (savedUserData === undefined) delete process.env.LOUPE_USER_DATA;
  else process.env.LOUPE_USER_DATA = savedUserData;
});

describe('electron main', () => {
  it('creates the core on ready with the N-API driver, the userData state dir and the demo folder', async () => {
    const { s } = await launch();
    const NapiDatabase = (await import('better-sqlite3-napi' as string)).default;
    expect(s.core.options).toEqual({
      Database: NapiDatabase,
      stateDir: '/state/userData',
      demoDir: path.join(APP_ROOT, 'demo'),
      host: 'electron',
      fileDialogs: true,
      diskPaths: true,
      canSwitchProjects: true,
      annotator: null,
      // Judge API keys go to the OS keychain (electron/main/secrets.ts), never to the project.
      secrets: expect.objectContaining({
        available: expect.any(Function),
        get: expect.any(Function),
        set: expect.any(Function),
        delete: expect.any(Function),
      }),
      // Keys from any environment variable the person's judge names (development); serve allows only --allow-key-env.
      allowedKeyEnv: 'any',
    });
    expect(s.enableSandbox).toHaveBeenCalled();
    expect(s.windows).toHaveLength(1);
    expect(s.windows[0].options.webPreferences.preload).toBe(path.join(OUT_DIR, 'preload/preload.cjs'));
    expect(s.windows[0].loadURL).toHaveBeenCalledWith('app://loupe/index.html');
    expect(s.windows[0].loadFile).not.toHaveBeenCalled();
    expect(s.menus).toBeGreaterThan(0);
  });

  it('binds every API method, with the desktop dialogs instead of the core’s unsupported ones', async () => {
    const { s } = await launch();
    expect([...s.ipc.keys()].sort()).toEqual(API_METHODS.map((m) => `loupe:${m}`).sort());
    const envelope = await s.ipc.get('loupe:dialog.openProject')({ senderFrame: appFrame }, {});
    expect(envelope).toEqual({ ok: true, value: { path: '/picked/a.loupe' } });
    expect(s.showOpenDialog).toHaveBeenCalled();
    expect(s.core.handlers['dialog.openProject']).not.toHaveBeenCalled();
  });

  it('opening a project through IPC updates the window title and the recent menu', async () => {
    const { s } = await launch();
    const menusBefore = s.menus;
    const envelope = await s.ipc.get('loupe:projects.open')({ senderFrame: appFrame }, { path: '/p/x.loupe' });
    expect(envelope.ok).toBe(true);
    await new Promise((r) => setTimeout(r, 0));
    expect(s.windows[0].setTitle).toHaveBeenLastCalledWith('x — Loupe');
    expect(s.menus).toBeGreaterThan(menusBefore);
  });

  it('--project PATH opens that project before the window loads', async () => {
    const { s } = await launch(['--project', '/data/study.loupe']);
    const order = s.calls.filter(
      (c: string) => c === 'createCore' || c.startsWith('openProject') || c === 'new BrowserWindow',
    );
    expect(order).toEqual(['createCore', `openProject ${path.resolve('/data/study.loupe')}`, 'new BrowserWindow']);
    expect(s.messageBoxes).toEqual([]);
  });

  it('a project that cannot be opened at start is reported, and the window still opens', async () => {
    const { s } = await launch(['--project=/data/broken.loupe']);
    expect(s.windows).toHaveLength(1);
    expect(s.messageBoxes).toEqual([expect.objectContaining({ type: 'error', detail: 'not a Loupe project' })]);
  });

  it('passes every change event of the core to the windows (loupe:change), for the views to refetch', async () => {
    const { s } = await launch();
    const event = { seq: 1, namespace: 'judges', what: 'judges.add', dataset: null, by: null };
    s.changeListener(event);
    expect(s.windows[0].webContents.send).toHaveBeenCalledWith('loupe:change', event);
  });

  it('a second instance quits at once', async () => {
    const { s } = await launch([], (st) => (st.lock = false));
    expect(s.quit).toHaveBeenCalled();
    expect(s.calls).toEqual([]);
  });

  it('a second launch with a project opens it in the running window', async () => {
    const { s } = await launch();
    s.appEvents.get('second-instance')!({}, ['/usr/bin/loupe', '--project', '/data/other.loupe'], '/');
    expect(s.core.openProject).toHaveBeenCalledWith(path.resolve('/data/other.loupe'));
    expect(s.windows[0].webContents.send).toHaveBeenCalledWith('loupe:menu', 'project-opened');
    expect(s.windows[0].focus).toHaveBeenCalled();
  });

  it('quits when the windows close (except on macOS) and closes the project on quit', async () => {
    const { s } = await launch();
    s.appEvents.get('window-all-closed')!();
    if (process.platform === 'darwin') expect(s.quit).not.toHaveBeenCalled();
    else expect(s.quit).toHaveBeenCalled();
    s.appEvents.get('will-quit')!();
    expect(s.core.close).toHaveBeenCalled();
  });

  it('LOUPE_USER_DATA moves the state directory in development runs (for tests)', async () => {
    process.env.LOUPE_USER_DATA = '/tmp/loupe-e2e';
    const { s } = await launch();
    expect(s.setPath).toHaveBeenCalledWith('userData', path.resolve('/tmp/loupe-e2e'));
  });

  it('a packaged app ignores LOUPE_USER_DATA (its state stays where the OS puts it)', async () => {
    process.env.LOUPE_USER_DATA = '/tmp/attacker-chosen';
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const proc = process as { resourcesPath?: string };
    const savedResources = proc.resourcesPath;
    proc.resourcesPath = '/opt/Loupe/resources';
    try {
      const { s, main } = await launch([], (st) => (st.isPackaged = true));
      expect(s.setPath).not.toHaveBeenCalled();
      expect(s.core.options.stateDir).toBe('/state/userData');
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('LOUPE_USER_DATA is ignored'));
      expect(main.userDataOverride({ LOUPE_USER_DATA: '/x' }, true)).toBeNull();
      expect(main.userDataOverride({ LOUPE_USER_DATA: '/x' }, false)).toBe(path.resolve('/x'));
      expect(main.userDataOverride({}, false)).toBeNull();
    } finally {
      proc.resourcesPath = savedResources;
      warn.mockRestore();
    }
  });

  it('parses the command line', async () => {
    const { main } = await launch();
    expect(main.parseCommandLine(['--project', 'a.loupe'])).toEqual({ project: 'a.loupe', annotator: null });
    expect(main.parseCommandLine(['--project=/x/b.loupe', '--annotator', 'ann'])).toEqual({
      project: '/x/b.loupe',
      annotator: 'ann',
    });
    expect(main.parseCommandLine(['--inspect=0', '--remote-debugging-port=0', '/x/c.loupe'])).toEqual({
      project: '/x/c.loupe',
      annotator: null,
    });
    expect(main.parseCommandLine(['.', '--no-sandbox'])).toEqual({ project: null, annotator: null });
    expect(main.parseCommandLine(['--project'])).toEqual({ project: null, annotator: null });
    expect(main.userArgs(['electron', '.', '--project', 'a'], false)).toEqual(['--project', 'a']);
    expect(main.userArgs(['Loupe', '--project', 'a'], true)).toEqual(['--project', 'a']);
  });
});

describe('electron main: disk paths the page may use', () => {
  const call = (s: any, method: string, input: unknown) =>
    s.ipc.get(`loupe:${method}`)({ senderFrame: appFrame }, input);
  const refusedCode = (envelope: any) => (envelope.ok ? 'ok' : envelope.error.code);

  it('refuses a path the page made up, for each of the four methods, without calling the core', async () => {
    const { s } = await launch();
    const attempts: Array<[string, unknown]> = [
      ['projects.open', { path: '/home/u/.config/other-app/data.loupe' }],
      ['projects.create', { path: '/home/u/.bashrc' }],
      ['merge.projects', { paths: ['/etc/passwd'] }],
      ['imports.start', { source: { type: 'path', path: '/home/u/.ssh/id_rsa' } }],
    ];
    for (const [method, input] of attempts) {
      expect(refusedCode(await call(s, method, input)), method).toBe('forbidden');
      expect(s.core.handlers[method], method).not.toHaveBeenCalled();
    }
  });

  it('accepts the path a dialog returned, for what the dialog was for', async () => {
    const { s } = await launch();
    expect(refusedCode(await call(s, 'projects.open', { path: '/picked/a.loupe' }))).toBe('forbidden');
    await call(s, 'dialog.openProject', {});
    expect(refusedCode(await call(s, 'projects.open', { path: '/picked/a.loupe' }))).toBe('ok');
    expect(vi.mocked(s.core.handlers['projects.open']).mock.calls[0]?.[0]).toEqual({ path: '/picked/a.loupe' }); // (dispatch may pass a caller too)

    await call(s, 'dialog.openProjects', {});
    expect(refusedCode(await call(s, 'merge.projects', { paths: ['/picked/a.loupe'] }))).toBe('ok');
    s.showOpenDialog.mockResolvedValue({ canceled: false, filePaths: ['/picked/data.jsonl'] });
    await call(s, 'dialog.importFile', {}); // Linux: asks file or folder first (answer 0: file)
    expect(refusedCode(await call(s, 'imports.start', { source: { type: 'path', path: '/picked/data.jsonl' } }))).toBe(
      'ok',
    );
  });

  it('accepts a recent-projects entry', async () => {
    const { s } = await launch();
    expect(refusedCode(await call(s, 'projects.open', { path: project.path }))).toBe('ok');
  });

  it('accepts the --project path and a file the OS opened', async () => {
    const { s } = await launch(['--project', '/data/study.loupe']);
    expect(refusedCode(await call(s, 'projects.open', { path: '/data/study.loupe' }))).toBe('ok');
    s.appEvents.get('open-file')!({ preventDefault: () => {} }, '/Users/u/finder.loupe');
    expect(refusedCode(await call(s, 'projects.open', { path: '/Users/u/finder.loupe' }))).toBe('ok');
  });

  it('binds the dropped-file grant channel', async () => {
    const { s } = await launch();
    expect([...s.ipcOn.keys()]).toEqual(['loupe:grant-dropped-file']);
  });
});

describe('electron main: app:// scheme', () => {
  it('declares the scheme privileged before ready and serves the renderer before the window loads', async () => {
    const { s } = await launch();
    expect(s.calls.indexOf('registerSchemesAsPrivileged')).toBe(0);
    expect(s.calls.indexOf('protocol.handle app')).toBeGreaterThan(s.calls.indexOf('createCore'));
    expect(s.calls.indexOf('protocol.handle app')).toBeLessThan(s.calls.indexOf('new BrowserWindow'));
    expect(s.privileged).toEqual([
      { scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) },
    ]);
    // It serves from <outDir>/renderer: here electron/renderer does not exist, so index is a 404,
    // as any missing file is; traversal out of it is refused the same way.
    const handler = s.protocolHandlers.get('app');
    expect((await handler(new Request('app://loupe/index.html'))).status).toBe(404);
    expect((await handler(new Request('app://loupe/..%2fmain%2fmain.ts'))).status).toBe(404);
  });
});
