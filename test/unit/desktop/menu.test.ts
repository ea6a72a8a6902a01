/** The application menu template, with electron mocked. */
import { describe, expect, it, vi } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import { MENU_ACTIONS } from '../../../shared/api';

vi.mock('electron', () => {
  const Menu = { buildFromTemplate: vi.fn((t: unknown) => ({ template: t })), setApplicationMenu: vi.fn() };
  return { Menu, default: { Menu } };
});

import { Menu } from 'electron';
import { aboutDetail, installMenu, menuTemplate, type MenuDeps } from '../../../electron/main/menu';

function deps(over: Partial<MenuDeps> = {}): MenuDeps {
  return {
    appName: 'Loupe',
    isMac: false,
    isPackaged: true,
    recent: [
      { path: '/data/a.loupe', name: 'a', openedAt: '2025-01-01T00:00:00Z' },
      { path: '/data/R&D.loupe', name: 'R&D', openedAt: '2025-01-02T00:00:00Z' },
    ],
    send: vi.fn(),
    openRecent: vi.fn(),
    showAbout: vi.fn(),
    ...over,
  };
}

function flatten(items: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return items.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? flatten(item.submenu) : [])]);
}

function byId(items: MenuItemConstructorOptions[], id: string): MenuItemConstructorOptions {
  const found = flatten(items).find((i) => i.id === id);
  if (!found) throw new Error(`no menu item ${id}`);
  return found;
}

function click(item: MenuItemConstructorOptions, window: unknown = undefined) {
  (item.click as (...args: unknown[]) => void)({}, window, {});
}

describe('menu', () => {
  it('has File, Edit, View, Help (plus the app and Window menus on macOS)', () => {
    expect(menuTemplate(deps()).map((m) => m.id ?? m.role)).toEqual(['file', 'edit', 'view', 'help']);
    expect(menuTemplate(deps({ isMac: true })).map((m) => m.id ?? m.role)).toEqual([
      'app',
      'file',
      'edit',
      'view',
      'windowMenu',
      'help',
    ]);
  });

  it('File items send their action to the window they were clicked in', () => {
    const d = deps();
    const t = menuTemplate(d);
    const win = { id: 7 };
    const expected: Array<[string, string, string | undefined]> = [
      ['file.new-project', 'new-project', 'CmdOrCtrl+N'],
      ['file.open-project', 'open-project', 'CmdOrCtrl+O'],
      ['file.open-demo', 'open-demo', undefined],
      ['file.import', 'import', 'CmdOrCtrl+I'],
      ['file.export', 'export', 'CmdOrCtrl+E'],
    ];
    for (const [id, action, accelerator] of expected) {
      const item = byId(t, id);
      expect(item.accelerator).toBe(accelerator);
      click(item, win);
      expect(d.send).toHaveBeenLastCalledWith(action, win);
      expect(MENU_ACTIONS).toContain(action);
    }
    click(byId(t, 'file.import'));
    expect(d.send).toHaveBeenLastCalledWith('import', null);
    expect(byId(t, 'file.quit').role).toBe('quit');
  });

  it('Open Recent lists the recent projects and opens them in the main process', () => {
    const d = deps();
    const recent = byId(menuTemplate(d), 'file.recent').submenu as MenuItemConstructorOptions[];
    expect(recent.map((i) => i.label)).toEqual(['a — /data/a.loupe', 'R&&D — /data/R&&D.loupe']);
    click(recent[1]!);
    expect(d.openRecent).toHaveBeenCalledWith('/data/R&D.loupe');
    expect(d.send).not.toHaveBeenCalled();

    const empty = byId(menuTemplate(deps({ recent: [] })), 'file.recent').submenu as MenuItemConstructorOptions[];
    expect(empty).toEqual([expect.objectContaining({ label: 'No recent projects', enabled: false })]);

    const many = Array.from({ length: 25 }, (_, i) => ({ path: `/p${i}.loupe`, name: `p${i}`, openedAt: '' }));
    expect((byId(menuTemplate(deps({ recent: many })), 'file.recent').submenu as unknown[]).length).toBe(10);
  });

  it('binds no undo/redo role (the renderer owns Ctrl/Cmd+Z) and no accelerator twice', () => {
    for (const isMac of [false, true]) {
      const items = flatten(menuTemplate(deps({ isMac })));
      expect(items.filter((i) => i.role === 'undo' || i.role === 'redo')).toEqual([]);
      expect(items.map((i) => i.accelerator).filter((a) => /\+Z$/i.test(a ?? ''))).toEqual([]);
      const accelerators = items.map((i) => i.accelerator).filter(Boolean);
      expect(new Set(accelerators).size).toBe(accelerators.length);
      expect(items.map((i) => i.role)).toEqual(expect.arrayContaining(['cut', 'copy', 'paste', 'selectAll']));
    }
  });

  it('offers the developer tools only when not packaged', () => {
    const roles = (isPackaged: boolean) => flatten(menuTemplate(deps({ isPackaged }))).map((i) => i.role);
    expect(roles(true)).not.toContain('toggleDevTools');
    expect(roles(false)).toContain('toggleDevTools');
    expect(roles(true)).toEqual(expect.arrayContaining(['reload', 'resetZoom', 'zoomIn', 'zoomOut']));
  });

  it('Help › About shows the demo data attribution', () => {
    const d = deps();
    click(byId(menuTemplate(d), 'help.about'));
    expect(d.showAbout).toHaveBeenCalled();
    const text = aboutDetail('0.1.0', { electron: '45.5.0', chrome: '140', node: '22' });
    expect(text).toContain('Version 0.1.0 (Electron 45.5.0, Chromium 140, Node 22)');
    expect(text).toMatch(/FRANK/);
    expect(text).toMatch(/Pagnoni/);
    expect(text).toMatch(/NAACL 2021/);
    expect(text).toMatch(/MIT License/);
  });

  it('installs the menu as the application menu', () => {
    installMenu(deps());
    expect(Menu.buildFromTemplate).toHaveBeenCalled();
    expect(Menu.setApplicationMenu).toHaveBeenCalled();
  });
});
