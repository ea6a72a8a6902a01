// @vitest-environment happy-dom
/**
 * The Annotate view against the real core: durability before acknowledgement, order of
 * keys, undo/redo across summaries, typing safety, inert document text, resume, missing documents.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from '../../../renderer/App';
import { deferred, resetRendererState } from '../../../renderer/testing/transport';
import { createRendererCore, type RendererCore, type SummarySeed } from '../../helpers/renderer-core';

const DOC_A =
  'The council met on Tuesday to discuss the new bridge.\n\nMayor Alice Brown said construction would start in March. ' +
  'The bridge will cost 40 million dollars.\n\nResidents raised concerns about traffic.';
const DOC_B = 'Heavy rain flooded the northern valley overnight. Two villages were evacuated by the fire brigade.';

function twoSummaries(): SummarySeed[] {
  return [
    {
      document: DOC_A,
      sentences: [
        'The council discussed a new bridge.',
        'Construction starts in March, the mayor said.',
        'It costs 90 million dollars.',
      ],
    },
    { document: DOC_B, sentences: ['Rain flooded a valley overnight.', 'Villages were evacuated by the army.'] },
  ];
}

let core: RendererCore;

async function start(specs: SummarySeed[]) {
  core = await createRendererCore(specs);
  render(<App bridge={core.bridge} />);
  await screen.findByTestId('unit-current');
  return core;
}

function press(key: string, init: Partial<KeyboardEventInit> = {}, target: Element | Window = document.body) {
  fireEvent.keyDown(target, { key, ...init });
}

const currentIndex = () => screen.getByTestId('unit-current').getAttribute('data-index');
const badge = (index: number) => screen.getByTestId(`label-badge-${index}`).getAttribute('data-label');
const records = () => core.callsTo('annotation.record');

beforeEach(() => resetRendererState());
afterEach(() => cleanup());

describe('labeling', () => {
  it('shows the label at once marked saving and advances; only the returned write clears "saving"', async () => {
    await start(twoSummaries());
    const gate = deferred();
    core.override('annotation.record', async (input) => {
      await gate.promise;
      return core.base('annotation.record')(input);
    });

    expect(currentIndex()).toBe('0');
    press('f');
    await waitFor(() => expect(records()).toHaveLength(1));
    expect(records()[0]).toMatchObject({
      unitId: core.summaries[0]!.units[0]!.id,
      annotator: 'ann',
      state: { label: 'faithful', errorType: null, note: null },
      cause: 'label',
    });
    expect(typeof records()[0]!.timeSpentMs).toBe('number');
    // In flight: painted at once, but marked as not yet stored.
    expect(currentIndex()).toBe('1');
    expect(badge(0)).toBe('faithful');
    expect(screen.getByTestId('saving-0').textContent).toContain('saving');
    expect(screen.getByTestId('unit-0').getAttribute('data-write')).toBe('saving');
    expect(screen.getByTestId('saving')).toBeTruthy();
    expect(core.stateOf(core.summaries[0]!.units[0]!.id).label).toBeNull();

    await act(async () => gate.resolve());
    await waitFor(() => expect(screen.queryByTestId('saving-0')).toBeNull());
    expect(core.stateOf(core.summaries[0]!.units[0]!.id).label).toBe('faithful');
    expect(badge(0)).toBe('faithful');
    expect(screen.getByTestId('unit-0').getAttribute('data-label')).toBe('faithful');
    expect(screen.getByTestId('unit-1').getAttribute('aria-current')).toBe('true');
    expect(screen.getByTestId('progress').getAttribute('data-units-done')).toBe('1');
  });

  it('applies keys pressed during a write in order, one unit each', async () => {
    await start(twoSummaries());
    const gate = deferred();
    core.override('annotation.record', async (input) => {
      await gate.promise;
      return core.base('annotation.record')(input);
    });
    press('u');
    press('2');
    press('c');
    await act(async () => gate.resolve());
    await waitFor(() => expect(records()).toHaveLength(3));
    expect(records().map((r) => [r.unitId, r.state.label])).toEqual(
      core.summaries[0]!.units.map((u, i) => [u.id, ['unfaithful', 'unfaithful', 'unclear'][i]]),
    );
    await waitFor(() => expect(badge(2)).toBe('unclear'));
    // After the last unit: stay, and say the summary is done.
    expect(currentIndex()).toBe('2');
    expect(screen.getByTestId('summary-done').textContent).toContain('Enter for next');
  });

  it('on a failed write shows the error, does not advance and shows no label', async () => {
    await start(twoSummaries());
    core.override('annotation.record', async () => {
      throw new Error('disk full');
    });
    press('f');
    const banner = await screen.findByTestId('error-banner');
    expect(banner.textContent).toContain('disk full');
    expect(currentIndex()).toBe('0');
    expect(badge(0)).toBe('');
    expect(core.stateOf(core.summaries[0]!.units[0]!.id).label).toBeNull();
  });

  it('measures time spent from the unit becoming current to the key', async () => {
    await start(twoSummaries());
    await act(async () => new Promise((resolve) => setTimeout(resolve, 60)));
    press('f');
    await waitFor(() => expect(records()).toHaveLength(1));
    expect(records()[0]!.timeSpentMs).toBeGreaterThanOrEqual(50);
    expect(records()[0]!.timeSpentMs).toBeLessThan(5_000);
  });

  it('sets an error type right after U (on the unit just labeled) and a note with Ctrl+Enter', async () => {
    await start(twoSummaries());
    press('u');
    press('e');
    const picker = await screen.findByTestId('error-type-picker');
    expect(within(picker).getByText(/It costs|Construction|council/)).toBeTruthy();
    press('3'); // number_or_date
    await waitFor(() => expect(records()).toHaveLength(2));
    expect(records()[1]).toMatchObject({
      unitId: core.summaries[0]!.units[0]!.id,
      state: { label: 'unfaithful', errorType: 'number_or_date', note: null },
      cause: 'error_type',
    });
    await screen.findByTestId('error-type-0');

    press('m');
    const area = (await screen.findByTestId('note-text')) as HTMLTextAreaElement;
    fireEvent.change(area, { target: { value: 'check the date' } });
    fireEvent.keyDown(area, { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(records()).toHaveLength(3));
    expect(records()[2]).toMatchObject({
      unitId: core.summaries[0]!.units[1]!.id,
      state: { note: 'check the date' },
      cause: 'note',
    });
    await screen.findByTestId('note-1');
  });
});

describe('keys while typing', () => {
  it('are ignored in the note textarea and in text inputs', async () => {
    await start(twoSummaries());
    press('m');
    const area = await screen.findByTestId('note-text');
    for (const key of ['f', 'u', 'c', '1', 'j', 'n', 'Enter']) press(key, {}, area);
    fireEvent.keyDown(area, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('note-editor')).toBeNull());

    const input = document.createElement('input');
    input.type = 'text';
    document.body.appendChild(input);
    input.focus();
    press('f', {}, input);
    press('j', {}, input);
    input.remove();

    await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(records()).toHaveLength(0);
    expect(currentIndex()).toBe('0');
  });
});

describe('undo and redo', () => {
  it('work across summaries, storing before/after states with causes undo/redo', async () => {
    await start(twoSummaries());
    const [a0] = core.summaries[0]!.units;
    const [b0] = core.summaries[1]!.units;

    press('f'); // A0 faithful
    await waitFor(() => expect(currentIndex()).toBe('1'));
    press('Enter'); // next summary with work: B
    await waitFor(() => expect(screen.getByTestId('summary').textContent).toContain('Rain flooded'));
    press('u'); // B0 unfaithful
    await waitFor(() => expect(records()).toHaveLength(2));
    await waitFor(() => expect(currentIndex()).toBe('1'));

    press('z', { ctrlKey: true });
    await waitFor(() => expect(records()).toHaveLength(3));
    expect(records()[2]).toMatchObject({ unitId: b0!.id, state: { label: null }, cause: 'undo', timeSpentMs: null });
    await waitFor(() => expect(currentIndex()).toBe('0'));

    press('z', { ctrlKey: true });
    await waitFor(() => expect(records()).toHaveLength(4));
    expect(records()[3]).toMatchObject({ unitId: a0!.id, state: { label: null }, cause: 'undo' });
    // Undo navigated back to summary A, to the undone unit.
    await waitFor(() => expect(screen.getByTestId('summary').textContent).toContain('council'));
    expect(currentIndex()).toBe('0');
    expect(badge(0)).toBe('');

    press('z', { ctrlKey: true, shiftKey: true });
    await waitFor(() => expect(records()).toHaveLength(5));
    expect(records()[4]).toMatchObject({ unitId: a0!.id, state: { label: 'faithful' }, cause: 'redo' });
    await waitFor(() => expect(badge(0)).toBe('faithful'));

    press('y', { ctrlKey: true });
    await waitFor(() => expect(records()).toHaveLength(6));
    expect(records()[5]).toMatchObject({ unitId: b0!.id, state: { label: 'unfaithful' }, cause: 'redo' });
    await waitFor(() => expect(screen.getByTestId('summary').textContent).toContain('Rain flooded'));
    expect(badge(0)).toBe('unfaithful');
    expect(core.stateOf(a0!.id).label).toBe('faithful');
    expect(core.stateOf(b0!.id).label).toBe('unfaithful');
  });
});

describe('resume and navigation', () => {
  it('opens the first summary with an unlabeled unit at its first unlabeled unit', async () => {
    const specs = twoSummaries();
    specs[0]!.labels = ['faithful', 'faithful', 'unclear'];
    specs.push({
      document: DOC_B,
      sentences: ['One.', 'Two villages were evacuated.', 'Rain flooded the valley.'],
      labels: ['faithful', null, null],
    });
    specs[1]!.labels = ['faithful', null];
    await start(specs);
    expect(screen.getByTestId('summary').textContent).toContain('Rain flooded a valley');
    expect(currentIndex()).toBe('1');
    expect(screen.getByTestId('unit-1').getAttribute('aria-current')).toBe('true');
    expect(screen.getByTestId('queue-item-2').getAttribute('aria-current')).toBe('true');
    expect(screen.getByTestId('progress').textContent).toContain('Sentences 5 / 8');

    press('k');
    await waitFor(() => expect(currentIndex()).toBe('0'));
    press('ArrowDown');
    await waitFor(() => expect(currentIndex()).toBe('1'));
    press('p');
    await waitFor(() => expect(screen.getByTestId('summary').textContent).toContain('council'));
    press('n');
    await waitFor(() => expect(screen.getByTestId('summary').textContent).toContain('Rain flooded a valley'));
  });

  it('virtualises a queue of 20,000 summaries and opens the one clicked', async () => {
    const specs: SummarySeed[] = Array.from({ length: 20_000 }, (_, i) => ({
      document: `Document number ${i + 1}.`,
      sentences: [`Summary sentence number ${i + 1}.`],
    }));
    await start(specs);
    const rows = document.querySelectorAll('[data-testid^="queue-item-"]');
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(100);
    fireEvent.click(screen.getByTestId('queue-item-3'));
    await waitFor(() => expect(screen.getByTestId('summary').textContent).toBe('Summary sentence number 3.'));
    expect(screen.getByTestId('queue-item-3').getAttribute('aria-current')).toBe('true');
  });

  it('leaves Enter to a button the user tabbed to', async () => {
    await start(twoSummaries());
    const button = screen.getByTestId('nav-project');
    button.focus();
    press('Enter', {}, button);
    await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(core.callsTo('annotation.load')).toHaveLength(1);
  });

  it('registers the preselected annotator before asking for its queue', async () => {
    await start(twoSummaries());
    const methods = core.calls.map((call) => call.method);
    expect(methods.indexOf('annotators.ensure')).toBeGreaterThan(-1);
    expect(methods.indexOf('annotators.ensure')).toBeLessThan(methods.indexOf('annotation.queue'));
    expect(core.callsTo('annotators.ensure')[0]).toEqual({ name: 'ann' });
  });

  it('shows an empty state when nothing is sampled for the annotator', async () => {
    core = await createRendererCore([]);
    render(<App bridge={core.bridge} />);
    const empty = await screen.findByTestId('queue-empty');
    expect(empty.textContent).toContain('No summaries sampled for you yet');
  });
});

describe('document text', () => {
  it('renders markup in documents and summaries as literal text', async () => {
    const hostile = 'Intro <img src=x onerror="window.__pwned=1"> middle <script>window.__pwned=2</script> end.';
    await start([{ document: hostile, sentences: ['A <b>bold</b> <img src=y onerror=alert(1)> claim here.'] }]);
    const doc = screen.getByTestId('document');
    expect(doc.textContent).toContain('<img src=x onerror="window.__pwned=1">');
    expect(doc.textContent).toContain('<script>window.__pwned=2</script>');
    expect(document.querySelector('img')).toBeNull();
    expect(document.querySelector('script')).toBeNull();
    expect(document.querySelector('b')).toBeNull();
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it('highlights the closest passage of the current sentence', async () => {
    await start(twoSummaries());
    press('j');
    await waitFor(() => expect(currentIndex()).toBe('1'));
    // The passages follow the new sentence in a deferred render (the sentence paints first).
    await waitFor(() =>
      expect(screen.getAllByTestId('doc-highlight')[0]!.textContent).toBe(
        'Mayor Alice Brown said construction would start in March.',
      ),
    );
  });
});

describe('missing document', () => {
  it('disables labeling until the document is attached', async () => {
    await start([
      { docId: 'cnn-1', document: null, sentences: ['Storms hit the coast on Friday.', 'Ten people were hurt.'] },
    ]);
    expect(screen.getByTestId('document-missing').textContent).toContain(
      'Document missing — this summary can be labeled once its document is attached',
    );
    for (const key of ['f', 'u', 'c', '1', '2', '3', 'x', 'e', 'm']) press(key);
    await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(records()).toHaveLength(0);
    expect(screen.queryByTestId('error-type-picker')).toBeNull();
    expect(screen.queryByTestId('note-editor')).toBeNull();
    expect(screen.getByTestId('labeling-disabled')).toBeTruthy();

    fireEvent.change(screen.getByTestId('attach-document-text'), {
      target: { value: 'Storms hit the coast on Friday, hurting ten.' },
    });
    fireEvent.click(screen.getByTestId('attach-document-submit'));
    await waitFor(() =>
      expect(core.callsTo('annotation.attachDocument')).toEqual([
        { key: core.summaries[0]!.key, text: 'Storms hit the coast on Friday, hurting ten.' },
      ]),
    );
    await waitFor(() => expect(screen.getByTestId('document').textContent).toContain('hurting ten'));
    press('f');
    await waitFor(() => expect(records()).toHaveLength(1));
  });
});

describe('blindness', () => {
  it('asks the core for nothing but annotation data while annotating', async () => {
    await start(twoSummaries());
    press('f');
    await waitFor(() => expect(records()).toHaveLength(1));
    const methods = new Set(core.calls.map((call) => call.method));
    for (const method of methods) {
      expect([
        'app.info',
        'annotators.ensure',
        'annotation.queue',
        'annotation.next',
        'annotation.load',
        'annotation.record',
      ]).toContain(method);
    }
  });
});
