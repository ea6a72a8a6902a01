/**
 * Where API keys live. The core gets a SecretStore injected: in the desktop app one backed by
 * Electron's safeStorage (electron/main/secrets.ts, the OS keychain); none in the CLI and `loupe
 * serve`, which read the key from the environment variable the judge names.
 *
 * A stored key is bound to the endpoint origins it was entered for: the judge
 * service sends it only while every base URL of the judge is on one of them, so a changed base URL
 * (or a project file naming another host under the same judge) never receives it.
 */
export interface StoredKey {
  key: string;
  /** Origins (scheme://host:port) of the base URLs the key was entered for; null: stored before keys were bound (never sent). */
  origins: readonly string[] | null;
}

export interface SecretStore {
  /** False when keys cannot be stored safely here (no keychain): the UI says so. */
  available(): boolean;
  get(scope: string, name: string): StoredKey | null;
  set(scope: string, name: string, value: StoredKey & { origins: readonly string[] }): void;
  delete(scope: string, name: string): void;
}

/** The origins of base URLs, once each, sorted: what a stored key is bound to. */
export function originsOf(baseUrls: readonly string[]): string[] {
  const origins = new Set<string>();
  for (const url of baseUrls) {
    try {
      origins.add(new URL(url).origin);
    } catch {
      // the config schema admits only URLs; an unparsable one binds nothing
    }
  }
  return [...origins].sort();
}

/** Whether a stored key may be sent to every one of `baseUrls`. */
export function keyApplies(stored: StoredKey, baseUrls: readonly string[]): boolean {
  if (stored.origins === null) return false;
  const bound = new Set(stored.origins);
  const wanted = originsOf(baseUrls);
  return wanted.length > 0 && wanted.every((origin) => bound.has(origin));
}

/** For tests: keys in memory only. */
export class MemorySecretStore implements SecretStore {
  readonly values = new Map<string, StoredKey>();
  available(): boolean {
    return true;
  }
  get(scope: string, name: string): StoredKey | null {
    return this.values.get(`${scope}\u0000${name}`) ?? null;
  }
  set(scope: string, name: string, value: StoredKey & { origins: readonly string[] }): void {
    this.values.set(`${scope}\u0000${name}`, { key: value.key, origins: [...value.origins] });
  }
  delete(scope: string, name: string): void {
    this.values.delete(`${scope}\u0000${name}`);
  }
}
