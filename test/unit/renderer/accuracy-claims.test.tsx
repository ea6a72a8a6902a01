// @vitest-environment happy-dom
/**
 * Claims in the Annotate view, by keyboard against the real core: T switches
 * to claims, J/K move over them, F/U/C label Supported / Unsupported / Unclear, E after U picks
 * the card's error type, Ctrl+Z / Ctrl+Y undo and redo as new events; a label shows "saving"
 * until claims.record returns and a failed write rolls back, says so and keeps later keys; an
 * edit (W) makes a new version and the labels stay on the version they were given on.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from '../../../renderer/App';
import { deferred, resetRendererState } from '../../../renderer/testing/transport';
import { createRendererCore, type RendererCore, type SummarySeed } from '../../helpers/renderer-core';

const SPECS: SummarySeed[] = [
  {
    docId: 'd1',
    document:
      'The city approved a budget of 2 million euros for the new library. Works start in March 2025 and last two years.',
    sentences: ['The city unanimously approved 2.4 million euros for a library.', 'Works start in March 2025.'],
  },
  { docId: 'd2', document: 'Rain flooded the valley.', sentences: ['Rain flooded the valley.'] },
];

const CLAIMS = {
  1: [
    ['The city approved the budget unanimously.', 'The budget is 2.4 million euros.', 'The budget is for a library.'],
    ['Works start in March 2025.'],
  ],
  2: [['Rain flooded the valley.']],
};

let core: RendererCore;

async function mount(options: { claims?: Record<number, string[][]> } = { claims: CLAIMS }) {
  core = await createRendererCore(SPECS, {}, { claims: options.claims });
  render(<App bridge={core.bridge} />);
  await screen.findByTestId('unit-current');
  return core;
}

const press = (key: string, init: Partial<KeyboardEventInit> = {}) =>
  fireEvent.keyDown(document.body, { key, ...init });
const claim = (sentence: number, index: number) => screen.getByTestId(`claim-${sentence}-${index}`);
const claimIds = async (key: number) => (await core.accuracy.claimVersions(key)).at(-1)!.claims.map((c) => c.id);

async function toClaims() {
  press('t');
  await screen.findByTestId('claims-pane');
  expect(screen.getByTestId('unit-mode').getAttribute('data-mode')).toBe('claims');
}

beforeEach(() => resetRendererState());
afterEach(() => cleanup());

describe('claim labeling by keyboard', () => {
  it('labels claims nested under their sentences, sets an error type after U, and undoes and redoes as new events', async () => {
    await mount();
    await toClaims();
    // Nested: three claims under sentence 1, one under sentence 2.
    expect(within(screen.getByTestId('claim-sentence-0')).getAllByRole('listitem')).toHaveLength(3);
    expect(screen.getByTestId('key-legend').textContent).toContain('Supported');
    expect(screen.getByTestId('claim-current').getAttribute('data-claim-id')).toBe(String((await claimIds(1))[0]));

    press('u'); // claim 1.1: unsupported
    press('e');
    await screen.findByTestId('claim-error-type-picker');
    press('4'); // not_in_source (the card's order)
    await waitFor(async () =>
      expect(await core.accuracy.claimLabel('ann', (await claimIds(1))[0]!)).toEqual({
        label: 'unsupported',
        errorType: 'not_in_source',
        note: null,
      }),
    );
    expect(screen.getByTestId('claim-error-0-0').textContent).toContain('Not in source');

    press('2'); // claim 1.2: unsupported (digit keys too)
    press('e');
    await screen.findByTestId('claim-error-type-picker');
    press('3'); // number_or_date
    press('f'); // claim 1.3: supported
    press('j'); // (already on 2.1 after the auto-advance: stays)
    press('k'); // back to 1.3
    press('j'); // 2.1
    press('c'); // claim 2.1: unclear
    await waitFor(async () =>
      expect((await core.accuracy.claimLabel('ann', (await claimIds(1))[3]!))?.label).toBe('unclear'),
    );
    await waitFor(() => expect(claim(1, 0).getAttribute('data-write')).toBeNull());
    expect([claim(0, 0), claim(0, 1), claim(0, 2), claim(1, 0)].map((el) => el.getAttribute('data-label'))).toEqual([
      'unsupported',
      'unsupported',
      'supported',
      'unclear',
    ]);
    expect((await core.accuracy.claimLabel('ann', (await claimIds(1))[1]!))?.errorType).toBe('number_or_date');

    // Undo: claim 2.1 back to unlabeled, stored as an event with cause 'undo'; redo puts it back.
    press('z', { ctrlKey: true });
    await waitFor(async () =>
      expect((await core.accuracy.claimLabel('ann', (await claimIds(1))[3]!))?.label).toBeNull(),
    );
    expect(claim(1, 0).getAttribute('data-label')).toBe('');
    press('y', { ctrlKey: true });
    await waitFor(async () =>
      expect((await core.accuracy.claimLabel('ann', (await claimIds(1))[3]!))?.label).toBe('unclear'),
    );
    const causes = core.callsTo('claims.record').map((r) => r.cause);
    expect(causes).toEqual(['label', 'error_type', 'label', 'error_type', 'label', 'label', 'undo', 'redo']);
    // The sentence labels are untouched: claims are units of their own.
    expect(core.callsTo('annotation.record')).toHaveLength(0);
  });

  it('E on a claim that is not Unsupported says why; X clears a label', async () => {
    await mount();
    await toClaims();
    press('e');
    await waitFor(() => expect(screen.getByTestId('annotate-notice').textContent).toContain('press U first'));
    press('f');
    press('k');
    press('x');
    await waitFor(() => expect(core.callsTo('claims.record').map((r) => r.cause)).toEqual(['label', 'clear']));
    expect((await core.accuracy.claimLabel('ann', (await claimIds(1))[0]!))?.label).toBeNull();
  });

  it('shows "saving" until claims.record returns, then the stored label', async () => {
    await mount();
    await toClaims();
    const held = deferred();
    core.override('claims.record', async (input) => {
      await held.promise;
      return core.base('claims.record')(input);
    });
    press('f');
    await waitFor(() => expect(claim(0, 0).getAttribute('data-write')).toBe('saving'));
    expect(claim(0, 0).getAttribute('data-label')).toBe('supported');
    // The pane-level status the sentences show too (test/helpers/browser.ts labelsStored waits on it).
    expect(screen.getByTestId('saving')).toBeTruthy();
    expect(await core.accuracy.claimLabel('ann', (await claimIds(1))[0]!)).toBeUndefined();
    await act(async () => held.resolve());
    await waitFor(() => expect(claim(0, 0).getAttribute('data-write')).toBeNull());
    expect(screen.queryByTestId('saving')).toBeNull();
    expect((await core.accuracy.claimLabel('ann', (await claimIds(1))[0]!))?.label).toBe('supported');
  });

  it('a failed write rolls its claim back, says so, returns to it and keeps the keys pressed after it', async () => {
    await mount();
    await toClaims();
    const first = deferred();
    let calls = 0;
    core.override('claims.record', async (input) => {
      calls += 1;
      if (calls === 1) await first.promise;
      return core.base('claims.record')(input);
    });
    press('f'); // claim 1.1: held, then fails
    press('u'); // claim 1.2: kept
    await waitFor(async () =>
      expect(screen.getByTestId('claim-current').getAttribute('data-claim-id')).toBe(String((await claimIds(1))[2])),
    );
    await act(async () => first.reject(new Error('disk full')));
    const banners = await screen.findAllByTestId('error-banner');
    expect(banners.map((b) => b.textContent).join(' ')).toContain(
      'claim 1 of sentence 1 of summary s1 was not saved: disk full',
    );
    await waitFor(async () =>
      expect(screen.getByTestId('claim-current').getAttribute('data-claim-id')).toBe(String((await claimIds(1))[0])),
    );
    expect(claim(0, 0).getAttribute('data-label')).toBe('');
    expect(screen.getByTestId('claim-not-saved-0-0')).toBeTruthy();
    await waitFor(async () =>
      expect((await core.accuracy.claimLabel('ann', (await claimIds(1))[1]!))?.label).toBe('unsupported'),
    );
    expect(await core.accuracy.claimLabel('ann', (await claimIds(1))[0]!)).toBeUndefined();
    // Labeling it again stores it and clears the mark.
    press('f');
    await waitFor(async () =>
      expect((await core.accuracy.claimLabel('ann', (await claimIds(1))[0]!))?.label).toBe('supported'),
    );
    expect(screen.queryByTestId('claim-not-saved-0-0')).toBeNull();
  });

  it('loads only the annotator’s own labels (blind) and moves to the next summary’s claims with Enter', async () => {
    await mount();
    // Another person's label, stored as their own link would store it.
    await core.lead('claims.record', {
      claimId: (await claimIds(1))[0]!,
      annotator: 'bob',
      state: { label: 'unsupported', errorType: 'entity', note: null },
      timeSpentMs: null,
      cause: 'label',
    });
    await toClaims();
    expect(claim(0, 0).getAttribute('data-label')).toBe('');
    press('Enter');
    await waitFor(() => expect(screen.getByTestId('claims-pane').textContent).toContain('Rain flooded the valley.'));
    press('f');
    await waitFor(async () =>
      expect((await core.accuracy.claimLabel('ann', (await claimIds(2))[0]!))?.label).toBe('supported'),
    );
    expect(core.callsTo('claims.load').map((c) => c.key)).toEqual([1, 2]);
  });
});

describe('editing a claim set', () => {
  it('an edit makes a new version; the earlier labels stay on the version they were given on', async () => {
    await mount();
    await toClaims();
    press('f'); // claim 1.1 supported on version 1
    await waitFor(async () =>
      expect((await core.accuracy.claimLabel('ann', (await claimIds(1))[0]!))?.label).toBe('supported'),
    );
    const v1 = (await core.accuracy.claimVersions(1))[0]!;
    expect(screen.getByTestId('claims-version').textContent).toContain('version 1 · you labeled 1 of 4');

    press('w');
    const editor = await screen.findByTestId('set-editor');
    expect(within(editor).getByTestId('set-editor-version').textContent).toContain('Your 1 label stays on version 1');
    // The lead sees the versions with their label events.
    const history = await within(editor).findAllByTestId('version-row');
    expect(history.map((row) => row.textContent)).toEqual([expect.stringContaining('import:claims.jsonl')]);
    expect(history[0]!.textContent).toMatch(/1$/);
    const items = () => within(editor).getAllByTestId('set-editor-item');
    // Merge 1.2 into 1.1's neighbour: merge claim 1.2 with 1.3; drop claim 1.1; edit 2.1; add one under sentence 2.
    fireEvent.click(within(items()[1]!).getByTestId('set-editor-merge'));
    fireEvent.click(within(items()[0]!).getByTestId('set-editor-drop'));
    fireEvent.change(within(items()[1]!).getByTestId('set-editor-text'), {
      target: { value: 'Works begin in March 2025.' },
    });
    fireEvent.click(within(editor).getByTestId(`set-editor-add-${core.summaries[0]!.units[1]!.id}`));
    fireEvent.change(within(items()[2]!).getByTestId('set-editor-text'), {
      target: { value: 'The works last two years.' },
    });
    fireEvent.click(within(editor).getByTestId('set-editor-save'));

    await waitFor(() => expect(screen.getByTestId('claims-pane').getAttribute('data-version')).toBe('2'));
    const [edit] = core.callsTo('claims.edit');
    expect(edit!.basedOnVersion).toBe(1);
    expect(edit!.claims).toEqual([
      {
        sentenceUnitId: core.summaries[0]!.units[0]!.id,
        text: 'The budget is 2.4 million euros. The budget is for a library.',
        from: [v1.claims[1]!.id, v1.claims[2]!.id],
      },
      { sentenceUnitId: core.summaries[0]!.units[1]!.id, text: 'Works begin in March 2025.', from: [v1.claims[3]!.id] },
      { sentenceUnitId: core.summaries[0]!.units[1]!.id, text: 'The works last two years.', from: [] },
    ]);
    expect(screen.getByTestId('claims-kept').textContent).toContain('Your 1 label stays on version 1');
    // The new version starts unlabeled; the old label is still on version 1's claim.
    expect(screen.getByTestId('claims-version').textContent).toContain('version 2 · you labeled 0 of 3');
    expect((await core.accuracy.claimLabel('ann', v1.claims[0]!.id))?.label).toBe('supported');
    expect((await core.accuracy.claimVersions(1)).map((v) => [v.version, v.source, v.labelEvents])).toEqual([
      [1, 'imported', 1],
      [2, 'person', 0],
    ]);
    // Labels go to the new version's claims now.
    press('u');
    const v2 = (await core.accuracy.claimVersions(1))[1]!;
    await waitFor(async () =>
      expect((await core.accuracy.claimLabel('ann', v2.claims[0]!.id))?.label).toBe('unsupported'),
    );
  });

  it('no claims yet: the lead gets a button that prepares the decomposition task in Judges', async () => {
    await mount({ claims: {} });
    press('t');
    const empty = await screen.findByTestId('claims-empty');
    expect(empty.textContent).toContain('No claims yet — decompose or import them');
    fireEvent.click(within(empty).getByTestId('claims-start-task'));
    await screen.findByTestId('judges-view');
  });
});
