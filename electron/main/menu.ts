/**
 * The application menu. Items that need the UI (dialogs, import, export) send a MENU_ACTIONS
 * value to the focused window on 'loupe:menu'; opening a recent project happens here in the main
 * process, which then tells the renderer 'project-opened'.
 *
 * No undo/redo roles: the renderer owns Ctrl/Cmd+Z for label undo, and a role bound to the same
 * accelerator would swallow the key before the page sees it.
 */
import { Menu, type BaseWindow, type MenuItemConstructorOptions } from 'electron';
import type { MenuAction } from '../../shared/api';

export interface RecentProject {
  path: string;
  name: string;
  openedAt: string;
}

export interface MenuDeps {
  appName: string;
  isMac: boolean;
  isPackaged: boolean;
  recent: readonly RecentProject[];
  /** Sends the action to the window the item was clicked in (or the focused/main window). */
  send(action: MenuAction, window?: BaseWindow | null): void;
  openRecent(path: string): void;
  showAbout(): void;
}

export const MAX_RECENT_IN_MENU = 10;

/** '&' introduces a mnemonic in menu labels on Windows and Linux. */
function label(text: string): string {
  return text.replace(/&/g, '&&');
}

export function aboutDetail(
  version: string,
  versions: Partial<Record<'electron' | 'chrome' | 'node', string>> = {},
): string {
  const runtime = [
    versions.electron ? `Electron ${versions.electron}` : null,
    versions.chrome ? `Chromium ${versions.chrome}` : null,
    versions.node ? `Node ${versions.node}` : null,
  ].filter(Boolean);
  return [
    `Version ${version}${runtime.length ? ` (${runtime.join(', ')})` : ''}`,
    '',
    'Blind sentence-level faithfulness annotation of summaries, and an audit of LLM judges against it.',
    '',
    'Demo data: FRANK benchmark — Pagnoni, Balachandran & Tsvetkov, “Understanding Factuality in ' +
      'Abstractive Summarization with FRANK: A Benchmark for Factuality Metrics”, NAACL 2021. ' +
      'Released under the MIT License.',
  ].join('\n');
}

export function menuTemplate(deps: MenuDeps): MenuItemConstructorOptions[] {
  const action =
    (name: MenuAction) =>
    (_item: unknown, window: BaseWindow | undefined): void =>
      deps.send(name, window ?? null);

  const recent = deps.recent.slice(0, MAX_RECENT_IN_MENU);
  const recentItems: MenuItemConstructorOptions[] = recent.length
    ? recent.map((project, i) => ({
        id: `file.recent.${i}`,
        label: label(`${project.name} — ${project.path}`),
        click: () => deps.openRecent(project.path),
      }))
    : [{ id: 'file.recent.none', label: 'No recent projects', enabled: false }];

  const about: MenuItemConstructorOptions = {
    id: 'help.about',
    label: `About ${deps.appName}`,
    click: () => deps.showAbout(),
  };

  const file: MenuItemConstructorOptions = {
    id: 'file',
    label: '&File',
    submenu: [
      { id: 'file.new-project', label: 'New Project…', accelerator: 'CmdOrCtrl+N', click: action('new-project') },
      { id: 'file.open-project', label: 'Open Project…', accelerator: 'CmdOrCtrl+O', click: action('open-project') },
      { id: 'file.recent', label: 'Open Recent', submenu: recentItems },
      { id: 'file.open-demo', label: 'Open Demo Project', click: action('open-demo') },
      { type: 'separator' },
      { id: 'file.import', label: 'Import…', accelerator: 'CmdOrCtrl+I', click: action('import') },
      { id: 'file.export', label: 'Export…', accelerator: 'CmdOrCtrl+E', click: action('export') },
      ...(deps.isMac
        ? [{ type: 'separator' as const }, { role: 'close' as const }]
        : [{ type: 'separator' as const }, { id: 'file.quit', role: 'quit' as const, label: 'Quit' }]),
    ],
  };

  const edit: MenuItemConstructorOptions = {
    id: 'edit',
    label: '&Edit',
    submenu: [{ role: 'cut' }, { role: 'copy' }, { role: 'paste' }, { type: 'separator' }, { role: 'selectAll' }],
  };

  const view: MenuItemConstructorOptions = {
    id: 'view',
    label: '&View',
    submenu: [
      { role: 'reload' },
      ...(deps.isPackaged ? [] : [{ role: 'toggleDevTools' as const }]),
      { type: 'separator' },
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };

  const help: MenuItemConstructorOptions = {
    id: 'help',
    role: 'help',
    label: '&Help',
    submenu: deps.isMac ? [{ ...about, id: 'help.about-help' }] : [about],
  };

  if (!deps.isMac) return [file, edit, view, help];

  const appMenu: MenuItemConstructorOptions = {
    id: 'app',
    label: deps.appName,
    submenu: [
      about,
      { type: 'separator' },
      { role: 'services' },
      { type: 'separator' },
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      { type: 'separator' },
      { id: 'app.quit', role: 'quit' },
    ],
  };
  return [appMenu, file, edit, view, { role: 'windowMenu' }, help];
}

export function installMenu(deps: MenuDeps): Menu {
  const menu = Menu.buildFromTemplate(menuTemplate(deps));
  Menu.setApplicationMenu(menu);
  return menu;
}
