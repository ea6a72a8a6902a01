/**
 * The desktop host, kept thin: it creates the core, binds the contract to IPC, and owns what
 * only a desktop has (window, menu, native dialogs, single instance, command line).
 *
 * The SQLite driver is better-sqlite3 13 installed under the npm alias `better-sqlite3-napi`:
 * an N-API build, so the same file loads under Electron's ABI without a rebuild (see
 * docs/native-modules.md). It stays external to the bundle.
 */
import path from 'node:path';
import { app, BrowserWindow, dialog, type BaseWindow } from 'electron';
// @ts-expect-error The npm alias ships no types of its own; its API is @types/better-sqlite3's.
import DatabaseNapi from 'better-sqlite3-napi';
import type { ApiHandlers, MenuAction, ProjectInfo } from '../../shared/api';
import { createCore, type Core } from '../core/index';
import { createDialogHandlers } from './dialogs';
import { createKeychainSecretStore } from './secrets';
import { createPathGrants, createPathGuard } from './grants';
import { bindDropGrants, bindIpc, CHANGE_CHANNEL, MENU_CHANNEL } from './ipc';
import { aboutDetail, installMenu, type RecentProject } from './menu';
import { installAppProtocol, registerAppScheme } from './protocol';
import { createMainWindow, hardenWebContents, resolveDevUrl, type AppPage } from './window';

const Database = DatabaseNapi as typeof import('better-sqlite3');

export interface CommandLine {
  /** `--project PATH`, `--project=PATH`, or a bare `*.loupe` argument (file association). */
  project: string | null;
  /** `--annotator NAME` preselects the annotator, as `loupe serve --annotator` does. */
  annotator: string | null;
}

/**
 * Reads the arguments after the executable (and, unpackaged, after the app path). Chromium and
 * Node switches (`--inspect=0`, `--no-sandbox`, …) are skipped.
 */
export function parseCommandLine(args: readonly string[]): CommandLine {
  const out: CommandLine = { project: null, annotator: null };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    for (const key of ['project', 'annotator'] as const) {
      if (arg === `--${key}` && i + 1 < args.length) {
        out[key] = args[++i] ?? null;
      } else if (arg.startsWith(`--${key}=`)) {
        out[key] = arg.slice(key.length + 3) || null;
      }
    }
    if (!arg.startsWith('-') && arg.toLowerCase().endsWith('.loupe') && out.project === null) out.project = arg;
  }
  return out;
}

/** process.argv without the executable and, when unpackaged, the app path (`electron .`). */
export function userArgs(argv: readonly string[], isPackaged: boolean): string[] {
  return argv.slice(isPackaged ? 1 : 2);
}

/**
 * LOUPE_USER_DATA lets end-to-end tests run with a throw-away state directory (and their own
 * instance lock). Development runs only: a packaged app keeps its state (recent projects, judge
 * keys) where the OS puts it, whatever the environment says.
 */
export function userDataOverride(env: NodeJS.ProcessEnv, isPackaged: boolean): string | null {
  const requested = env.LOUPE_USER_DATA;
  if (!requested) return null;
  if (isPackaged) {
    console.warn('[loupe] LOUPE_USER_DATA is ignored by the packaged app');
    return null;
  }
  return path.resolve(requested);
}

export function start(): void {
  const userData = userDataOverride(process.env, app.isPackaged);
  if (userData) app.setPath('userData', userData);
  app.enableSandbox();

  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  // app://loupe/ must be declared privileged before the app is ready.
  registerAppScheme();

  // This file is out/main/main.cjs: its siblings are out/preload and out/renderer, and the app
  // (the repository, or app.asar when packaged) is two levels up.
  const outDir = path.resolve(__dirname, '..');
  const appRoot = path.resolve(outDir, '..');
  const page: AppPage = {
    rendererDir: path.join(outDir, 'renderer'),
    devUrl: resolveDevUrl(process.env.ELECTRON_RENDERER_URL, app.isPackaged),
  };
  const preloadPath = path.join(outDir, 'preload', 'preload.cjs');
  const demoDir = app.isPackaged ? path.join(process.resourcesPath, 'demo') : path.join(appRoot, 'demo');
  const commandLine = parseCommandLine(userArgs(process.argv, app.isPackaged));
  // Paths the user chose through the main process; the only ones the page may pass to the core.
  const grants = createPathGrants();
  if (commandLine.project) grants.grant('open', commandLine.project);

  let core: Core | null = null;
  let mainWindow: BrowserWindow | null = null;
  let handlers: ApiHandlers | null = null;

  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, page));

  const targetWindow = (preferred?: BaseWindow | null): BrowserWindow | null => {
    const fromMenu = preferred ? BrowserWindow.fromId(preferred.id) : null;
    const win = fromMenu ?? BrowserWindow.getFocusedWindow() ?? mainWindow;
    return win && !win.isDestroyed() ? win : null;
  };
  const send = (action: MenuAction, preferred?: BaseWindow | null) => {
    targetWindow(preferred)?.webContents.send(MENU_CHANNEL, action);
  };

  const showError = (title: string, err: unknown) => {
    const message = err instanceof Error ? err.message : String(err);
    const win = targetWindow();
    const options = { type: 'error' as const, title, message: title, detail: message };
    void (win ? dialog.showMessageBox(win, options) : dialog.showMessageBox(options));
  };

  const refreshMenu = async () => {
    let recent: RecentProject[] = [];
    try {
      if (handlers) recent = await handlers['projects.recent']({});
    } catch (err) {
      console.error('[loupe] could not read the recent projects:', err);
    }
    installMenu({
      appName: 'Loupe',
      isMac: process.platform === 'darwin',
      isPackaged: app.isPackaged,
      recent,
      send,
      openRecent: (projectPath) => openFromHost(projectPath),
      showAbout,
    });
  };

  const projectChanged = (project: ProjectInfo | null) => {
    mainWindow?.setTitle(project ? `${project.name} — Loupe` : 'Loupe');
    void refreshMenu();
  };

  /** Opens a project from the main process (menu, command line, second instance, macOS). */
  const openFromHost = (projectPath: string) => {
    if (!core) return;
    grants.grant('open', projectPath);
    try {
      projectChanged(core.openProject(path.resolve(projectPath)));
      send('project-opened');
    } catch (err) {
      showError(`Could not open ${projectPath}`, err);
    }
  };

  const showAbout = () => {
    const options = {
      type: 'info' as const,
      title: 'About Loupe',
      message: 'Loupe',
      detail: aboutDetail(app.getVersion(), process.versions),
      buttons: ['OK'],
    };
    const win = targetWindow();
    void (win ? dialog.showMessageBox(win, options) : dialog.showMessageBox(options));
  };

  /** Project-switching methods also refresh the menu's recent list and the window title. */
  const withProjectRefresh = (base: ApiHandlers): ApiHandlers => ({
    ...base,
    'projects.open': async (input) => {
      const info = await base['projects.open'](input);
      projectChanged(info);
      return info;
    },
    'projects.create': async (input) => {
      const info = await base['projects.create'](input);
      projectChanged(info);
      return info;
    },
    'projects.openDemo': async (input) => {
      const info = await base['projects.openDemo'](input);
      projectChanged(info);
      return info;
    },
  });

  const openWindow = () => {
    mainWindow = createMainWindow({ page, preloadPath });
    mainWindow.on('closed', () => {
      mainWindow = null;
    });
    projectChanged(core?.current() ?? null);
  };

  app.on('second-instance', (_event, argv) => {
    const { project } = parseCommandLine(argv.slice(1));
    if (project) openFromHost(project);
    const win = targetWindow();
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });

  // macOS: a .loupe file opened from Finder or the Dock.
  app.on('open-file', (event, filePath) => {
    event.preventDefault();
    grants.grant('open', filePath);
    if (core) openFromHost(filePath);
    else commandLine.project = filePath;
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  app.on('activate', () => {
    if (core && BrowserWindow.getAllWindows().length === 0) openWindow();
  });

  app.on('will-quit', () => {
    try {
      core?.close();
    } catch (err) {
      console.error('[loupe] closing the project failed:', err);
    }
    core = null;
  });

  app
    .whenReady()
    .then(() => {
      core = createCore({
        Database,
        stateDir: app.getPath('userData'),
        demoDir,
        host: 'electron',
        fileDialogs: true,
        diskPaths: true,
        canSwitchProjects: true,
        annotator: commandLine.annotator,
        // Judge API keys: encrypted by the OS keychain (safeStorage), kept in userData, never in a project.
        secrets: createKeychainSecretStore(app.getPath('userData')),
        // Keys from environment variables too (development): the person at this machine set them, and
        // the Judges view names the variable and the base URL before a run starts.
        allowedKeyEnv: 'any',
      });
      installAppProtocol(page.rendererDir);
      const dialogHandlers = createDialogHandlers({
        getWindow: () => targetWindow(),
        grant: (purpose, filePath) => grants.grant(purpose, filePath),
      });
      const bound = withProjectRefresh({ ...core.handlers, ...dialogHandlers });
      handlers = bound;
      const guardPaths = createPathGuard({
        grants,
        recentPaths: async () => (await bound['projects.recent']({})).map((entry) => entry.path),
      });
      bindIpc(bound, page, guardPaths);
      bindDropGrants(grants, page);
      // Every window of the desktop is the lead's: each hears every change, to refetch what it shows.
      core.onChange((event) => {
        for (const win of BrowserWindow.getAllWindows())
          if (!win.isDestroyed()) win.webContents.send(CHANGE_CHANNEL, event);
      });

      let startupError: unknown = null;
      if (commandLine.project) {
        try {
          core.openProject(path.resolve(commandLine.project));
        } catch (err) {
          startupError = err;
        }
      }
      openWindow();
      if (startupError) showError(`Could not open ${commandLine.project}`, startupError);
    })
    .catch((err: unknown) => {
      console.error('[loupe] startup failed:', err);
      dialog.showErrorBox('Loupe could not start', err instanceof Error ? (err.stack ?? err.message) : String(err));
      app.exit(1);
    });
}

start();
