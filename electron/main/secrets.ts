/**
 * Desktop key storage: API keys encrypted with Electron's safeStorage (the OS keychain: Keychain
 * on macOS, DPAPI on Windows, libsecret/KWallet on Linux) and kept as base64 blobs in the app's
 * userData folder (`judge-keys.json`), keyed by project id and judge name. Never in the project
 * file, an export or a log. What is encrypted is the key together with the endpoint origins it was
 * entered for ({v: 2, origins, key}), so the binding cannot be edited in the file; a blob from
 * before the binding (the bare key) reads as bound to nothing and is not sent until typed again. On Linux without a keychain Electron falls back to a hard-coded
 * password ("basic_text"): that is not safe storage, so Loupe refuses and asks for an
 * environment variable instead.
 */
import { safeStorage } from 'electron';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { SecretStore, StoredKey } from '../core/index';

/** The part of Electron's safeStorage used here (injected in tests). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  getSelectedStorageBackend?(): string;
}

const KeyFileSchema = z.object({
  version: z.literal(1),
  keys: z.record(z.string(), z.record(z.string(), z.string())),
});
type KeyFile = z.infer<typeof KeyFileSchema>;

export const KEY_FILE = 'judge-keys.json';

/** The plaintext inside one encrypted blob. */
const BoundKeySchema = z.object({ v: z.literal(2), origins: z.array(z.string()), key: z.string().min(1) });

function unpack(plain: string): StoredKey {
  try {
    const parsed = BoundKeySchema.safeParse(JSON.parse(plain));
    if (parsed.success) return { key: parsed.data.key, origins: parsed.data.origins };
  } catch {
    // not JSON: a bare key stored before keys were bound to origins
  }
  return { key: plain, origins: null };
}

export function createKeychainSecretStore(
  userDataDir: string,
  storage: () => SafeStorageLike = () => safeStorage,
): SecretStore {
  const path = join(userDataDir, KEY_FILE);

  function read(): KeyFile {
    if (!existsSync(path)) return { version: 1, keys: {} };
    try {
      const parsed = KeyFileSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
      if (parsed.success) return parsed.data;
    } catch {
      // unreadable: start over rather than fail every judge; the keys can be typed again
    }
    return { version: 1, keys: {} };
  }

  function write(file: KeyFile): void {
    mkdirSync(dirname(path), { recursive: true });
    const temp = `${path}.tmp`;
    writeFileSync(temp, JSON.stringify(file, null, 2), { mode: 0o600 });
    renameSync(temp, path);
  }

  const store: SecretStore = {
    available() {
      const s = storage();
      if (!s.isEncryptionAvailable()) return false;
      if (process.platform === 'linux' && s.getSelectedStorageBackend?.() === 'basic_text') return false;
      return true;
    },
    get(scope, name) {
      const blob = read().keys[scope]?.[name];
      if (blob === undefined || !store.available()) return null;
      try {
        return unpack(storage().decryptString(Buffer.from(blob, 'base64')));
      } catch {
        return null;
      }
    },
    set(scope, name, value) {
      if (!store.available())
        throw new Error('No OS keychain is available to store the key safely; name an environment variable instead.');
      const file = read();
      const plain = JSON.stringify({ v: 2, origins: [...value.origins], key: value.key });
      file.keys[scope] = { ...(file.keys[scope] ?? {}), [name]: storage().encryptString(plain).toString('base64') };
      write(file);
    },
    delete(scope, name) {
      const file = read();
      if (file.keys[scope]?.[name] === undefined) return;
      delete file.keys[scope]![name];
      if (Object.keys(file.keys[scope]!).length === 0) delete file.keys[scope];
      write(file);
    },
  };
  return store;
}
