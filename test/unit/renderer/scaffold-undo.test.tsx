// @vitest-environment happy-dom
/**
 * Undo / redo of scaffold alignments in Annotate: Ctrl+Z stores the previous alignment (value and
 * Fact Focus sentences) as a new scaffold.record event with cause 'undo', Ctrl+Shift+Z / Ctrl+Y
 * re-apply it with cause 'redo', the history lives in this tab's sessionStorage so a reload keeps
 * it, and a stored history that fails its schema starts empty.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { useScaffold } from '../../../renderer/state/scaffold';
import { resetRendererState } from '../../../renderer/testing/transport';
import type { RendererCore } from '../../helpers/renderer-core';
import { reloadTab } from '../../helpers/annotate-ui';
import { CAMERA_SCAFFOLD, press, renderAnnotate, scaffoldRendererCore, toScaffold } from '../../helpers/scaffold-ui';

const SCAFFOLD = { ...CAMERA_SCAFFOLD, entities: [] };

let core: RendererCore;
const itemId = async (key: string) =>
  (await core.scaffold.versions('camera')).at(-1)!.items.find((i) => i.itemKey === key)!.id;
const mine = async (key: string) => core.scaffold.alignmentOf('human:ann', 1, await itemId(key));
const records = () => core.callsTo('scaffold.record').map((r) => [r.itemId, r.value, r.sentences, r.cause]);

async function mount() {
  core = await scaffoldRendererCore(SCAFFOLD);
  await renderAnnotate(core);
}

/** A reload of the tab (its sessionStorage stays): it comes back to scaffold mode. */
const reload = () => reloadTab(core, 'scaffold-pane');

beforeEach(() => resetRendererState());
afterEach(() => cleanup());

describe('scaffold undo / redo', () => {
  it('undo stores the previous alignment as a new event, redo re-applies it, both after the writes before them', async () => {
    await mount();
    await toScaffold();
    expect(screen.getByTestId('key-legend').textContent).toContain('undo / redo (your scaffold alignments)');
    press('f'); // M1 preserved
    press('e');
    await screen.findByTestId('fact-sentences-picker');
    press('1');
    press('Enter');
    await waitFor(async () => expect(await mine('M1')).toEqual({ value: 'preserved', sentences: [0], note: null }));
    press('u'); // S1 missing
    press('z', { ctrlKey: true }); // queued behind the write of U: undoes it
    await waitFor(async () => expect(await mine('S1')).toEqual({ value: null, sentences: [], note: null }));
    press('z', { ctrlKey: true }); // the sentences of M1
    await waitFor(async () => expect(await mine('M1')).toEqual({ value: 'preserved', sentences: [], note: null }));
    expect(screen.queryByTestId('scaffold-sentences-M1')?.textContent ?? '').not.toContain('by 1');
    press('z', { ctrlKey: true, shiftKey: true }); // redo the sentences
    await waitFor(async () => expect(await mine('M1')).toEqual({ value: 'preserved', sentences: [0], note: null }));
    press('y', { ctrlKey: true }); // redo S1 missing
    await waitFor(async () => expect(await mine('S1')).toEqual({ value: 'missing', sentences: [], note: null }));
    expect(screen.getByTestId('scaffold-item-S1').getAttribute('data-value')).toBe('missing');
    const m1 = await itemId('M1');
    const s1 = await itemId('S1');
    expect(records()).toEqual([
      [m1, 'preserved', [], 'label'],
      [m1, 'preserved', [0], 'sentences'],
      [s1, 'missing', [], 'label'],
      [s1, null, [], 'undo'],
      [m1, 'preserved', [], 'undo'],
      [m1, 'preserved', [0], 'redo'],
      [s1, 'missing', [], 'redo'],
    ]);
    press('y', { ctrlKey: true });
    await waitFor(() => expect(screen.getByTestId('annotate-notice').textContent).toContain('Nothing to redo'));
  });

  it('the history survives a reload of the tab: Ctrl+Z after it undoes, and the redo branch stays too', async () => {
    await mount();
    await toScaffold();
    press('f'); // M1 preserved
    press('r'); // S1 misrepresented
    await waitFor(() => expect(useScaffold.getState().undoDepth).toBe(2));
    await reload();
    expect(useScaffold.getState().undoDepth).toBe(2);
    press('z', { ctrlKey: true });
    await waitFor(async () => expect(await mine('S1')).toEqual({ value: null, sentences: [], note: null }));
    expect(screen.getByTestId('scaffold-item-S1').getAttribute('data-value')).toBe('');
    await reload();
    expect(useScaffold.getState().redoDepth).toBe(1);
    press('y', { ctrlKey: true });
    await waitFor(async () => expect(await mine('S1')).toEqual({ value: 'misrepresented', sentences: [], note: null }));
    expect(core.callsTo('scaffold.record').map((r) => r.cause)).toEqual(['label', 'label', 'undo', 'redo']);
  });

  it('a tampered stored history (an alignment value that does not exist) starts empty', async () => {
    await mount();
    await toScaffold();
    press('f');
    await waitFor(() => expect(useScaffold.getState().undoDepth).toBe(1));
    const key = Object.keys(window.sessionStorage).find((k) => k.startsWith('loupe.scaffold-undo:'))!;
    const stored = JSON.parse(window.sessionStorage.getItem(key)!) as { past: Array<{ after: { value: unknown } }> };
    stored.past[0]!.after.value = 'deleted-everything';
    window.sessionStorage.setItem(key, JSON.stringify(stored));
    await reload();
    expect(useScaffold.getState().undoDepth).toBe(0);
    press('z', { ctrlKey: true });
    await waitFor(() => expect(screen.getByTestId('annotate-notice').textContent).toContain('Nothing to undo'));
    expect(core.callsTo('scaffold.record').map((r) => r.cause)).toEqual(['label']);
  });
});
