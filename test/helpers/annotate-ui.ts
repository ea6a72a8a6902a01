/** Rendering the app on a core for the Annotate tests, and reloading its tab. */
import { cleanup, render, screen } from '@testing-library/react';
import { createElement } from 'react';
import { App } from '../../renderer/App';
import { resetAnnotation } from '../../renderer/state/annotation';
import { useSession } from '../../renderer/state/session';
import type { FakeCore } from '../../renderer/testing/fakeCore';
import type { RendererCore } from './renderer-core';

type AnyCore = FakeCore | RendererCore;

/** The app rendered, Annotate on screen; on the in-memory fake, the views' background calls answered empty. */
export async function mountAnnotate<C extends AnyCore>(core: C): Promise<C> {
  if (!('core' in core)) {
    core.override('analysis.latest', () => ({ running: null, done: null }));
    core.override('judges.list', () => []);
  }
  render(createElement(App, { bridge: core.bridge }));
  await screen.findByTestId('unit-current');
  return core;
}

/**
 * The page and its stores start over as on a reload: this tab's sessionStorage stays (its undo
 * history and its place), the core keeps its labels. Resolves once `pane` (the mode's pane the
 * reload comes back to) is on screen.
 */
export async function reloadTab(core: AnyCore, pane: string): Promise<void> {
  cleanup();
  resetAnnotation();
  useSession.setState({ bridge: null, info: null, annotator: null, switching: false, view: 'start', booting: true, error: null });
  render(createElement(App, { bridge: core.bridge }));
  await screen.findByTestId(pane);
}
