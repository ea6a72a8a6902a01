/**
 * The desktop core in a unit test: what the Electron main process creates (keychain secrets,
 * file dialogs, disk paths), called through dispatch as IPC calls it, and a stand-in for
 * Electron's safeStorage so the keychain file can be read back without an OS keychain.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { createCore, type CoreOptions } from '../../electron/core/index';
import { dispatch } from '../../electron/core/dispatch';
import { summaryRows } from '../mock-openai/project';

export type TestCore = ReturnType<typeof createCore>;

/**
 * Electron's safeStorage, reversible and tagged ("enc:" + the text reversed) so the plaintext
 * never shows in the file. `state` may be changed by the test (keychain unavailable, basic_text).
 * Use inside a vi.mock('electron') factory: `async () => (await import('…/desktop-core')).fakeElectron()`.
 */
export function fakeElectron(
  state: { available: boolean; backend: string } = { available: true, backend: 'gnome_libsecret' },
) {
  return {
    safeStorage: {
      isEncryptionAvailable: () => state.available,
      getSelectedStorageBackend: () => state.backend,
      encryptString: (text: string) => Buffer.from(`enc:${[...text].reverse().join('')}`),
      decryptString: (blob: Buffer) => [...blob.toString().slice(4)].reverse().join(''),
    },
  };
}

/** The core as the desktop host creates it, state in `userData`; `overrides` for what a test varies. */
export function desktopCore(
  userData: string,
  secrets: CoreOptions['secrets'],
  overrides: Partial<CoreOptions> = {},
): TestCore {
  return createCore({
    Database,
    stateDir: userData,
    demoDir: join(import.meta.dirname, '..', '..', 'demo'),
    host: 'electron',
    fileDialogs: true,
    diskPaths: true,
    canSwitchProjects: true,
    secrets,
    env: {},
    ...overrides,
  });
}

/** One call through dispatch; a refusal throws with its code and message. */
export async function call<T>(core: TestCore, method: string, input: unknown): Promise<T> {
  const envelope = await dispatch(core.handlers, method, input);
  if (!envelope.ok) throw new Error(`${method}: ${envelope.error.code}: ${envelope.error.message}`);
  return envelope.value as T;
}

/** Imports `count` mock summary rows into the open project (an upload) and waits for the job. */
export async function importSummaryRows(core: TestCore, count: number): Promise<void> {
  const { jobId } = await call<{ jobId: string }>(core, 'imports.start', {
    source: {
      type: 'upload',
      name: 'rows.jsonl',
      base64: Buffer.from(
        summaryRows(count)
          .map((r) => JSON.stringify(r))
          .join('\n'),
      ).toString('base64'),
    },
  });
  for (;;) {
    const job = await call<{ state: string }>(core, 'jobs.get', { jobId });
    if (job.state !== 'running') break;
    await new Promise((r) => setTimeout(r, 5));
  }
}
