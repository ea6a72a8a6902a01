// @vitest-environment happy-dom
/**
 * Key facts per summary in the Annotate view: the document's key facts beside
 * the summary's numbered sentences and claims; F Covered, U Not covered; E after F picks the
 * sentences (digits) and claims (J/K + Space) that convey the fact; keyfacts.record stores it;
 * W edits the set into a new version; no key facts yet says so.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from '../../../renderer/App';
import { resetRendererState } from '../../../renderer/testing/transport';
import { createRendererCore, type RendererCore, type SummarySeed } from '../../helpers/renderer-core';

const SPECS: SummarySeed[] = [
  {
    docId: 'd1',
    document:
      'The city approved 2 million euros for a library. Works start in March 2025. They last two years. A temporary site opens meanwhile.',
    sentences: ['The city approved 2.4 million euros for a library.', 'Works start in March 2025.'],
  },
];
const KEY_FACTS = {
  d1: [
    'The budget is 2 million euros.',
    'Works start in March 2025.',
    'Works last two years.',
    'A temporary site opens.',
  ],
};
const CLAIMS = {
  1: [['The budget is 2.4 million euros.', 'The budget is for a library.'], ['Works start in March 2025.']],
};

let core: RendererCore;

async function mount(
  accuracy = { keyFacts: KEY_FACTS, claims: CLAIMS } as {
    keyFacts?: Record<string, string[]>;
    claims?: Record<number, string[][]>;
  },
) {
  core = await createRendererCore(SPECS, {}, accuracy);
  render(<App bridge={core.bridge} />);
  await screen.findByTestId('unit-current');
}

const press = (key: string, init: Partial<KeyboardEventInit> = {}) =>
  fireEvent.keyDown(document.body, { key, ...init });
const factIds = async () => (await core.accuracy.keyFactVersions('d1')).at(-1)!.facts.map((f) => f.id);
const stored = async (at: number) => core.accuracy.keyFactLabel('ann', 1, (await factIds())[at]!);

async function toKeyFacts() {
  press('t');
  press('t');
  await screen.findByTestId('keyfacts-pane');
}

beforeEach(() => resetRendererState());
afterEach(() => cleanup());

describe('key-fact coverage', () => {
  it('labels coverage by keyboard and records the sentences and claims that convey a covered fact', async () => {
    await mount();
    await toKeyFacts();
    expect(screen.getByTestId('key-legend').textContent).toContain('Covered');
    expect(screen.getByTestId('keyfacts-version').textContent).toContain('version 1 · you labeled 0 of 4');

    press('u'); // fact 1 (budget, wrong amount in the summary): not covered
    press('f'); // fact 2 (start date): covered
    press('e'); // conveyed by…
    const picker = await screen.findByTestId('conveyed-by-picker');
    press('2'); // sentence 2
    // J/K move over every line (sentence 1, claims 1.1, 1.2, sentence 2, claim 2.1); Space toggles claim 2.1.
    press('j');
    press('j');
    press('j');
    press('j');
    press(' ');
    expect(within(picker).getByTestId('convey-claim-2.1').querySelector('input')!.checked).toBe(true);
    press('Enter');
    await waitFor(() => expect(screen.queryByTestId('conveyed-by-picker')).toBeNull());
    const claim21 = (await core.accuracy.claimVersions(1)).at(-1)!.claims[2]!.id;
    await waitFor(async () =>
      expect(await stored(1)).toEqual({
        label: 'covered',
        conveyedBy: { sentences: [core.summaries[0]!.units[1]!.id], claims: [claim21] },
        note: null,
      }),
    );
    expect(await stored(0)).toEqual({ label: 'not_covered', conveyedBy: { claims: [], sentences: [] }, note: null });
    expect(screen.getByTestId('fact-conveyed-1').textContent).toBe('by sentence 2, claim 2.1');
    expect(core.callsTo('keyfacts.record').map((r) => r.cause)).toEqual(['label', 'label', 'conveyed_by']);

    // C has no meaning for a key fact: it says so and writes nothing.
    press('c');
    await waitFor(() =>
      expect(screen.getByTestId('annotate-notice').textContent).toContain('no Unclear for key facts'),
    );
    // Not covered clears what conveyed it (the contract allows conveyed-by only on Covered facts).
    press('k');
    press('u');
    await waitFor(async () => expect((await stored(1))?.label).toBe('not_covered'));
    expect((await stored(1))?.conveyedBy).toEqual({ claims: [], sentences: [] });
    // Undo brings back the covered fact with what conveyed it.
    press('z', { ctrlKey: true });
    await waitFor(async () => expect((await stored(1))?.label).toBe('covered'));
    expect((await stored(1))?.conveyedBy.claims).toEqual([claim21]);
  });

  it('E on a fact that is not Covered says why', async () => {
    await mount();
    await toKeyFacts();
    press('e');
    await waitFor(() => expect(screen.getByTestId('annotate-notice').textContent).toContain('press F first'));
    expect(screen.queryByTestId('conveyed-by-picker')).toBeNull();
  });

  it('the key-fact editor makes a new version; labels stay on the old one', async () => {
    await mount();
    await toKeyFacts();
    press('f');
    await waitFor(async () => expect((await stored(0))?.label).toBe('covered'));
    const v1 = (await core.accuracy.keyFactVersions('d1'))[0]!;
    press('w');
    const editor = await screen.findByTestId('set-editor');
    const items = () => within(editor).getAllByTestId('set-editor-item');
    fireEvent.click(within(items()[3]!).getByTestId('set-editor-drop'));
    fireEvent.change(within(items()[0]!).getByTestId('set-editor-text'), {
      target: { value: 'The library budget is 2 million euros.' },
    });
    fireEvent.click(within(editor).getByTestId('set-editor-save'));
    await waitFor(() => expect(screen.getByTestId('keyfacts-pane').getAttribute('data-version')).toBe('2'));
    expect(core.callsTo('keyfacts.edit')[0]!.facts).toEqual([
      { text: 'The library budget is 2 million euros.', from: [v1.facts[0]!.id] },
      { text: 'Works start in March 2025.', from: [v1.facts[1]!.id] },
      { text: 'Works last two years.', from: [v1.facts[2]!.id] },
    ]);
    expect(screen.getByTestId('keyfacts-kept').textContent).toContain('Your 1 label stays on version 1');
    expect((await core.accuracy.keyFactLabel('ann', 1, v1.facts[0]!.id))?.label).toBe('covered');
    expect(screen.getByTestId('fact-0').getAttribute('data-label')).toBe('');
  });

  it('no key facts yet: the annotator link is told to ask the lead, with no task button', async () => {
    core = await createRendererCore(SPECS, { role: 'annotator', annotator: 'bea' }, { people: ['bea'] });
    render(<App bridge={core.bridge} />);
    await screen.findByTestId('unit-current');
    await toKeyFacts();
    const empty = await screen.findByTestId('keyfacts-empty');
    expect(empty.textContent).toContain('Ask the project lead');
    expect(within(empty).queryByRole('button')).toBeNull();
  });
});
