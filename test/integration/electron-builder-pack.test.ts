/**
 * build/electron-builder.yml packed for real (offline): split from
 * test/unit/desktop/builder-config.test.ts, since it builds the bundles and runs electron-builder.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  loadBuilderConfig,
  packLinuxDir,
  ROOT,
  scratchProject,
  standInElectronDist,
} from '../helpers/electron-builder';

const require = createRequire(import.meta.url);
const config = loadBuilderConfig();

/** A real (offline) electron-builder run (test/helpers/electron-builder.ts): what actually lands in app.asar. */
describe('electron-builder pack (offline, linux dir target)', () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'loupe-pack-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it.skipIf(process.platform !== 'linux')(
    'puts only the bundles, package.json and the N-API driver in the app; demo beside it',
    async () => {
      const project = path.join(tmp, 'project');
      const electronDist = path.join(tmp, 'electron-dist');
      scratchProject(project);
      mkdirSync(path.join(project, 'demo', 'frank'), { recursive: true });
      mkdirSync(path.join(project, 'out', 'renderer'), { recursive: true });
      standInElectronDist(electronDist, '#!/bin/sh\n');
      writeFileSync(path.join(project, 'demo', 'frank', 'sample.json'), '[]');
      writeFileSync(path.join(project, 'out', 'renderer', 'index.html'), '<!doctype html>');
      writeFileSync(path.join(project, 'stray.ts'), 'export {};');
      const { buildElectron } = (await import(path.join(ROOT, 'scripts/build-electron.mjs'))) as {
        buildElectron(o: { outDir: string; logLevel?: string }): Promise<unknown>;
      };
      await buildElectron({ outDir: path.join(project, 'out'), logLevel: 'error' });

      const withoutFuses = structuredClone(config);
      delete withoutFuses.electronFuses; // the stand-in binary has no fuse wire to flip
      await packLinuxDir({ project, electronDist, output: path.join(tmp, 'dist'), config: withoutFuses });

      const resources = path.join(tmp, 'dist', 'linux-unpacked', 'resources');
      const asar = require('@electron/asar') as {
        listPackage(p: string): string[];
        extractFile(a: string, f: string): Buffer;
      };
      const files = asar.listPackage(path.join(resources, 'app.asar')).map((f) => f.split(path.sep).join('/'));
      expect(files).toEqual(
        expect.arrayContaining([
          '/package.json',
          '/out/main/main.cjs',
          '/out/preload/preload.cjs',
          '/out/renderer/index.html',
        ]),
      );
      expect(files.filter((f) => f.endsWith('.map') || f.endsWith('.ts'))).toEqual([]);
      const packages = new Set(files.filter((f) => f.startsWith('/node_modules/')).map((f) => f.split('/')[2]));
      expect([...packages]).toEqual(['better-sqlite3-napi']);
      expect(files.filter((f) => /better-sqlite3-napi\/(deps|src)\//.test(f))).toEqual([]);

      const pkg = JSON.parse(asar.extractFile(path.join(resources, 'app.asar'), 'package.json').toString('utf8'));
      expect(pkg.main).toBe('out/main/main.cjs');

      const unpacked = path.join(resources, 'app.asar.unpacked', 'node_modules', 'better-sqlite3-napi', 'prebuilds');
      expect(existsSync(path.join(unpacked, 'linux-x64.node'))).toBe(true);
      expect(existsSync(path.join(unpacked, 'darwin-arm64.node'))).toBe(false);
      expect(existsSync(path.join(unpacked, 'win32-x64.node'))).toBe(false);
      expect(existsSync(path.join(resources, 'demo', 'frank', 'sample.json'))).toBe(true);
    },
    180_000,
  );
});
