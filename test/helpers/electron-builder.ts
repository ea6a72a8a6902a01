/**
 * Packing build/electron-builder.yml for real, offline: electron-builder's `dir` target on Linux
 * with a stand-in Electron distribution (an executable named `electron` and a `version` file), in
 * a throw-away project folder that links this repository's node_modules.
 */
import { chmodSync, copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
const STAND_IN_ELECTRON_VERSION = '45.5.0';

/** build/electron-builder.yml as electron-builder reads it (loose: the tests pick fields and patch it). */
export type BuilderConfig = Record<string, any>;

export function loadBuilderConfig(): BuilderConfig {
  const yaml = require('js-yaml') as { load(text: string): unknown };
  return yaml.load(readFileSync(path.join(ROOT, 'build/electron-builder.yml'), 'utf8')) as BuilderConfig;
}

/** A stand-in Electron distribution in `dir`: `executable` as the `electron` binary, and its version. */
export function standInElectronDist(dir: string, executable: string | Buffer): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'electron'), executable);
  chmodSync(path.join(dir, 'electron'), 0o755);
  writeFileSync(path.join(dir, 'version'), STAND_IN_ELECTRON_VERSION);
  return dir;
}

/** A project folder to pack: this repository's package.json and lock file, its node_modules linked. */
export function scratchProject(dir: string): string {
  mkdirSync(dir, { recursive: true });
  for (const f of ['package.json', 'package-lock.json']) copyFileSync(path.join(ROOT, f), path.join(dir, f));
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

/** Packs `project` with `config` (copied, never changed) into `output`/linux-unpacked, with the stand-in Electron. */
export async function packLinuxDir(options: {
  project: string;
  electronDist: string;
  output: string;
  config: BuilderConfig;
}): Promise<void> {
  const packConfig = structuredClone(options.config);
  packConfig.directories = {
    ...packConfig.directories,
    output: options.output,
    buildResources: path.join(ROOT, 'build'),
  };
  packConfig.electronDist = options.electronDist;
  packConfig.electronVersion = STAND_IN_ELECTRON_VERSION;
  packConfig.publish = null;
  const builder = require('electron-builder') as {
    build(o: { projectDir: string; linux: string[]; config: unknown; publish: string }): Promise<string[]>;
  };
  await builder.build({ projectDir: options.project, linux: ['dir'], config: packConfig, publish: 'never' });
}
