// @vitest-environment happy-dom
/**
 * Open views refetch what a change event says changed, without a reload: Annotate's scaffold (a
 * scaffold the lead imported appears for an annotator link in Scaffold mode) and claims (a set the
 * lead made), and the Judges list (a judge added elsewhere, a burst coalesced); an event this link
 * may not hear changes nothing.
 */
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EndpointConfigSchema } from '../../../shared/judges/config';
import { deferred, resetRendererState } from '../../../renderer/testing/transport';
import { changeEvent, createRendererCore, type RendererCore } from '../../helpers/renderer-core';
import { CAMERA_SCAFFOLD, CAMERA_SPECS, press, renderAnnotate, toScaffold } from '../../helpers/scaffold-ui';
import { judgesViewLifecycle, oneSentenceRendererCore, showJudgesView } from '../../helpers/judges-view';

describe('Annotate hears of an imported scaffold', () => {
  beforeEach(() => resetRendererState());
  afterEach(() => cleanup());

  it('an annotator link in Scaffold mode shows the scaffold the lead imported, and loads it once per event', async () => {
    const core = await createRendererCore(
      CAMERA_SPECS,
      { role: 'annotator', annotator: 'alice' },
      { people: ['alice'] },
    );
    await renderAnnotate(core);
    await toScaffold();
    await screen.findByTestId('scaffold-empty');
    const loads = () => core.callsTo('scaffold.load').length;
    const before = loads();

    // The lead imports a scaffold (the real import); a judge added meanwhile is none of this
    // link's business (filtered as the hosts filter): nothing is fetched for it.
    await core.upload('scaffold.jsonl', [{ dataset: 'demo', doc_id: 'camera', ...CAMERA_SCAFFOLD }], 'scaffold');
    act(() => core.change(changeEvent({ namespace: 'judges', what: 'judges.add' })));
    expect(loads()).toBe(before);

    act(() => core.change(changeEvent({ namespace: 'imports', what: 'imports.scaffold', dataset: 'demo' })));
    await screen.findByTestId('scaffold-item-M1');
    expect(screen.getByTestId('scaffold-item-M1').textContent).toContain(
      'Users choose which apps can access the camera.',
    );
    expect(screen.queryByTestId('scaffold-empty')).toBeNull();
    expect(loads()).toBe(before + 1);
  });
});

describe('Annotate hears of a claim set made elsewhere', () => {
  beforeEach(() => resetRendererState());
  afterEach(() => cleanup());

  it('an annotator link in Claims mode shows the claims the lead made in another tab', async () => {
    const core = await createRendererCore(
      CAMERA_SPECS,
      { role: 'annotator', annotator: 'alice' },
      { people: ['alice'] },
    );
    await renderAnnotate(core);
    press('t'); // Claims mode
    await screen.findByTestId('claims-empty');
    const summary = core.summaries[0]!;
    // The lead's edit from its own tab: through dispatch as the lead, as the server stores it.
    await core.lead('claims.edit', {
      key: summary.key,
      annotator: 'lead-person',
      basedOnVersion: null,
      claims: [{ sentenceUnitId: summary.units[0]!.id, text: 'Users choose which apps use the camera.', from: [] }],
    });
    act(() => core.change(changeEvent({ namespace: 'claims', what: 'claims.edit' })));
    await screen.findByTestId('claims-pane');
    expect(screen.getByTestId('claim-current').textContent).toContain('Users choose which apps use the camera.');
  });
});

describe('the Judges list hears of a judge added elsewhere', () => {
  judgesViewLifecycle();

  const endpoint = (model: string) =>
    EndpointConfigSchema.parse({ kind: 'endpoint', baseUrl: 'http://127.0.0.1:8000/v1', model });

  /** The one-sentence project with the judge "qwen" added through the core, the Judges view open. */
  async function judgesWithQwen(): Promise<RendererCore> {
    const core = await oneSentenceRendererCore();
    await core.lead('judges.add', { name: 'qwen', config: endpoint('Qwen/Qwen3-8B') });
    await showJudgesView(core);
    return core;
  }

  it('lists the new judge after its change event, without a reload', async () => {
    const core = await judgesWithQwen();
    await screen.findByTestId('judge-row-qwen');
    expect(screen.queryByTestId('judge-row-llama-added')).toBeNull();
    // Another tab adds a judge: through dispatch as the lead, then the event the bus sends.
    await core.lead('judges.add', { name: 'llama-added', config: endpoint('llama') });
    act(() => core.change(changeEvent({ namespace: 'judges', what: 'judges.add' })));
    await waitFor(() => expect(screen.getByTestId('judge-row-llama-added')).toBeTruthy());
  });

  it('coalesces a burst: events that arrive while the list is being fetched make one more fetch, not one each', async () => {
    const core = await judgesWithQwen();
    await screen.findByTestId('judge-row-qwen');
    const gate = deferred();
    const base = core.base('judges.list');
    core.override('judges.list', async (input) => {
      await gate.promise;
      return base(input);
    });
    const lists = () => core.callsTo('judges.list').length;
    const before = lists();
    act(() => core.change(changeEvent({ namespace: 'judges', what: 'judges.add' })));
    await waitFor(() => expect(lists()).toBe(before + 1));
    for (let i = 0; i < 5; i += 1) act(() => core.change(changeEvent({ namespace: 'judges', what: 'judges.update' })));
    expect(lists()).toBe(before + 1);
    await act(async () => gate.resolve());
    await waitFor(() => expect(lists()).toBe(before + 2));
  });
});
