/**
 * The `dialog.*` methods of the contract: native open/save dialogs of the desktop host. The core
 * answers them with `unsupported`; the desktop host overrides them with these. Every path a
 * dialog returns is granted (electron/main/grants.ts) for what the dialog was for, so the page
 * can then pass it to projects.open/create, merge.projects or imports.start, and no other path.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  app,
  dialog,
  type BrowserWindow,
  type FileFilter,
  type OpenDialogOptions,
  type SaveDialogOptions,
} from 'electron';
import type { ApiHandlers } from '../../shared/api';
import type { DialogMethod } from '../../shared/contract/dialog';
import type { GrantPurpose } from './grants';

export type { DialogMethod };
export type DialogHandlers = Pick<ApiHandlers, DialogMethod>;

export const PROJECT_FILTERS: FileFilter[] = [{ name: 'Loupe project', extensions: ['loupe'] }];
export const BATCH_FILTERS: FileFilter[] = [
  { name: 'Batch answers (JSON Lines)', extensions: ['jsonl', 'json'] },
  { name: 'All files', extensions: ['*'] },
];
export const IMPORT_FILTERS: FileFilter[] = [
  { name: 'Summaries and labels (JSONL, JSON, CSV)', extensions: ['jsonl', 'json', 'csv'] },
  { name: 'All files', extensions: ['*'] },
];

export interface DialogDeps {
  /** The window the dialog belongs to (modal); null: a free-standing dialog. */
  getWindow(): BrowserWindow | null;
  /**
   * Records a path the user chose, for the one purpose the dialog served. Without it nothing is
   * granted (fail closed: the page's later call with that path is refused).
   */
  grant?(purpose: GrantPurpose, filePath: string): void;
  /** Defaults to `process.platform`: only macOS has a dialog that picks files *and* folders. */
  platform?: NodeJS.Platform;
  /** Where dialogs start; defaults to the user's documents folder. */
  defaultDir?(): string;
}

/**
 * Writes a file so that readers see the old content or the new, never half of it: a temporary
 * file in the same folder, flushed to disk, then renamed over the target.
 */
export async function writeFileAtomic(target: string, content: string): Promise<void> {
  const dir = path.dirname(target);
  const tmp = path.join(dir, `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await fs.open(tmp, 'wx', 0o644);
  try {
    await handle.writeFile(content, 'utf8');
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => {});
    await fs.rm(tmp, { force: true });
    throw err;
  }
  await handle.close();
  try {
    await fs.rename(tmp, target);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}

function filtersForExport(fileName: string): FileFilter[] {
  const ext = path.extname(fileName).slice(1).toLowerCase();
  const named: Record<string, string> = { jsonl: 'JSON Lines', csv: 'CSV', json: 'JSON' };
  const first = ext ? [{ name: named[ext] ?? ext.toUpperCase(), extensions: [ext] }] : [];
  return [...first, { name: 'All files', extensions: ['*'] }];
}

/** A file name only: the renderer proposes the name, never the folder. */
function safeBaseName(fileName: string): string {
  // Control characters are exactly what a file name must not carry.
  // eslint-disable-next-line no-control-regex
  const base = path.basename(fileName.replace(/\\/g, '/')).replace(/[\u0000-\u001f<>:"|?*]/g, '_');
  return base && base !== '.' && base !== '..' ? base : 'loupe-export.txt';
}

export function createDialogHandlers(deps: DialogDeps): DialogHandlers {
  const platform = deps.platform ?? process.platform;
  const defaultDir =
    deps.defaultDir ??
    (() => {
      try {
        return app.getPath('documents');
      } catch {
        return app.getPath('home'); // no Documents folder (some Linux setups)
      }
    });

  async function open(options: OpenDialogOptions): Promise<string | null> {
    const win = deps.getWindow();
    const result = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
    return result.canceled ? null : (result.filePaths[0] ?? null);
  }

  const grant = deps.grant ?? (() => {});
  function granted<P extends string | null>(purpose: GrantPurpose, chosen: P): P {
    if (chosen) grant(purpose, chosen);
    return chosen;
  }

  async function save(options: SaveDialogOptions): Promise<string | null> {
    const win = deps.getWindow();
    const result = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
    return result.canceled || !result.filePath ? null : result.filePath;
  }

  /** The Save dialog in the default folder, proposing the page's file name (never its folder). */
  function saveAs(title: string, fileName: string): Promise<string | null> {
    const name = safeBaseName(fileName);
    return save({
      title,
      defaultPath: path.join(defaultDir(), name),
      filters: filtersForExport(name),
      properties: ['createDirectory', 'showOverwriteConfirmation'],
    });
  }

  /** Windows and Linux cannot offer files and folders in one dialog: ask which first. */
  async function chooseImportKind(): Promise<'file' | 'folder' | null> {
    const options = {
      type: 'question' as const,
      title: 'Import',
      message: 'Import a file or a folder?',
      detail: 'Files: JSONL, JSON or CSV (summaries, labels, benchmarks). Folder: a benchmark release such as FRANK.',
      buttons: ['File…', 'Folder…', 'Cancel'],
      defaultId: 0,
      cancelId: 2,
      noLink: true,
    };
    const win = deps.getWindow();
    const { response } = win ? await dialog.showMessageBox(win, options) : await dialog.showMessageBox(options);
    return response === 0 ? 'file' : response === 1 ? 'folder' : null;
  }

  return {
    'dialog.openProject': async () => ({
      path: granted(
        'open',
        await open({
          title: 'Open Loupe project',
          defaultPath: defaultDir(),
          filters: PROJECT_FILTERS,
          properties: ['openFile'],
        }),
      ),
    }),

    'dialog.openProjects': async () => {
      const win = deps.getWindow();
      const options: OpenDialogOptions = {
        title: "Merge annotators' copies",
        buttonLabel: 'Merge',
        defaultPath: defaultDir(),
        filters: PROJECT_FILTERS,
        properties: ['openFile', 'multiSelections'],
      };
      const result = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
      const paths = result.canceled ? [] : result.filePaths;
      for (const p of paths) grant('merge', p);
      return { paths };
    },

    'dialog.createProject': async () => {
      const chosen = await save({
        title: 'New Loupe project',
        defaultPath: path.join(defaultDir(), 'Untitled.loupe'),
        buttonLabel: 'Create',
        filters: PROJECT_FILTERS,
        properties: ['createDirectory', 'showOverwriteConfirmation'],
      });
      if (!chosen) return { path: null };
      return { path: granted('create', path.extname(chosen).toLowerCase() === '.loupe' ? chosen : `${chosen}.loupe`) };
    },

    'dialog.importFile': async () => {
      const base = { title: 'Import', defaultPath: defaultDir(), filters: IMPORT_FILTERS };
      if (platform === 'darwin') {
        return { path: granted('import', await open({ ...base, properties: ['openFile', 'openDirectory'] })) };
      }
      const kind = await chooseImportKind();
      if (kind === null) return { path: null };
      const chosen = await open(
        kind === 'file'
          ? { ...base, properties: ['openFile'] }
          : { title: 'Import a folder', defaultPath: defaultDir(), properties: ['openDirectory'] },
      );
      return { path: granted('import', chosen) };
    },

    // The core reads the file line by line (any size): the dialog only picks and grants the path.
    'dialog.openBatchFile': async () => ({
      path: granted(
        'import',
        await open({
          title: 'Import batch answers',
          defaultPath: defaultDir(),
          filters: BATCH_FILTERS,
          properties: ['openFile'],
        }),
      ),
    }),

    // The core writes the file (streamed, any size): the dialog only picks and grants the path.
    'dialog.chooseSavePath': async ({ fileName }) => ({ path: granted('save', await saveAs('Save', fileName)) }),

    'dialog.saveExport': async ({ fileName, content }) => {
      const chosen = await saveAs('Export', fileName);
      if (!chosen) return { path: null };
      await writeFileAtomic(chosen, content);
      return { path: chosen };
    },
  };
}
