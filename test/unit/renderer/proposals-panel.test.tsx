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
import { createFakeCore, resetRendererState, type FakeCore } from '../../../renderer/testing/fakeCore';
import type { Proposal } from '../../../shared/api';

let core: FakeCore;

const proposal = (over: Partial<Proposal>): Proposal => ({
  id: 1,
  kind: 'keyfacts',
  author: 'alice',
  dataset: 'news',
  documentKey: 4,
  docId: 'council',
  summaryKey: null,
  summaryId: null,
  baseVersion: 1,
  currentVersion: 1,
  stale: false,
  note: 'The day matters.',
  status: 'pending',
  createdAt: '2026-12-02T10:00:00.000Z',
  decidedAt: null,
  decisionNote: null,
  resultVersion: null,
  diff: [
    { op: 'removed', text: 'A budget was approved.' },
    { op: 'added', text: 'A budget was approved on Tuesday.' },
    { op: 'same', text: 'Schools get 12 million dollars.' },
  ],
  ...over,
});

async function openWith(pending: Proposal[]) {
  core = createFakeCore([]);
  let list = [...pending];
  core.override('proposals.list', () => structuredClone(list));
  core.override('proposals.accept', ({ id }) => {
    const p = list.find((x) => x.id === id)!;
    if (p.stale) throw new ApiError({ code: 'conflict', message: `Proposal ${id} was made on version 1.` });
    list = list.filter((x) => x.id !== id);
    return { ...p, status: 'accepted', resultVersion: 2, currentVersion: 2, decidedAt: 'now' };
  });
  core.override('proposals.decline', ({ id, note }) => {
    const p = list.find((x) => x.id === id)!;
    list = list.filter((x) => x.id !== id);
    return { ...p, status: 'declined', decisionNote: note ?? null, decidedAt: 'now' };
  });
  render(<App bridge={core.bridge} />);
  fireEvent.click(await screen.findByTestId('nav-project'));
  return screen.findByTestId('proposals-panel');
}

beforeEach(() => resetRendererState());
afterEach(() => cleanup());

describe('the Proposals panel', () => {
  it('shows who proposed what, on which version, with the diff; Accept makes it current', async () => {
    const panel = await openWith([proposal({})]);
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
    const panel = await openWith([
      proposal({ id: 2, kind: 'claims', summaryKey: 7, summaryId: 'sum-001', stale: true, currentVersion: 3 }),
    ]);
    const item = await within(panel).findByTestId('proposal-2');
    expect(item.textContent).toContain(
      'alice proposes the claims of summary sum-001 of council (news), made on version 1',
    );
    expect(within(item).getByTestId('proposal-stale-2').textContent).toBe(
      'Version 3 is current now: this proposal cannot be accepted. Decline it and ask alice to propose again.',
    );
    expect((within(item).getByTestId('proposal-accept-2') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(item).getByTestId('proposal-reason-2'), { target: { value: 'Made on an old version.' } });
    fireEvent.click(within(item).getByTestId('proposal-decline-2'));
    await waitFor(() =>
      expect(core.callsTo('proposals.decline')).toEqual([{ id: 2, note: 'Made on an old version.' }]),
    );
    await waitFor(() =>
      expect(within(panel).getByTestId('proposals-decided').textContent).toBe(
        'Proposal 2 declined; alice sees it declined.',
      ),
    );
  });

  it('is hidden where the host has no proposals', async () => {
    core = createFakeCore([]);
    render(<App bridge={core.bridge} />);
    fireEvent.click(await screen.findByTestId('nav-project'));
    await screen.findByTestId('datasets');
    // The fake core answers proposals.list unsupported, as a host without them would.
    await waitFor(() => expect(core.callsTo('proposals.list')).toEqual([{ status: 'pending' }]));
    await waitFor(() => expect(screen.queryByTestId('proposals-panel')).toBeNull());
    expect(screen.getByTestId('datasets')).toBeTruthy();
  });
});
