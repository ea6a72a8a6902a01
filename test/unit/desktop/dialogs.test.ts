/** The desktop's dialog.* handlers, with electron's dialog mocked; files written for real. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const h = vi.hoisted(() => ({
  showOpenDialog: null as unknown as import('vitest').Mock<(...args: any[]) => any>,
  showSaveDialog: null as unknown as import('vitest').Mock<(...args: any[]) => any>,
  showMessageBox: null as unknown as import('vitest').Mock<(...args: any[]) => any>,
}));

vi.mock('electron', async () => {
  const { vi: v } = await import('vitest');
  h.showOpenDialog = v.fn();
  h.showSaveDialog = v.fn();
  h.showMessageBox = v.fn();
  const electron = {
    app: { getPath: () => '/home/user/Documents' },
    dialog: {
      showOpenDialog: (...a: unknown[]) => h.showOpenDialog(...a),
      showSaveDialog: (...a: unknown[]) => h.showSaveDialog(...a),
      showMessageBox: (...a: unknown[]) => h.showMessageBox(...a),
    },
  };
  return { ...electron, default: electron };
});

import { createDialogHandlers, writeFileAtomic } from '../../../electron/main/dialogs';
import { createPathGrants, type PathGrants } from '../../../electron/main/grants';

let dir: string;
let grants: PathGrants;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'loupe-dialogs-'));
  grants = createPathGrants('linux');
  h.showOpenDialog.mockReset();
  h.showSaveDialog.mockReset();
  h.showMessageBox.mockReset();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const win = { id: 1 } as never;
const handlers = (platform: NodeJS.Platform = 'linux', window: unknown = win) =>
  createDialogHandlers({
    getWindow: () => window as never,
    grant: (purpose, p) => grants.grant(purpose, p),
    platform,
    defaultDir: () => dir,
  });

describe('writeFileAtomic', () => {
  it('writes, replaces, and leaves no temporary file behind', async () => {
    const target = path.join(dir, 'out.jsonl');
    await writeFileAtomic(target, 'one\n');
    expect(readFileSync(target, 'utf8')).toBe('one\n');
    await writeFileAtomic(target, 'two\n');
    expect(readFileSync(target, 'utf8')).toBe('two\n');
    expect(readdirSync(dir)).toEqual(['out.jsonl']);
  });

  it('fails without touching the target when the folder does not exist', async () => {
    await expect(writeFileAtomic(path.join(dir, 'missing', 'x.csv'), 'x')).rejects.toThrow();
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('dialog handlers', () => {
  it('dialog.openProject: a .loupe file, modal to the window; null when cancelled', async () => {
    h.showOpenDialog.mockResolvedValue({ canceled: false, filePaths: ['/p/a.loupe'] });
    await expect(handlers()['dialog.openProject']({})).resolves.toEqual({ path: '/p/a.loupe' });
    const [parent, options] = h.showOpenDialog.mock.calls[0]!;
    expect(parent).toBe(win);
    expect(options.filters).toEqual([{ name: 'Loupe project', extensions: ['loupe'] }]);
    expect(options.properties).toEqual(['openFile']);

    h.showOpenDialog.mockResolvedValue({ canceled: true, filePaths: [] });
    await expect(handlers()['dialog.openProject']({})).resolves.toEqual({ path: null });

    h.showOpenDialog.mockResolvedValue({ canceled: false, filePaths: ['/p/b.loupe'] });
    await expect(handlers('linux', null)['dialog.openProject']({})).resolves.toEqual({ path: '/p/b.loupe' });
    expect(h.showOpenDialog.mock.calls.at(-1)).toHaveLength(1); // no parent window
  });

  it('dialog.createProject: appends .loupe when the user left it out', async () => {
    h.showSaveDialog.mockResolvedValue({ canceled: false, filePath: '/p/study' });
    await expect(handlers()['dialog.createProject']({})).resolves.toEqual({ path: '/p/study.loupe' });
    expect(h.showSaveDialog.mock.calls[0]![1].filters).toEqual([{ name: 'Loupe project', extensions: ['loupe'] }]);
    h.showSaveDialog.mockResolvedValue({ canceled: false, filePath: '/p/study.LOUPE' });
    await expect(handlers()['dialog.createProject']({})).resolves.toEqual({ path: '/p/study.LOUPE' });
    h.showSaveDialog.mockResolvedValue({ canceled: true, filePath: '' });
    await expect(handlers()['dialog.createProject']({})).resolves.toEqual({ path: null });
  });

  it('dialog.importFile on macOS: one dialog for .jsonl/.json/.csv files or a folder', async () => {
    h.showOpenDialog.mockResolvedValue({ canceled: false, filePaths: ['/data/frank'] });
    await expect(handlers('darwin')['dialog.importFile']({})).resolves.toEqual({ path: '/data/frank' });
    const options = h.showOpenDialog.mock.calls[0]![1];
    expect(options.properties).toEqual(['openFile', 'openDirectory']);
    expect(options.filters[0].extensions).toEqual(['jsonl', 'json', 'csv']);
    expect(h.showMessageBox).not.toHaveBeenCalled();
  });

  it('dialog.importFile on Linux/Windows: asks file or folder first (their dialogs cannot do both)', async () => {
    h.showMessageBox.mockResolvedValue({ response: 1 });
    h.showOpenDialog.mockResolvedValue({ canceled: false, filePaths: ['/data/frank'] });
    await expect(handlers('linux')['dialog.importFile']({})).resolves.toEqual({ path: '/data/frank' });
    expect(h.showOpenDialog.mock.calls[0]![1].properties).toEqual(['openDirectory']);

    h.showMessageBox.mockResolvedValue({ response: 0 });
    h.showOpenDialog.mockResolvedValue({ canceled: false, filePaths: ['/data/a.csv'] });
    await expect(handlers('win32')['dialog.importFile']({})).resolves.toEqual({ path: '/data/a.csv' });
    const options = h.showOpenDialog.mock.calls[1]![1];
    expect(options.properties).toEqual(['openFile']);
    expect(options.filters[0].extensions).toEqual(['jsonl', 'json', 'csv']);

    h.showMessageBox.mockResolvedValue({ response: 2 });
    await expect(handlers('linux')['dialog.importFile']({})).resolves.toEqual({ path: null });
    expect(h.showOpenDialog).toHaveBeenCalledTimes(2);
  });

  it('grants each chosen path for what its dialog was for, and nothing when cancelled', async () => {
    h.showOpenDialog.mockResolvedValue({ canceled: false, filePaths: ['/p/open.loupe'] });
    await handlers()['dialog.openProject']({});
    h.showOpenDialog.mockResolvedValue({ canceled: false, filePaths: ['/p/m1.loupe', '/p/m2.loupe'] });
    await handlers()['dialog.openProjects']({});
    h.showSaveDialog.mockResolvedValue({ canceled: false, filePath: '/p/new' });
    await handlers()['dialog.createProject']({});
    h.showOpenDialog.mockResolvedValue({ canceled: false, filePaths: ['/data/a.csv'] });
    await handlers('darwin')['dialog.importFile']({});
    h.showMessageBox.mockResolvedValue({ response: 1 });
    h.showOpenDialog.mockResolvedValue({ canceled: false, filePaths: ['/data/frank'] });
    await handlers('linux')['dialog.importFile']({});

    expect(grants.isGranted('open', '/p/open.loupe')).toBe(true);
    expect(grants.isGranted('merge', '/p/m1.loupe') && grants.isGranted('merge', '/p/m2.loupe')).toBe(true);
    expect(grants.isGranted('create', '/p/new.loupe')).toBe(true); // the path returned, with .loupe
    expect(grants.isGranted('create', '/p/new')).toBe(false);
    expect(grants.isGranted('import', '/data/a.csv') && grants.isGranted('import', '/data/frank')).toBe(true);
    // One purpose each: an import pick does not open as a project, an open pick is not a merge.
    expect(grants.isGranted('open', '/data/a.csv')).toBe(false);
    expect(grants.isGranted('merge', '/p/open.loupe')).toBe(false);

    h.showOpenDialog.mockResolvedValue({ canceled: true, filePaths: ['/p/cancelled.loupe'] });
    await handlers()['dialog.openProject']({});
    await handlers()['dialog.openProjects']({});
    expect(grants.isGranted('open', '/p/cancelled.loupe') || grants.isGranted('merge', '/p/cancelled.loupe')).toBe(
      false,
    );
  });

  it('dialog.openBatchFile: one JSONL file, granted for import only; cancel grants nothing', async () => {
    h.showOpenDialog.mockResolvedValue({ canceled: false, filePaths: ['/data/answers.jsonl'] });
    await expect(handlers()['dialog.openBatchFile']({})).resolves.toEqual({ path: '/data/answers.jsonl' });
    const options = h.showOpenDialog.mock.calls[0]![1];
    expect(options.properties).toEqual(['openFile']);
    expect(options.filters[0]).toEqual({ name: 'Batch answers (JSON Lines)', extensions: ['jsonl', 'json'] });
    expect(grants.isGranted('import', '/data/answers.jsonl')).toBe(true);
    expect(grants.isGranted('open', '/data/answers.jsonl')).toBe(false);
    h.showOpenDialog.mockResolvedValue({ canceled: true, filePaths: ['/data/other.jsonl'] });
    await expect(handlers()['dialog.openBatchFile']({})).resolves.toEqual({ path: null });
    expect(grants.isGranted('import', '/data/other.jsonl')).toBe(false);
  });

  it('dialog.chooseSavePath: grants the chosen path for saving only, writes nothing; cancel grants nothing', async () => {
    const target = path.join(dir, 'labels.csv');
    h.showSaveDialog.mockResolvedValue({ canceled: false, filePath: target });
    await expect(handlers()['dialog.chooseSavePath']({ fileName: '../labels.csv' })).resolves.toEqual({ path: target });
    expect(h.showSaveDialog.mock.calls[0]![1].defaultPath).toBe(path.join(dir, 'labels.csv'));
    expect(h.showSaveDialog.mock.calls[0]![1].filters[0]).toEqual({ name: 'CSV', extensions: ['csv'] });
    expect(grants.isGranted('save', target)).toBe(true);
    expect(grants.isGranted('open', target) || grants.isGranted('import', target)).toBe(false);
    expect(existsSync(target)).toBe(false);

    h.showSaveDialog.mockResolvedValue({ canceled: true, filePath: path.join(dir, 'other.csv') });
    await expect(handlers()['dialog.chooseSavePath']({ fileName: 'other.csv' })).resolves.toEqual({ path: null });
    expect(grants.isGranted('save', path.join(dir, 'other.csv'))).toBe(false);
  });

  it('dialog.saveExport: proposes the file name, writes the content where the user chose', async () => {
    const target = path.join(dir, 'labels.jsonl');
    h.showSaveDialog.mockResolvedValue({ canceled: false, filePath: target });
    await expect(handlers()['dialog.saveExport']({ fileName: 'labels.jsonl', content: '{"a":1}\n' })).resolves.toEqual({
      path: target,
    });
    expect(readFileSync(target, 'utf8')).toBe('{"a":1}\n');
    const options = h.showSaveDialog.mock.calls[0]![1];
    expect(options.defaultPath).toBe(path.join(dir, 'labels.jsonl'));
    expect(options.filters[0]).toEqual({ name: 'JSON Lines', extensions: ['jsonl'] });
  });

  it('dialog.saveExport: the proposed name cannot choose the folder; cancel writes nothing', async () => {
    h.showSaveDialog.mockResolvedValue({ canceled: true, filePath: '' });
    await expect(handlers()['dialog.saveExport']({ fileName: '../../etc/passwd', content: 'x' })).resolves.toEqual({
      path: null,
    });
    expect(h.showSaveDialog.mock.calls[0]![1].defaultPath).toBe(path.join(dir, 'passwd'));
    expect(readdirSync(dir)).toEqual([]);

    writeFileSync(path.join(dir, 'keep.csv'), 'old');
    h.showSaveDialog.mockResolvedValue({ canceled: false, filePath: path.join(dir, 'keep.csv') });
    await handlers()['dialog.saveExport']({ fileName: 'keep.csv', content: 'new' });
    expect(readFileSync(path.join(dir, 'keep.csv'), 'utf8')).toBe('new');
    expect(existsSync(path.join(dir, 'passwd'))).toBe(false);
  });
});
