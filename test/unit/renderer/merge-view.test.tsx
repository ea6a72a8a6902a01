// @vitest-environment happy-dom
/**
 * The Project view's "Merge annotators' copies…" (desktop): dialog, merge, per-file results; absent
 * in the browser. The copies are real project files the real core merges; the native dialog is the
 * host's, so the test answers it with their paths.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from '../../../renderer/App';
import { resetRendererState } from '../../../renderer/testing/transport';
import {
  createRendererCore,
  projectCopy,
  type HostSeed,
  type RendererCore,
  type SummarySeed,
} from '../../helpers/renderer-core';

let core: RendererCore;

const DOCUMENT = 'The council met on Tuesday. It approved the budget. Schools get more money.';
const FOUR = ['The council met.', 'It met on Tuesday.', 'It approved a budget.', 'Schools get more.'];
/** Three summaries of four sentences in "news"; the lead's default annotator labeled three sentences of the first. */
const SEEDS: SummarySeed[] = ['sum-001', 'sum-002', 'sum-003'].map((summaryId, i) => ({
  dataset: 'news',
  summaryId,
  docId: 'council',
  document: DOCUMENT,
  sentences: FOUR,
  labels: i === 0 ? ['faithful', 'faithful', 'unfaithful', null] : [],
}));
const ALL_FAITHFUL = FOUR.map(() => 'faithful' as const);

/** Alice's copy: she labeled every sentence of the three summaries (12 labels); the default annotator's three came with the copy. */
const aliceCopy = () => projectCopy('alice', SEEDS, { alice: { 1: ALL_FAITHFUL, 2: ALL_FAITHFUL, 3: ALL_FAITHFUL } });
/** Dora's copy was made from another import: sentence 0 of sum-003 differs from this project's. */
const doraCopy = () =>
  projectCopy(
    'dora',
    SEEDS.map((s, i) => (i === 2 ? { ...s, sentences: ['The council gathered.', ...FOUR.slice(1)] } : s)),
    { dora: { 3: ALL_FAITHFUL } },
  );

async function openProjectView(info: HostSeed = {}) {
  core = await createRendererCore(SEEDS, info);
  render(<App bridge={core.bridge} />);
  fireEvent.click(await screen.findByTestId('nav-project'));
  await screen.findByTestId('datasets');
}

const DESKTOP: HostSeed = { host: 'electron', fileDialogs: true, canSwitchProjects: true };

beforeEach(() => resetRendererState());
afterEach(() => cleanup());

describe('merge in the Project view', () => {
  it('is not offered in the browser (loupe serve reads no paths)', async () => {
    await openProjectView();
    expect(screen.queryByTestId('merge-choose')).toBeNull();
  });

  it('picks several copies, merges them, and shows each file’s result or problems', async () => {
    const [alice, dora] = [await aliceCopy(), await doraCopy()];
    await openProjectView(DESKTOP);
    core.override('dialog.openProjects', () => ({ paths: [alice, dora] }));
    fireEvent.click(screen.getByTestId('merge-choose'));
    const table = await screen.findByTestId('merge-results');
    expect(core.callsTo('merge.projects')).toEqual([{ paths: [alice, dora] }]);
    const rows = within(table).getAllByTestId('merge-result');
    expect(
      within(rows[0]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual([alice, '12', '3', 'alice, ann (new: alice)', 'none']);
    expect(rows[1]!.getAttribute('data-merged')).toBe('false');
    expect(rows[1]!.textContent).toContain('not merged');
    expect(rows[1]!.textContent).toContain('news/sum-003: sentence 0 differs');
  });

  it('does nothing when the dialog is cancelled', async () => {
    const alice = await aliceCopy();
    await openProjectView(DESKTOP);
    const picks: string[][] = [[], [alice]];
    core.override('dialog.openProjects', () => ({ paths: picks.shift() ?? [] }));
    fireEvent.click(screen.getByTestId('merge-choose'));
    await waitFor(() => expect(core.callsTo('dialog.openProjects')).toHaveLength(1));
    expect(screen.queryByTestId('merge-results')).toBeNull();
    // A second pick that merges: the cancelled one, answered before it, sent nothing.
    fireEvent.click(screen.getByTestId('merge-choose'));
    await screen.findByTestId('merge-results');
    expect(core.callsTo('merge.projects')).toEqual([{ paths: [alice] }]);
  });
});
