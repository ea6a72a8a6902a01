/**
 * Where API keys live. The core gets a SecretStore injected: in the desktop app one backed by
 * Electron's safeStorage (electron/main/secrets.ts, the OS keychain); none in the CLI and `loupe
 * serve`, which read the key from the environment variable the judge names.
 */
export interface SecretStore {
  /** False when keys cannot be stored safely here (no keychain): the UI says so. */
  available(): boolean;
  get(scope: string, name: string): string | null;
  set(scope: string, name: string, value: string): void;
  delete(scope: string, name: string): void;
}

/** For tests: keys in memory only. */
export class MemorySecretStore implements SecretStore {
  readonly values = new Map<string, string>();
  available(): boolean {
    return true;
  }
  get(scope: string, name: string): string | null {
    return this.values.get(`${scope}\u0000${name}`) ?? null;
  }
  set(scope: string, name: string, value: string): void {
    this.values.set(`${scope}\u0000${name}`, value);
  }
  delete(scope: string, name: string): void {
    this.values.delete(`${scope}\u0000${name}`);
  }
}
