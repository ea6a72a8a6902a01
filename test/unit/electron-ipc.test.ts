/**
 * The IPC binding of the contract and the preload bridge, with electron mocked: one channel per
 * API method and no other, calls from foreign frames refused, inputs validated by dispatch; the
 * preload's exposed surface, its allow-list, envelope unwrapping and menu relay.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { API, API_METHODS, MENU_ACTIONS, type ApiHandlers, type Envelope } from '../../shared/api';

type Handler = (event: { senderFrame: unknown }, input: unknown) => Promise<Envelope>;

const h = vi.hoisted(() => ({
  handlers: new Map<string, unknown>(),
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
  const electron = {
    ipcMain: {
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

import { bindIpc, channelFor, isTrustedFrame, MENU_CHANNEL, unbindIpc } from '../../electron/main/ipc';
import type { AppPage } from '../../electron/main/window';

const ROOT = path.resolve(__dirname, '../..');
const page: AppPage = { indexHtml: path.join(ROOT, 'out/renderer/index.html'), devUrl: null };
const appFrame = { url: `${pathToFileURL(page.indexHtml).href}#/annotate`, parent: null };
const project = { path: '/tmp/p.loupe', name: 'p', schemaVersion: 1, isDemo: false };

/** Every method answers; the ones the tests call return valid outputs. */
function fakeHandlers(): ApiHandlers {
  const handlers = Object.fromEntries(
    API_METHODS.map((m) => [m, vi.fn(async () => { throw new Error(`${m} not expected`); })]),
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
    channels = bindIpc(handlers, page);
  });

  it('registers exactly one channel per API method and nothing else', () => {
    const expected = Object.keys(API).map((m) => `loupe:${m}`).sort();
    expect([...channels].sort()).toEqual(expected);
    expect([...h.handleCalls].sort()).toEqual(expected);
    expect(new Set(h.handleCalls).size).toBe(h.handleCalls.length);
    expect(channels).not.toContain(MENU_CHANNEL);
    expect(channelFor('app.info')).toBe('loupe:app.info');
  });

  it('dispatches a call from the app page and strips unknown output fields', async () => {
    const envelope = await channel('projects.open')({ senderFrame: appFrame }, { path: '/tmp/p.loupe' });
    expect(envelope).toEqual({ ok: true, value: project });
    expect(handlers['projects.open']).toHaveBeenCalledWith({ path: '/tmp/p.loupe' });
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
    bindIpc(handlers, { ...page, devUrl: 'http://localhost:5173/' });
    const envelope = await channel('projects.open')(
      { senderFrame: { url: 'http://localhost:5173/', parent: null } },
      { path: '/tmp/p.loupe' },
    );
    expect(envelope.ok).toBe(true);
  });

  it('unbinds every channel', () => {
    unbindIpc(channels);
    expect(h.handlers.size).toBe(0);
  });
});

describe('preload bridge', () => {
  let bridge: any;

  beforeAll(async () => {
    await import('../../electron/preload/preload');
    bridge = h.exposed.get('loupe');
  });

  beforeEach(() => {
    h.invoke.mockReset();
    h.getPathForFile.mockReset();
  });

  it('exposes exactly call, onMenu, pathForFile and host, as window.loupe only', () => {
    expect([...h.exposed.keys()]).toEqual(['loupe']);
    expect(Object.keys(bridge).sort()).toEqual(['call', 'host', 'onMenu', 'pathForFile']);
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
    h.invoke.mockResolvedValue({ ok: false, error: { code: 'import_failed', message: 'a.jsonl: 1 problem', problems } });
    const error = await bridge.call('datasets.list', {}).catch((e: unknown) => e);
    expect(error).toEqual({ name: 'ApiError', code: 'import_failed', message: 'a.jsonl: 1 problem', problems });
    // contextBridge copies plain objects field by field (an Error would arrive as a bare message).
    expect(structuredClone(error)).toEqual(error);

    h.invoke.mockResolvedValue({ ok: false, error: { code: 'no_project', message: 'No project is open' } });
    await expect(bridge.call('datasets.list', {})).rejects.toEqual({ name: 'ApiError', code: 'no_project', message: 'No project is open' });

    h.invoke.mockResolvedValue('garbage');
    await expect(bridge.call('datasets.list', {})).rejects.toMatchObject({ code: 'internal' });
  });

  it('round-trips through the real IPC binding: validation errors reach the page as values', async () => {
    for (const c of [...h.handlers.keys()]) h.handlers.delete(c);
    bindIpc(fakeHandlers(), page);
    h.invoke.mockImplementation((ch: string, input: unknown) => (h.handlers.get(ch) as Handler)({ senderFrame: appFrame }, input));
    await expect(bridge.call('projects.open', { path: '/x.loupe' })).resolves.toEqual({ ...project, path: '/x.loupe' });
    await expect(bridge.call('projects.open', { path: '' })).rejects.toMatchObject({ code: 'invalid_input' });
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

  it('pathForFile returns the dropped file path, or null when there is none', () => {
    const file = { name: 'a.jsonl' };
    h.getPathForFile.mockReturnValue('/data/a.jsonl');
    expect(bridge.pathForFile(file)).toBe('/data/a.jsonl');
    expect(h.getPathForFile).toHaveBeenCalledWith(file);
    h.getPathForFile.mockReturnValue('');
    expect(bridge.pathForFile(file)).toBeNull();
    h.getPathForFile.mockImplementation(() => {
      throw new TypeError('not a File');
    });
    expect(bridge.pathForFile({})).toBeNull();
  });
});
