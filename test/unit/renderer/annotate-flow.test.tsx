// @vitest-environment happy-dom
/**
 * In the Annotate view: a label paints at once and shows "saving" until its
 * write returns; a failed write rolls the view back to that sentence, says so, and loses no later
 * key; the view keys from every view (L back to Annotate); a tab click leaves Enter to the view;
 * E explains itself; undo survives a reload of the tab; "sample complete".
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from '../../../renderer/App';
import { formatEstimate } from '../../../renderer/format';
import { resetAnnotation } from '../../../renderer/state/annotation';
import { useSession } from '../../../renderer/state/session';
import { deferred, resetRendererState } from '../../../renderer/testing/transport';
import { createRendererCore, type RendererCore, type SummarySeed } from '../../helpers/renderer-core';

const SPECS: SummarySeed[] = [
  {
    document:
      'The council met on Tuesday. The bridge will cost 40 million dollars. Residents raised concerns about traffic.',
    sentences: [
      'The council met on Tuesday.',
      'The bridge costs 90 million dollars.',
      'Residents worried about traffic.',
    ],
  },
  {
    document: 'Heavy rain flooded the northern valley overnight.',
    sentences: ['Rain flooded a valley.', 'It happened overnight.'],
  },
];

let core: RendererCore;

async function mount(specs: SummarySeed[] = SPECS) {
  core = await createRendererCore(specs);
  render(<App bridge={core.bridge} />);
  await screen.findByTestId('unit-current');
  return core;
}

const press = (key: string, init: Partial<KeyboardEventInit> = {}, target: Element | Window = document.body) =>
  fireEvent.keyDown(target, { key, ...init });
const currentIndex = () => screen.getByTestId('unit-current').getAttribute('data-index');
const badge = (index: number) => screen.getByTestId(`label-badge-${index}`).getAttribute('data-label');
const records = () => core.callsTo('annotation.record');
const unitId = (summary: number, index: number) => core.summaries[summary]!.units[index]!.id;

/** The first write waits for `first`, and fails when it is rejected; the others go through. */
function holdFirstWrite() {
  const first = deferred();
  let calls = 0;
  core.override('annotation.record', async (input) => {
    calls += 1;
    if (calls === 1) await first.promise;
    return core.base('annotation.record')(input);
  });
  return first;
}

beforeEach(() => resetRendererState());
afterEach(() => cleanup());

describe('optimistic labels, durable writes', () => {
  it('a failed write rolls the view back to its sentence and says so; the keys pressed after it are kept and written in order', async () => {
    await mount();
    const first = holdFirstWrite();
    press('f'); // sentence 1: held, then fails
    press('u'); // sentence 2
    press('c'); // sentence 3
    await waitFor(() => expect(currentIndex()).toBe('2'));
    expect(screen.getByTestId('unit-0').getAttribute('data-write')).toBe('saving');
    expect(screen.getByTestId('progress').getAttribute('data-units-done')).toBe('3');

    await act(async () => first.reject(new Error('disk full')));
    const banner = await screen.findByTestId('error-banner');
    expect(banner.textContent).toContain('sentence 1 of summary s1 was not saved: disk full');
    expect(banner.textContent).toContain('keys pressed after it were kept');
    await waitFor(() => expect(currentIndex()).toBe('0'));
    expect(badge(0)).toBe('');
    expect(screen.getByTestId('not-saved-0')).toBeTruthy();
    // The later keys: written, in order, for the sentences they were pressed on.
    await waitFor(() => expect(screen.queryByTestId('saving-2')).toBeNull());
    expect(records().map((r) => [r.unitId, r.state.label])).toEqual([
      [unitId(0, 0), 'faithful'],
      [unitId(0, 1), 'unfaithful'],
      [unitId(0, 2), 'unclear'],
    ]);
    expect(core.stateOf(unitId(0, 0)).label).toBeNull();
    expect(core.stateOf(unitId(0, 1)).label).toBe('unfaithful');
    expect(core.stateOf(unitId(0, 2)).label).toBe('unclear');
    expect([badge(1), badge(2)]).toEqual(['unfaithful', 'unclear']);
    expect(screen.getByTestId('progress').getAttribute('data-units-done')).toBe('2');

    // A key pressed after the rollback applies to the rolled-back view: sentence 1 again.
    press('f');
    await waitFor(() => expect(core.stateOf(unitId(0, 0)).label).toBe('faithful'));
    expect(screen.queryByTestId('not-saved-0')).toBeNull();
    expect(screen.getByTestId('progress').getAttribute('data-units-done')).toBe('3');
  });

  it('a write that fails after the next summary opened brings its summary and sentence back', async () => {
    await mount();
    const first = holdFirstWrite();
    press('f');
    press('f');
    press('f');
    press('Enter');
    await waitFor(() => expect(screen.getByTestId('summary-position').textContent).toBe('2 of 2'));
    press('u'); // on summary 2, kept
    await act(async () => first.reject(new Error('server went away')));
    await waitFor(() => expect(screen.getByTestId('summary-position').textContent).toBe('1 of 2'));
    await waitFor(() => expect(currentIndex()).toBe('0'));
    expect(screen.getByTestId('error-banner').textContent).toContain('server went away');
    expect(badge(0)).toBe('');
    expect([badge(1), badge(2)]).toEqual(['faithful', 'faithful']);
    await waitFor(() => expect(core.stateOf(unitId(1, 0)).label).toBe('unfaithful'));
  });

  it('E, undo and X wait for the labels before them: "U E" sets the type of the sentence U labeled once it is stored', async () => {
    await mount();
    const first = holdFirstWrite();
    press('u');
    press('e');
    const picker = await screen.findByTestId('error-type-picker');
    expect(picker).toBeTruthy();
    press('3');
    await act(async () => first.resolve());
    await waitFor(() => expect(records()).toHaveLength(2));
    expect(records()[1]).toMatchObject({
      unitId: unitId(0, 0),
      cause: 'error_type',
      state: { label: 'unfaithful', errorType: 'number_or_date' },
    });
  });
});

describe('keys and states', () => {
  it('clicking the active tab leaves Enter to the view', async () => {
    await mount();
    const tab = screen.getByTestId('nav-annotate');
    fireEvent.click(tab);
    expect(document.activeElement).not.toBe(tab);
    press('Enter', {}, document.activeElement ?? document.body);
    await waitFor(() => expect(screen.getByTestId('summary-position').textContent).toBe('2 of 2'));
  });

  it('S G A V open their views from every view and L goes back to Annotate; the legend and help list them', async () => {
    await mount(SPECS.map((spec) => ({ ...spec, labels: spec.sentences.map(() => 'faithful' as const) })));
    expect(screen.getByTestId('key-legend').textContent).toContain('S G A V / L');
    press('?');
    expect((await screen.findByTestId('help')).textContent).toContain('back to Annotate');
    press('Escape');
    const trips: Array<[string, string]> = [
      ['s', 'project'],
      ['g', 'judges'],
      ['a', 'analysis'],
      ['s', 'project'],
      ['l', 'annotate'],
      ['a', 'analysis'],
      ['l', 'annotate'],
      ['g', 'judges'],
      ['l', 'annotate'],
    ];
    for (const [key, view] of trips) {
      press(key);
      await waitFor(() => expect(useSession.getState().view).toBe(view));
    }
    await screen.findByTestId('unit-current');
  });

  it('E on a sentence that is not Unfaithful says why nothing happened', async () => {
    await mount();
    press('e');
    expect((await screen.findByTestId('annotate-notice')).textContent).toContain('sentence 1 is not labeled yet');
    press('f');
    await waitFor(() => expect(screen.queryByTestId('annotate-notice')).toBeNull());
    press('k');
    press('e');
    expect((await screen.findByTestId('annotate-notice')).textContent).toContain(
      'sentence 1 is Faithful. Press U first',
    );
    expect(screen.queryByTestId('error-type-picker')).toBeNull();
  });

  it('undo history survives a reload of the tab', async () => {
    await mount();
    press('f');
    await waitFor(() => expect(core.stateOf(unitId(0, 0)).label).toBe('faithful'));
    await waitFor(() => expect(screen.queryByTestId('saving-0')).toBeNull());
    // Reload: the page and its stores start over; this tab's sessionStorage stays; the core keeps its labels.
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
    render(<App bridge={core.bridge} />);
    await screen.findByTestId('unit-current');
    press('z', { ctrlKey: true });
    await waitFor(() =>
      expect(records().at(-1)).toMatchObject({ unitId: unitId(0, 0), cause: 'undo', state: { label: null } }),
    );
    expect(core.stateOf(unitId(0, 0)).label).toBeNull();
  });

  it('says "sample complete" when the last summary with work is done, instead of "Enter for next"', async () => {
    await mount([SPECS[0]!, { ...SPECS[1]!, labels: ['faithful', 'faithful'] }]);
    press('f');
    press('f');
    expect(screen.queryByTestId('sample-complete')).toBeNull();
    press('f');
    const complete = await screen.findByTestId('sample-complete');
    expect(complete.textContent).toContain('Sample complete');
    expect(screen.queryByTestId('summary-done')).toBeNull();
  });

  it('writes the n beside an interval when n ≤ 5, so "± 0.000" is never read alone; too few resampling units: no interval', () => {
    // n = 3 units in enough summaries: an interval, its n beside it.
    const few = { value: 0.5, ci: [0.5, 0.5] as [number, number], n: 3, replicates_dropped: 0, too_few: false };
    const many = { value: 0.5, ci: [0.4, 0.6] as [number, number], n: 40, replicates_dropped: 0, too_few: false };
    expect(formatEstimate(few, { style: 'plus-minus', digits: 3 })).toBe('0.500 ± 0.000 (n = 3)');
    expect(formatEstimate(few)).toBe('0.500 [0.500, 0.500] (n = 3)');
    expect(formatEstimate(many, { style: 'plus-minus', digits: 3 })).toBe('0.500 ± 0.100');
    // Fewer than 5 resampling units: the point value and why there is no interval.
    const tooFew = { value: 0.667, ci: null, n: 1, replicates_dropped: 0, too_few: true };
    expect(formatEstimate(tooFew, { style: 'plus-minus' })).toBe('0.67 (n = 1, too few for an interval)');
    expect(formatEstimate(tooFew)).toBe('0.667 (n = 1, too few for an interval)');
    expect(formatEstimate(tooFew, { n: 'never', units: 2 })).toBe('0.667 (n = 2 summaries, too few for an interval)');
  });
});
