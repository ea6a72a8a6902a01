/**
 * Which API keys the core may read, and the secrets it must never write anywhere.
 *
 * - A judge names the environment variable its key comes from (`apiKeyEnv`). The host says which
 *   names it may read: `'any'` where the person typing is the one who set the environment (CLI
 *   commands, the desktop app), only the `--allow-key-env` names in `loupe serve` (whoever holds
 *   the token could otherwise have any variable of the serve process sent to a host of their
 *   choosing as a Bearer token).
 * - Every key value the core resolved this session, and the values of the allowed variables, are
 *   "known secrets": redacted from stored raw answers, error messages, run status and exports.
 *   `known` is one live array: a run or export holding it sees keys resolved after it started.
 */
import { ApiError } from '../../shared/api';
import { redactKnown } from '../../shared/judges/redact';

/** The environment variables a judge may name for its key. */
export type KeyEnvPolicy = ReadonlySet<string> | 'any';

/** The default of a host that says nothing: no variable may be read. */
export const NO_KEY_ENV: KeyEnvPolicy = new Set<string>();

export interface KeyAccess {
  /** Throws a `forbidden` ApiError naming --allow-key-env when the host does not let `who` read `name`. */
  requireEnvAllowed(name: string, who: string): void;
  /** The value of an allowed variable (refused otherwise), or null when unset or empty. Remembered as a secret. */
  readEnv(name: string, who: string): string | null;
  /** Adds a resolved key (from the keychain, the environment) to the known secrets. */
  remember(value: string | null): void;
  /** Every known secret (live: grows as keys are resolved), in the forms they may appear in text. */
  readonly known: ReadonlyArray<string>;
  /** `text` with every known secret replaced (nothing by shape: it may be the person's own data). */
  redactKnown(text: string): string;
}

export function keyEnvAllowed(policy: KeyEnvPolicy, name: string): boolean {
  return policy === 'any' || policy.has(name);
}

export function keyEnvRefusal(name: string, who: string): ApiError {
  return new ApiError({
    code: 'forbidden',
    message:
      `${who} names the environment variable ${name} for its API key, which this server does not let a judge read. ` +
      `Whoever starts \`loupe serve\` can allow it: loupe serve --allow-key-env ${name}.`,
  });
}

export function createKeyAccess(options: {
  env: Record<string, string | undefined>;
  allowedKeyEnv: KeyEnvPolicy;
}): KeyAccess {
  const { env, allowedKeyEnv } = options;
  const known: string[] = [];
  const seen = new Set<string>();

  function remember(value: string | null): void {
    if (value === null || value === '' || seen.has(value)) return;
    seen.add(value);
    known.push(value);
    // As it appears inside JSON text (an export, a stored JSON answer) when it holds " or \.
    const escaped = JSON.stringify(value).slice(1, -1);
    if (escaped !== value && !seen.has(escaped)) {
      seen.add(escaped);
      known.push(escaped);
    }
  }

  if (allowedKeyEnv !== 'any') for (const name of allowedKeyEnv) remember(env[name] ?? null);

  const access: KeyAccess = {
    requireEnvAllowed(name, who) {
      if (!keyEnvAllowed(allowedKeyEnv, name)) throw keyEnvRefusal(name, who);
    },
    readEnv(name, who) {
      access.requireEnvAllowed(name, who);
      const value = env[name];
      if (value === undefined || value === '') return null;
      remember(value);
      return value;
    },
    remember,
    known,
    redactKnown: (text) => redactKnown(text, known),
  };
  return access;
}
