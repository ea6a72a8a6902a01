/**
 * The Judges view in a renderer test (happy-dom): a one-sentence project on the real core, the
 * app opened on Judges once its list has loaded, and fast judge polling reset around each test.
 */
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from '../../renderer/App';
import { judgePolling, resetJudges, useJudges } from '../../renderer/state/judges';
import { resetRendererState } from '../../renderer/testing/transport';
import { createRendererCore, type HostSeed, type RendererCore, type SummarySeed } from './renderer-core';

/** The one summary of that project: one sentence with its document. */
export const ONE_SENTENCE: SummarySeed = {
  document: 'The mayor opened the bridge.',
  sentences: ['The mayor opened the bridge.'],
};

/** The real core holding that one-sentence project. */
export function oneSentenceRendererCore(info?: HostSeed): Promise<RendererCore> {
  return createRendererCore([ONE_SENTENCE], info);
}

/** Renders the app on `core`, goes to Judges and waits until the judge list has loaded. */
export async function showJudgesView(core: RendererCore): Promise<void> {
  render(<App bridge={core.bridge} />);
  fireEvent.click(await screen.findByTestId('nav-judges'));
  await screen.findByTestId('judges-view');
  await waitFor(() => expect(useJudges.getState().loaded).toBe(true));
}

/** Fresh renderer and judge state for each test, polling every 20 ms (not 500) so runs progress quickly. */
export function judgesViewLifecycle(): void {
  beforeEach(() => {
    resetRendererState();
    resetJudges();
    judgePolling.intervalMs = 20;
  });
  afterEach(() => {
    cleanup();
    resetJudges();
    judgePolling.intervalMs = 500;
    vi.restoreAllMocks();
  });
}
