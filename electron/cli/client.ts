/**
 * The CLI as a host like IPC and HTTP: every subcommand builds the contract's input from its
 * options and calls the core through `dispatch`, so bounds, defaults and refusals are the
 * contract's alone (shared/api.ts). A refusal becomes a `Refusal` (exit 1, the contract's message
 * on stderr); what only the command line knows (a missing option, a non-number, an --out without
 * .jsonl/.csv) is a `UsageError` (exit 2).
 */
import Database from 'better-sqlite3';
import { InvalidArgumentError } from 'commander';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseApiInput, type ApiErrorBody, type ApiInput, type ApiMethod, type ApiOutput } from '../../shared/api';
import { createCore, dispatch, type Core, type LinkRegistry } from '../core/index';
import { DEMO_DIR, stateDir } from './paths';

/** A mistake in the command line itself: exit 2. */
export class UsageError extends Error {}

/** The contract (or the core behind it) said no: exit 1 with its message, and nothing was stored. */
export class Refusal extends Error {
  constructor(readonly body: ApiErrorBody) {
    super(body.message);
    this.name = 'Refusal';
  }
}

/**
 * `loupe serve` answers a browser and never reads paths the page names; CLI commands do. Judge
 * keys: a CLI command reads any variable its judge names (the person at the terminal set them);
 * `loupe serve` only the `--allow-key-env` names (`allowedKeyEnv`, default none), since whoever
 * holds its token configures the judges.
 */
export function makeCore(options: {
  web: boolean;
  annotator?: string | undefined;
  links?: LinkRegistry;
  allowedKeyEnv?: ReadonlySet<string>;
}): Core {
  return createCore({
    Database,
    stateDir: stateDir(),
    demoDir: DEMO_DIR,
    host: options.web ? 'web' : 'electron',
    fileDialogs: false,
    diskPaths: !options.web,
    canSwitchProjects: false,
    annotator: options.annotator ?? null,
    allowedKeyEnv: options.web ? (options.allowedKeyEnv ?? new Set<string>()) : 'any',
    ...(options.links ? { links: options.links } : {}),
    // A command names the format with --as; `loupe serve`'s page has the app's Format menu.
    ...(options.web ? {} : { formatChoice: 'pass --as KIND' }),
  });
}

export interface ProjectClient {
  /** One contract call through dispatch; a refusal throws a `Refusal`. */
  call<M extends ApiMethod>(method: M, input: ApiInput<M>): Promise<ApiOutput<M>>;
  /** The core itself, for what the contract does not carry (analysis timings). Opens the project. */
  core(): Core;
  close(): void;
}

/**
 * A client bound to one project file. The project opens on the first call, and only once the
 * contract has accepted that call's input: a refused command never opens, creates or migrates it.
 * `create`: a missing project is created (import); otherwise it is a usage error.
 */
export function projectClient(project: string, { create = false }: { create?: boolean } = {}): ProjectClient {
  const path = resolve(project);
  let opened: Core | null = null;

  function open(): Core {
    if (opened) return opened;
    const exists = existsSync(path);
    if (!exists && !create)
      throw new UsageError(`No project at ${path}. Create one with: loupe import FILE --project ${path}`);
    const core = makeCore({ web: false });
    if (exists) core.openProject(path);
    else core.createProject(path);
    opened = core;
    return core;
  }

  return {
    async call(method, input) {
      if (!opened) {
        const checked = parseApiInput(method, input);
        if (!checked.ok) throw new Refusal(checked.error);
      }
      const envelope = await dispatch(open().handlers, method, input);
      if (!envelope.ok) throw new Refusal(envelope.error);
      // dispatch parsed the value with the method's output schema.
      return envelope.value as ApiOutput<typeof method>;
    },
    core: open,
    close() {
      opened?.close();
      opened = null;
    },
  };
}

/**
 * Text to a number for the contract: any finite number passes (the contract judges its range and
 * whether it must be whole); only a non-number is the command line's own mistake.
 */
export const number =
  (name: string) =>
  (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n)) throw new InvalidArgumentError(`${name} must be a number`);
    return n;
  };

/** Resolves after `ms`: the polling loops' pace. */
export const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/** A list command's output: the JSON with --json, else one block per row, or what to do when it is empty. */
export function printList<T>(
  list: readonly T[],
  json: boolean | undefined,
  empty: string,
  row: (item: T) => string,
): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
    return;
  }
  if (list.length === 0) process.stdout.write(`${empty}\n`);
  for (const item of list) process.stdout.write(`${row(item)}\n`);
}
