// @vitest-environment happy-dom
/**
 * In the renderer: an annotator link shows only Annotate and calls only what the contract
 * allows it; the annotator belongs to the tab (sessionStorage) and switching is explicit; only
 * people are offered; project-level views need no annotator; the lead's annotator-links panel.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ANNOTATOR_METHODS } from '../../../shared/api';
import { App } from '../../../renderer/App';
import { resetAnnotation } from '../../../renderer/state/annotation';
import { useSession } from '../../../renderer/state/session';
import { resetRendererState } from '../../../renderer/testing/transport';
import {
  createRendererCore,
  type HostSeed,
  type RendererCore,
  type RendererCoreOptions,
  type SummarySeed,
} from '../../helpers/renderer-core';

const SPECS: SummarySeed[] = [
  {
    document: 'The council met on Tuesday to discuss the new bridge.',
    sentences: ['The council discussed a bridge.', 'It met on Tuesday.'],
  },
  { document: 'Heavy rain flooded the valley.', sentences: ['Rain flooded a valley.'] },
];

const PEOPLE_AND_IMPORTED: RendererCoreOptions = { people: ['bea'], imported: ['frank-0', 'faithbench:a1'] };

let core: RendererCore;

async function mount(info: HostSeed = {}, options: RendererCoreOptions = {}) {
  core = await createRendererCore(SPECS, info, options);
  render(<App bridge={core.bridge} />);
  return core;
}

/** A reload of this tab: the page and its stores start over, sessionStorage stays. */
async function reload(info: HostSeed = {}, options: RendererCoreOptions = {}) {
  cleanup();
  resetAnnotation();
  useSession.setState({
    bridge: null,
    info: null,
    annotator: null,
    switching: false,
    view: 'start',
    booting: true,
    error: null,
  });
  return mount(info, options);
}

const press = (key: string, init: Partial<KeyboardEventInit> = {}) =>
  fireEvent.keyDown(document.body, { key, ...init });

beforeEach(() => resetRendererState());
afterEach(() => cleanup());

describe('an annotator link', () => {
  const link = { role: 'annotator' as const, annotator: 'bea' };

  it('shows only Annotate, with the fixed identity, and S G A V do nothing (the legend does not offer them)', async () => {
    await mount(link, PEOPLE_AND_IMPORTED);
    await screen.findByTestId('unit-current');
    expect(screen.getByTestId('nav-annotate')).toBeTruthy();
    for (const view of ['project', 'judges', 'analysis', 'review'])
      expect(screen.queryByTestId(`nav-${view}`)).toBeNull();
    expect(screen.getByTestId('annotator-current').textContent).toBe('bea');
    expect(screen.queryByTestId('annotator-switch')).toBeNull();
    for (const key of ['s', 'g', 'a', 'v', 'S']) press(key);
    await act(async () => undefined);
    expect(useSession.getState().view).toBe('annotate');
    expect(screen.getByTestId('unit-current')).toBeTruthy();
    expect(screen.queryByTestId('reveal-dialog')).toBeNull();
    expect(screen.getByTestId('key-legend').textContent).not.toContain('S G A V');
    press('?');
    expect((await screen.findByTestId('help')).textContent).not.toContain('S G A V');
  });

  it('labels as its annotator and never calls a lead-only method (nothing is refused)', async () => {
    await mount(link, PEOPLE_AND_IMPORTED);
    await screen.findByTestId('unit-current');
    press('f');
    press('u');
    await waitFor(() => expect(core.stateOf(core.summaries[0]!.units[1]!.id).label).toBe('unfaithful'));
    press('Enter');
    await waitFor(() => expect(screen.getByTestId('summary-position').textContent).toBe('2 of 2'));
    press('c');
    await waitFor(() => expect(core.stateOf(core.summaries[1]!.units[0]!.id).label).toBe('unclear'));
    press('Escape');
    press('?');
    press('Escape');
    const methods = new Set(core.calls.map((call) => call.method));
    const allowed = new Set(Object.keys(ANNOTATOR_METHODS));
    expect([...methods].filter((method) => !allowed.has(method))).toEqual([]);
    expect(methods.has('annotation.record')).toBe(true);
    expect(core.callsTo('annotation.record').every((input) => input.annotator === 'bea')).toBe(true);
    expect(screen.queryByTestId('error-banner')).toBeNull();
  });

  it('its empty queue points to the lead, not to a Project view it cannot open', async () => {
    core = await createRendererCore([], link);
    render(<App bridge={core.bridge} />);
    const empty = await screen.findByTestId('queue-empty');
    expect(empty.textContent).toContain('ask the project lead');
    expect(empty.textContent).not.toContain('Project view');
  });
});

describe('the current annotator', () => {
  it('belongs to the tab: a reload keeps it, a new tab asks (whatever another tab chose)', async () => {
    await mount({ annotator: null }, PEOPLE_AND_IMPORTED);
    fireEvent.click(await screen.findByTestId('annotator-choice-bea'));
    await screen.findByTestId('unit-current');
    expect(window.sessionStorage.getItem('loupe.annotator')).toBe('bea');
    expect(window.localStorage.getItem('loupe.annotator')).toBeNull();

    await reload({ annotator: null }, PEOPLE_AND_IMPORTED);
    await screen.findByTestId('unit-current');
    expect(screen.getByTestId('annotator-current').textContent).toBe('bea');
    expect(core.callsTo('annotation.queue')[0]).toEqual({ annotator: 'bea' });

    // A new tab: its sessionStorage is empty; the old localStorage choice of another tab is not used.
    window.sessionStorage.clear();
    window.localStorage.setItem('loupe.annotator', 'dave');
    await reload({ annotator: null }, PEOPLE_AND_IMPORTED);
    await screen.findByTestId('annotator-picker');
    expect(screen.getByTestId('annotator-none')).toBeTruthy();
    expect(core.callsTo('annotation.queue')).toEqual([]);
  });

  it('is shown at all times and switched only explicitly', async () => {
    await mount({}, PEOPLE_AND_IMPORTED);
    await screen.findByTestId('unit-current');
    expect(screen.getByTestId('annotator-current').textContent).toBe('ann');
    fireEvent.click(screen.getByTestId('nav-project'));
    await screen.findByTestId('datasets');
    expect(screen.getByTestId('annotator-current').textContent).toBe('ann');

    fireEvent.click(screen.getByTestId('annotator-switch'));
    await screen.findByTestId('annotator-picker');
    // Until another name is chosen, the current one stays (and can be kept).
    expect(screen.getByTestId('annotator-current').textContent).toBe('ann');
    fireEvent.click(screen.getByTestId('annotator-cancel'));
    await screen.findByTestId('unit-current');
    expect(useSession.getState().annotator).toBe('ann');

    fireEvent.click(screen.getByTestId('annotator-switch'));
    fireEvent.click(await screen.findByTestId('annotator-choice-bea'));
    await waitFor(() => expect(screen.getByTestId('annotator-current').textContent).toBe('bea'));
    await waitFor(() => expect(core.callsTo('annotation.queue').at(-1)).toEqual({ annotator: 'bea' }));
    expect(window.sessionStorage.getItem('loupe.annotator')).toBe('bea');
  });

  it('is chosen among people only: imported label sets are never offered, and typing one is refused', async () => {
    await mount({ annotator: null }, PEOPLE_AND_IMPORTED);
    const choices = await screen.findByTestId('annotator-choices');
    await waitFor(() => expect(choices.textContent).toContain('bea'));
    expect(choices.textContent).toContain('ann');
    expect(choices.textContent).not.toContain('frank-0');
    expect(choices.textContent).not.toContain('faithbench');
    fireEvent.change(screen.getByTestId('annotator-name'), { target: { value: 'frank-0' } });
    fireEvent.click(screen.getByTestId('annotator-submit'));
    expect((await screen.findByTestId('error-banner')).textContent).toContain('imported label set');
    expect(useSession.getState().annotator).toBeNull();
    expect(core.callsTo('annotation.queue')).toEqual([]);
  });

  it('is not needed for project-level work: Project and the view keys open without one; Annotate asks', async () => {
    await mount({ annotator: null });
    await screen.findByTestId('annotator-picker');
    press('s');
    await screen.findByTestId('datasets');
    expect(screen.queryByTestId('annotator-picker')).toBeNull();
    expect(core.callsTo('annotators.ensure')).toEqual([]);
    press('l');
    await screen.findByTestId('annotator-picker');
    // Review records decisions under a name: it asks too ("Who is reviewing?").
    press('v');
    expect((await screen.findByTestId('annotator-picker')).textContent).toContain('Who is reviewing?');
    expect(core.callsTo('annotation.revealStatus')).toEqual([]);
  });
});

describe('annotator links in the Project view (lead, loupe serve)', () => {
  it('creates a link for a person, shows it once with Copy, lists it and revokes it after a confirmation', async () => {
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await mount({}, { ...PEOPLE_AND_IMPORTED, links: true });
    fireEvent.click(await screen.findByTestId('nav-project'));
    const panel = await screen.findByTestId('links-panel');
    expect(screen.getByTestId('links-empty')).toBeTruthy();
    // The name field suggests people only.
    await waitFor(() => expect(panel.querySelectorAll('datalist option').length).toBe(2));
    expect([...panel.querySelectorAll('datalist option')].map((o) => o.getAttribute('value'))).toEqual(['ann', 'bea']);

    fireEvent.change(screen.getByTestId('link-annotator'), { target: { value: 'bea' } });
    fireEvent.click(screen.getByTestId('link-create'));
    const url = (await screen.findByTestId('link-url')) as HTMLInputElement;
    expect(core.callsTo('links.create')).toEqual([{ annotator: 'bea' }]);
    // The link's id and token are the registry's (random): read back from the core and the URL.
    const { id } = (await core.lead('links.list', {}))[0]!;
    const token = new URL(url.value).searchParams.get('token')!;
    expect(token.length).toBeGreaterThan(20);
    fireEvent.click(screen.getByTestId('link-copy'));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(url.value));
    expect((await screen.findByTestId('link-copied')).textContent).toContain('not shown again');
    const row = await screen.findByTestId(`link-${id}`);
    expect(row.textContent).toContain('bea');
    // Shown once: Done hides it, and the listing never carries it.
    fireEvent.click(screen.getByTestId('link-done'));
    expect(screen.queryByTestId('link-url')).toBeNull();
    expect(screen.getByTestId('links-panel').textContent).not.toContain(token);

    fireEvent.click(screen.getByTestId(`link-revoke-${id}`));
    expect(core.callsTo('links.revoke')).toEqual([]);
    fireEvent.click(screen.getByTestId(`link-revoke-confirm-${id}`));
    await waitFor(() => expect(screen.queryByTestId(`link-${id}`)).toBeNull());
    expect(core.callsTo('links.revoke')).toEqual([{ id }]);
    expect(await core.lead('links.list', {})).toEqual([]);
  });

  it('says why a link for an imported label set is refused', async () => {
    await mount({}, { ...PEOPLE_AND_IMPORTED, links: true });
    fireEvent.click(await screen.findByTestId('nav-project'));
    await screen.findByTestId('links-panel');
    fireEvent.change(screen.getByTestId('link-annotator'), { target: { value: 'frank-0' } });
    fireEvent.click(screen.getByTestId('link-create'));
    expect((await screen.findByTestId('links-error')).textContent).toContain('imported label set');
    expect(await core.lead('links.list', {})).toEqual([]);
  });

  it('is hidden where the host has no links (links.list unsupported)', async () => {
    await mount({ host: 'electron' });
    fireEvent.click(await screen.findByTestId('nav-project'));
    await screen.findByTestId('datasets');
    await waitFor(() => expect(core.callsTo('links.list')).toHaveLength(1));
    await act(async () => undefined);
    expect(screen.queryByTestId('links-panel')).toBeNull();
  });
});
