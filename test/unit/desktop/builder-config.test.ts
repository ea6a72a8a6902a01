/**
 * build/electron-builder.yml, checked offline: electron-builder's own validation (its JSON schema
 * through `validateConfiguration`, the function `electron-builder` runs before packing), then
 * what Loupe needs from it: the three platforms, native modules outside the asar, no rebuild,
 * the Node-only driver left out, and the demo data shipped as a resource. The real pack is in
 * test/integration/electron-builder-pack.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../../..');
const require = createRequire(import.meta.url);
const yaml = require('js-yaml') as { load(text: string): unknown };

const config = yaml.load(readFileSync(path.join(ROOT, 'build/electron-builder.yml'), 'utf8')) as Record<string, any>;

/** electron-builder's own validator (app-builder-lib 26): throws on any schema violation. */
async function validate(cfg: unknown): Promise<void> {
  const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
    validateConfiguration(c: unknown, debugLogger: { isEnabled: boolean; add(): void }): Promise<void>;
  };
  // A copy: its ajv instance coerces types in place.
  await validateConfiguration(structuredClone(cfg), { isEnabled: false, add: () => {} });
}

function targets(platform: unknown): string[] {
  const t = (platform as { target?: unknown }).target;
  const list = Array.isArray(t) ? t : [t];
  return list.map((x) => (typeof x === 'string' ? x : (x as { target: string }).target));
}

describe('electron-builder config', () => {
  it("passes electron-builder's own schema validation", async () => {
    await expect(validate(config)).resolves.toBeUndefined();
  });

  it('the validator does reject a broken config (the check is live)', async () => {
    await expect(validate({ ...config, notAnOption: true })).rejects.toThrow(/notAnOption/);
    await expect(validate({ ...config, npmRebuild: 'maybe' })).rejects.toThrow(/npmRebuild/);
    await expect(validate({ ...config, linux: { ...config.linux, bogus: 1 } })).rejects.toThrow(/linux/);
  });

  it('identifies the app and writes to dist/', () => {
    expect(config.appId).toBe('org.loupe.app');
    expect(config.productName).toBe('Loupe');
    expect(config.directories.output).toBe('dist');
    expect(config.directories.buildResources).toBe('build');
  });

  it('builds AppImage + deb on Linux, dmg on macOS, NSIS on Windows', () => {
    expect(targets(config.linux).sort()).toEqual(['AppImage', 'deb']);
    expect(config.linux.category).toBe('Science');
    expect(config.linux.maintainer).toMatch(/<[^>]+@[^>]+>/);
    expect(targets(config.mac)).toEqual(['dmg']);
    expect(['public.app-category.education', 'public.app-category.developer-tools']).toContain(config.mac.category);
    expect(targets(config.win)).toEqual(['nsis']);
  });

  it('ships the bundles and package.json, unpacks native modules, and never rebuilds them', () => {
    expect(config.files).toEqual(expect.arrayContaining(['out/**', 'package.json']));
    expect(config.asar).not.toBe(false);
    expect(config.asarUnpack).toContain('**/*.node');
    expect(config.npmRebuild).toBe(false);
    expect(config.nodeGypRebuild).not.toBe(true);
    expect(config.buildDependenciesFromSource).not.toBe(true);
  });

  it('ships only better-sqlite3-napi from node_modules (everything else is bundled), never better-sqlite3 12', () => {
    const files: string[] = config.files;
    expect(files.indexOf('!node_modules/**')).toBeGreaterThan(-1);
    expect(files).toContain('!node_modules/better-sqlite3/**');
    const included = files.filter((f) => !f.startsWith('!') && f.startsWith('node_modules/'));
    expect(included.length).toBeGreaterThan(0);
    for (const pattern of included) {
      expect(pattern.startsWith('node_modules/better-sqlite3-napi/')).toBe(true);
      expect(files.indexOf(pattern)).toBeGreaterThan(files.indexOf('!node_modules/**')); // later patterns win
    }
    expect(included).toEqual(
      expect.arrayContaining([
        'node_modules/better-sqlite3-napi/lib/**',
        'node_modules/better-sqlite3-napi/prebuilds/**',
      ]),
    );
    expect(files).toContain('!out/**/*.map');

    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.dependencies['better-sqlite3-napi']).toMatch(/^npm:better-sqlite3@13\./);
    expect(pkg.main).toBe('out/main/main.cjs');
    expect(existsSync(path.join(ROOT, 'node_modules/better-sqlite3-napi/prebuilds/linux-x64.node'))).toBe(true);
  });

  it("each platform drops only the other platforms' prebuilt SQLite binaries", () => {
    const own: Record<string, RegExp> = { linux: /\blinux\b/, mac: /\bdarwin\b/, win: /\bwin32\b/ };
    for (const [platform, ownName] of Object.entries(own)) {
      const files: string[] = config[platform].files;
      // A list of exclusions only would make electron-builder prepend "**/*" (the whole repository).
      expect(files.some((f) => !f.startsWith('!'))).toBe(true);
      const excluded = files.filter((f) => f.startsWith('!'));
      expect(excluded.length).toBeGreaterThan(0);
      for (const pattern of excluded) {
        expect(pattern).toMatch(/^!node_modules\/better-sqlite3-napi\/prebuilds\/\{[a-z0-9,]+\}-\*\.node$/);
        expect(pattern).not.toMatch(ownName);
      }
    }
  });

  it('ships the demo data as an extra resource at resources/demo', () => {
    expect(config.extraResources).toEqual(
      expect.arrayContaining([expect.objectContaining({ from: 'demo', to: 'demo' })]),
    );
  });

  it('flips the fuses that turn the app into a general-purpose Node runtime or let it load unchecked code', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      // app.asar is checked against the hash electron-builder embeds (macOS, Windows), and the
      // UI is served from app://loupe/, so file:// pages need no extra privileges.
      enableEmbeddedAsarIntegrityValidation: true,
      grantFileProtocolExtraPrivileges: false,
    });
    // The integrity fuse needs the hash: electron-builder embeds it unless told not to.
    expect(config.disableAsarIntegrity).not.toBe(true);
    expect(config.asar).not.toBe(false);
    // Applied by electron-builder itself (test/integration/electron-builder-config-fuses.test.ts packs and reads them).
  });

  it('has an icon of at least 512×512 in build/', () => {
    const png = readFileSync(path.join(ROOT, 'build/icon.png'));
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(png.readUInt32BE(16)).toBeGreaterThanOrEqual(512);
    expect(png.readUInt32BE(20)).toBeGreaterThanOrEqual(512);
  });

  it('associates .loupe files with the app', () => {
    expect(config.fileAssociations).toEqual([expect.objectContaining({ ext: 'loupe' })]);
  });
});
