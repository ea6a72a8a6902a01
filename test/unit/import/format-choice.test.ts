/**
 * A file whose format cannot be detected: the core states the rule once (name the format, one of
 * the kinds) and each host words how its user names it. The app (desktop, and `loupe serve`'s
 * page) has a Format menu; only a CLI command says "Pass --as KIND". Checked through each host's
 * own core wiring and `imports.start` → `jobs.get`, as the hosts call it.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCore } from '../../../electron/cli/client';
import type { Core } from '../../../electron/core/index';
import { call, desktopCore } from '../../helpers/desktop-core';
import { tempDir } from '../../helpers/tmp';

const dir = tempDir();
const previousStateDir = process.env.LOUPE_STATE_DIR;
beforeAll(() => {
  process.env.LOUPE_STATE_DIR = dir;
});
afterAll(() => {
  if (previousStateDir === undefined) delete process.env.LOUPE_STATE_DIR;
  else process.env.LOUPE_STATE_DIR = previousStateDir;
});

interface JobView {
  state: string;
  error: { message: string; problems: Array<{ found?: string }> } | null;
}

/** Uploads `text` as notes.txt (no known format) and returns the failed job's error. */
async function undetected(core: Core, project: string): Promise<NonNullable<JobView['error']>> {
  core.createProject(join(dir, project));
  const base64 = Buffer.from('just some words, no format at all\n').toString('base64');
  const { jobId } = await call<{ jobId: string }>(core, 'imports.start', {
    source: { type: 'upload', name: 'notes.txt', base64 },
  });
  let job = await call<JobView>(core, 'jobs.get', { jobId });
  while (job.state === 'running') {
    await new Promise((resolve) => setImmediate(resolve));
    job = await call<JobView>(core, 'jobs.get', { jobId });
  }
  core.close();
  expect(job.state).toBe('failed');
  return job.error!;
}

describe('the words for naming an undetected format', () => {
  it('the desktop app points at its Format menu, never at a command-line option', async () => {
    const error = await undetected(desktopCore(join(dir, 'desktop'), null), 'desktop.loupe');
    expect(error.message).toContain('Cannot tell which format notes.txt is. Choose it in the Format menu.');
    expect(error.problems[0]!.found).toBe('no known format; choose it in the Format menu to see what does not fit');
    expect(JSON.stringify(error)).not.toMatch(/--as/);
  });

  it('`loupe serve` (a browser page with the same Import panel) says the same', async () => {
    const error = await undetected(makeCore({ web: true }), 'serve.loupe');
    expect(error.message).toContain('Choose it in the Format menu.');
    expect(JSON.stringify(error)).not.toMatch(/--as/);
  });

  it('a CLI command says "Pass --as KIND"', async () => {
    const error = await undetected(makeCore({ web: false }), 'cli.loupe');
    expect(error.message).toContain('Cannot tell which format notes.txt is. Pass --as KIND.');
    expect(error.problems[0]!.found).toBe('no known format; pass --as KIND to see what does not fit');
    expect(error.message).not.toContain('Format menu');
  });
});
