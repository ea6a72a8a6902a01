/**
 * The desktop keychain: a stored key is bound to the endpoint origins it was
 * typed for (electron/main/secrets.ts with a stand-in safeStorage, through the core and dispatch).
 * After a base-URL change to another origin the key is not sent (the endpoint sees the client's
 * placeholder, never the key) and keySource says it must be typed again; typing it again sends it.
 * A replica on another origin, and a blob stored before the binding, get no key either.
 */
import Database from 'better-sqlite3';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { JudgeInfo, JudgeRunStatus } from '../../../shared/api';
import { call, desktopCore as createDesktopCore, importSummaryRows, type TestCore } from '../../helpers/desktop-core';
import { tempDir } from '../../helpers/tmp';
import { authorizationsSeen, twoMockOrigins } from '../../helpers/two-origins';

vi.mock('electron', async () => (await import('../../helpers/desktop-core')).fakeElectron());

const { createKeychainSecretStore, KEY_FILE } = await import('../../../electron/main/secrets');

const KEY = 'desktop-key-bound-to-one-origin-4242';
const dir = tempDir('loupe-judge-keys-keychain-');
const origins = twoMockOrigins();

const desktopCore = (userData: string) =>
  createDesktopCore(userData, createKeychainSecretStore(userData), { allowedKeyEnv: 'any' });

async function projectWithRows(core: TestCore, name: string): Promise<string> {
  const path = join(dir, `${name}.loupe`);
  await call(core, 'projects.create', { path });
  await importSummaryRows(core, 1);
  return path;
}

/** Runs the judge (a new version each time: every sentence is asked) and returns the Authorization headers the mocks saw. */
async function runAndCollectAuth(core: TestCore, name: string): Promise<string[]> {
  return authorizationsSeen(origins, async () => {
    const started = await call<JudgeRunStatus>(core, 'judges.start', { name });
    for (let state = started.state; state === 'running';) {
      await new Promise((r) => setTimeout(r, 5));
      state = (await call<JudgeRunStatus>(core, 'judges.status', { runId: started.runId })).state;
    }
  });
}

const endpoint = (baseUrl: string, model: string, extra: Record<string, unknown> = {}) => ({
  kind: 'endpoint',
  baseUrl,
  model,
  concurrency: 1,
  retries: 0,
  ...extra,
});
const keySource = async (core: TestCore, name: string) =>
  (await call<JudgeInfo[]>(core, 'judges.list', {})).find((j) => j.name === name)!.keySource;

describe('a keychain key is bound to the endpoint origin it was typed for', () => {
  it('is not sent after a base-URL change to another origin until typed again', async () => {
    const core = desktopCore(join(dir, 'user-data'));
    await projectWithRows(core, 'origin');
    await call(core, 'judges.add', { name: 'hosted', config: endpoint(origins.first.url, 'm1'), apiKey: KEY });
    expect(await keySource(core, 'hosted')).toBe('stored');
    expect(await runAndCollectAuth(core, 'hosted')).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`, `Bearer ${KEY}`]);

    // Another origin (another port): the key stays in the keychain but is not sent there.
    await call(core, 'judges.update', { name: 'hosted', config: endpoint(origins.second.url, 'm2') });
    expect(await keySource(core, 'hosted')).toBe('stored_other_origin');
    const preview = await call<{ request: { headers: Record<string, string> } }>(core, 'judges.preview', {
      name: 'hosted',
    });
    expect(preview.request.headers.Authorization).toBe('Bearer not-needed');
    // The openai client's placeholder for "no key": the request goes out, the key does not.
    expect(await runAndCollectAuth(core, 'hosted')).toEqual([
      'Bearer not-needed',
      'Bearer not-needed',
      'Bearer not-needed',
    ]);
    expect(origins.second.requests).toHaveLength(3);

    // Typed again for the new address: sent again.
    await call(core, 'judges.update', { name: 'hosted', config: endpoint(origins.second.url, 'm3'), apiKey: KEY });
    expect(await keySource(core, 'hosted')).toBe('stored');
    expect(await runAndCollectAuth(core, 'hosted')).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`, `Bearer ${KEY}`]);

    // Same origin, another path: still the address it was typed for.
    await call(core, 'judges.update', {
      name: 'hosted',
      config: endpoint(origins.second.url.replace(/\/v1$/, '/proxy/v1'), 'm4'),
    });
    expect(await keySource(core, 'hosted')).toBe('stored');
    core.close();
  });

  it("another judge's key resolved this session is redacted from a run's stored answers and the project bytes", async () => {
    const core = desktopCore(join(dir, 'user-data-3'));
    const path = await projectWithRows(core, 'cross');
    const OTHER_KEY = 'second-desktop-key-of-this-session-777';
    await call(core, 'judges.add', { name: 'a', config: endpoint(origins.first.url, 'a1'), apiKey: OTHER_KEY });
    await call(core, 'judges.add', { name: 'b', config: endpoint(origins.second.url, 'b1'), apiKey: KEY });
    expect(await keySource(core, 'a')).toBe('stored');
    // b's endpoint answers with a's key (a proxy in front of both, say): not b's key, still a secret.
    origins.second.setResponder(() => ({ type: 'answer', content: `{"faithful": 1} seen ${OTHER_KEY}` }));
    expect(await runAndCollectAuth(core, 'b')).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`, `Bearer ${KEY}`]);
    origins.second.setResponder(undefined);
    const db = new Database(path, { readonly: true });
    const raws = db.prepare('SELECT raw FROM judge_predictions').all() as Array<{ raw: string | null }>;
    db.close();
    expect(raws.map((r) => r.raw)).toEqual(Array(3).fill('{"faithful": 1} seen [redacted]'));
    core.close();
    for (const file of [path, `${path}-wal`])
      if (existsSync(file)) expect(readFileSync(file).includes(Buffer.from(OTHER_KEY))).toBe(false);
  });

  it('is not sent when a replica on another origin joins, nor when it was stored before the binding', async () => {
    const userData = join(dir, 'user-data-2');
    const core = desktopCore(userData);
    await projectWithRows(core, 'replica');
    await call(core, 'judges.add', { name: 'pair', config: endpoint(origins.first.url, 'r1'), apiKey: KEY });
    await call(core, 'judges.update', {
      name: 'pair',
      config: endpoint(origins.first.url, 'r2', { baseUrls: [origins.first.url, origins.second.url] }),
    });
    expect(await keySource(core, 'pair')).toBe('stored_other_origin');
    const pairAuth = await runAndCollectAuth(core, 'pair');
    expect(pairAuth).toHaveLength(3);
    for (const auth of pairAuth) expect(auth).toBe('Bearer not-needed');

    // A blob from before the binding holds the bare key: bound to nothing, so never sent.
    await call(core, 'judges.update', { name: 'pair', config: endpoint(origins.first.url, 'r3'), apiKey: KEY });
    const path = join(userData, KEY_FILE);
    const file = JSON.parse(readFileSync(path, 'utf8')) as { version: 1; keys: Record<string, Record<string, string>> };
    const scope = Object.keys(file.keys)[0]!;
    file.keys[scope]!.pair = Buffer.from(`enc:${[...KEY].reverse().join('')}`).toString('base64');
    writeFileSync(path, JSON.stringify(file));
    expect(await keySource(core, 'pair')).toBe('stored_other_origin');
    expect(await runAndCollectAuth(core, 'pair')).toEqual([
      'Bearer not-needed',
      'Bearer not-needed',
      'Bearer not-needed',
    ]);
    // Typed again, it is bound and sent.
    await call(core, 'judges.update', { name: 'pair', config: endpoint(origins.first.url, 'r4'), apiKey: KEY });
    expect(await runAndCollectAuth(core, 'pair')).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`, `Bearer ${KEY}`]);
    expect(readFileSync(path, 'utf8')).not.toContain(KEY);
    core.close();
  });
});
