// @vitest-environment happy-dom
/**
 * Scaffold mode of Annotate: T reaches the scaffold after key facts; F/U/C/R
 * (1–4) align facts, questions and attributes as their kind allows, J/K move, E links a kept fact
 * to the sentences that convey it, each write shows "saving" and rolls back when refused; the
 * load is blind (a judge's and another person's alignments never arrive); W edits the scaffold
 * into a new version and the old alignments stay on the old one; an annotator link calls only
 * annotator methods.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from '../../../renderer/App';
import { ANNOTATOR_METHODS } from '../../../shared/api';
import { ApiError } from '../../../renderer/api/errors';
import { deferred, resetRendererState } from '../../../renderer/testing/transport';
import { createRendererCore, type RendererCore, type SummarySeed } from '../../helpers/renderer-core';
import {
  CAMERA_SCAFFOLD,
  CAMERA_SPECS,
  press,
  renderAnnotate,
  scaffoldRendererCore,
  toScaffold,
} from '../../helpers/scaffold-ui';

let core: RendererCore;
const itemId = async (key: string, version = -1) =>
  (await core.scaffold.versions('camera')).at(version)!.items.find((i) => i.itemKey === key)!.id;
const mine = async (key: string) => await core.scaffold.alignmentOf('human:ann', 1, await itemId(key));

async function mount(info = {}, annotator = 'ann') {
  core = await scaffoldRendererCore(CAMERA_SCAFFOLD, info, annotator);
  await renderAnnotate(core);
}

beforeEach(() => resetRendererState());
afterEach(() => cleanup());

describe('scaffold alignment in Annotate', () => {
  it('aligns facts, questions and attributes by keyboard, links sentences, and stores exactly that', async () => {
    await mount();
    await toScaffold();
    expect(screen.getByTestId('unit-mode').getAttribute('data-mode')).toBe('scaffold');
    const legend = screen.getByTestId('key-legend').textContent!;
    expect(legend).toContain('Misrepresented');
    expect(legend).toContain('Answered');
    expect(screen.getByTestId('scaffold-version').textContent).toContain('version 1 · you aligned 0 of 4');
    expect(screen.getByTestId('scaffold-item-M1').textContent).toContain('main');
    expect(screen.getByTestId('scaffold-item-S1').textContent).toContain('supporting');

    press('f'); // M1 preserved
    press('e'); // which sentences convey it
    const picker = await screen.findByTestId('fact-sentences-picker');
    press('1');
    expect(within(picker).getByTestId('fact-sentence-1').querySelector('input')!.checked).toBe(true);
    press('Enter');
    await waitFor(async () => expect(await mine('M1')).toEqual({ value: 'preserved', sentences: [0], note: null }));
    expect(screen.getByTestId('scaffold-sentences-M1').textContent).toBe('by 1');
    // F advanced to S1 (E acted on the fact F had just aligned).
    press('r'); // misrepresented ("Windows Hello is blocked too")
    press('c'); // Q1: C has no meaning for a question
    await waitFor(() => expect(screen.getByTestId('annotate-notice').textContent).toContain('does not apply'));
    press('1'); // Q1 answered
    press('4'); // hello1 misrepresented
    await waitFor(async () =>
      expect(await mine('hello1')).toEqual({ value: 'misrepresented', sentences: [], note: null }),
    );
    expect(await mine('S1')).toEqual({ value: 'misrepresented', sentences: [], note: null });
    expect(await mine('Q1')).toEqual({ value: 'answered', sentences: [], note: null });
    expect(core.callsTo('scaffold.record').map((r) => [r.value, r.cause])).toEqual([
      ['preserved', 'label'],
      ['preserved', 'sentences'],
      ['misrepresented', 'label'],
      ['answered', 'label'],
      ['misrepresented', 'label'],
    ]);
    // X clears the current item (hello1).
    press('x');
    await waitFor(async () => expect(await mine('hello1')).toEqual({ value: null, sentences: [], note: null }));
    expect(screen.getByTestId('scaffold-item-hello1').getAttribute('data-value')).toBe('');
  });

  it('shows "saving" while a write is in flight and rolls a refused write back, keeping later keys', async () => {
    await mount();
    await toScaffold();
    const hold = deferred<void>();
    let first = true;
    core.override('scaffold.record', async (input) => {
      if (first) {
        first = false;
        await hold.promise;
        throw new ApiError({ code: 'internal', message: 'disk full' });
      }
      return core.base('scaffold.record')(input);
    });
    press('f'); // M1: held, then refused
    await waitFor(() => expect(screen.getByTestId('scaffold-item-M1').getAttribute('data-write')).toBe('saving'));
    expect(screen.getByTestId('scaffold-item-M1').getAttribute('data-value')).toBe('preserved');
    expect(screen.getByTestId('saving')).toBeTruthy();
    press('u'); // S1 missing, queued behind it
    hold.resolve();
    await waitFor(() => expect(screen.getByTestId('scaffold-item-M1').getAttribute('data-write')).toBe('failed'));
    expect(screen.getByTestId('scaffold-item-M1').getAttribute('data-value')).toBe('');
    expect(screen.getByTestId('scaffold-item-M1').getAttribute('aria-current')).toBe('true');
    expect(screen.getByRole('alert').textContent ?? '').toContain('not saved');
    await waitFor(async () => expect(await mine('S1')).toEqual({ value: 'missing', sentences: [], note: null }));
    expect(await mine('M1')).toBeUndefined();
  });

  it('is blind: a judge and another person aligned this summary, and none of it reaches the payload or the screen', async () => {
    await mount();
    await core.upload(
      'alignments.jsonl',
      [
        {
          dataset: 'demo',
          summary_id: 's1',
          source: 'judge:gpt',
          facts: { M1: 'missing' },
          questions: {},
          attributes: {},
        },
        {
          dataset: 'demo',
          summary_id: 's1',
          source: 'human:bob',
          facts: { S1: 'preserved' },
          questions: {},
          attributes: {},
          fact_sentences: { S1: [1] },
        },
      ],
      'scaffold-alignments',
    );
    const loads: unknown[] = [];
    core.override('scaffold.load', async (input) => {
      const answer = await core.base('scaffold.load')(input);
      loads.push(answer);
      return answer;
    });
    await toScaffold();
    await waitFor(() => expect(loads).toHaveLength(1));
    const payload = loads[0] as { items: Array<{ state: { value: string | null; sentences: number[] } }> };
    expect(payload.items.every((i) => i.state.value === null && i.state.sentences.length === 0)).toBe(true);
    expect(JSON.stringify(payload)).not.toMatch(/gpt|bob/);
    expect(screen.getByTestId('scaffold-version').textContent).toContain('you aligned 0 of 4');
  });

  it('W edits the scaffold into version 2 (drop, retier, add); the old alignments stay on version 1', async () => {
    await mount();
    await toScaffold();
    press('f'); // M1 preserved on version 1
    await waitFor(async () => expect((await mine('M1'))?.value).toBe('preserved'));
    press('w');
    const editor = await screen.findByTestId('scaffold-editor');
    expect(within(editor).getByTestId('scaffold-editor-version').textContent).toContain(
      "Your 1 alignment (and everyone's) stay on version 1",
    );
    // The lead sees the versions with their alignment events.
    const history = await within(editor).findByTestId('scaffold-version-history');
    const cells = within(history)
      .getAllByTestId('scaffold-version-row')
      .map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent));
    // Version 1: imported, 2 facts (1 main), 1 question, 1 attribute, and the 1 alignment event just given.
    expect(cells).toEqual([['1', 'imported import:scaffold.jsonl', '—', '2 (1)', '1', '1', '1']]);
    fireEvent.click(within(editor).getByTestId('scaffold-drop-question-Q1'));
    fireEvent.click(within(editor).getByTestId('scaffold-tier-fact-S1'));
    fireEvent.click(within(editor).getByTestId('scaffold-add-fact'));
    const added = within(editor).getAllByRole('textbox', { name: /Text of fact new-/ })[0]!;
    fireEvent.change(added, { target: { value: 'The settings can be changed at any time.' } });
    fireEvent.click(within(editor).getByTestId('scaffold-editor-save'));
    await waitFor(() => expect(screen.getByTestId('scaffold-pane').getAttribute('data-version')).toBe('2'));
    expect(screen.getByTestId('scaffold-kept').textContent).toContain(
      'Your 1 alignment stays on version 1; version 2 starts unaligned',
    );
    const v2 = (await core.scaffold.versions('camera')).at(-1)!;
    expect(v2).toMatchObject({ version: 2, basedOnVersion: 1, source: 'person', createdBy: 'ann' });
    expect(v2.items.map((i) => [i.kind, i.itemKey, i.tier])).toEqual([
      ['fact', 'M1', 'main'],
      ['fact', 'S1', 'main'],
      ['fact', 'new-f3', 'supporting'],
      ['attribute', 'hello1', null],
    ]);
    expect(core.callsTo('scaffold.edit')[0]).toMatchObject({ basedOnVersion: 1 });
    // Version 1 keeps the alignment; version 2's M1 (a new id) starts unaligned.
    expect((await core.scaffold.alignmentOf('human:ann', 1, await itemId('M1', 0)))?.value).toBe('preserved');
    expect(await core.scaffold.alignmentOf('human:ann', 1, await itemId('M1'))).toBeUndefined();
    expect(screen.getByTestId('scaffold-item-M1').getAttribute('data-value')).toBe('');
  });

  it('an edit refused on a stale base says so and keeps the version', async () => {
    await mount();
    await toScaffold();
    press('w');
    const editor = await screen.findByTestId('scaffold-editor');
    // Someone else saved version 2 meanwhile: this editor's base is stale.
    const { documentKey } = await core.lead('scaffold.load', { key: 1, annotator: 'ann' });
    await core.lead('scaffold.edit', { documentKey, annotator: 'bob', basedOnVersion: 1, ...CAMERA_SCAFFOLD });
    fireEvent.click(within(editor).getByTestId('scaffold-editor-save'));
    await waitFor(() => expect(screen.getByRole('alert').textContent ?? '').toContain('was not changed'));
    expect(screen.getByTestId('scaffold-pane').getAttribute('data-version')).toBe('1');
  });

  it('N moves to the next summary and loads its own alignments of the same document scaffold', async () => {
    const specs: SummarySeed[] = [
      CAMERA_SPECS[0]!,
      { ...CAMERA_SPECS[0]!, summaryId: 's2', sentences: ['Apps need camera access.'] },
    ];
    core = await createRendererCore(specs, {}, { scaffolds: { camera: CAMERA_SCAFFOLD } });
    render(<App bridge={core.bridge} />);
    await screen.findByTestId('unit-current');
    await toScaffold();
    press('u'); // summary 1: M1 missing
    press('n');
    await waitFor(() => expect(core.callsTo('scaffold.load').map((c) => c.key)).toEqual([1, 2]));
    await waitFor(() => expect(screen.getByTestId('scaffold-item-M1').getAttribute('data-value')).toBe(''));
    press('f'); // summary 2: M1 preserved
    await waitFor(async () =>
      expect((await core.scaffold.alignmentOf('human:ann', 2, await itemId('M1')))?.value).toBe('preserved'),
    );
    expect((await core.scaffold.alignmentOf('human:ann', 1, await itemId('M1')))?.value).toBe('missing');
    expect(screen.getByTestId('unit-mode').getAttribute('data-mode')).toBe('scaffold');
  });

  it('on an annotator link: aligns as that annotator, an edit is a pending proposal, and calls only annotator methods', async () => {
    core = await scaffoldRendererCore(CAMERA_SCAFFOLD, { role: 'annotator', annotator: 'bea' }, 'bea');
    render(<App bridge={core.bridge} />);
    await screen.findByTestId('unit-current');
    await toScaffold();
    press('u');
    await waitFor(() => expect(core.callsTo('scaffold.record')).toHaveLength(1));
    expect(core.callsTo('scaffold.record')[0]).toMatchObject({ annotator: 'bea', value: 'missing' });
    press('w');
    const editor = await screen.findByTestId('scaffold-editor');
    fireEvent.click(within(editor).getByTestId('scaffold-drop-fact-S1'));
    fireEvent.click(within(editor).getByTestId('scaffold-editor-save'));
    // An annotator link's edit is a proposal for the lead: the scaffold stays at version 1.
    const pending = await screen.findByTestId('scaffold-proposed');
    expect(pending.textContent).toBe(
      'Your edit of the scaffold is proposal 1, pending: it changes nothing until the lead accepts it. You keep labeling version 1.',
    );
    expect(screen.getByTestId('scaffold-pane').getAttribute('data-version')).toBe('1');
    expect(await core.scaffold.versions('camera')).toHaveLength(1);
    const called = new Set(core.calls.map((call) => call.method));
    for (const method of called)
      expect(Object.prototype.hasOwnProperty.call(ANNOTATOR_METHODS, method), method).toBe(true);
    expect(called.has('scaffold.load')).toBe(true);
    expect(called.has('scaffold.versions')).toBe(false);
  });
});
