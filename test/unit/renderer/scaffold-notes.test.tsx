// @vitest-environment happy-dom
/**
 * Notes on scaffold items in Annotate, on the real core: / or M in Scaffold mode opens the note
 * editor on the current item (aligned or not), the note is stored through scaffold.record (cause
 * 'note') and shown on the item; a later alignment key and X keep it, blank removes it, Esc writes
 * nothing; Ctrl+Z / Ctrl+Y undo and redo a note as new events, like an alignment.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { resetRendererState } from '../../../renderer/testing/transport';
import type { RendererCore } from '../../helpers/renderer-core';
import { CAMERA_SCAFFOLD, press, renderAnnotate, scaffoldRendererCore, toScaffold } from '../../helpers/scaffold-ui';
import { writeNote } from '../../helpers/note-editor';

let core: RendererCore;
const itemId = async (key: string) =>
  (await core.scaffold.versions('camera')).at(-1)!.items.find((i) => i.itemKey === key)!.id;
const mine = async (key: string) => core.scaffold.alignmentOf('human:ann', 1, await itemId(key));
const records = () => core.callsTo('scaffold.record').map((r) => [r.itemId, r.value, r.note, r.cause]);

beforeEach(() => resetRendererState());
afterEach(() => cleanup());

describe('scaffold item notes in Annotate', () => {
  it('M on an unaligned fact stores its note, shows it, and an alignment key and X keep it', async () => {
    core = await scaffoldRendererCore(CAMERA_SCAFFOLD);
    await renderAnnotate(core);
    await toScaffold();
    expect(screen.getByTestId('key-legend').textContent).toContain('note on the item');
    const m1 = await itemId('M1');

    press('m');
    expect((await screen.findByTestId('note-editor')).textContent).toContain('Note on fact M1');
    await writeNote('the summary says "use", not "access"');
    await waitFor(async () =>
      expect(await mine('M1')).toEqual({ value: null, sentences: [], note: 'the summary says "use", not "access"' }),
    );
    expect((await screen.findByTestId('scaffold-note-M1')).getAttribute('title')).toBe(
      'the summary says "use", not "access"',
    );
    expect(screen.getByTestId('scaffold-current-note').textContent).toContain('not "access"');

    press('c'); // M1 partial: the note stays
    await waitFor(async () =>
      expect(await mine('M1')).toEqual({
        value: 'partial',
        sentences: [],
        note: 'the summary says "use", not "access"',
      }),
    );
    press('k'); // back to M1
    press('x'); // clear the value, keep the note
    await waitFor(async () => expect((await mine('M1'))?.value).toBeNull());
    expect((await mine('M1'))?.note).toBe('the summary says "use", not "access"');
    expect(screen.getByTestId('scaffold-item-M1').getAttribute('data-value')).toBe('');
    screen.getByTestId('scaffold-note-M1');

    // Esc cancels without a write; blank removes the note.
    press('/');
    fireEvent.keyDown(await screen.findByTestId('note-text'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('note-editor')).toBeNull());
    press('/');
    await writeNote('   ');
    await waitFor(async () => expect((await mine('M1'))?.note).toBeNull());
    expect(screen.queryByTestId('scaffold-note-M1')).toBeNull();
    const note = 'the summary says "use", not "access"';
    expect(records()).toEqual([
      [m1, null, note, 'note'],
      [m1, 'partial', note, 'label'],
      [m1, null, note, 'clear'],
      [m1, null, null, 'note'],
    ]);
  });

  it('Ctrl+Z undoes a note as a new event and Ctrl+Y redoes it', async () => {
    core = await scaffoldRendererCore(CAMERA_SCAFFOLD);
    await renderAnnotate(core);
    await toScaffold();
    const m1 = await itemId('M1');
    press('f'); // M1 preserved, on to S1
    press('k'); // back to M1
    press('m');
    await writeNote('clearly stated');
    await waitFor(async () => expect((await mine('M1'))?.note).toBe('clearly stated'));
    press('z', { ctrlKey: true });
    await waitFor(async () => expect(await mine('M1')).toEqual({ value: 'preserved', sentences: [], note: null }));
    expect(screen.queryByTestId('scaffold-note-M1')).toBeNull();
    press('y', { ctrlKey: true });
    await waitFor(async () =>
      expect(await mine('M1')).toEqual({ value: 'preserved', sentences: [], note: 'clearly stated' }),
    );
    await screen.findByTestId('scaffold-note-M1');
    expect(records()).toEqual([
      [m1, 'preserved', null, 'label'],
      [m1, 'preserved', 'clearly stated', 'note'],
      [m1, 'preserved', null, 'undo'],
      [m1, 'preserved', 'clearly stated', 'redo'],
    ]);
    expect(core.callsTo('annotation.record')).toHaveLength(0);
  });
});
