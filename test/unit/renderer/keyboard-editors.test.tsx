// @vitest-environment happy-dom
/**
 * The editors W opens (claims, key facts, scaffold) are dialogs: the focus moves into the first
 * field and stays inside (Tab and Shift+Tab cycle), "+ Add" puts the focus in the new field (so
 * the spaces of a claim being typed go into it, not to the button), Drop moves it to the next
 * item, Ctrl+Enter saves, and Esc asks before discarding edits (Esc again keeps editing, Enter
 * discards); with nothing edited Esc simply closes.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { resetRendererState } from '../../../renderer/testing/transport';
import { createRendererCore, type RendererCore, type SummarySeed } from '../../helpers/renderer-core';
import { mountAnnotate } from '../../helpers/annotate-ui';
import { CAMERA_SCAFFOLD, renderAnnotate, scaffoldRendererCore, toScaffold } from '../../helpers/scaffold-ui';

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

let core: RendererCore;

async function openClaimsEditor() {
  core = await mountAnnotate(await createRendererCore(SPECS, {}, { claims: CLAIMS }));
  fireEvent.keyDown(document.body, { key: 't' });
  await screen.findByTestId('claims-pane');
  fireEvent.keyDown(document.body, { key: 'w' });
  return screen.findByTestId('set-editor');
}

/** A key on whatever has the focus, as the browser sends it; true when its default action was prevented. */
const press = (key: string, init: Partial<KeyboardEventInit> = {}) =>
  !fireEvent.keyDown(document.activeElement ?? document.body, { key, ...init });
const texts = (editor: HTMLElement) => within(editor).getAllByTestId('set-editor-text') as HTMLInputElement[];

beforeEach(() => resetRendererState());
afterEach(() => cleanup());

describe('the claim and key-fact editor is a dialog', () => {
  it('takes the focus into its first field and keeps it inside: Tab and Shift+Tab cycle through its controls', async () => {
    const editor = await openClaimsEditor();
    expect(document.activeElement).toBe(texts(editor)[0]);
    const controls = [...editor.querySelectorAll<HTMLElement>('button:not([disabled]), input:not([disabled])')];
    // Tab through every control and once more: back at the first, never outside the dialog.
    for (let i = 0; i < controls.length; i += 1) {
      expect(press('Tab')).toBe(true);
      expect(editor.contains(document.activeElement)).toBe(true);
    }
    expect(document.activeElement).toBe(texts(editor)[0]);
    press('Tab', { shiftKey: true });
    expect(document.activeElement).toBe(controls.at(-1));
    expect(core.callsTo('claims.record')).toHaveLength(0);
  });

  it('"+ Add" focuses the new field: a claim typed with spaces goes into it and presses nothing', async () => {
    const editor = await openClaimsEditor();
    const sentence2 = core.summaries[0]!.units[1]!.id;
    fireEvent.click(within(editor).getByTestId(`set-editor-add-${sentence2}`));
    const added = texts(editor)[3]!;
    expect(added.value).toBe('');
    expect(document.activeElement).toBe(added);
    // Typing: each key is the field's (not prevented, no shortcut, no button), then its text.
    for (const ch of 'The works last two years.') expect(press(ch)).toBe(false);
    fireEvent.change(added, { target: { value: 'The works last two years.' } });
    expect(texts(editor)).toHaveLength(4);
    expect(within(editor).queryByText(/needs a text/)).toBeNull();
    press('Enter', { ctrlKey: true });
    await waitFor(() => expect(core.callsTo('claims.edit')).toHaveLength(1));
    expect(core.callsTo('claims.edit')[0]!.claims.at(-1)).toEqual({
      sentenceUnitId: sentence2,
      text: 'The works last two years.',
      from: [],
    });
  });

  it('Drop moves the focus to the next item, not to the page', async () => {
    const editor = await openClaimsEditor();
    fireEvent.click(within(editor).getAllByTestId('set-editor-drop')[0]!);
    expect(texts(editor)).toHaveLength(2);
    expect(document.activeElement).toBe(texts(editor)[0]);
    expect(texts(editor)[0]!.value).toBe('The budget is for a library.');
  });

  it('Esc asks before discarding edits: Esc again goes back to editing where the focus was, Enter discards', async () => {
    const editor = await openClaimsEditor();
    const second = texts(editor)[1]!;
    second.focus();
    fireEvent.change(second, { target: { value: 'The budget is for the new library.' } });
    press('Escape');
    const confirm = await screen.findByTestId('discard-confirm');
    expect(confirm.textContent).toContain('Discard your edits?');
    expect(document.activeElement).toBe(within(confirm).getByTestId('discard-confirm-yes'));
    // Nothing behind the question acts: not the editor, not the claims.
    press('f');
    press('Escape');
    await waitFor(() => expect(screen.queryByTestId('discard-confirm')).toBeNull());
    expect(screen.getByTestId('set-editor')).toBeTruthy();
    expect(document.activeElement).toBe(second);
    expect(second.value).toBe('The budget is for the new library.');

    press('Escape');
    await screen.findByTestId('discard-confirm');
    press('Enter');
    await waitFor(() => expect(screen.queryByTestId('set-editor')).toBeNull());
    expect(core.callsTo('claims.edit')).toHaveLength(0);
    expect(core.callsTo('claims.record')).toHaveLength(0);
  });

  it('Esc with nothing edited closes at once, and the keys go back to the claims', async () => {
    await openClaimsEditor();
    press('Escape');
    await waitFor(() => expect(screen.queryByTestId('set-editor')).toBeNull());
    expect(screen.queryByTestId('discard-confirm')).toBeNull();
    press('f');
    await waitFor(() => expect(core.callsTo('claims.record')).toHaveLength(1));
  });
});

describe('the scaffold editor is a dialog', () => {
  async function openScaffoldEditor() {
    core = await scaffoldRendererCore(CAMERA_SCAFFOLD);
    await renderAnnotate(core);
    await toScaffold();
    fireEvent.keyDown(document.body, { key: 'w' });
    return screen.findByTestId('scaffold-editor');
  }
  const field = (editor: HTMLElement, kind: string, id: string) =>
    within(editor).getByLabelText(`Text of ${kind} ${id}`) as HTMLTextAreaElement;

  it('focuses its first item, an added fact takes the focus, Drop passes it on, Tab stays inside', async () => {
    const editor = await openScaffoldEditor();
    expect(document.activeElement).toBe(field(editor, 'fact', 'M1'));
    fireEvent.click(within(editor).getByTestId('scaffold-add-fact'));
    const added = field(editor, 'fact', 'new-f3');
    expect(document.activeElement).toBe(added);
    expect(press(' ')).toBe(false);
    fireEvent.click(within(editor).getByTestId('scaffold-drop-fact-S1'));
    expect(document.activeElement).toBe(added);
    const controls = [...editor.querySelectorAll<HTMLElement>('button:not([disabled]), input:not([disabled])')];
    for (let i = 0; i < controls.length * 2; i += 1) {
      press('Tab');
      expect(editor.contains(document.activeElement)).toBe(true);
    }
  });

  it('Esc with an edit asks first; Enter discards without a version', async () => {
    const editor = await openScaffoldEditor();
    fireEvent.change(field(editor, 'fact', 'M1'), {
      target: { value: 'Users pick the apps that may use the camera.' },
    });
    press('Escape');
    await screen.findByTestId('discard-confirm');
    expect(screen.getByTestId('scaffold-editor')).toBeTruthy();
    press('Enter');
    await waitFor(() => expect(screen.queryByTestId('scaffold-editor')).toBeNull());
    expect(core.callsTo('scaffold.edit')).toHaveLength(0);
  });
});
