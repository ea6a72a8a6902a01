/**
 * Starts the real `loupe serve` (the CLI, the services, a real SQLite file) in a child process and
 * reads the links it prints first: one annotator link per `--annotator`, then the lead
 * link. `url`/`token` are the first line (the annotator link when --annotator is given, else the
 * lead link); `lead` is always the lead link and `links` every printed line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';

export const REPO = join(import.meta.dirname, '..', '..');
/** The bundle `npm run loupe` runs; the integration and e2e tiers build it once (cli-bundle.setup.ts). */
export const CLI_BUNDLE = join(REPO, 'out', 'cli', 'loupe.cjs');

export interface ServeProcess {
  url: string;
  origin: string;
  token: string;
  /** The lead link (everything): the last printed line. */
  lead: { url: string; token: string };
  /** Every printed link, in order. */
  links: string[];
  child: ChildProcess;
  stderr: () => string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * `node` arguments for the CLI bundle itself (no wrapper process, so a signal sent to the child
 * reaches the CLI). Built by the tiers' globalSetup: a test run outside them says so.
 */
export function loupeArgs(args: string[]): string[] {
  if (!existsSync(CLI_BUNDLE)) {
    throw new Error(
      `${CLI_BUNDLE} is missing: run the test through \`npx vitest run --project integration|e2e\` (its globalSetup builds it) or \`npm run loupe -- --version\``,
    );
  }
  return [CLI_BUNDLE, ...args];
}

/** `npm run loupe` itself: the same bundle, rebuilt first when stale, for benchmarks run outside Vitest. */
export function builtLoupeArgs(args: string[]): string[] {
  return [join(REPO, 'scripts', 'loupe.mjs'), ...args];
}

export async function startServe(args: string[], env: Record<string, string> = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, loupeArgs(['serve', ...args]), {
    cwd: REPO,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errText = '';
  child.stderr!.on('data', (c: Buffer) => (errText += c.toString()));
  const lines = createInterface({ input: child.stdout! });
  const expected = args.filter((a) => a === '--annotator').length + 1;
  const printed = await new Promise<string[]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`loupe serve printed no URL in 120 s:\n${errText}`)), 120_000);
    const got: string[] = [];
    const onLine = (line: string) => {
      got.push(line.trim());
      if (got.length < expected) return;
      clearTimeout(timer);
      lines.off('line', onLine);
      resolve(got);
    };
    lines.on('line', onLine);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`loupe serve exited with ${code}:\n${errText}`));
    });
  });
  const url = printed[0]!;
  const parsed = new URL(url);
  const leadUrl = printed.at(-1)!;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url,
    origin: parsed.origin,
    token: parsed.searchParams.get('token') ?? '',
    lead: { url: leadUrl, token: new URL(leadUrl).searchParams.get('token') ?? '' },
    links: printed,
    child,
    stderr: () => errText,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** Calls the API as the page would (token header, own origin), with the first link's token unless `token` is given. */
export async function apiCall<T = unknown>(
  serve: ServeProcess,
  method: string,
  input: unknown,
  token = serve.token,
): Promise<T> {
  const res = await fetch(`${serve.origin}/api/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-loupe-token': token, origin: serve.origin },
    body: JSON.stringify(input),
  });
  const body = (await res.json()) as { ok: boolean; value?: T; error?: { message: string } };
  if (!body.ok) throw new Error(`${method}: ${body.error?.message}`);
  return body.value as T;
}
