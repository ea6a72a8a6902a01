/**
 * The desktop app end to end, driven by Playwright's Electron support: launch (the page is
 * app://loupe/, and a made-up disk path is refused), open the demo project, annotate one unit
 * with F, and check the label reached the project file.
 *
 * The Electron binary is located through node_modules/electron/path.txt WITHOUT requiring the
 * `electron` package (that would try to download it). No binary, or no display on Linux: the
 * test is skipped and says why.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');

function findElectron(): { binary: string | null; reason: string } {
  const dir = path.join(ROOT, 'node_modules', 'electron');
  const pathTxt = path.join(dir, 'path.txt');
  if (!existsSync(pathTxt)) {
    return {
      binary: null,
      reason: `no Electron binary at ${path.join(dir, 'dist')} (${pathTxt} is missing: the binary was never downloaded)`,
    };
  }
  const binary = path.join(dir, 'dist', readFileSync(pathTxt, 'utf8').trim());
  if (!existsSync(binary)) return { binary: null, reason: `no Electron binary at ${binary}` };
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { binary: null, reason: 'no display (DISPLAY is unset): run the tests under `xvfb-run -a`' };
  }
  return { binary, reason: '' };
}

const { binary, reason } = findElectron();
if (!binary) console.log(`electron-app: skipped: ${reason}`);

describe('desktop app (Electron)', () => {
  const cleanup: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const fn of cleanup.reverse()) await fn();
  });

  it.skipIf(!binary)(
    'opens the demo project, labels a unit with F, and stores the label',
    async () => {
      // Fresh bundles of main + preload; the renderer is built only if missing (vite, slower).
      const { buildElectron } = (await import(path.join(ROOT, 'scripts/build-electron.mjs'))) as {
        buildElectron(o?: { logLevel?: string }): Promise<unknown>;
      };
      await buildElectron({ logLevel: 'error' });
      if (!existsSync(path.join(ROOT, 'out/renderer/index.html'))) {
        const vite = await import('vite');
        await vite.build({ configFile: path.join(ROOT, 'vite.config.ts'), logLevel: 'warn' });
      }

      const stateDir = mkdtempSync(path.join(os.tmpdir(), 'loupe-e2e-electron-'));
      cleanup.push(() => rmSync(stateDir, { recursive: true, force: true }));

      const { _electron } = await import('playwright-core');
      const env: Record<string, string> = {};
      for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
      delete env.ELECTRON_RENDERER_URL;
      delete env.ELECTRON_RUN_AS_NODE;
      env.LOUPE_USER_DATA = stateDir;
      const app = await _electron.launch({
        executablePath: binary!,
        // Chromium refuses to start as root with its OS sandbox; the renderer stays JS-sandboxed.
        args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), ROOT],
        env,
        timeout: 60_000,
      });
      cleanup.push(() => app.close().catch(() => {}));

      const page = await app.firstWindow();
      await page.getByTestId('start').waitFor({ timeout: 30_000 });

      // The page is isolated: no Node, only the bridge.
      const surface = await page.evaluate(() => ({
        require: typeof (globalThis as { require?: unknown }).require,
        process: typeof (globalThis as { process?: unknown }).process,
        loupe: Object.keys((window as unknown as { loupe: object }).loupe).sort(),
      }));
      expect(surface).toEqual({
        require: 'undefined',
        process: 'undefined',
        loupe: ['call', 'host', 'onMenu', 'pathForFile'],
      });
      // Served from the app's own scheme, and a disk path the page made up is refused.
      expect(page.url()).toMatch(/^app:\/\/loupe\//);
      const madeUp = await page.evaluate(() =>
        (window as unknown as { loupe: { call(m: string, i: unknown): Promise<unknown> } }).loupe
          .call('projects.open', { path: '/etc/passwd' })
          .then(
            () => 'opened',
            (e: { code?: string }) => e.code ?? 'no code',
          ),
      );
      expect(madeUp).toBe('forbidden');

      await page.getByTestId('open-demo').click();
      // Only Annotate asks who is annotating: the project opens without a name.
      const picker = page.getByTestId('annotator-picker');
      const nav = page.getByTestId('nav-annotate');
      await nav.waitFor({ timeout: 60_000 });
      await nav.click();
      const current = page.getByTestId('unit-current');
      await picker.or(current).first().waitFor({ timeout: 30_000 });
      if (await picker.isVisible()) {
        await page.getByTestId('annotator-name').fill('e2e');
        await page.getByTestId('annotator-submit').click();
      }
      await current.waitFor({ timeout: 30_000 });

      const annotator = (await page.getByTestId('annotator').getAttribute('data-annotator')) ?? '';
      const unitsDone = () =>
        page.evaluate(
          (name) =>
            (
              window as unknown as {
                loupe: { call(m: string, i: unknown): Promise<{ progress: { unitsDone: number } }> };
              }
            ).loupe
              .call('annotation.queue', { annotator: name })
              .then((q) => q.progress.unitsDone),
          annotator.trim(),
        );
      const before = await unitsDone();
      await page.keyboard.press('f');
      await expect.poll(unitsDone, { timeout: 10_000 }).toBe(before + 1);

      // The label is in the demo project on disk, not only in the window: read the file with the
      // Node driver after the app has quit.
      await app.close();
      const { default: Database } = await import('better-sqlite3');
      const db = new Database(path.join(stateDir, 'demo.loupe'), { readonly: true });
      try {
        const row = db
          .prepare(
            `SELECT e.label FROM label_events e JOIN annotators a ON a.id = e.annotator_id
             WHERE a.name = ? AND e.import_key IS NULL ORDER BY e.id DESC LIMIT 1`,
          )
          .get(annotator.trim()) as { label: string } | undefined;
        expect(row?.label).toBe('faithful');
      } finally {
        db.close();
      }
    },
    180_000,
  );
});
