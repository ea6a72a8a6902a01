/**
 * Systems' API keys, as the judges keep theirs (judges/service.ts): on the
 * desktop a SecretStore (the OS keychain) keyed by the project's id, each key bound to the
 * endpoint origins it was entered for, so a changed base URL never receives it; elsewhere (CLI,
 * `loupe serve`) no store, and the key comes from the environment variable the system names,
 * under the host's --allow-key-env policy (keys.ts). Systems live in their own scope of the
 * store, so a system and a judge of the same name never share a key.
 */
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../../shared/api';
import { systemUrls, type SystemConfig, type SystemInfo } from '../../../shared/contract/systems';
import type { Repository } from '../../../db/repository';
import type { CoreContext } from '../context';
import { keyApplies, originsOf, type StoredKey } from '../judges/secrets';

/** The project's id (made on first use, as the judges' keys do) in the systems' scope. */
function scopeOf(repo: Repository): string {
  let id = repo.getMeta('project_id');
  if (id === null) {
    id = randomUUID();
    repo.setMeta('project_id', id);
  }
  return `${id}:systems`;
}

export interface SystemKeys {
  /** Where a run of this system takes its key from. */
  source(name: string, config: SystemConfig | null): SystemInfo['keySource'];
  /** The key to send: the stored one if bound to every base URL, else the environment variable (policy checked), else none. */
  keyFor(name: string, config: SystemConfig): string | null;
  /** How a preview names the key (never its value). */
  label(name: string, config: SystemConfig): string;
  /** Refuses a key where none can be stored safely (no keychain: the CLI, `loupe serve`). */
  requireStorable(): void;
  store(name: string, config: SystemConfig, key: string): void;
  remove(name: string): void;
}

export function systemKeys(ctx: CoreContext): SystemKeys {
  const secrets = () => ctx.options.secrets ?? null;
  const repo = () => ctx.project().repo;

  function stored(name: string): StoredKey | null {
    const store = secrets();
    if (!store || !store.available()) return null;
    try {
      const value = store.get(scopeOf(repo()), name);
      ctx.keys.remember(value?.key ?? null);
      return value;
    } catch {
      return null;
    }
  }

  function applicable(name: string, config: SystemConfig): string | null {
    const value = stored(name);
    return value !== null && keyApplies(value, systemUrls(config)) ? value.key : null;
  }

  return {
    source(name, config) {
      const value = stored(name);
      if (value !== null && config !== null && keyApplies(value, systemUrls(config))) return 'stored';
      if (value !== null) return 'stored_other_origin';
      return config?.apiKeyEnv ? 'env' : 'none';
    },
    keyFor(name, config) {
      const key = applicable(name, config);
      if (key !== null) return key;
      if (!config.apiKeyEnv) return null;
      const value = ctx.keys.readEnv(config.apiKeyEnv, `The system "${name}"`);
      if (value === null)
        throw new ApiError({
          code: 'invalid_input',
          message: `The system "${name}" reads its API key from the environment variable ${config.apiKeyEnv}, which is not set.`,
        });
      return value;
    },
    label(name, config) {
      if (applicable(name, config) !== null) return '<key stored in the OS keychain>';
      if (config.apiKeyEnv) {
        ctx.keys.requireEnvAllowed(config.apiKeyEnv, `The system "${name}"`);
        return `<key from $${config.apiKeyEnv}>`;
      }
      return 'not-needed';
    },
    requireStorable() {
      const store = secrets();
      if (!store)
        throw new ApiError({
          code: 'unsupported',
          message:
            'This host does not store API keys. Put the key in an environment variable and name it in the system (--api-key-env VAR).',
        });
      if (!store.available())
        throw new ApiError({
          code: 'unsupported',
          message:
            "No OS keychain is available to store the key safely. Name an environment variable instead (the system's apiKeyEnv).",
        });
    },
    store(name, config, key) {
      ctx.keys.remember(key);
      secrets()!.set(scopeOf(repo()), name, { key, origins: originsOf(systemUrls(config)) });
    },
    remove(name) {
      const store = secrets();
      if (store?.available()) store.delete(scopeOf(repo()), name);
    },
  };
}
