/**
 * scripts/build-electron.mjs: both bundles are built; the main bundle leaves Electron and the
 * native SQLite drivers external; the preload requires nothing but 'electron' (all a sandboxed
 * preload may require) and carries the contract's method list, not the contract's code.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Script, createContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_METHODS, MENU_ACTIONS } from '../../shared/api';

interface Metafile {
  inputs: Record<string, unknown>;
  outputs: Record<string, { inputs: Record<string, unknown>; imports: Array<{ path: string; external?: boolean }> }>;
}
interface BuildResult {
  mainFile: string;
  preloadFile: string;
  metafiles: { main: Metafile; preload: Metafile };
}

const ROOT = path.resolve(__dirname, '../..');
let outDir: string;
let result: BuildResult;
let mainCode: string;
let preloadCode: string;

function requiredModules(code: string): string[] {
  return [...new Set([...code.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]!))].sort();
}

beforeAll(async () => {
  outDir = mkdtempSync(path.join(os.tmpdir(), 'loupe-bundles-'));
  const { buildElectron } = (await import(path.join(ROOT, 'scripts/build-electron.mjs'))) as {
    buildElectron(o: { outDir: string; logLevel?: string }): Promise<BuildResult>;
  };
  result = await buildElectron({ outDir, logLevel: 'error' });
  mainCode = readFileSync(result.mainFile, 'utf8');
  preloadCode = readFileSync(result.preloadFile, 'utf8');
}, 120_000);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('electron bundles', () => {
  it('writes out/main/main.cjs and out/preload/preload.cjs', () => {
    expect(result.mainFile).toBe(path.join(outDir, 'main', 'main.cjs'));
    expect(result.preloadFile).toBe(path.join(outDir, 'preload', 'preload.cjs'));
    expect(statSync(result.mainFile).size).toBeGreaterThan(1000);
    expect(statSync(result.preloadFile).size).toBeGreaterThan(500);
    expect(() => new Script(mainCode, { filename: 'main.cjs' })).not.toThrow();
  });

  it('main requires electron and better-sqlite3-napi as externals, and nothing else outside Node', () => {
    const required = requiredModules(mainCode);
    expect(required).toContain('electron');
    expect(required).toContain('better-sqlite3-napi');
    const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
    expect(required.filter((m) => !builtins.has(m))).toEqual(['better-sqlite3-napi', 'electron']);
  });

  it('main bundles no code of electron or of either SQLite driver', () => {
    const inputs = Object.keys(result.metafiles.main.inputs);
    expect(inputs.filter((i) => /node_modules\/(electron|better-sqlite3|better-sqlite3-napi)\//.test(i))).toEqual([]);
    expect(inputs).toEqual(expect.arrayContaining([expect.stringMatching(/electron\/core\/index\.ts$/)]));
    expect(mainCode).not.toContain('better_sqlite3.node');
  });

  it('the preload requires nothing but electron and bundles no dependency', () => {
    expect(requiredModules(preloadCode)).toEqual(['electron']);
    const inputs = Object.keys(result.metafiles.preload.inputs);
    expect(inputs.filter((i) => i.includes('node_modules'))).toEqual([]);
    expect(inputs.filter((i) => /shared\/(domain|formats)/.test(i))).toEqual([]);
    expect(preloadCode.length).toBeLessThan(10_000);
  });

  it("the preload's allow-list is API's method list, generated at build time", () => {
    const lists = /var API_METHODS = (\[.*?\]);\s*var MENU_ACTIONS = (\[.*?\]);/s.exec(preloadCode);
    expect(lists).not.toBeNull();
    expect(JSON.parse(lists![1]!)).toEqual(API_METHODS);
    expect(JSON.parse(lists![2]!)).toEqual([...MENU_ACTIONS]);
  });

  it('the preload runs where only require("electron") exists, and exposes the bridge', async () => {
    const exposed: Record<string, any> = {};
    const invoked: unknown[][] = [];
    const electron = {
      contextBridge: { exposeInMainWorld: (key: string, api: unknown) => (exposed[key] = api) },
      ipcRenderer: {
        invoke: async (...args: unknown[]) => {
          invoked.push(args);
          return { ok: true, value: { fine: true } };
        },
        on: () => {},
        removeListener: () => {},
      },
      webUtils: { getPathForFile: () => '/x' },
    };
    const sandboxRequire = (name: string) => {
      if (name === 'electron') return electron;
      throw new Error(`module not found: ${name}`);
    };
    const module = { exports: {} };
    const context = createContext({ require: sandboxRequire, module, exports: module.exports, console });
    new Script(preloadCode, { filename: 'preload.cjs' }).runInContext(context);
    expect(Object.keys(exposed)).toEqual(['loupe']);
    expect(Object.keys(exposed.loupe).sort()).toEqual(['call', 'host', 'onChange', 'onMenu', 'pathForFile']);
    await expect(exposed.loupe.call('app.info', {})).resolves.toEqual({ fine: true });
    expect(invoked).toEqual([['loupe:app.info', {}]]);
    await expect(exposed.loupe.call('fs.readFile', {})).rejects.toMatchObject({ code: 'not_found' });
    expect(invoked).toHaveLength(1);
  });
});

/**
 * Runs the built main bundle in a Node child process with a stand-in `electron` module, and with
 * better-sqlite3 12 standing in for better-sqlite3-napi (13 crashes on Node 20): the real core and
 * db/ code serve IPC calls, so a bundling mistake (a dependency left out, import.meta, load order)
 * shows here and not only in the packaged app.
 */
const SMOKE = String.raw`
const Module = require('node:module');
const path = require('node:path');
const { EventEmitter } = require('node:events');
const [mainFile, stateDir, projectFile] = process.argv.slice(1);
const handlers = new Map();
const app = Object.assign(new EventEmitter(), {
  isPackaged: false,
  whenReady: () => Promise.resolve(),
  requestSingleInstanceLock: () => true,
  getPath: (name) => (name === 'userData' ? stateDir : path.join(stateDir, name)),
  setPath: () => {},
  enableSandbox: () => {},
  getVersion: () => '0.0.0-smoke',
  quit: () => {},
  exit: (code) => process.exit(code),
});
class BrowserWindow extends EventEmitter {
  constructor(options) { super(); this.options = options; this.id = 1;
    this.webContents = Object.assign(new EventEmitter(), { send() {}, setWindowOpenHandler() {} }); BrowserWindow.all.push(this); }
  loadFile() { return Promise.resolve(); } loadURL() { return Promise.resolve(); }
  setTitle(t) { this.title = t; } isDestroyed() { return false; }
}
BrowserWindow.all = [];
BrowserWindow.getFocusedWindow = () => null;
BrowserWindow.getAllWindows = () => BrowserWindow.all;
BrowserWindow.fromId = () => null;
const electron = {
  app, BrowserWindow,
  session: { defaultSession: { webRequest: { onHeadersReceived() {}, onBeforeRequest() {} }, setPermissionRequestHandler() {}, setPermissionCheckHandler() {} } },
  ipcMain: { handle: (channel, fn) => handlers.set(channel, fn), removeHandler: (c) => handlers.delete(c), on() {} },
  protocol: { registerSchemesAsPrivileged() {}, handle() {} },
  safeStorage: { isEncryptionAvailable: () => false },
  Menu: { buildFromTemplate: (t) => t, setApplicationMenu: () => {} },
  dialog: { showMessageBox: async () => ({ response: 0 }), showErrorBox: (t, m) => console.error(t, m), showOpenDialog: async () => ({ canceled: true, filePaths: [] }), showSaveDialog: async () => ({ canceled: false, filePath: projectFile }) },
};
const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (request === 'electron') return electron;
  if (request === 'better-sqlite3-napi') return load.call(this, require.resolve('better-sqlite3', { paths: [process.cwd()] }), parent, isMain);
  return load.apply(this, arguments);
};
require(mainFile);
setTimeout(async () => {
  const frame = { url: 'app://loupe/index.html', parent: null };
  const call = (method, input) => handlers.get('loupe:' + method)({ senderFrame: frame }, input);
  const out = {
    channels: handlers.size,
    info: await call('app.info', {}),
    // A path the page made up is refused; the one the (stand-in) save dialog returned is granted.
    forbidden: await call('projects.create', { path: projectFile }),
    created: await call('dialog.createProject', {}).then(() => call('projects.create', { path: projectFile })),
    datasets: await call('datasets.list', {}),
    foreign: await handlers.get('loupe:app.info')({ senderFrame: { url: 'https://evil.example/', parent: null } }, {}),
    title: BrowserWindow.all[0] && BrowserWindow.all[0].title,
    sandbox: BrowserWindow.all[0] && BrowserWindow.all[0].options.webPreferences.sandbox,
  };
  app.emit('will-quit');
  process.stdout.write(JSON.stringify(out));
}, 50);
`;

describe('main bundle smoke run (Node, stand-in electron)', () => {
  it('boots, binds the contract and serves calls through the real core and database', () => {
    const stateDir = path.join(outDir, 'state');
    const projectFile = path.join(outDir, 'smoke.loupe');
    const run = spawnSync(process.execPath, ['-e', SMOKE, result.mainFile, stateDir, projectFile], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, ELECTRON_RENDERER_URL: '', LOUPE_USER_DATA: '' },
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.channels).toBe(API_METHODS.length);
    expect(out.info).toMatchObject({
      ok: true,
      value: { host: 'electron', fileDialogs: true, diskPaths: true, canSwitchProjects: true, project: null },
    });
    expect(out.forbidden).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(out.created).toMatchObject({ ok: true, value: { path: projectFile, isDemo: false } });
    expect(out.datasets).toEqual({ ok: true, value: [] });
    expect(out.foreign).toMatchObject({ ok: false, error: { code: 'unsupported' } });
    expect(out.title).toBe('smoke — Loupe');
    expect(out.sandbox).toBe(true);
  }, 90_000);
});
