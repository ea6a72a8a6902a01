// @vitest-environment happy-dom
// @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}}
/**
 * The lead's accuracy tasks in the Judges view and the roles around them:
 * the request count shows before Start, a finished decomposition gives Annotate its claims,
 * systems under test are added and removed; an annotator link labels claims and key facts but
 * sees no task or judge control and never calls a lead-only method.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from '../../../renderer/App';
import { resetRendererState } from '../../../renderer/testing/transport';
import { ANNOTATOR_METHODS } from '../../../shared/api';
import { createRendererCore, type RendererCore, type SummarySeed } from '../../helpers/renderer-core';
import { decompositionAnswer, endpointConfig } from '../../helpers/renderer-core-tasks';
import { mockOpenAIForFile } from '../../helpers/mock-openai';

vi.mock('openai', async (original) => (await import('../../helpers/openai-in-node')).openaiInNode(await original()));

const SPECS: SummarySeed[] = [
  {
    docId: 'd1',
    document: 'The council met on Tuesday. The bridge costs 40 million.',
    sentences: ['The council met on Tuesday and voted.', 'The bridge costs 90 million.'],
  },
  { docId: 'd2', document: 'Rain flooded the valley.', sentences: ['Rain flooded the valley.'] },
];

const mock = await mockOpenAIForFile();
let core: RendererCore;
const press = (key: string) => fireEvent.keyDown(document.body, { key });

beforeEach(() => resetRendererState());
afterEach(() => cleanup());

describe('accuracy tasks (lead)', () => {
  it('shows the request count before Start, then runs the decomposition and Annotate shows the claims', async () => {
    core = await createRendererCore(SPECS);
    // The model splits a sentence at "and" (its subject kept), as a decomposition does.
    mock.setResponder(decompositionAnswer);
    await core.lead('judges.add', { name: 'qwen', config: endpointConfig({ baseUrl: mock.url }) });
    render(<App bridge={core.bridge} />);
    await screen.findByTestId('unit-current');
    press('t');
    const empty = await screen.findByTestId('claims-empty');
    fireEvent.click(within(empty).getByTestId('claims-start-task'));
    const tasks = await screen.findByTestId('accuracy-tasks');
    expect((within(tasks).getByTestId('accuracy-task') as HTMLSelectElement).value).toBe('claim_decomposition');
    expect(within(tasks).getByTestId('accuracy-start').hasAttribute('disabled')).toBe(true);
    expect(within(tasks).getByTestId('accuracy-plan-missing').textContent).toContain('Choose the judge');

    fireEvent.change(within(tasks).getByTestId('accuracy-judge'), { target: { value: 'qwen' } });
    // 3 sentences, none decomposed yet: 3 requests, shown before anything is sent.
    await waitFor(() => expect(within(tasks).getByTestId('accuracy-plan-requests').textContent).toBe('3 requests'));
    expect(core.callsTo('accuracy.start')).toHaveLength(0);
    expect(core.callsTo('accuracy.plan').at(-1)).toMatchObject({
      task: 'claim_decomposition',
      judge: 'qwen',
      dataset: 'demo',
    });
    expect(within(tasks).getByTestId('accuracy-template').textContent).toContain('atomic');

    fireEvent.click(within(tasks).getByTestId('accuracy-start'));
    await waitFor(() => expect(within(tasks).getByTestId('accuracy-run').getAttribute('data-state')).toBe('done'));
    expect(core.callsTo('accuracy.start')).toHaveLength(1);
    await waitFor(() => expect(within(tasks).getByTestId('accuracy-plan-requests').textContent).toBe('0 requests'));

    // Back in Annotate: the decomposition's claims, nested under their sentences.
    press('l');
    const pane = await screen.findByTestId('claims-pane');
    expect(within(pane).getByTestId('claim-0-0').textContent).toContain('The council met on Tuesday.');
    expect(within(pane).getByTestId('claim-0-1').textContent).toContain('voted.');
  });

  it('adds and removes a system under test, and plans its summaries', async () => {
    core = await createRendererCore(SPECS, {}, { allowedKeyEnv: ['OPENAI_API_KEY'] });
    render(<App bridge={core.bridge} />);
    await screen.findByTestId('unit-current');
    press('g');
    const tasks = await screen.findByTestId('accuracy-tasks');
    fireEvent.change(within(tasks).getByTestId('system-name'), { target: { value: 'gpt-small' } });
    fireEvent.change(within(tasks).getByTestId('system-model'), { target: { value: 'gpt-4o-mini' } });
    fireEvent.change(within(tasks).getByTestId('system-key-env'), { target: { value: 'OPENAI_API_KEY' } });
    fireEvent.click(within(tasks).getByTestId('system-add'));
    await within(tasks).findByTestId('system-row');
    expect(core.callsTo('systems.add')[0]!.config).toMatchObject({
      model: 'gpt-4o-mini',
      apiKeyEnv: 'OPENAI_API_KEY',
      baseUrl: 'http://127.0.0.1:8000/v1',
    });

    fireEvent.change(within(tasks).getByTestId('accuracy-task'), { target: { value: 'summary_generation' } });
    fireEvent.change(within(tasks).getByTestId('accuracy-system'), { target: { value: 'gpt-small' } });
    fireEvent.change(within(tasks).getByTestId('accuracy-dataset'), { target: { value: 'demo' } });
    await waitFor(() => expect(within(tasks).getByTestId('accuracy-plan-requests').textContent).toBe('2 requests'));

    fireEvent.click(within(tasks).getByTestId('system-remove'));
    await waitFor(() => expect(within(tasks).queryByTestId('system-row')).toBeNull());
    expect(core.callsTo('systems.remove')).toEqual([{ name: 'gpt-small' }]);
  });
});

describe('an annotator link', () => {
  it('labels claims and key facts, sees no task or judge control, and calls only annotator methods', async () => {
    core = await createRendererCore(
      SPECS,
      { role: 'annotator', annotator: 'bea' },
      { people: ['bea'], keyFacts: { d1: ['The bridge costs 40 million.'] } },
    );
    render(<App bridge={core.bridge} />);
    await screen.findByTestId('unit-current');
    press('t');
    const empty = await screen.findByTestId('claims-empty');
    expect(empty.textContent).toContain('Ask the project lead');
    expect(within(empty).queryByRole('button')).toBeNull();
    press('t');
    await screen.findByTestId('keyfacts-pane');
    press('u');
    await waitFor(() => expect(core.callsTo('keyfacts.record')).toHaveLength(1));
    expect(core.callsTo('keyfacts.record')[0]).toMatchObject({ annotator: 'bea', state: { label: 'not_covered' } });
    // They may edit the key facts (a proposal for the lead, not a version), without the lead's version history.
    press('w');
    const editor = await screen.findByTestId('set-editor');
    expect(within(editor).queryByTestId('version-history')).toBeNull();
    fireEvent.click(within(editor).getByTestId('set-editor-add-0'));
    fireEvent.change(within(editor).getAllByTestId('set-editor-text')[1]!, {
      target: { value: 'The council met on Tuesday.' },
    });
    fireEvent.click(within(editor).getByTestId('set-editor-save'));
    const pending = await screen.findByTestId('keyfacts-proposed');
    expect(pending.textContent).toBe(
      'Your edit of the key facts is proposal 1, pending: it changes nothing until the lead accepts it. You keep labeling version 1.',
    );
    expect(screen.getByTestId('keyfacts-pane').getAttribute('data-version')).toBe('1');
    expect(await core.accuracy.keyFactVersions('d1')).toHaveLength(1);
    expect(core.callsTo('keyfacts.edit')).toMatchObject([{ annotator: 'bea', basedOnVersion: 1 }]);
    // No way to the Judges view (tasks, systems) from here.
    press('g');
    expect(screen.queryByTestId('judges-view')).toBeNull();
    expect(screen.queryByTestId('accuracy-tasks')).toBeNull();
    const called = new Set(core.calls.map((call) => call.method));
    for (const method of called)
      expect(Object.prototype.hasOwnProperty.call(ANNOTATOR_METHODS, method), method).toBe(true);
    expect(called.has('keyfacts.load')).toBe(true);
    expect(called.has('claims.load')).toBe(true);
  });
});
