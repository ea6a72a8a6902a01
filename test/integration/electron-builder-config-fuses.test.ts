/**
 * The fuses of build/electron-builder.yml are applied when packing, not only written down:
 * electron-builder (26) flips `electronFuses` with @electron/fuses after packing. The Electron
 * binary cannot be downloaded here, so the pack uses a stand-in executable that carries a fuse
 * wire (the sentinel @electron/fuses looks for, version 1, eight fuses in Electron's default
 * states); the test reads the wire of the packed binary back.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBuilderConfig, packLinuxDir, scratchProject, standInElectronDist } from '../helpers/electron-builder';

const require = createRequire(import.meta.url);
const fuses = require('@electron/fuses') as {
  FuseV1Options: Record<string, number>;
  getCurrentFuseWire(binary: string): Promise<Record<string, number | string>>;
};

const config = loadBuilderConfig();

const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const ENABLE = 0x31;
const DISABLE = 0x30;
/** Electron's shipped defaults: RunAsNode, CookieEncryption, NodeOptions, NodeCliInspect, AsarIntegrity, OnlyLoadAppFromAsar, V8Snapshot, GrantFileProtocolExtraPrivileges. */
const DEFAULT_WIRE = [ENABLE, DISABLE, ENABLE, ENABLE, DISABLE, DISABLE, DISABLE, ENABLE];

/** What the packaged binary must say, fuse by fuse (FuseV1Options name → state). */
const EXPECTED: Record<string, number> = {
  RunAsNode: DISABLE,
  EnableCookieEncryption: ENABLE,
  EnableNodeOptionsEnvironmentVariable: DISABLE,
  EnableNodeCliInspectArguments: DISABLE,
  EnableEmbeddedAsarIntegrityValidation: ENABLE,
  OnlyLoadAppFromAsar: ENABLE,
  GrantFileProtocolExtraPrivileges: DISABLE,
};

describe('electron-builder fuses (offline pack, linux dir target, stand-in binary with a fuse wire)', () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'loupe-fuses-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('the config asks for every hardening fuse', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it.skipIf(process.platform !== 'linux')(
    'flips them in the packed executable',
    async () => {
      const project = path.join(tmp, 'project');
      const electronDist = path.join(tmp, 'electron-dist');
      scratchProject(project);
      mkdirSync(path.join(project, 'out', 'main'), { recursive: true });
      mkdirSync(path.join(project, 'out', 'renderer'), { recursive: true });
      mkdirSync(path.join(project, 'demo'), { recursive: true });
      const wire = Buffer.concat([
        Buffer.from('#!/bin/sh\n# stand-in Electron\n', 'latin1'),
        Buffer.from(SENTINEL, 'latin1'),
        Buffer.from([1, DEFAULT_WIRE.length, ...DEFAULT_WIRE]),
        Buffer.from('\n', 'latin1'),
      ]);
      standInElectronDist(electronDist, wire);
      // Stand-in bundles: this test is about the executable, not the app's code.
      writeFileSync(path.join(project, 'out', 'main', 'main.cjs'), "'use strict';\n");
      writeFileSync(path.join(project, 'out', 'renderer', 'index.html'), '<!doctype html>');
      writeFileSync(path.join(project, 'demo', 'README'), 'demo');

      await packLinuxDir({ project, electronDist, output: path.join(tmp, 'dist'), config });

      const binary = path.join(tmp, 'dist', 'linux-unpacked', config.linux.executableName as string);
      const current = await fuses.getCurrentFuseWire(binary);
      const named = Object.fromEntries(
        Object.entries(EXPECTED).map(([name]) => [name, current[fuses.FuseV1Options[name]!]]),
      );
      expect(named).toEqual(EXPECTED);
      // Not configured, so left as shipped.
      expect(current[fuses.FuseV1Options.LoadBrowserProcessSpecificV8Snapshot!]).toBe(DISABLE);
    },
    180_000,
  );
});
