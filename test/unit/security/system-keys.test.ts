/**
 * Systems' API keys, as the judges keep theirs: on the desktop a key typed with
 * systems.add goes to the keychain (here the in-memory SecretStore), bound to the origins of the
 * system's base URLs. A summary-generation run sends it; after a change to another origin it is
 * not sent and keySource says so until typed again; null removes it; systems.remove forgets it; a judge of the same
 * name does not share it. Without a keychain (CLI, `loupe serve`) a typed key is refused and the
 * key comes from the environment variable under the --allow-key-env policy.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { AccuracyRunStatus } from '../../../shared/contract/accuracy';
import type { SystemInfo } from '../../../shared/contract/systems';
import { MemorySecretStore } from '../../../electron/core/judges/secrets';
import { call, desktopCore, importSummaryRows, type TestCore } from '../../helpers/desktop-core';
import { tempDir } from '../../helpers/tmp';
import { authorizationsSeen, twoMockOrigins } from '../../helpers/two-origins';

const KEY = 'system-key-bound-to-one-origin-7373';
const dir = tempDir('loupe-system-keys-');
const origins = twoMockOrigins();

let made = 0;
async function openProject(core: TestCore): Promise<void> {
  await call(core, 'projects.create', { path: join(dir, `p${made++}.loupe`) });
  await importSummaryRows(core, 4); // two documents: doc-0, doc-1
}

const system = (baseUrl: string, extra: Record<string, unknown> = {}) => ({
  baseUrl,
  model: `sys-${made}-${Math.random()}`,
  retries: 0,
  concurrency: 1,
  ...extra,
});
const keySource = async (core: TestCore, name: string) =>
  (await call<SystemInfo[]>(core, 'systems.list', {})).find((s) => s.name === name)!.keySource;

/** Runs summary_generation (a new model each time, so every document is asked) and returns the Authorization headers the mocks saw. */
async function generateAndCollectAuth(core: TestCore, name: string): Promise<string[]> {
  return authorizationsSeen(origins, async () => {
    let status = await call<AccuracyRunStatus>(core, 'accuracy.start', {
      task: 'summary_generation',
      system: name,
      dataset: 'news',
    });
    while (status.state === 'running') {
      await new Promise((r) => setTimeout(r, 5));
      status = await call<AccuracyRunStatus>(core, 'accuracy.status', { runId: status.runId });
    }
  });
}

describe('a system key in the desktop keychain', () => {
  it('is sent to the origin it was typed for, not after a change to another origin, and goes with null or a removal', async () => {
    const secrets = new MemorySecretStore();
    const core = desktopCore(join(dir, 'desktop'), secrets, { allowedKeyEnv: 'any' });
    await openProject(core);
    const added = await call<SystemInfo>(core, 'systems.add', {
      name: 'gpt',
      config: system(origins.first.url),
      apiKey: KEY,
    });
    expect(added.keySource).toBe('stored');
    expect(JSON.stringify(added)).not.toContain(KEY);
    // The preview names where the key comes from, never its value.
    const preview = await call<{ item: string | null; body: unknown }>(core, 'accuracy.preview', {
      task: 'summary_generation',
      system: 'gpt',
      dataset: 'news',
    });
    expect(preview.item).toContain('<key stored in the OS keychain>');
    expect(JSON.stringify(preview)).not.toContain(KEY);
    expect(await generateAndCollectAuth(core, 'gpt')).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`]);

    // Another origin: the key stays in the keychain but is not sent, and the list says it must be typed again.
    // (A system summarises each document once, so this is another system whose key was typed for the first origin.)
    await call(core, 'systems.add', { name: 'moved', config: system(origins.first.url), apiKey: KEY });
    const moved = system(origins.second.url);
    await call(core, 'systems.add', { name: 'moved', config: moved });
    expect(await keySource(core, 'moved')).toBe('stored_other_origin');
    const label = async () =>
      (
        await call<{ item: string | null }>(core, 'accuracy.preview', {
          task: 'summary_generation',
          system: 'moved',
          dataset: 'news',
        })
      ).item;
    expect(await label()).not.toContain('OS keychain');
    const auth = await generateAndCollectAuth(core, 'moved');
    expect(auth).toHaveLength(2);
    expect(auth.some((a) => a.includes(KEY))).toBe(false);
    await call(core, 'systems.add', { name: 'moved', config: moved, apiKey: KEY });
    expect(await keySource(core, 'moved')).toBe('stored');
    expect(await label()).toContain('<key stored in the OS keychain>');

    // null removes the stored key; a removed system's key is forgotten with it.
    await call(core, 'systems.add', { name: 'gpt', config: system(origins.second.url), apiKey: null });
    expect(await keySource(core, 'gpt')).toBe('none');
    await call(core, 'systems.add', { name: 'gpt', config: system(origins.second.url), apiKey: KEY });
    await call(core, 'systems.remove', { name: 'gpt' });
    await call(core, 'systems.add', { name: 'gpt', config: system(origins.second.url) });
    expect(await keySource(core, 'gpt')).toBe('none');

    // A judge of the same name keeps its own key.
    await call(core, 'judges.add', {
      name: 'gpt',
      config: { kind: 'endpoint', baseUrl: origins.second.url, model: 'judge' },
      apiKey: 'judge-key-0000',
    });
    expect(await keySource(core, 'gpt')).toBe('none');
    core.close();
  });
});

describe('no keychain (the CLI, loupe serve)', () => {
  it('refuses a typed key and reads the environment variable the policy allows', async () => {
    const core = desktopCore(join(dir, 'serve'), null, {
      host: 'web',
      fileDialogs: false,
      diskPaths: false,
      allowedKeyEnv: new Set(['SYS_KEY']),
      env: { SYS_KEY: 'env-key-1234', OTHER_KEY: 'other-9999' },
    });
    await openProject(core);
    await expect(
      call(core, 'systems.add', { name: 's', config: system(origins.first.url), apiKey: KEY }),
    ).rejects.toThrow(/unsupported: This host does not store API keys/);
    await expect(
      call(core, 'systems.add', { name: 's', config: system(origins.first.url, { apiKeyEnv: 'OTHER_KEY' }) }),
    ).rejects.toThrow(/forbidden: .*--allow-key-env OTHER_KEY/);
    expect(await call<SystemInfo[]>(core, 'systems.list', {})).toEqual([]);
    const added = await call<SystemInfo>(core, 'systems.add', {
      name: 's',
      config: system(origins.first.url, { apiKeyEnv: 'SYS_KEY' }),
    });
    expect(added.keySource).toBe('env');
    expect(await generateAndCollectAuth(core, 's')).toEqual(['Bearer env-key-1234', 'Bearer env-key-1234']);
    core.close();
  });
});
