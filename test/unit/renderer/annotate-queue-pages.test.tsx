// @vitest-environment happy-dom
/**
 * Annotate over a queue longer than one page of annotation.queue: the view loads the first page,
 * says "n of N" of the whole queue, finds the next summary with work beyond the loaded pages
 * (annotation.next), steps back across a page edge, and a reload comes back to a summary that is
 * not on the first page.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from '../../../renderer/App';
import { resetRendererState } from '../../../renderer/testing/transport';
import { reloadTab } from '../../helpers/annotate-ui';
import { createRendererCore, type RendererCore, type SummarySeed } from '../../helpers/renderer-core';

const SUMMARIES = 450;
/** The only summaries with work (0-based places in the queue, which is seed order). */
const OPEN = [5, 420];

const seeds: SummarySeed[] = Array.from({ length: SUMMARIES }, (_, i) => ({
  document: `Story ${i} happened on a Tuesday in the town hall.`,
  sentences: [`Story ${i} happened on a Tuesday.`],
  labels: OPEN.includes(i) ? [null] : ['faithful'],
}));

let core: RendererCore;

const press = (key: string) => fireEvent.keyDown(document.body, { key });
const place = () => screen.getByTestId('summary-position').textContent;

beforeEach(() => resetRendererState());
afterEach(() => cleanup());

describe('a queue of more than one page', () => {
  it('walks across the page edge: next with work beyond the loaded page, back one, and a reload restores the place', async () => {
    core = await createRendererCore(seeds);
    render(<App bridge={core.bridge} />);
    await screen.findByTestId('unit-current');
    expect(place()).toBe(`6 of ${SUMMARIES}`);
    expect(core.callsTo('annotation.queue')[0]).toEqual({ annotator: 'ann' });
    expect(screen.getByTestId('queue-pane-count').textContent).toBe(`(${SUMMARIES})`);

    press('f');
    await waitFor(() => expect(core.callsTo('annotation.record')).toHaveLength(1));
    press('Enter');
    await waitFor(() => expect(place()).toBe(`421 of ${SUMMARIES}`));
    expect(core.callsTo('annotation.next').at(-1)).toMatchObject({ annotator: 'ann' });
    expect(screen.getByTestId('summary').textContent).toContain('Story 420 happened');

    press('p');
    await waitFor(() => expect(place()).toBe(`420 of ${SUMMARIES}`));
    expect(screen.getByTestId('summary').textContent).toContain('Story 419 happened');

    // A reload of this tab: its place is a summary beyond the first page.
    await reloadTab(core, 'summary');
    await waitFor(() => expect(place()).toBe(`420 of ${SUMMARIES}`));
    expect(screen.getByTestId('summary').textContent).toContain('Story 419 happened');
  });
});
