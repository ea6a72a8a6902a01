// @vitest-environment happy-dom
/**
 * Keys pressed back to back, faster than React renders and than the core answers (a busy
 * machine): each burst below is dispatched on the window in one synchronous go — no act(), no
 * await, so no effect, no render and no command of the lane runs between two keys. Each key must
 * still reach the layer it was meant for (renderer/keys/dispatcher.ts): the picker E opens gets
 * the digit after E, the mode T switches to gets the label after T, an editor W opens keeps the
 * keys typed before it appeared, and the reveal question keeps the keys pressed while the core
 * is asked what it would reveal.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { deferred, resetRendererState } from '../../../renderer/testing/transport';
import { createRendererCore, type RendererCore, type SummarySeed } from '../../helpers/renderer-core';
import { mountAnnotate } from '../../helpers/annotate-ui';
import { CAMERA_SCAFFOLD, scaffoldRendererCore } from '../../helpers/scaffold-ui';

const SPECS: SummarySeed[] = [
  {
    docId: 'd1',
    document: 'The city approved 2 million euros for a library. Works start in March 2025. They last two years.',
    sentences: [
      'The city approved 2.4 million euros for a library.',
      'Works start in March 2025.',
      'They last two years.',
    ],
  },
  { docId: 'd2', document: 'Rain flooded the valley.', sentences: ['Rain flooded the valley.'] },
];
const CLAIMS = {
  1: [
    ['The budget is 2.4 million euros.', 'The budget is for a library.'],
    ['Works start in March 2025.'],
    ['They last two years.'],
  ],
};
const KEY_FACTS = { d1: ['The budget is 2 million euros.', 'Works start in March 2025.', 'Works last two years.'] };

let core: RendererCore;

async function mount(
  make: () => Promise<RendererCore> = () => createRendererCore(SPECS, {}, { claims: CLAIMS, keyFacts: KEY_FACTS }),
) {
  core = await mountAnnotate(await make());
}

/** One key as the browser delivers it: a keydown on the focused element (the page), bubbling to the window. */
function key(name: string, init: KeyboardEventInit = {}): void {
  const target = document.activeElement instanceof HTMLElement ? document.activeElement : document.body;
  target.dispatchEvent(new KeyboardEvent('keydown', { key: name, bubbles: true, cancelable: true, ...init }));
}

/** Keys back to back in one synchronous go, outside React's act(): nothing renders in between. */
function burst(...keys: string[]): void {
  const global = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
  const before = global.IS_REACT_ACT_ENVIRONMENT;
  global.IS_REACT_ACT_ENVIRONMENT = false;
  try {
    for (const name of keys) key(name);
  } finally {
    global.IS_REACT_ACT_ENVIRONMENT = before;
  }
}

const unitId = (summary: number, index: number) => core.summaries[summary]!.units[index]!.id;
const claimIds = async () => (await core.accuracy.claimVersions(1)).at(-1)!.claims.map((c) => c.id);
const factIds = async () => (await core.accuracy.keyFactVersions('d1')).at(-1)!.facts.map((f) => f.id);
/** Resolves once every call the core got has been answered and the page has settled. */
const settled = () => waitFor(() => expect(document.querySelector('[data-busy="true"]')).toBeNull());

beforeEach(() => resetRendererState());
afterEach(() => cleanup());

describe('keys faster than React and the core', () => {
  it('"U E 3": the digit reaches the error-type picker E opened, not the next sentence', async () => {
    await mount();
    burst('u', 'e', '3');
    await waitFor(() =>
      expect(core.stateOf(unitId(0, 0))).toEqual({ label: 'unfaithful', errorType: 'number_or_date', note: null }),
    );
    await settled();
    expect(core.stateOf(unitId(0, 1)).label).toBeNull();
    expect(core.callsTo('annotation.record').map((r) => r.cause)).toEqual(['label', 'error_type']);
    expect(screen.queryByTestId('error-type-picker')).toBeNull();
  });

  it('E with nothing to open hands the keys after it back to the view, in order', async () => {
    await mount();
    // E on an unlabeled sentence says why and opens nothing: F then labels sentence 1.
    burst('e', 'f', 'c');
    await waitFor(() => expect(core.stateOf(unitId(0, 1)).label).toBe('unclear'));
    expect(core.stateOf(unitId(0, 0)).label).toBe('faithful');
    expect(screen.queryByTestId('error-type-picker')).toBeNull();
  });

  it('"F T F": the label after T goes to the claims, even before they are loaded', async () => {
    await mount();
    const claims = await claimIds();
    burst('f', 't', 'f');
    await waitFor(async () => expect((await core.accuracy.claimLabel('ann', claims[0]!))?.label).toBe('supported'));
    expect(core.stateOf(unitId(0, 0)).label).toBe('faithful');
    expect(core.stateOf(unitId(0, 1)).label).toBeNull();
    expect(core.callsTo('annotation.record')).toHaveLength(1);
  });

  it('claims: "T U E 4 F C" records unsupported with its error type, then supported and unclear on the next claims', async () => {
    await mount();
    const claims = await claimIds();
    burst('t', 'u', 'e', '4', 'f', 'c');
    await waitFor(async () => expect((await core.accuracy.claimLabel('ann', claims[2]!))?.label).toBe('unclear'));
    await settled();
    expect(await core.accuracy.claimLabel('ann', claims[0]!)).toEqual({
      label: 'unsupported',
      errorType: 'not_in_source',
      note: null,
    });
    expect((await core.accuracy.claimLabel('ann', claims[1]!))?.label).toBe('supported');
    expect(core.callsTo('claims.record').map((r) => [r.claimId, r.cause])).toEqual([
      [claims[0], 'label'],
      [claims[0], 'error_type'],
      [claims[1], 'label'],
      [claims[2], 'label'],
    ]);
    expect(core.callsTo('annotation.record')).toHaveLength(0);
  });

  it('key facts: "T T F E 2 J J J J Space Enter U" records the fact conveyed by sentence 2 and its claim', async () => {
    await mount();
    const claims = await claimIds();
    const facts = await factIds();
    burst('t', 't', 'f', 'e', '2', 'j', 'j', 'j', 'j', ' ', 'Enter', 'u');
    await waitFor(async () =>
      expect((await core.accuracy.keyFactLabel('ann', 1, facts[1]!))?.label).toBe('not_covered'),
    );
    await settled();
    const claim21 = claims[2]!;
    expect(await core.accuracy.keyFactLabel('ann', 1, facts[0]!)).toEqual({
      label: 'covered',
      conveyedBy: { sentences: [unitId(0, 1)], claims: [claim21] },
      note: null,
    });
    expect(core.callsTo('keyfacts.record').map((r) => r.cause)).toEqual(['label', 'conveyed_by', 'label']);
  });

  it('scaffold: "T T T F E 1 Enter R" links the fact to sentence 1 and marks the next fact misrepresented', async () => {
    await mount(() => scaffoldRendererCore(CAMERA_SCAFFOLD));
    burst('t', 't', 't', 'f', 'e', '1', 'Enter', 'r');
    const itemId = async (itemKey: string) =>
      (await core.scaffold.versions('camera')).at(-1)!.items.find((i) => i.itemKey === itemKey)!.id;
    await waitFor(async () =>
      expect(await core.scaffold.alignmentOf('human:ann', 1, await itemId('S1'))).toEqual({
        value: 'misrepresented',
        sentences: [],
        note: null,
      }),
    );
    await settled();
    expect(await core.scaffold.alignmentOf('human:ann', 1, await itemId('M1'))).toEqual({
      value: 'preserved',
      sentences: [0],
      note: null,
    });
    expect(core.callsTo('scaffold.record').map((r) => r.cause)).toEqual(['label', 'sentences', 'label']);
  });

  it('W: the editor keeps the keys pressed before it appeared; Esc with no edit closes it and the next key labels', async () => {
    await mount();
    const claims = await claimIds();
    burst('t', 'w', 'f', 'u');
    const editor = await screen.findByTestId('set-editor');
    expect(editor).toBeTruthy();
    expect(core.callsTo('claims.record')).toHaveLength(0);
    burst('Escape', 'f');
    await waitFor(async () => expect((await core.accuracy.claimLabel('ann', claims[0]!))?.label).toBe('supported'));
    expect(screen.queryByTestId('set-editor')).toBeNull();
  });

  it('M then typing at once: the letters go into the note, not to the sentence keys', async () => {
    await mount();
    burst('m', 'o', 'k');
    const area = (await screen.findByTestId('note-text')) as HTMLTextAreaElement;
    await waitFor(() => expect(area.value).toBe('ok'));
    burst('Escape');
    await waitFor(() => expect(screen.queryByTestId('note-editor')).toBeNull());
    expect(core.callsTo('annotation.record')).toHaveLength(0);
  });

  it('A while the core is asked what Analysis would reveal: the keys after it wait for the question, not the sentences', async () => {
    await mount();
    const status = deferred<void>();
    core.override('annotation.revealStatus', async (input) => {
      await status.promise;
      return core.base('annotation.revealStatus')(input);
    });
    burst('a', 'f', 'u');
    status.resolve();
    await screen.findByTestId('reveal-dialog');
    expect(core.callsTo('annotation.record')).toHaveLength(0);
    burst('Escape', 'f');
    await waitFor(() => expect(core.stateOf(unitId(0, 0)).label).toBe('faithful'));
    expect(screen.queryByTestId('reveal-dialog')).toBeNull();
  });

  it('a write held by a slow core does not hold the keys: "F U C Enter F" labels three sentences, then the next summary', async () => {
    await mount();
    const first = deferred<void>();
    let calls = 0;
    core.override('annotation.record', async (input) => {
      calls += 1;
      if (calls === 1) await first.promise;
      return core.base('annotation.record')(input);
    });
    burst('f', 'u', 'c', 'Enter', 'f');
    await waitFor(() => expect(screen.getByTestId('summary-position').textContent).toBe('2 of 2'));
    first.resolve();
    await waitFor(() => expect(core.stateOf(unitId(1, 0)).label).toBe('faithful'));
    expect([0, 1, 2].map((i) => core.stateOf(unitId(0, i)).label)).toEqual(['faithful', 'unfaithful', 'unclear']);
  });
});
