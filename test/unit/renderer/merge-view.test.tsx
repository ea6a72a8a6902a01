// @vitest-environment happy-dom
/** The Project view's "Merge annotators' copies…" (desktop): dialog, merge, per-file results; absent in the browser. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { App } from '../../../renderer/App';
import { createFakeCore, resetRendererState, type FakeCore } from '../../../renderer/testing/fakeCore';
import type { MergeFileResult } from '../../../shared/api';

let core: FakeCore;

async function openProjectView(info: Parameters<typeof createFakeCore>[1] = {}) {
  core = createFakeCore([], info);
  render(<App bridge={core.bridge} />);
  fireEvent.click(await screen.findByTestId('nav-project'));
  await screen.findByTestId('datasets');
}

const result = (partial: Partial<MergeFileResult>): MergeFileResult => ({
  path: '/p/alice.loupe',
  sourceProject: 'id-1',
  merged: true,
  eventsAdded: 0,
  eventsPresent: 0,
  annotators: [],
  annotatorsAdded: [],
  summariesMatched: 0,
  summariesNotInProject: 0,
  problems: [],
  ...partial,
});

beforeEach(() => resetRendererState());
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('merge in the Project view', () => {
  it('is not offered in the browser (loupe serve reads no paths)', async () => {
    await openProjectView();
    expect(screen.queryByTestId('merge-choose')).toBeNull();
  });

  it('picks several copies, merges them, and shows each file’s result or problems', async () => {
    await openProjectView({ host: 'electron', fileDialogs: true, canSwitchProjects: true });
    const calls: string[][] = [];
    core.override('dialog.openProjects', () => ({ paths: ['/p/alice.loupe', '/p/dora.loupe'] }));
    core.override('merge.projects', ({ paths }) => {
      calls.push(paths);
      return [
        result({
          eventsAdded: 12,
          eventsPresent: 3,
          annotators: ['alice', 'lead'],
          annotatorsAdded: ['alice'],
          summariesMatched: 5,
        }),
        result({ path: '/p/dora.loupe', merged: false, problems: ['news/sum-003: sentence 0 differs'] }),
      ];
    });
    fireEvent.click(screen.getByTestId('merge-choose'));
    const table = await screen.findByTestId('merge-results');
    expect(calls).toEqual([['/p/alice.loupe', '/p/dora.loupe']]);
    const rows = within(table).getAllByTestId('merge-result');
    expect(
      within(rows[0]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['/p/alice.loupe', '12', '3', 'alice, lead (new: alice)', 'none']);
    expect(rows[1]!.getAttribute('data-merged')).toBe('false');
    expect(rows[1]!.textContent).toContain('not merged');
    expect(rows[1]!.textContent).toContain('news/sum-003: sentence 0 differs');
  });

  it('does nothing when the dialog is cancelled', async () => {
    await openProjectView({ host: 'electron', fileDialogs: true, canSwitchProjects: true });
    core.override('dialog.openProjects', () => ({ paths: [] }));
    const merge = vi.fn(() => []);
    core.override('merge.projects', merge);
    fireEvent.click(screen.getByTestId('merge-choose'));
    await new Promise((r) => setTimeout(r, 20));
    expect(merge).not.toHaveBeenCalled();
    expect(screen.queryByTestId('merge-results')).toBeNull();
  });
});
