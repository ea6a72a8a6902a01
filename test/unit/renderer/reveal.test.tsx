// @vitest-environment happy-dom
/**
 * The reveal gate (renderer): opening Analysis or Review while the current
 * annotator has unfinished summaries asks first and names how many; Enter opens (and the core
 * records the reveal), Esc stays blind and gives focus back; nothing is asked with nothing
 * unfinished or with no annotator; Annotate then marks a revealed summary, whose labels the core
 * stores with blind: false.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from '../../../renderer/App';
import { useSession } from '../../../renderer/state/session';
import { resetRendererState } from '../../../renderer/testing/transport';
import { createRendererCore, type HostSeed, type RendererCore, type SummarySeed } from '../../helpers/renderer-core';

const SPECS: SummarySeed[] = [
  { document: 'The council met to discuss the bridge.', sentences: ['The council met.', 'They discussed a bridge.'] },
  { document: 'Rain flooded the valley.', sentences: ['Rain flooded a valley.'] },
  { document: 'Two villages were evacuated.', sentences: ['Villages were evacuated.'], labels: ['faithful'] },
];

let core: RendererCore;

async function mount(specs: SummarySeed[] = SPECS, info: HostSeed = {}) {
  core = await createRendererCore(specs, info);
  render(<App bridge={core.bridge} />);
  if (info.annotator !== null) await screen.findByTestId('unit-current');
  return core;
}

const press = (key: string, target: Element | Window = document.body) => fireEvent.keyDown(target, { key });

// The gated views are lazy chunks of the App: loaded once here, so no wait races their import on a busy machine.
beforeAll(async () => {
  await Promise.all([import('../../../renderer/views/AnalysisView'), import('../../../renderer/views/ReviewView')]);
});
beforeEach(() => resetRendererState());
afterEach(() => cleanup());

describe('the reveal gate', () => {
  it('names how many unfinished summaries Analysis would reveal; Esc stays blind and gives focus back', async () => {
    await mount();
    const tab = screen.getByTestId('nav-analysis');
    tab.focus();
    press('a', tab);
    const dialog = await screen.findByTestId('reveal-dialog');
    expect(screen.getByTestId('reveal-text').textContent).toContain(
      "Opening Analysis shows judge verdicts and benchmark labels for 2 summaries ann has not finished. It is recorded as ann's reveal: the labels ann gives on them afterwards are marked not blind",
    );
    expect(screen.getByTestId('reveal-confirm').textContent).toBe('Reveal for ann Enter');
    expect(dialog.textContent).toContain('marked not blind');
    expect(document.activeElement).toBe(screen.getByTestId('reveal-confirm'));
    // The views' keys do not act behind the question.
    press('f');
    press('Escape');
    await waitFor(() => expect(screen.queryByTestId('reveal-dialog')).toBeNull());
    expect(useSession.getState().view).toBe('annotate');
    expect(document.activeElement).toBe(tab);
    expect(core.callsTo('annotation.reveal')).toEqual([]);
    expect(core.callsTo('annotation.record')).toEqual([]);
    expect(core.callsTo('analysis.latest')).toEqual([]);
  });

  it('Enter records the reveal, then opens the view; Annotate marks the summary and its labels are stored not blind', async () => {
    await mount();
    fireEvent.click(screen.getByTestId('nav-analysis'));
    await screen.findByTestId('reveal-dialog');
    expect(core.callsTo('analysis.latest')).toEqual([]);
    press('Enter');
    // The view is its own chunk: its first import in a file (a module transform) can take seconds on a loaded machine.
    await screen.findByTestId('analysis-view', {}, { timeout: 30_000 });
    expect(core.callsTo('annotation.reveal')).toEqual([{ annotator: 'ann', view: 'analysis', confirmFor: 'ann' }]);
    expect(core.revealedKeys('ann')).toEqual([1, 2]);
    // Opening it again asks nothing: everything unfinished was revealed already.
    press('l');
    await screen.findByTestId('unit-current');
    expect(screen.getByTestId('revealed-mark').textContent).toContain('revealed: your labels here are not blind');
    press('f');
    await waitFor(() => expect(core.blindOf(core.summaries[0]!.units[0]!.id)).toBe(false));
    press('a');
    await screen.findByTestId('analysis-view');
    expect(screen.queryByTestId('reveal-dialog')).toBeNull();
    expect(core.callsTo('annotation.reveal')).toHaveLength(1);
  });

  it('a summary loaded as revealed (annotation.load says so) carries the mark after a reload', async () => {
    await mount();
    await core.bridge.call('annotation.reveal', { annotator: 'ann', view: 'review', confirmFor: 'ann' });
    cleanup();
    resetRendererState();
    core.calls.length = 0;
    render(<App bridge={core.bridge} />);
    await screen.findByTestId('unit-current');
    expect(screen.getByTestId('revealed-mark')).toBeTruthy();
  });

  it('asks before Review too (V)', async () => {
    await mount();
    press('v');
    expect((await screen.findByTestId('reveal-text')).textContent).toContain('Opening Review shows');
    press('Escape');
    await waitFor(() => expect(screen.queryByTestId('reveal-dialog')).toBeNull());
    expect(useSession.getState().view).toBe('annotate');
  });

  it('asks nothing when nothing is unfinished', async () => {
    await mount(SPECS.map((spec) => ({ ...spec, labels: spec.sentences.map(() => 'faithful' as const) })));
    press('a');
    await screen.findByTestId('analysis-view');
    expect(screen.queryByTestId('reveal-dialog')).toBeNull();
    expect(core.callsTo('annotation.revealStatus')).toEqual([{ annotator: 'ann' }]);
    expect(core.callsTo('annotation.reveal')).toEqual([]);
  });

  it('asks nothing without a current annotator (the lead doing project-level work)', async () => {
    await mount(SPECS, { annotator: null });
    await screen.findByTestId('annotator-picker');
    press('a');
    await screen.findByTestId('analysis-view');
    expect(core.callsTo('annotation.revealStatus')).toEqual([]);
    expect(core.callsTo('annotation.reveal')).toEqual([]);
  });

  it('choosing a reviewer name inside Review asks for that name before the review loads; Esc goes to Annotate', async () => {
    await mount(SPECS, { annotator: null });
    await screen.findByTestId('annotator-picker');
    press('v');
    fireEvent.change(await screen.findByTestId('annotator-name'), { target: { value: 'ann' } });
    fireEvent.click(screen.getByTestId('annotator-submit'));
    expect((await screen.findByTestId('reveal-text')).textContent).toContain(
      'Opening Review shows judge verdicts and benchmark labels for 2 summaries',
    );
    expect(core.callsTo('review.queue')).toEqual([]);
    press('Escape');
    await screen.findByTestId('unit-current');
    expect(useSession.getState().view).toBe('annotate');
    expect(core.callsTo('review.queue')).toEqual([]);
  });
});
