// @vitest-environment happy-dom
/**
 * The renderer's hard rules, checked on its sources: no HTML injection, a strict CSP without
 * inline code; and the desktop menu wiring. Its imports (no Node, Electron, SQLite, OpenAI, db/ or
 * electron/) are checked with every other layer in test/unit/core/layers.test.ts.
 */
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { App } from '../../../renderer/App';
import { resetRendererState } from '../../../renderer/testing/transport';
import { createRendererCore } from '../../helpers/renderer-core';
import { tempDir } from '../../helpers/tmp';

// Vitest runs from the repository root (happy-dom gives import.meta.url no file: scheme).
const RENDERER = join(process.cwd(), 'renderer');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.(ts|tsx)$/.test(name) ? [full] : [];
  });
}

describe('renderer sources', () => {
  const files = sources(RENDERER);

  it('never inject HTML', () => {
    const offenders = files
      .filter((file) =>
        /dangerouslySetInnerHTML|\.innerHTML|outerHTML|insertAdjacentHTML|document\.write/.test(
          readFileSync(file, 'utf8'),
        ),
      )
      .map((file) => relative(RENDERER, file));
    expect(offenders).toEqual([]);
  });

  // frame-ancestors is ignored in a meta tag (Chromium says so in the console): the hosts send it
  // as a header (loupe serve, and the desktop window's response headers).
  it('index.html carries the strict CSP and no inline script or style', () => {
    const html = readFileSync(join(RENDERER, 'index.html'), 'utf8');
    const csp = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
    expect(csp).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'",
    );
    expect(html).not.toMatch(/<style/i);
    expect(html).not.toMatch(/\sstyle=/i);
    for (const script of html.match(/<script[^>]*>[\s\S]*?<\/script>/gi) ?? [])
      expect(script).toMatch(/^<script[^>]*src=[^>]*><\/script>$/);
    expect(html).not.toMatch(/https?:\/\//);
  });
});

describe('desktop menu', () => {
  beforeEach(() => resetRendererState());
  afterEach(() => cleanup());

  it('opens the import dialog from the menu and imports the chosen path', async () => {
    const core = await createRendererCore([], { host: 'electron', fileDialogs: true, canSwitchProjects: true });
    const path = join(tempDir(), 'xsum.jsonl');
    writeFileSync(
      path,
      JSON.stringify({
        dataset: 'xsum',
        doc_id: 'd1',
        document: 'Rain fell.',
        summary_id: 's1',
        summary: 'It rained.',
      }) + '\n',
    );
    // The native file dialog is the desktop host's, not the core's: it answers the chosen path.
    core.override('dialog.importFile', () => ({ path }));
    render(<App bridge={core.bridge} />);
    await screen.findByTestId('queue-empty');
    core.menu('import');
    await waitFor(() => expect(core.callsTo('imports.start')).toEqual([{ source: { type: 'path', path } }]));
    await screen.findByTestId('datasets');
  });

  it('follows a project opened from the menu', async () => {
    // A project with a dataset: the Project view lists it.
    const core = await createRendererCore([{ document: 'Rain fell.', sentences: ['It rained.'] }], {
      host: 'electron',
      fileDialogs: true,
      canSwitchProjects: true,
    });
    const project = core.core.current()!.path;
    core.core.close();
    render(<App bridge={core.bridge} />);
    await screen.findByTestId('start');
    core.core.openProject(project);
    core.menu('project-opened');
    await screen.findByTestId('datasets');
  });
});
