/**
 * The layers, checked on every source file of every layer folder: shared/ is pure (no Node, no
 * db/, hosts or UI), db/ imports only shared/, the core never imports `electron`, React or a host,
 * hosts use the core only through electron/core/index.ts, and the renderer talks only to the typed
 * api. And no import cycle anywhere in the source (type-only imports included). Each rule is first
 * shown to catch a forbidden import in a synthetic source, so the check over the real tree cannot
 * pass by finding nothing.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOST_FOLDERS, importCycles, importGraph, importSites, resolveImport, violations } from '../../helpers/layers';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const LAYER_FOLDERS = ['shared', 'db', 'electron/core', ...HOST_FOLDERS, 'renderer'];

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sourcesUnder(full);
    return /\.(ts|tsx|mts|cts|mjs|cjs|js)$/.test(name) ? [full] : [];
  });
}

const repoPath = (full: string) => relative(ROOT, full).split(sep).join('/');
const rules = (file: string, source: string) => violations(file, source).map((v) => v.rule);

describe('the import parser', () => {
  it('finds every way a file can load a module, with its line', () => {
    const source = [
      "import a from 'static-default';",
      "import type { B } from 'type-only';",
      "export { c } from 're-export';",
      "export * from 'star-export';",
      "import 'side-effect';",
      "type D = typeof import('import-type');",
      "const e = await import('dynamic');",
      "const f = require('required');",
      "const g = require.resolve('resolved');",
      "const h = createRequire(import.meta.url)('created');",
      "vi.mock('mocked', () => ({}));",
      "vi.doMock('do-mocked');",
      'const i = await vi.importActual(`actual`);',
      "import j = require('import-equals');",
      'const skipped = require(someVariable);',
    ].join('\n');
    expect(importSites('electron/core/x.ts', source)).toEqual([
      { specifier: 'static-default', line: 1 },
      { specifier: 'type-only', line: 2 },
      { specifier: 're-export', line: 3 },
      { specifier: 'star-export', line: 4 },
      { specifier: 'side-effect', line: 5 },
      { specifier: 'import-type', line: 6 },
      { specifier: 'dynamic', line: 7 },
      { specifier: 'required', line: 8 },
      { specifier: 'resolved', line: 9 },
      { specifier: 'created', line: 10 },
      { specifier: 'mocked', line: 11 },
      { specifier: 'do-mocked', line: 12 },
      { specifier: 'actual', line: 13 },
      { specifier: 'import-equals', line: 14 },
    ]);
  });

  it('reads .tsx and plain JavaScript too', () => {
    expect(
      importSites('renderer/X.tsx', "import { x } from 'node:fs';\nexport const Y = () => <div>{x}</div>;"),
    ).toEqual([{ specifier: 'node:fs', line: 1 }]);
    expect(importSites('electron/worker/w.mjs', "import { register } from 'tsx/esm/api';")).toEqual([
      { specifier: 'tsx/esm/api', line: 1 },
    ]);
  });
});

describe('each rule catches what it forbids (synthetic sources)', () => {
  it('shared/: no Node builtins, no db/, electron/ or renderer/ paths, no electron, React, SQLite or OpenAI', () => {
    expect(rules('shared/x.ts', "import { readFileSync } from 'node:fs';")).toEqual([
      'shared/ is pure: no Node builtins',
    ]);
    expect(rules('shared/x.ts', "import path from 'path';")).toEqual(['shared/ is pure: no Node builtins']);
    expect(rules('shared/a/x.ts', "import type { Repository } from '../../db/repository';")).toEqual([
      'shared/ imports only shared/',
    ]);
    expect(rules('shared/x.ts', "export { createCore } from '../electron/core/index';")).toEqual([
      'shared/ imports only shared/',
    ]);
    expect(rules('shared/x.ts', "const app = await import('../renderer/App');")).toEqual([
      'shared/ imports only shared/',
    ]);
    for (const pkg of ['electron', 'react', 'react-dom/client', 'better-sqlite3', 'openai']) {
      expect(rules('shared/x.ts', `import x from '${pkg}';`), pkg).toHaveLength(1);
    }
    expect(rules('shared/a/x.ts', "import { z } from 'zod';\nimport { API } from '../api';")).toEqual([]);
  });

  it('db/: only db/ and shared/ paths, no electron or React', () => {
    expect(rules('db/x.ts', "import { createCore } from '../electron/core/index';")).toEqual([
      'db/ imports only db/ and shared/',
    ]);
    expect(rules('db/x.ts', "import { App } from '../renderer/App';")).toEqual(['db/ imports only db/ and shared/']);
    expect(rules('db/x.ts', "const { app } = require('electron');")).toEqual(['db/ never imports electron']);
    expect(rules('db/x.ts', "import { useState } from 'react';")).toEqual(['db/ never imports react']);
    expect(
      rules(
        'db/migrations/x.ts',
        "import { join } from 'node:path';\nimport type { Database } from 'better-sqlite3';\nimport { API } from '../../shared/api';\nimport { open } from '../open';",
      ),
    ).toEqual([]);
  });

  it('electron/core/: never `electron`, React or a host folder', () => {
    expect(rules('electron/core/judges/x.ts', "import { safeStorage } from 'electron';")).toEqual([
      'the core never imports electron',
    ]);
    expect(rules('electron/core/x.ts', "import React from 'react';")).toEqual(['the core never imports react']);
    for (const host of HOST_FOLDERS) {
      expect(
        rules('electron/core/a/x.ts', `import { x } from '../../${host.slice('electron/'.length)}/x';`),
        host,
      ).toEqual(['the core never imports a host']);
    }
    expect(
      rules(
        'electron/core/a/x.ts',
        "import { y } from '../b/y';\nimport { API } from '../../../shared/api';\nimport OpenAI from 'openai';",
      ),
    ).toEqual([]);
  });

  it('hosts: the core through electron/core/index.ts only; no renderer; no other host unless allowed', () => {
    expect(rules('electron/main/x.ts', "import { dispatch } from '../core/dispatch';")).toEqual([
      'hosts use the core through electron/core/index.ts only',
    ]);
    expect(rules('electron/serve/x.ts', "vi.mock('../core/judges/secrets');")).toEqual([
      'hosts use the core through electron/core/index.ts only',
    ]);
    expect(rules('electron/worker/x.ts', "const service = await import('../core/analysis/service');")).toEqual([
      'hosts use the core through electron/core/index.ts only',
    ]);
    // The one allowed deep import (CORE_DEEP_IMPORTS_ALLOWED), and only from the worker.
    expect(rules('electron/worker/x.ts', "import { runAnalysisJob } from '../core/analysis/job';")).toEqual([]);
    expect(rules('electron/serve/x.ts', "import { runAnalysisJob } from '../core/analysis/job';")).toEqual([
      'hosts use the core through electron/core/index.ts only',
    ]);
    expect(rules('electron/main/x.ts', "import { App } from '../../renderer/App';")).toEqual([
      'hosts never import the renderer',
    ]);
    expect(rules('electron/serve/x.ts', "import { run } from '../cli/loupe';")).toEqual([
      'electron/serve never imports electron/cli',
    ]);
    expect(rules('electron/main/x.ts', "import { startServer } from '../serve/server';")).toEqual([
      'electron/main never imports electron/serve',
    ]);
    expect(rules('electron/cli/x.ts', "import { startServer } from '../serve/server';")).toEqual([]);
    expect(
      rules(
        'electron/main/x.ts',
        "import { createCore } from '../core/index';\nimport { dispatch } from '../core';\nimport { API } from '../../shared/api';\nimport { app } from 'electron';",
      ),
    ).toEqual([]);
  });

  it('renderer/: no Node, Electron, SQLite, OpenAI, db/ or electron/ paths', () => {
    expect(rules('renderer/x.ts', "import { readFileSync } from 'fs';")).toEqual(['the renderer never imports Node']);
    expect(rules('renderer/x.tsx', "import { ipcRenderer } from 'electron';")).toEqual([
      'the renderer never imports electron',
    ]);
    expect(rules('renderer/x.ts', "import OpenAI from 'openai';")).toEqual(['the renderer never imports openai']);
    expect(rules('renderer/x.ts', "import Database from 'better-sqlite3';")).toEqual([
      'the renderer never imports better-sqlite3',
    ]);
    expect(rules('renderer/a/x.ts', "import { Repository } from '../../db/repository';")).toEqual([
      'the renderer talks to the typed api only (no db/, no electron/)',
    ]);
    expect(rules('renderer/x.ts', "import { dispatch } from '../electron/core/index';")).toEqual([
      'the renderer talks to the typed api only (no db/, no electron/)',
    ]);
    expect(
      rules(
        'renderer/a/x.tsx',
        "import { useState } from 'react';\nimport type { ApiMethod } from '../../shared/api';",
      ),
    ).toEqual([]);
  });
});

describe('the source tree', () => {
  const files = LAYER_FOLDERS.flatMap((folder) => sourcesUnder(join(ROOT, folder))).map(repoPath);

  it('has files in every layer folder (the check below covers something)', () => {
    for (const folder of LAYER_FOLDERS)
      expect(
        files.some((f) => f.startsWith(`${folder}/`)),
        folder,
      ).toBe(true);
  });

  it.each(LAYER_FOLDERS)('%s/ breaks no layer rule', (folder) => {
    const broken = files
      .filter((file) => file.startsWith(`${folder}/`))
      .flatMap((file) => violations(file, readFileSync(join(ROOT, file), 'utf8')))
      .map((v) => `${v.file}:${v.line} imports '${v.specifier}': ${v.rule}`);
    expect(broken).toEqual([]);
  });
});

describe('import cycles', () => {
  const graphOf = (files: Record<string, string>) => importGraph(new Map(Object.entries(files)));

  it('resolves what a relative specifier loads, and nothing else', () => {
    const files = new Set(['shared/a.ts', 'shared/b/index.ts', 'renderer/C.tsx', 'electron/x.ts']);
    const isFile = (path: string) => files.has(path);
    expect(resolveImport('shared/z.ts', './a', isFile)).toBe('shared/a.ts');
    expect(resolveImport('shared/z.ts', './b', isFile)).toBe('shared/b/index.ts');
    expect(resolveImport('renderer/v/Z.tsx', '../C', isFile)).toBe('renderer/C.tsx');
    expect(resolveImport('electron/y.ts', './x.js', isFile)).toBe('electron/x.ts');
    expect(resolveImport('shared/z.ts', 'zod', isFile)).toBeNull();
    expect(resolveImport('shared/z.ts', 'node:fs', isFile)).toBeNull();
    expect(resolveImport('shared/z.ts', './missing', isFile)).toBeNull();
  });

  it('rejects a synthetic cycle, also one closed by a type-only import, and a file importing itself', () => {
    const cycle = graphOf({
      'shared/a.ts': "import { b } from './b';",
      'shared/b.ts': "import type { C } from './c';\nexport const b = 1;",
      'shared/c.ts': "export type C = typeof import('./a');",
      'shared/free.ts': "import { b } from './b';",
    });
    expect(importCycles(cycle)).toEqual([['shared/a.ts', 'shared/b.ts', 'shared/c.ts', 'shared/a.ts']]);
    expect(importCycles(graphOf({ 'db/self.ts': "export { x } from './self';" }))).toEqual([
      ['db/self.ts', 'db/self.ts'],
    ]);
    const twoCycles = importCycles(
      graphOf({
        'x/a.ts': "import './b';",
        'x/b.ts': "import './a';",
        'y/c.ts': "import '../x/a';\nimport './d';",
        'y/d.ts': "import './c';",
      }),
    );
    expect(twoCycles).toHaveLength(2);
  });

  it('accepts a tree whose imports only point one way (the rule cannot fail on everything)', () => {
    expect(
      importCycles(
        graphOf({
          'shared/a.ts': "import { b } from './b';\nimport type { C } from './c';",
          'shared/b.ts': "import type { C } from './c';",
          'shared/c.ts': 'export type C = 1;',
        }),
      ),
    ).toEqual([]);
  });

  it('finds no cycle in the source tree (every source folder, type-only imports included)', () => {
    const folders = ['shared', 'db', 'electron', 'renderer', 'scripts', 'test'];
    const sources = new Map(
      folders
        .flatMap((folder) => sourcesUnder(join(ROOT, folder)))
        .map((full) => [repoPath(full), readFileSync(full, 'utf8')] as const),
    );
    const graph = importGraph(sources);
    // The graph is the real one: most files import another file of the tree.
    expect([...graph.values()].filter((targets) => targets.length > 0).length).toBeGreaterThan(sources.size / 2);
    expect(importCycles(graph).map((path) => path.join(' → '))).toEqual([]);
  });
});
