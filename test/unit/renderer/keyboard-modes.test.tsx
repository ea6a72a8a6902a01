// @vitest-environment happy-dom
/**
 * What the annotator sees across the unit modes: one claim numbering everywhere ("2.1" for the
 * only claim of sentence 2, whatever its place in the set); a reload comes back to the mode, the
 * summary and the item it was on; progress per mode (the queue rows and the mode tabs count the
 * mode's items); key-fact mode's keys (no "C" badge, C and R say why they do nothing); the claims'
 * closest passages follow the current claim's sentence; the help lists Ctrl+Shift+Z and the four
 * T modes.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { resetRendererState } from '../../../renderer/testing/transport';
import { createRendererCore, type RendererCore, type SummarySeed } from '../../helpers/renderer-core';
import { mountAnnotate, reloadTab } from '../../helpers/annotate-ui';
import { CAMERA_SCAFFOLD, renderAnnotate, scaffoldRendererCore, toScaffold } from '../../helpers/scaffold-ui';

const SPECS: SummarySeed[] = [
  {
    docId: 'd1',
    document: 'The city approved 2 million euros for a library. Heavy rain delayed the works until March 2025.',
    sentences: ['The city approved 2.4 million euros for a library.', 'Rain delayed the works until March 2025.'],
  },
  {
    docId: 'd2',
    document: 'Rain flooded the valley. Two villages were evacuated.',
    sentences: ['Rain flooded the valley.', 'Villages were evacuated.'],
  },
];
// Sentence 2's only claim is the set's third: the core numbers it 2 in the set, the screen 2.1.
const CLAIMS = {
  1: [
    ['The budget is 2.4 million euros.', 'The budget is for a library.'],
    ['Rain delayed the works until March 2025.'],
  ],
  2: [['Rain flooded the valley.'], ['Villages were evacuated.']],
};
const KEY_FACTS = { d1: ['The budget is 2 million euros.', 'Works start in March 2025.'], d2: ['A valley flooded.'] };

let core: RendererCore;

const mount = async () =>
  (core = await mountAnnotate(await createRendererCore(SPECS, {}, { claims: CLAIMS, keyFacts: KEY_FACTS })));
const reload = (pane: string) => reloadTab(core, pane);

const press = (key: string, init: Partial<KeyboardEventInit> = {}) =>
  fireEvent.keyDown(document.body, { key, ...init });
const claimIds = async (key: number) => (await core.accuracy.claimVersions(key)).at(-1)!.claims.map((c) => c.id);
const notice = () => screen.getByTestId('annotate-notice').textContent;

beforeEach(() => resetRendererState());
afterEach(() => cleanup());

describe('one claim numbering', () => {
  it('the only claim of sentence 2 is "2.1" in claims mode, its note, and key-fact mode', async () => {
    await mount();
    const only = (await claimIds(1))[2]!;
    // The core numbers claims in the set (0, 1, 2); the screen numbers them under their sentence.
    expect((await core.accuracy.claimVersions(1)).at(-1)!.claims.map((c) => c.index)).toEqual([0, 1, 2]);
    press('t');
    await screen.findByTestId('claims-pane');
    expect(screen.getByTestId(`claim-number-${only}`).textContent).toBe('2.1');
    press('j');
    press('j');
    await waitFor(() => expect(screen.getByTestId('claim-current').getAttribute('data-claim-id')).toBe(String(only)));
    expect(screen.getByTestId('claim-current-number').textContent).toBe('Claim 2.1 of sentence 2');
    press('m');
    expect((await screen.findByTestId('note-editor')).textContent).toContain('Note on claim 1 of sentence 2');
    press('Escape');
    await waitFor(() => expect(screen.queryByTestId('note-editor')).toBeNull());
    press('t');
    const pane = await screen.findByTestId('keyfacts-pane');
    expect(
      within(pane)
        .getByText('Rain delayed the works until March 2025.', { selector: '.convey-claim' })
        .querySelector('.unit-index')!.textContent,
    ).toBe('2.1');
  });
});

describe('a reload comes back to the same place', () => {
  it('claims mode, summary 2, its second claim: after the reload, the same', async () => {
    await mount();
    press('Enter');
    await waitFor(() => expect(screen.getByTestId('summary-position').textContent).toBe('2 of 2'));
    press('t');
    await screen.findByTestId('claims-pane');
    press('j');
    const second = (await claimIds(2))[1]!;
    await waitFor(() => expect(screen.getByTestId('claim-current').getAttribute('data-claim-id')).toBe(String(second)));
    await reload('claims-pane');
    expect(screen.getByTestId('unit-mode').getAttribute('data-mode')).toBe('claims');
    expect(screen.getByTestId('claims-pane').textContent).toContain('Villages were evacuated.');
    await waitFor(() => expect(screen.getByTestId('claim-current').getAttribute('data-claim-id')).toBe(String(second)));
    expect(screen.getByTestId('queue-item-2').getAttribute('aria-current')).toBe('true');
  });

  it('sentences mode: the same summary and sentence, not the first with work', async () => {
    await mount();
    press('Enter');
    await waitFor(() => expect(screen.getByTestId('summary-position').textContent).toBe('2 of 2'));
    press('j');
    await waitFor(() => expect(screen.getByTestId('unit-current').getAttribute('data-index')).toBe('1'));
    await reload('unit-current');
    expect(screen.getByTestId('summary-position').textContent).toBe('2 of 2');
    expect(screen.getByTestId('unit-current').getAttribute('data-index')).toBe('1');
  });

  it('scaffold mode: the same item', async () => {
    core = await scaffoldRendererCore(CAMERA_SCAFFOLD);
    await renderAnnotate(core);
    await toScaffold();
    press('j');
    press('j');
    await waitFor(() => expect(screen.getByTestId('scaffold-item-Q1').getAttribute('aria-current')).toBe('true'));
    await reload('scaffold-pane');
    await waitFor(() => expect(screen.getByTestId('scaffold-item-Q1').getAttribute('aria-current')).toBe('true'));
  });
});

describe('progress per mode', () => {
  it('a summary with every scaffold item aligned counts 4/4 in scaffold mode, and 0/2 sentences', async () => {
    core = await scaffoldRendererCore(CAMERA_SCAFFOLD);
    await renderAnnotate(core);
    const row = () => screen.getByTestId('queue-item-1');
    expect([
      row().getAttribute('data-mode'),
      row().getAttribute('data-done'),
      row().getAttribute('data-total'),
    ]).toEqual(['sentences', '0', '2']);
    await toScaffold();
    for (const key of ['f', 'u', 'f', 'f']) press(key);
    await waitFor(() => expect(core.callsTo('scaffold.record')).toHaveLength(4));
    expect([
      row().getAttribute('data-mode'),
      row().getAttribute('data-done'),
      row().getAttribute('data-total'),
    ]).toEqual(['scaffold', '4', '4']);
    expect(row().textContent).toContain('4/4');
    const tabs = (mode: string) => screen.getByTestId(`unit-mode-${mode}`);
    expect(tabs('scaffold').textContent).toContain('4/4');
    expect(tabs('sentences').textContent).toContain('0/2');
    press('t');
    await screen.findByTestId('unit-current');
    expect(row().getAttribute('data-done')).toBe('0');
    expect(row().textContent).toContain('0/2');
  });

  it('claims and key facts count the claims and key facts labeled, for the summaries opened in that mode', async () => {
    await mount();
    press('t');
    await screen.findByTestId('claims-pane');
    press('f');
    await waitFor(() => expect(screen.getByTestId('queue-item-1').getAttribute('data-done')).toBe('1'));
    expect(screen.getByTestId('queue-item-1').textContent).toContain('1/3');
    // Summary 2 was not opened in claims mode yet: no count to show.
    expect(screen.getByTestId('queue-item-2').textContent).toContain('·');
    press('t');
    await screen.findByTestId('keyfacts-pane');
    expect(screen.getByTestId('queue-item-1').textContent).toContain('0/2');
    expect(screen.getByTestId('unit-mode-claims').textContent).toContain('1/3');
  });
});

describe('key-fact mode keys', () => {
  it('a Covered fact shows no "C" (the C key means Unclear); C and R say why they do nothing', async () => {
    await mount();
    press('t');
    press('t');
    await screen.findByTestId('keyfacts-pane');
    press('f');
    await waitFor(() => expect(screen.getByTestId('fact-0').getAttribute('data-label')).toBe('covered'));
    const badge = screen.getByTestId('fact-0').querySelector('.badge')!;
    expect(badge.textContent).not.toBe('C');
    expect(badge.getAttribute('title')).toBe('Covered');
    press('c');
    await waitFor(() => expect(notice()).toContain('no Unclear for key facts'));
    press('r');
    await waitFor(() => expect(notice()).toContain('R / 4 marks a scaffold fact'));
    expect(core.callsTo('keyfacts.record')).toHaveLength(1);
  });

  it("claims mode's closest passages follow the current claim's sentence", async () => {
    await mount();
    const topPassage = () => document.querySelector('[data-testid="doc-highlight"][data-rank="0"]')?.textContent ?? '';
    press('t');
    await screen.findByTestId('claims-pane');
    await waitFor(() => expect(topPassage()).toContain('library'));
    const third = (await claimIds(1))[2];
    press('j');
    press('j');
    await waitFor(() => expect(screen.getByTestId('claim-current').getAttribute('data-claim-id')).toBe(String(third)));
    await waitFor(() => expect(topPassage()).toContain('March 2025'));
  });

  it('the help lists Ctrl+Shift+Z and the scaffold as the fourth T mode', async () => {
    await mount();
    press('?');
    const help = await screen.findByTestId('help');
    expect(help.textContent).toContain('Ctrl+Shift+Z');
    expect(help.textContent).toMatch(
      /sentences → their claims .* → the document.s key facts .* → the document.s scaffold .* → sentences again/,
    );
    press('Escape');
    await waitFor(() => expect(screen.queryByTestId('help')).toBeNull());
  });
});
