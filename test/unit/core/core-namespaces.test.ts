/**
 * "Method x.y lives in electron/core/x/ and has its schemas in shared/contract/x.ts": every
 * contract method has its handler defined in the folder of its namespace and nowhere else in the
 * core, the core composes them all, and each namespace's methods are declared by its own contract
 * module (its `<NAMESPACE>_API`), which shared/api.ts only composes.
 */
import Database from 'better-sqlite3';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API, API_METHODS } from '../../../shared/api';
import { createCore } from '../../../electron/core/index';
import { tempDir } from '../../helpers/tmp';

const CORE = join(process.cwd(), 'electron', 'core');
const CONTRACT = join(process.cwd(), 'shared', 'contract');

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
    const core = createCore({
      Database,
      stateDir: dir,
      demoDir: dir,
      host: 'web',
      fileDialogs: false,
      diskPaths: false,
      canSwitchProjects: false,
    });
    expect(Object.keys(core.handlers).sort()).toEqual([...API_METHODS].sort());
    core.close();
  });
});

describe('one contract module per API namespace', async () => {
  const modules = await Promise.all(
    readdirSync(CONTRACT)
      .filter((name) => name.endsWith('.ts'))
      .map(async (name) => ({ file: name, exports: (await import(join(CONTRACT, name))) as Record<string, unknown> })),
  );
  /** Each `<NAMESPACE>_API` export: the module it is in and the methods it declares. */
  const declared = modules.flatMap(({ file, exports }) =>
    Object.entries(exports)
      .filter(([name, value]) => name.endsWith('_API') && typeof value === 'object' && value !== null)
      .map(([name, value]) => ({ file, name, methods: Object.keys(value as object) })),
  );

  it.each(API_METHODS)(
    "%s is declared in shared/contract/<its namespace>.ts, by its namespace's table, and only there",
    (method) => {
      const namespace = method.slice(0, method.indexOf('.'));
      const homes = declared.filter((d) => d.methods.includes(method));
      expect(homes.map((h) => h.file)).toEqual([`${namespace}.ts`]);
      expect(homes[0]!.name).toBe(`${namespace.toUpperCase()}_API`);
      // api.ts composes exactly that table's entry (same schemas, not a copy).
      const table = modules.find((m) => m.file === `${namespace}.ts`)!.exports[homes[0]!.name] as Record<
        string,
        unknown
      >;
      expect(API[method]).toBe(table[method]);
    },
  );

  it('every table is a namespace of the contract, and declares nothing else (the scan cannot pass on an empty tree)', () => {
    expect(declared.length).toBeGreaterThanOrEqual(15);
    for (const d of declared)
      for (const m of d.methods) expect(API_METHODS as readonly string[], `${d.file} declares ${m}`).toContain(m);
    expect(declared.flatMap((d) => d.methods).sort()).toEqual([...API_METHODS].sort());
  });
});
