/** Rendering the app on the real core for the Annotate tests, and reloading its tab. */
import { cleanup, render, screen } from '@testing-library/react';
import { createElement } from 'react';
import { App } from '../../renderer/App';
import { resetAnnotation } from '../../renderer/state/annotation';
import { useSession } from '../../renderer/state/session';
import type { RendererCore } from './renderer-core';

/** The app rendered on the core, Annotate on screen. */
export async function mountAnnotate(core: RendererCore): Promise<RendererCore> {
  render(createElement(App, { bridge: core.bridge }));
  await screen.findByTestId('unit-current');
  return core;
}

/**
 * The page and its stores start over as on a reload: this tab's sessionStorage stays (its undo
 * history and its place), the core keeps its labels. Resolves once `pane` (the mode's pane the
 * reload comes back to) is on screen.
 */
export async function reloadTab(core: RendererCore, pane: string): Promise<void> {
  cleanup();
  resetAnnotation();
  useSession.setState({
    bridge: null,
    info: null,
    annotator: null,
    switching: false,
    view: 'start',
    booting: true,
    error: null,
  });
  render(createElement(App, { bridge: core.bridge }));
  await screen.findByTestId(pane);
}
