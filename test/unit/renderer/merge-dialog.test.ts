/** The desktop's dialog.openProjects (several .loupe files for a merge), with electron's dialog mocked; the core refuses it. */
import Database from 'better-sqlite3';
import os from 'node:os';
import { describe, expect, it, vi } from 'vitest';

const h = vi.hoisted(() => ({ showOpenDialog: null as unknown as import('vitest').Mock<(...args: any[]) => any> }));

vi.mock('electron', async () => {
  const { vi: v } = await import('vitest');
  h.showOpenDialog = v.fn();
  const electron = {
    app: { getPath: () => '/home/user/Documents' },
    dialog: { showOpenDialog: (...a: unknown[]) => h.showOpenDialog(...a) },
  };
  return { ...electron, default: electron };
});

import { createDialogHandlers, PROJECT_FILTERS } from '../../../electron/main/dialogs';
import { createCore } from '../../../electron/core/index';

const win = { id: 1 } as never;

describe('dialog.openProjects', () => {
  it('offers a multi-selection of .loupe files and returns every chosen path', async () => {
    h.showOpenDialog.mockResolvedValueOnce({ canceled: false, filePaths: ['/p/alice.loupe', '/p/bob.loupe'] });
    const handlers = createDialogHandlers({ getWindow: () => win, platform: 'linux', defaultDir: () => '/p' });
    await expect(handlers['dialog.openProjects']({})).resolves.toEqual({ paths: ['/p/alice.loupe', '/p/bob.loupe'] });
    expect(h.showOpenDialog).toHaveBeenCalledWith(
      win,
      expect.objectContaining({ filters: PROJECT_FILTERS, properties: ['openFile', 'multiSelections'] }),
    );
  });

  it('returns no path when cancelled', async () => {
    h.showOpenDialog.mockResolvedValueOnce({ canceled: true, filePaths: [] });
    const handlers = createDialogHandlers({ getWindow: () => null, platform: 'linux', defaultDir: () => '/p' });
    await expect(handlers['dialog.openProjects']({})).resolves.toEqual({ paths: [] });
  });

  it('is answered unsupported by the core (loupe serve, the CLI)', async () => {
    const core = createCore({
      Database,
      stateDir: os.tmpdir(),
      demoDir: os.tmpdir(),
      host: 'web',
      fileDialogs: false,
      diskPaths: false,
      canSwitchProjects: false,
    });
    await expect(core.handlers['dialog.openProjects']({})).rejects.toMatchObject({ code: 'unsupported' });
  });
});
