// @vitest-environment happy-dom
/**
 * Notes on claims and key facts, and their undo across a reload of the tab: / or M in
 * claim or key-fact mode opens the note editor as for sentences, the note is stored through
 * claims.record / keyfacts.record (cause 'note'), shown on the item, and kept by a later label;
 * the claim / key-fact undo history lives in this tab's sessionStorage like the sentence one, so
 * Ctrl+Z after a reload still undoes, and a stored history that fails its schema is ignored.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from '../../../renderer/App';
import { useClaimsAndKeyFacts } from '../../../renderer/state/claimsAndKeyFacts';
import { resetRendererState } from '../../../renderer/testing/transport';
import { createRendererCore, type RendererCore, type SummarySeed } from '../../helpers/renderer-core';
import { reloadTab } from '../../helpers/annotate-ui';
import { writeNote } from '../../helpers/note-editor';

const SPECS: SummarySeed[] = [
  {
    docId: 'd1',
    document: 'The city approved 2 million euros for a library. Works start in March 2025.',
    sentences: ['The city approved 2.4 million euros for a library.', 'Works start in March 2025.'],
  },
];
const CLAIMS = {
  1: [['The budget is 2.4 million euros.', 'The budget is for a library.'], ['Works start in March 2025.']],
};
const KEY_FACTS = { d1: ['The budget is 2 million euros.', 'Works start in March 2025.'] };

let core: RendererCore;

async function mount() {
  core = await createRendererCore(SPECS, {}, { claims: CLAIMS, keyFacts: KEY_FACTS });
  render(<App bridge={core.bridge} />);
  await screen.findByTestId('unit-current');
}

/** A reload of the tab (its sessionStorage stays): it comes back to the mode it was in. */
const reload = (pane: 'claims-pane' | 'keyfacts-pane' = 'claims-pane') => reloadTab(core, pane);

const press = (key: string, init: Partial<KeyboardEventInit> = {}) =>
  fireEvent.keyDown(document.body, { key, ...init });
const claimIds = async () => (await core.accuracy.claimVersions(1)).at(-1)!.claims.map((c) => c.id);
const factIds = async () => (await core.accuracy.keyFactVersions('d1')).at(-1)!.facts.map((f) => f.id);

beforeEach(() => resetRendererState());
afterEach(() => cleanup());

describe('notes on claims and key facts', () => {
  it('M on a claim opens the note editor, stores the note with cause "note", shows it, and a later label keeps it', async () => {
    await mount();
    const claims = await claimIds();
    press('t');
    await screen.findByTestId('claims-pane');
    press('m');
    expect((await screen.findByTestId('note-editor')).textContent).toContain('Note on claim 1 of sentence 1');
    await writeNote('amount differs from the document');
    await waitFor(async () =>
      expect(await core.accuracy.claimLabel('ann', claims[0]!)).toEqual({
        label: null,
        errorType: null,
        note: 'amount differs from the document',
      }),
    );
    expect(core.callsTo('claims.record').at(-1)).toMatchObject({ claimId: claims[0], cause: 'note' });
    expect((await screen.findByTestId('claim-note-0-0')).getAttribute('title')).toBe(
      'amount differs from the document',
    );
    expect(screen.getByTestId('claim-current-note').textContent).toContain('amount differs');

    press('u'); // the label keeps the note
    await waitFor(async () =>
      expect(await core.accuracy.claimLabel('ann', claims[0]!)).toEqual({
        label: 'unsupported',
        errorType: null,
        note: 'amount differs from the document',
      }),
    );
    // Blank removes the note.
    press('k');
    press('/');
    await writeNote('   ');
    await waitFor(async () => expect((await core.accuracy.claimLabel('ann', claims[0]!))?.note).toBeNull());
    expect(screen.queryByTestId('claim-note-0-0')).toBeNull();
    expect(core.callsTo('annotation.record')).toHaveLength(0);
  });

  it('/ on a key fact stores its note through keyfacts.record; Esc cancels without a write', async () => {
    await mount();
    const facts = await factIds();
    press('t');
    press('t');
    await screen.findByTestId('keyfacts-pane');
    press('/');
    expect((await screen.findByTestId('note-editor')).textContent).toContain('Note on key fact 1');
    fireEvent.keyDown(await screen.findByTestId('note-text'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('note-editor')).toBeNull());
    expect(core.callsTo('keyfacts.record')).toHaveLength(0);

    press('j');
    press('m');
    expect((await screen.findByTestId('note-editor')).textContent).toContain('Note on key fact 2');
    await writeNote('paraphrased');
    await waitFor(async () =>
      expect(await core.accuracy.keyFactLabel('ann', 1, facts[1]!)).toEqual({
        label: null,
        conveyedBy: { claims: [], sentences: [] },
        note: 'paraphrased',
      }),
    );
    expect(core.callsTo('keyfacts.record').at(-1)).toMatchObject({ keyFactId: facts[1], cause: 'note' });
    await screen.findByTestId('fact-note-1');
  });
});

describe('claim and key-fact undo across a reload of the tab', () => {
  it('Ctrl+Z after a reload undoes the last claim label and the key-fact label before it, as new events', async () => {
    await mount();
    const claims = await claimIds();
    const facts = await factIds();
    press('t');
    press('t');
    await screen.findByTestId('keyfacts-pane');
    press('f'); // key fact 1: covered
    await waitFor(async () => expect((await core.accuracy.keyFactLabel('ann', 1, facts[0]!))?.label).toBe('covered'));
    press('t'); // scaffold
    press('t'); // sentences
    press('t'); // claims
    await screen.findByTestId('claims-pane');
    press('c'); // claim 1.1: unclear
    await waitFor(async () => expect((await core.accuracy.claimLabel('ann', claims[0]!))?.label).toBe('unclear'));
    await waitFor(() => expect(useClaimsAndKeyFacts.getState().undoDepth).toBe(2));

    await reload();
    expect(useClaimsAndKeyFacts.getState().undoDepth).toBe(2);
    press('z', { ctrlKey: true });
    await waitFor(async () => expect((await core.accuracy.claimLabel('ann', claims[0]!))?.label).toBeNull());
    expect(core.callsTo('claims.record').at(-1)).toMatchObject({ claimId: claims[0], cause: 'undo' });
    press('z', { ctrlKey: true });
    await waitFor(async () => expect((await core.accuracy.keyFactLabel('ann', 1, facts[0]!))?.label).toBeNull());
    expect(core.callsTo('keyfacts.record').at(-1)).toMatchObject({ keyFactId: facts[0], cause: 'undo' });
    // The redo branch survives a reload too.
    await waitFor(() => expect(useClaimsAndKeyFacts.getState().redoDepth).toBe(2));
    // The last undo brought the view to its key fact: the reload comes back there.
    await reload('keyfacts-pane');
    expect(useClaimsAndKeyFacts.getState().redoDepth).toBe(2);
    // The sentence history is its own: nothing there.
    expect(core.callsTo('annotation.record')).toHaveLength(0);
  });

  it('a stored history that fails its schema (a claim change holding a key-fact state) starts empty', async () => {
    await mount();
    press('t');
    await screen.findByTestId('claims-pane');
    press('f');
    await waitFor(() => expect(useClaimsAndKeyFacts.getState().undoDepth).toBe(1));
    const key = Object.keys(window.sessionStorage).find((k) => k.startsWith('loupe.accuracy-undo:'))!;
    const stored = JSON.parse(window.sessionStorage.getItem(key)!) as { past: Array<{ before: unknown }> };
    stored.past[0]!.before = { label: 'covered', conveyedBy: { claims: [], sentences: [] }, note: null };
    window.sessionStorage.setItem(key, JSON.stringify(stored));
    await reload();
    expect(useClaimsAndKeyFacts.getState().undoDepth).toBe(0);
    press('z', { ctrlKey: true });
    await waitFor(() => expect(screen.getByTestId('annotate-notice').textContent).toContain('Nothing to undo'));
  });
});
