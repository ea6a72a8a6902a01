// @vitest-environment happy-dom
/**
 * The lead's Proposals panel (Project view): who proposed what, on which version, the diff against
 * it, Accept and Decline (with a reason) reached with the keyboard; a stale proposal cannot be
 * accepted and says why; the empty state; hidden where the host has no proposals.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from '../../../renderer/App';
import { ApiError } from '../../../renderer/api/errors';
import { resetRendererState } from '../../../renderer/testing/transport';
import { createRendererCore, type RendererCore, type SummarySeed } from '../../helpers/renderer-core';

let core: RendererCore;

const SEEDS: SummarySeed[] = [
  {
    dataset: 'news',
    summaryId: 'sum-001',
    docId: 'council',
    document: 'The council approved a budget on Tuesday. Schools get 12 million dollars.',
    sentences: ['A budget was approved.', 'Schools get money.'],
  },
];
/** The key facts of document council and the claims of sum-001, imported (version 1 of each); alice a person of the project. */
const OPTIONS = {
  people: ['alice'],
  keyFacts: { council: ['A budget was approved.', 'Schools get 12 million dollars.'] },
  claims: { 1: [['A budget was approved.'], ['Schools get money.']] },
};

/** Alice's edit of the key facts from her link, on version 1: a pending proposal. */
async function aliceProposesKeyFacts(): Promise<number> {
  const { documentKey } = await core.lead('keyfacts.load', { key: 1, annotator: 'ann' });
  const { proposal } = await core.asAnnotator('alice', 'keyfacts.edit', {
    documentKey,
    annotator: 'alice',
    basedOnVersion: 1,
    facts: [
      { text: 'A budget was approved on Tuesday.', from: [] },
      { text: 'Schools get 12 million dollars.', from: [] },
    ],
    note: 'The day matters.',
  });
  return proposal!.id;
}

/** Alice's edit of sum-001's claims on version 1, then two edits of the lead's: version 3 is current, her proposal stale. */
async function aliceProposesStaleClaims(): Promise<number> {
  const units = core.summaries[0]!.units;
  const claims = (texts: string[]) => texts.map((text, i) => ({ sentenceUnitId: units[i]!.id, text, from: [] }));
  const { proposal } = await core.asAnnotator('alice', 'claims.edit', {
    key: 1,
    annotator: 'alice',
    basedOnVersion: 1,
    claims: claims(['A budget was approved.', 'Schools get 12 million dollars.']),
  });
  for (const basedOnVersion of [1, 2])
    await core.lead('claims.edit', {
      key: 1,
      annotator: 'ann',
      basedOnVersion,
      claims: claims(['A budget was approved.', `Schools get money (edit ${basedOnVersion}).`]),
    });
  return proposal!.id;
}

async function openWith(propose: () => Promise<unknown>) {
  core = await createRendererCore(SEEDS, {}, OPTIONS);
  await propose();
  render(<App bridge={core.bridge} />);
  fireEvent.click(await screen.findByTestId('nav-project'));
  return screen.findByTestId('proposals-panel');
}

beforeEach(() => resetRendererState());
afterEach(() => cleanup());

describe('the Proposals panel', () => {
  it('shows who proposed what, on which version, with the diff; Accept makes it current', async () => {
    const panel = await openWith(aliceProposesKeyFacts);
    const item = await within(panel).findByTestId('proposal-1');
    expect(item.textContent).toContain('alice proposes the key facts of document council (news), made on version 1');
    expect(item.textContent).toContain('Note: The day matters.');
    const diff = within(item).getByTestId('proposal-diff-1');
    expect([...diff.querySelectorAll('li')].map((li) => [li.dataset.op, li.textContent])).toEqual([
      ['removed', '− removed: A budget was approved.'],
      ['added', '+ added: A budget was approved on Tuesday.'],
      ['same', '  unchanged: Schools get 12 million dollars.'],
    ]);
    const accept = within(item).getByRole('button', { name: 'Accept proposal 1 by alice' });
    accept.focus();
    expect(document.activeElement).toBe(accept);
    fireEvent.click(accept);
    await waitFor(() =>
      expect(within(panel).getByTestId('proposals-decided').textContent).toBe(
        'Proposal 1 accepted: version 2 of the key facts of document council is current for everyone.',
      ),
    );
    expect(core.callsTo('proposals.accept')).toEqual([{ id: 1 }]);
    expect(within(panel).getByTestId('proposals-empty').textContent).toBe('No pending proposals.');
  });

  it('declines with the reason typed; a stale proposal cannot be accepted and says why', async () => {
    let id = 0;
    const panel = await openWith(async () => (id = await aliceProposesStaleClaims()));
    const item = await within(panel).findByTestId(`proposal-${id}`);
    expect(item.textContent).toContain(
      'alice proposes the claims of summary sum-001 of council (news), made on version 1',
    );
    expect(within(item).getByTestId(`proposal-stale-${id}`).textContent).toBe(
      'Version 3 is current now: this proposal cannot be accepted. Decline it and ask alice to propose again.',
    );
    expect((within(item).getByTestId(`proposal-accept-${id}`) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(item).getByTestId(`proposal-reason-${id}`), {
      target: { value: 'Made on an old version.' },
    });
    fireEvent.click(within(item).getByTestId(`proposal-decline-${id}`));
    await waitFor(() => expect(core.callsTo('proposals.decline')).toEqual([{ id, note: 'Made on an old version.' }]));
    await waitFor(() =>
      expect(within(panel).getByTestId('proposals-decided').textContent).toBe(
        `Proposal ${id} declined; alice sees it declined.`,
      ),
    );
    const [declined] = await core.lead('proposals.list', { author: 'alice' });
    expect(declined).toMatchObject({ id, status: 'declined', decisionNote: 'Made on an old version.' });
  });

  it('is hidden where the host has no proposals', async () => {
    core = await createRendererCore(SEEDS);
    // An older host, without proposals, answers unsupported.
    core.override('proposals.list', () => {
      throw new ApiError({ code: 'unsupported', message: 'proposals.list is not supported by this host.' });
    });
    render(<App bridge={core.bridge} />);
    fireEvent.click(await screen.findByTestId('nav-project'));
    await screen.findByTestId('datasets');
    await waitFor(() => expect(core.callsTo('proposals.list')).toEqual([{ status: 'pending' }]));
    await waitFor(() => expect(screen.queryByTestId('proposals-panel')).toBeNull());
    expect(screen.getByTestId('datasets')).toBeTruthy();
  });
});
