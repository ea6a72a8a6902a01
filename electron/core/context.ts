/**
 * What every namespace module of the core shares: the host's options and capabilities, and the
 * open project. Namespaces receive this instead of reaching into each other.
 */
import { ApiError } from '../../shared/api';
import type { ChangeBus } from './changes';
import type { Database, DatabaseConstructor } from '../../db/open';
import type { Repository } from '../../db/repository';
import type { AnnotatorLink, Caller, ProjectInfo } from '../../shared/api';
import type { SecretStore } from './judges/secrets';
import type { KeyAccess, KeyEnvPolicy } from './keys';

/**
 * What the host can do, asked for by feature instead of "which host am I":
 * - fileDialogs: native open/save dialogs (the desktop app);
 * - diskPaths: the caller may name files on this machine (desktop, CLI). `loupe serve` says no: a
 *   browser page must never make the server read or write paths of its choosing;
 * - canSwitchProjects: projects can be opened, created and switched (desktop); `loupe serve` and
 *   each CLI command are bound to one project.
 */
export interface HostCapabilities {
  fileDialogs: boolean;
  diskPaths: boolean;
  canSwitchProjects: boolean;
}

export interface CoreOptions extends HostCapabilities {
  Database: DatabaseConstructor;
  stateDir: string;
  demoDir: string;
  /** Shown to people only (app.info); no behaviour depends on it. */
  host: 'electron' | 'web';
  annotator?: string | null;
  /** Desktop: API keys in the OS keychain (electron/main/secrets.ts). Absent: keys only from env vars. */
  secrets?: SecretStore | null;
  /** Where judge keys named by `apiKeyEnv` are read (default: process.env). */
  env?: Record<string, string | undefined>;
  /**
   * Which of those variables a judge may name. 'any' where the person at the
   * keyboard set the environment themselves (CLI commands; the desktop app, for development);
   * `loupe serve` only the `--allow-key-env` names, since any token holder configures judges there.
   * Default: none.
   */
  allowedKeyEnv?: KeyEnvPolicy;
  /** Annotator links (`loupe serve`): absent on hosts without them (desktop, CLI), whose links.* answer unsupported. */
  links?: LinkRegistry | null;
  /**
   * How this host's user names an import's format when it cannot be detected, as an imperative
   * ("pass --as KIND" on the command line). Absent: the app's Import panel, whose Format menu
   * names it (APP_FORMAT_CHOICE in imports/run.ts).
   */
  formatChoice?: string;
}

/**
 * The annotator links a host hands out: each a secret token bound to one annotator.
 * Kept in the host's memory only: tokens are never written to the project.
 */
export interface LinkRegistry {
  /** The links handed out, without their tokens (url null). */
  list(): AnnotatorLink[];
  /** A new link for `annotator`; its url carries the token (shown this once). */
  create(annotator: string): AnnotatorLink;
  /** Stops a link at once; false when no such link is live. */
  revoke(id: string): boolean;
  /** Who a presented token belongs to: an annotator of a live link, or null (the host checks the lead token itself). */
  callerFor(token: string): Caller | null;
}

export interface OpenProject {
  db: Database;
  repo: Repository;
  info: ProjectInfo;
}

export interface CoreContext {
  readonly options: CoreOptions;
  /** Key reading under the host's policy, and the session's known secrets (redaction). */
  readonly keys: KeyAccess;
  /** The open project; throws `no_project` when none is open. */
  project(): OpenProject;
  /** The open project or null. */
  currentProject(): OpenProject | null;
  /** Change events for open views (background work emits its own when it ends). */
  readonly changes: ChangeBus;
}

/** The refusal of a feature this host does not have (the contract's `unsupported`). */
export function unsupported(what: string): never {
  throw new ApiError({ code: 'unsupported', message: `${what} is only available in the desktop app.` });
}

export function requireCapability(ctx: CoreContext, capability: keyof HostCapabilities, what: string): void {
  if (!ctx.options[capability]) unsupported(what);
}

export function noProject(): never {
  throw new ApiError({ code: 'no_project', message: 'No project is open. Open or create one first (File › Open).' });
}
