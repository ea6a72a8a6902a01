/**
 * Renderer build. Electron loads the result from file://, so asset URLs must be relative
 * (`base: './'`); the same build is served by `loupe serve` to a browser.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const repoRoot = fileURLToPath(new URL('.', import.meta.url));

/**
 * The dev server injects inline scripts (React Refresh preamble) and <style> tags (HMR CSS),
 * which the strict CSP of index.html forbids. Relax it for `vite serve` only; builds keep it.
 */
function relaxCspForDevServer(): Plugin {
  return {
    name: 'loupe-relax-csp-in-dev',
    apply: 'serve',
    transformIndexHtml(html) {
      return html
        .replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
        .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
        .replace("connect-src 'self'", "connect-src 'self' ws: http://127.0.0.1:*");
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('./renderer', import.meta.url)),
  base: './',
  plugins: [react(), relaxCspForDevServer()],
  build: {
    outDir: `${repoRoot}out/renderer`,
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // React DOM alone is ~230 kB minified; warn only if something big sneaks in.
    chunkSizeWarningLimit: 360,
    rollupOptions: {
      treeshake: {
        // shared/domain.ts builds zod schemas at module level next to the constants the UI
        // uses (ERROR_TYPES…). Declaring zod's builders pure lets the unused schemas, and with
        // them zod itself, drop out of the renderer bundle (~200 kB).
        manualPureFunctions: ['z'],
      },
    },
  },
});
