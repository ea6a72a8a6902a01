/**
 * The IPC binding of the contract and the preload bridge, with electron mocked: one channel per
 * API method and no other, calls from foreign frames refused, inputs validated by dispatch, disk
 * paths refused unless granted; the preload's exposed surface, its allow-list, envelope
 * unwrapping, menu relay and dropped-file grants.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { API, API_METHODS, MENU_ACTIONS, type ApiHandlers, type Envelope } from '../../../shared/api';

type Handler = (event: { senderFrame: unknown }, input: unknown) => Promise<Envelope>;

const h = vi.hoisted(() => ({
  handlers: new Map<string, unknown>(),
  listenersMain: new Map<string, (...args: any[]) => void>(),
  sendSync: null as unknown as import('vitest').Mock<(...args: any[]) => any>,
  handleCalls: [] as string[],
  exposed: new Map<string, any>(),
  listeners: new Map<string, Set<(...args: unknown[]) => void>>(),
  invoke: null as unknown as import('vitest').Mock<(...args: any[]) => any>,
  getPathForFile: null as unknown as import('vitest').Mock<(...args: any[]) => any>,
}));

vi.mock('electron', async () => {
  const { vi: v } = await import('vitest');
  h.invoke = v.fn();
  h.getPathForFile = v.fn();
  h.sendSync = v.fn();
  const electron = {
    ipcMain: {
      on: (channel: string, fn: (...args: any[]) => void) => h.listenersMain.set(channel, fn),
      removeListener: (channel: string) => h.listenersMain.delete(channel),
      handle: (channel: string, fn: unknown) => {
        if (h.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
        h.handleCalls.push(channel);
        h.handlers.set(channel, fn);
      },
      removeHandler: (channel: string) => h.handlers.delete(channel),
    },
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => h.exposed.set(key, api) },
    ipcRenderer: {
      invoke: (...args: unknown[]) => h.invoke(...args),
      sendSync: (...args: unknown[]) => h.sendSync(...args),
      on: (channel: string, fn: (...args: unknown[]) => void) => {
        if (!h.listeners.has(channel)) h.listeners.set(channel, new Set());
        h.listeners.get(channel)!.add(fn);
      },
      removeListener: (channel: string, fn: (...args: unknown[]) => void) => h.listeners.get(channel)?.delete(fn),
    },
    webUtils: { getPathForFile: (file: unknown) => h.getPathForFile(file) },
  };
  return { ...electron, default: electron };
});

import { createPathGrants, createPathGuard, type PathGrants, type PathGuard } from '../../../electron/main/grants';
import {
  bindDropGrants,
  bindIpc,
  CHANGE_CHANNEL,
  channelFor,
  DROP_GRANT_CHANNEL,
  isTrustedFrame,
  MENU_CHANNEL,
  unbindIpc,
} from '../../../electron/main/ipc';
import type { AppPage } from '../../../electron/main/window';

const ROOT = path.resolve(__dirname, '../../..');
const page: AppPage = { rendererDir: path.join(ROOT, 'out/renderer'), devUrl: null };
const appFrame = { url: 'app://loupe/index.html#/annotate', parent: null };
const project = { path: '/tmp/p.loupe', name: 'p', schemaVersion: 1, isDemo: false };
/** Lets every path through: for the tests of the frame check and validation. */
const allowAllPaths: PathGuard = async () => null;

/** Every method answers; the ones the tests call return valid outputs. */
function fakeHandlers(): ApiHandlers {
  const handlers = Object.fromEntries(
    API_METHODS.map((m) => [
      m,
      vi.fn(async () => {
        throw new Error(`${m} not expected`);
      }),
    ]),
  ) as unknown as ApiHandlers;
  handlers['projects.open'] = vi.fn(async ({ path: p }) => ({ ...project, path: p, secret: 'stripped' }));
  return handlers;
}

function channel(method: string): Handler {
  return h.handlers.get(`loupe:${method}`) as Handler;
}

describe('ipc binding', () => {
  let handlers: ApiHandlers;
  let channels: string[];

  beforeEach(() => {
    for (const c of [...h.handlers.keys()]) h.handlers.delete(c);
    h.handleCalls.length = 0;
    handlers = fakeHandlers();
    channels = bindIpc(handlers, page, allowAllPaths);
  });

  it('registers exactly one channel per API method and nothing else', () => {
    const expected = Object.keys(API)
      .map((m) => `loupe:${m}`)
      .sort();
    expect([...channels].sort()).toEqual(expected);
    expect([...h.handleCalls].sort()).toEqual(expected);
    expect(new Set(h.handleCalls).size).toBe(h.handleCalls.length);
    expect(channels).not.toContain(MENU_CHANNEL);
    expect(channelFor('app.info')).toBe('loupe:app.info');
  });

  it('dispatches a call from the app page and strips unknown output fields', async () => {
    const envelope = await channel('projects.open')({ senderFrame: appFrame }, { path: '/tmp/p.loupe' });
    expect(envelope).toEqual({ ok: true, value: project });
    expect(vi.mocked(handlers['projects.open']).mock.calls[0]?.[0]).toEqual({ path: '/tmp/p.loupe' }); // (dispatch may pass a caller too)
  });

  it('returns an invalid_input envelope for bad input, without calling the handler', async () => {
    const envelope = await channel('projects.open')({ senderFrame: appFrame }, { path: '' });
    expect(envelope.ok).toBe(false);
    expect(envelope.ok === false && envelope.error.code).toBe('invalid_input');
    const extra = await channel('app.info')({ senderFrame: appFrame }, { unexpected: true });
    expect(extra.ok === false && extra.error.code).toBe('invalid_input');
    expect(handlers['projects.open']).not.toHaveBeenCalled();
    expect(handlers['app.info']).not.toHaveBeenCalled();
  });

  it('refuses calls from foreign frames, sub-frames and destroyed frames', async () => {
    const foreign = [
      { url: 'https://evil.example/', parent: null },
      { url: 'file:///tmp/evil.html', parent: null },
      // The old file:// page is no longer the app: the window loads app://loupe/.
      { url: `file://${path.join(page.rendererDir, 'index.html')}`, parent: null },
      { url: 'app://evil/index.html', parent: null },
      { url: 'app://loupe/assets/other.html', parent: null },
      { ...appFrame, parent: appFrame },
      null,
    ];
    for (const senderFrame of foreign) {
      const envelope = await channel('projects.open')({ senderFrame }, { path: '/tmp/p.loupe' });
      expect(envelope.ok).toBe(false);
      expect(envelope.ok === false && envelope.error.code).toBe('unsupported');
      expect(envelope.ok === false && envelope.error.message).toMatch(/Refused/);
    }
    expect(handlers['projects.open']).not.toHaveBeenCalled();
    expect(isTrustedFrame(appFrame as never, page)).toBe(true);
  });

  it('accepts the dev server page when one is configured', async () => {
    for (const c of [...h.handlers.keys()]) h.handlers.delete(c);
    bindIpc(handlers, { ...page, devUrl: 'http://localhost:5173/' }, allowAllPaths);
    const envelope = await channel('projects.open')(
      { senderFrame: { url: 'http://localhost:5173/', parent: null } },
      { path: '/tmp/p.loupe' },
    );
    expect(envelope.ok).toBe(true);
  });

  it('the app page at app://loupe/ (with or without index.html, any hash or query) is trusted', () => {
    for (const url of ['app://loupe/index.html', 'app://loupe/', 'app://loupe/index.html?x=1#/review']) {
      expect(isTrustedFrame({ url, parent: null } as never, page)).toBe(true);
    }
  });

  it('unbinds every channel', () => {
    unbindIpc(channels);
    expect(h.handlers.size).toBe(0);
  });
});

describe('disk paths the page sends', () => {
  let handlers: ApiHandlers;
  let grants: PathGrants;
  let recent: string[];
  const pathCalls = {
    'projects.open': { path: '/home/u/secret.loupe' },
    'projects.create': { path: '/home/u/.bashrc' },
    'merge.projects': { paths: ['/home/u/a.loupe', '/etc/shadow'] },
    'imports.start': { source: { type: 'path', path: '/home/u/.ssh/id_rsa' } },
  } as const;

  beforeEach(() => {
    for (const c of [...h.handlers.keys()]) h.handlers.delete(c);
    handlers = fakeHandlers();
    for (const m of ['projects.create', 'merge.projects', 'imports.start'] as const) {
      handlers[m] = vi.fn(async () =>
        m === 'projects.create' ? project : m === 'merge.projects' ? [] : { jobId: 'j1' },
      ) as never;
    }
    grants = createPathGrants('linux');
    recent = ['/home/u/recent.loupe'];
    bindIpc(handlers, page, createPathGuard({ grants, recentPaths: async () => recent, platform: 'linux' }));
  });

  it.each(Object.keys(pathCalls) as Array<keyof typeof pathCalls>)(
    '%s: a path the user never chose is refused as forbidden; the core is not called',
    async (method) => {
      const envelope = await channel(method)({ senderFrame: appFrame }, pathCalls[method]);
      expect(envelope.ok).toBe(false);
      expect(envelope.ok === false && envelope.error.code).toBe('forbidden');
      expect(envelope.ok === false && envelope.error.message).toMatch(/was not chosen in a Loupe dialog/);
      expect(handlers[method]).not.toHaveBeenCalled();
    },
  );

  it('a path granted for its purpose passes; the same path for another purpose does not', async () => {
    grants.grant('open', '/home/u/secret.loupe');
    grants.grant('create', '/home/u/.bashrc');
    grants.grant('merge', '/home/u/a.loupe');
    grants.grant('merge', '/etc/shadow');
    grants.grant('import', '/home/u/.ssh/id_rsa');
    for (const method of Object.keys(pathCalls) as Array<keyof typeof pathCalls>) {
      const envelope = await channel(method)({ senderFrame: appFrame }, pathCalls[method]);
      expect(envelope.ok, method).toBe(true);
      expect(handlers[method]).toHaveBeenCalledTimes(1);
    }
    // An import pick cannot be opened (opening migrates and writes the file) nor created over.
    const open = await channel('projects.open')({ senderFrame: appFrame }, { path: '/home/u/.ssh/id_rsa' });
    expect(open.ok === false && open.error.code).toBe('forbidden');
    const create = await channel('projects.create')({ senderFrame: appFrame }, { path: '/home/u/secret.loupe' });
    expect(create.ok === false && create.error.code).toBe('forbidden');
  });

  it('merge.projects is refused whole when one of its paths is not granted', async () => {
    grants.grant('merge', '/home/u/a.loupe');
    const envelope = await channel('merge.projects')({ senderFrame: appFrame }, pathCalls['merge.projects']);
    expect(envelope.ok === false && envelope.error.message).toContain('/etc/shadow');
    expect(handlers['merge.projects']).not.toHaveBeenCalled();
  });

  it('a recent-projects entry may be opened again (and only opened)', async () => {
    const envelope = await channel('projects.open')({ senderFrame: appFrame }, { path: '/home/u/recent.loupe' });
    expect(envelope.ok).toBe(true);
    expect(vi.mocked(handlers['projects.open']).mock.calls[0]?.[0]).toEqual({ path: '/home/u/recent.loupe' }); // (dispatch may pass a caller too)
    const merged = await channel('merge.projects')({ senderFrame: appFrame }, { paths: ['/home/u/recent.loupe'] });
    expect(merged.ok === false && merged.error.code).toBe('forbidden');
  });

  it('compares normalised paths: dot segments cannot smuggle another file past a grant', async () => {
    grants.grant('open', '/home/u/study.loupe');
    const same = await channel('projects.open')({ senderFrame: appFrame }, { path: '/home/u/./x/../study.loupe' });
    expect(same.ok).toBe(true);
    const other = await channel('projects.open')(
      { senderFrame: appFrame },
      { path: '/home/u/study.loupe/../../../etc/passwd' },
    );
    expect(other.ok === false && other.error.code).toBe('forbidden');
  });

  it('leaves calls without a disk path alone: uploads, other methods, and bad input (still invalid_input)', async () => {
    const upload = await channel('imports.start')(
      { senderFrame: appFrame },
      { source: { type: 'upload', name: 'a.jsonl', base64: '' } },
    );
    expect(upload.ok).toBe(true);
    const bad = await channel('projects.open')({ senderFrame: appFrame }, { path: 42 });
    expect(bad.ok === false && bad.error.code).toBe('invalid_input');
  });

  it('the frame check still comes first', async () => {
    grants.grant('open', '/home/u/secret.loupe');
    const envelope = await channel('projects.open')(
      { senderFrame: { url: 'https://evil.example/', parent: null } },
      pathCalls['projects.open'],
    );
    expect(envelope.ok === false && envelope.error.code).toBe('unsupported');
  });
});

describe('dropped-file grants (main side)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'loupe-drop-'));
  const dropped = path.join(dir, 'dropped.jsonl');
  writeFileSync(dropped, '{}\n');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function ask(senderFrame: unknown, filePath: unknown, grants: PathGrants) {
    h.listenersMain.clear();
    bindDropGrants(grants, page);
    const event: { senderFrame: unknown; returnValue?: unknown } = { senderFrame };
    h.listenersMain.get(DROP_GRANT_CHANNEL)!(event, filePath);
    return event.returnValue;
  }

  it('grants an existing dropped file for import only, answering true', () => {
    const grants = createPathGrants();
    expect(ask(appFrame, dropped, grants)).toBe(true);
    expect(grants.isGranted('import', dropped)).toBe(true);
    expect(grants.isGranted('open', dropped)).toBe(false);
    expect(grants.isGranted('create', dropped) || grants.isGranted('merge', dropped)).toBe(false);
  });

  it('refuses foreign frames, relative or missing paths and non-strings', () => {
    const grants = createPathGrants();
    expect(ask({ url: 'https://evil.example/', parent: null }, dropped, grants)).toBe(false);
    expect(ask(appFrame, 'dropped.jsonl', grants)).toBe(false);
    expect(ask(appFrame, path.join(dir, 'missing.jsonl'), grants)).toBe(false);
    expect(ask(appFrame, { path: dropped }, grants)).toBe(false);
    expect(grants.isGranted('import', dropped)).toBe(false);
  });
});

describe('preload bridge', () => {
  let bridge: any;

  beforeAll(async () => {
    await import('../../../electron/preload/preload');
    bridge = h.exposed.get('loupe');
  });

  beforeEach(() => {
    h.invoke.mockReset();
    h.getPathForFile.mockReset();
    h.sendSync.mockReset();
  });

  it('exposes exactly call, onMenu, onChange, pathForFile and host, as window.loupe only', () => {
    expect([...h.exposed.keys()]).toEqual(['loupe']);
    expect(Object.keys(bridge).sort()).toEqual(['call', 'host', 'onChange', 'onMenu', 'pathForFile']);
    expect(bridge.host).toBe('electron');
    expect(typeof bridge.call).toBe('function');
  });

  it('refuses a method outside the contract without touching IPC', async () => {
    for (const method of ['shell.openExternal', 'loupe:menu', '__proto__', 'constructor', 42]) {
      await expect(bridge.call(method, {})).rejects.toMatchObject({ name: 'ApiError', code: 'not_found' });
    }
    expect(h.invoke).not.toHaveBeenCalled();
  });

  it('invokes loupe:<method> and unwraps a successful envelope', async () => {
    h.invoke.mockResolvedValue({ ok: true, value: project });
    await expect(bridge.call('projects.open', { path: '/tmp/p.loupe' })).resolves.toEqual(project);
    expect(h.invoke).toHaveBeenCalledWith('loupe:projects.open', { path: '/tmp/p.loupe' });
  });

  it('rejects with the error code, message and problems of a failed envelope (cloneable across the bridge)', async () => {
    const problems = [{ file: 'a.jsonl', line: 3, field: 'summary', expected: 'a string', found: 'null' }];
    h.invoke.mockResolvedValue({
      ok: false,
      error: { code: 'import_failed', message: 'a.jsonl: 1 problem', problems },
    });
    const error = await bridge.call('datasets.list', {}).catch((e: unknown) => e);
    expect(error).toEqual({ name: 'ApiError', code: 'import_failed', message: 'a.jsonl: 1 problem', problems });
    // contextBridge copies plain objects field by field (an Error would arrive as a bare message).
    expect(structuredClone(error)).toEqual(error);

    h.invoke.mockResolvedValue({ ok: false, error: { code: 'no_project', message: 'No project is open' } });
    await expect(bridge.call('datasets.list', {})).rejects.toEqual({
      name: 'ApiError',
      code: 'no_project',
      message: 'No project is open',
    });

    h.invoke.mockResolvedValue('garbage');
    await expect(bridge.call('datasets.list', {})).rejects.toMatchObject({ code: 'internal' });
  });

  it('round-trips through the real IPC binding: validation errors reach the page as values', async () => {
    for (const c of [...h.handlers.keys()]) h.handlers.delete(c);
    const grants = createPathGrants();
    grants.grant('open', '/x.loupe');
    bindIpc(fakeHandlers(), page, createPathGuard({ grants, recentPaths: async () => [] }));
    h.invoke.mockImplementation((ch: string, input: unknown) =>
      (h.handlers.get(ch) as Handler)({ senderFrame: appFrame }, input),
    );
    await expect(bridge.call('projects.open', { path: '/x.loupe' })).resolves.toEqual({ ...project, path: '/x.loupe' });
    await expect(bridge.call('projects.open', { path: '' })).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(bridge.call('projects.open', { path: '/etc/passwd' })).rejects.toMatchObject({
      name: 'ApiError',
      code: 'forbidden',
    });
  });

  it('onMenu passes only the action string, ignores unknown actions, and unsubscribes', () => {
    const listener = vi.fn();
    const unsubscribe = bridge.onMenu(listener);
    const relays = [...(h.listeners.get(MENU_CHANNEL) ?? [])];
    expect(relays).toHaveLength(1);
    const fakeEvent = { sender: { send: () => {} }, ports: [] };
    for (const action of MENU_ACTIONS) relays[0]!(fakeEvent, action);
    relays[0]!(fakeEvent, 'rm -rf');
    relays[0]!(fakeEvent, { action: 'import' });
    expect(listener.mock.calls).toEqual(MENU_ACTIONS.map((a) => [a]));
    unsubscribe();
    expect(h.listeners.get(MENU_CHANNEL)?.size).toBe(0);
  });

  it('onChange passes a copy of each change event (never the IPC event), ignores malformed ones, and unsubscribes', () => {
    const listener = vi.fn();
    const unsubscribe = bridge.onChange(listener);
    const relays = [...(h.listeners.get(CHANGE_CHANNEL) ?? [])];
    expect(relays).toHaveLength(1);
    const fakeEvent = { sender: { send: () => {} }, ports: [] };
    const change = {
      seq: 3,
      namespace: 'scaffold',
      what: 'imports.scaffold',
      dataset: 'news',
      by: null,
      extra: 'dropped',
    };
    relays[0]!(fakeEvent, change);
    relays[0]!(fakeEvent, 'judges.add');
    relays[0]!(fakeEvent, { seq: 'x', namespace: 'judges' });
    expect(listener.mock.calls).toEqual([
      [{ seq: 3, namespace: 'scaffold', what: 'imports.scaffold', dataset: 'news', by: null }],
    ]);
    unsubscribe();
    expect(h.listeners.get(CHANGE_CHANNEL)?.size).toBe(0);
  });

  it('pathForFile asks main to grant the dropped file, and returns its path only when granted', () => {
    const file = { name: 'a.jsonl' };
    h.getPathForFile.mockReturnValue('/data/a.jsonl');
    h.sendSync.mockReturnValue(true);
    expect(bridge.pathForFile(file)).toBe('/data/a.jsonl');
    expect(h.getPathForFile).toHaveBeenCalledWith(file);
    expect(h.sendSync).toHaveBeenCalledWith(DROP_GRANT_CHANNEL, '/data/a.jsonl');
    // Refused by main (or any odd answer): no path, so the page uploads the file's text instead.
    for (const answer of [false, 'yes', undefined]) {
      h.sendSync.mockReturnValue(answer);
      expect(bridge.pathForFile(file)).toBeNull();
    }
    h.sendSync.mockClear();
    h.getPathForFile.mockReturnValue('');
    expect(bridge.pathForFile(file)).toBeNull();
    expect(h.sendSync).not.toHaveBeenCalled(); // a File page script made has no path: nothing asked
    h.getPathForFile.mockImplementation(() => {
      throw new TypeError('not a File');
    });
    expect(bridge.pathForFile({})).toBeNull();
  });
});
