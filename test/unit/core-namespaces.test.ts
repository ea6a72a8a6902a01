/**
 * "Method x.y lives in electron/core/x/": every contract method has its handler defined in the
 * folder of its namespace and nowhere else in the core, and the core composes them all.
 */
import Database from 'better-sqlite3';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_METHODS } from '../../shared/api';
import { createCore } from '../../electron/core/index';
import { tempDir } from '../helpers/tmp';

const CORE = join(process.cwd(), 'electron', 'core');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : /\.ts$/.test(name) ? [full] : [];
  });
}

/** Where each method is defined as a handler key (`'x.y': async …`). */
function definitions(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of sources(CORE)) {
    for (const match of readFileSync(file, 'utf8').matchAll(/^\s*'([a-z]+\.[A-Za-z]+)'\s*:\s*(async\b|\()/gm)) {
      const list = found.get(match[1]!) ?? [];
      list.push(relative(CORE, file).split(sep).join('/'));
      found.set(match[1]!, list);
    }
  }
  return found;
}

describe('one module per API namespace', () => {
  const defined = definitions();
  const dir = tempDir('loupe-namespaces-');

  it.each(API_METHODS)('%s is defined once, in the folder of its namespace', (method) => {
    const namespace = method.slice(0, method.indexOf('.'));
    const files = defined.get(method) ?? [];
    expect(files, `${method} has no handler in electron/core/${namespace}/`).toHaveLength(1);
    expect(files[0]!.startsWith(`${namespace}/`), `${method} is defined in ${files[0]}`).toBe(true);
  });

  it('the finder sees handler keys (so the rule above cannot pass on an empty scan)', () => {
    expect(defined.size).toBeGreaterThanOrEqual(API_METHODS.length);
    expect([...defined.keys()].filter((m) => !(API_METHODS as readonly string[]).includes(m))).toEqual([]);
  });

  it('the core composes a handler for every method of the contract', () => {
    const core = createCore({ Database, stateDir: dir, demoDir: dir, host: 'web', fileDialogs: false, diskPaths: false, canSwitchProjects: false });
    expect(Object.keys(core.handlers).sort()).toEqual([...API_METHODS].sort());
    core.close();
  });
});
