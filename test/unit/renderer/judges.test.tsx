// @vitest-environment happy-dom
/**
 * Judges view: the list, the add/edit form with its checks and the live request
 * preview, new versions, removal, background runs (start, polling, pause/resume/cancel, the
 * circuit), reattaching, keys, and blindness: nothing of it reaches the annotation store.
 */
import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from '../../../renderer/App';
import {
  PLACEHOLDERS as UI_PLACEHOLDERS,
  RESERVED_BODY_FIELDS as UI_RESERVED,
  checkDraft,
  endpointDraft,
} from '../../../renderer/components/judges/draft';
import { useAnnotation } from '../../../renderer/state/annotation';
import { createFakeCore, type FakeCore } from '../../../renderer/testing/fakeCore';
import {
  baselineConfig,
  endpointConfig,
  installFakeJudges,
  judgeInfo,
  runStatus,
  type FakeJudges,
} from '../../../renderer/testing/fakeJudges';
import type { HostInfo, JudgeInfo, JudgeRunStatus } from '../../../shared/api';
import {
  BASELINE_JUDGE_NAME,
  DEFAULT_TEMPLATE,
  PLACEHOLDERS,
  RESERVED_BODY_FIELDS,
} from '../../../shared/judges/config';
import { judgesViewLifecycle, oneSentenceCore, showJudgesView } from '../../helpers/judges-view';

let core: FakeCore;
let judges: FakeJudges;

interface OpenOptions {
  judges?: JudgeInfo[];
  runs?: JudgeRunStatus[];
  info?: Partial<HostInfo>;
}

async function openJudgesView(options: OpenOptions = {}) {
  core = oneSentenceCore(options.info);
  judges = installFakeJudges(core, { judges: options.judges ?? [], runs: options.runs ?? [] });
  await showJudgesView(core);
}

const qwen = () =>
  judgeInfo('qwen', endpointConfig({ apiKeyEnv: 'OPENAI_API_KEY' }), {
    predictions: { ok: 120, parseErrors: 3, failed: 2, soft: 0 },
  });

const field = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;
const type = (testId: string, value: string) => fireEvent.change(field(testId), { target: { value } });

async function openAddForm() {
  fireEvent.click(screen.getByTestId('judges-add-endpoint'));
  return screen.findByTestId('judge-form');
}

function lastCall<T>(calls: T[]): T {
  const last = calls[calls.length - 1];
  if (last === undefined) throw new Error('no call');
  return last;
}

const sleep = (ms: number) => act(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));

judgesViewLifecycle();

describe('the list', () => {
  it('explains judges when there are none and adds the offline baseline, labelled as a baseline everywhere', async () => {
    await openJudgesView();
    const empty = screen.getByTestId('judges-empty');
    expect(empty.textContent).toContain('offline baseline');
    expect(empty.textContent).toContain('endpoint judge');
    fireEvent.click(within(empty).getByTestId('judges-add-baseline'));

    await waitFor(() =>
      expect(core.callsTo('judges.add')).toEqual([{ name: BASELINE_JUDGE_NAME, config: baselineConfig() }]),
    );
    const row = await screen.findByTestId(`judge-row-${BASELINE_JUDGE_NAME}`);
    expect(within(row).getByTestId('judge-baseline-tag').textContent).toBe('baseline');
    expect(within(row).getByTestId('judge-kind').textContent).toContain('baseline (offline rule, no model)');
    expect(row.textContent).toContain('offline');
    // The run panel says it too, and the baseline cannot be added twice.
    const run = screen.getByTestId('judge-run');
    expect(run.textContent).toContain('baseline');
    expect(within(run).getByTestId('run-start').textContent).toContain('Run the baseline');
    expect(screen.queryByTestId('judges-add-baseline')).toBeNull();
    expect(screen.getByTestId('judges-notice').textContent).toContain(BASELINE_JUDGE_NAME);
  });

  it('shows kind, model, base URL, version, counts and where the key comes from', async () => {
    const stored = judgeInfo('gpt', endpointConfig({ baseUrl: 'https://api.example.com/v1', model: 'gpt-4o' }), {
      keySource: 'stored',
    });
    const imported = judgeInfo('frank-judge', null, {
      kind: 'imported',
      predictions: { ok: 40, parseErrors: 0, failed: 0, soft: 0 },
    });
    await openJudgesView({ judges: [qwen(), stored, imported] });

    const row = screen.getByTestId('judge-row-qwen');
    const cells = within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells[1]).toBe('endpoint');
    expect(cells[2]).toBe('Qwen/Qwen3-8B');
    expect(cells[3]).toBe('http://127.0.0.1:8000/v1');
    expect(within(row).getByTestId('judge-version').textContent).toBe(qwen().configHash!.slice(0, 12));
    expect(cells.slice(5, 9)).toEqual(['120', '0', '3', '2']);
    expect(within(row).getByTestId('judge-key').textContent).toBe('from $OPENAI_API_KEY');
    expect(within(screen.getByTestId('judge-row-gpt')).getByTestId('judge-key').textContent).toBe(
      'stored in the OS keychain',
    );

    // Imported predictions: no configuration to edit or run.
    const importedRow = screen.getByTestId('judge-row-frank-judge');
    expect(within(importedRow).getByTestId('judge-kind').textContent).toBe('imported predictions');
    expect(within(importedRow).queryByTestId('judge-edit')).toBeNull();
    fireEvent.click(within(importedRow).getByTestId('judge-select'));
    expect(screen.getByTestId('judge-run-unavailable').textContent).toContain('imported');
  });

  it('renders names, models and messages as text, never as markup', async () => {
    const hostile = '<img src=x onerror="window.pwned=1">';
    const judge = judgeInfo(`x${hostile}`, endpointConfig({ model: hostile }), { description: hostile });
    const run = runStatus({
      judge: judge.name,
      state: 'failed',
      message: hostile,
      errors: [{ kind: 'server_error', count: 1, lastMessage: hostile }],
    });
    await openJudgesView({ judges: [judge], runs: [run] });
    expect(screen.getByTestId('judges-view').querySelector('img')).toBeNull();
    expect(screen.getByTestId('run-message').textContent).toBe(hostile);
    expect(within(screen.getByTestId('run-error-server_error')).getAllByRole('cell')[2]!.textContent).toBe(hostile);
  });

  it('opens with G from the Annotate view, but not while typing', async () => {
    core = createFakeCore([{ key: 1, document: null, sentences: ['A sentence without a document.'] }]);
    installFakeJudges(core);
    render(<App bridge={core.bridge} />);
    const attach = await screen.findByTestId('attach-document-text');
    fireEvent.keyDown(attach, { key: 'g' });
    expect(screen.queryByTestId('judges-view')).toBeNull();
    fireEvent.keyDown(document.body, { key: 'g' });
    await screen.findByTestId('judges-view');
    expect(screen.getByTestId('nav-judges').getAttribute('aria-current')).toBe('page');
    expect(screen.getByTestId('nav-judges').textContent).toContain('G');
  });
});

describe('the form', () => {
  it('checks the placeholders and the extra fields inline, and sends nothing while they are wrong', async () => {
    await openJudgesView({ judges: [qwen()] });
    await openAddForm();
    type('judge-name', 'local');
    type('judge-template', 'Is this faithful? {document}');
    expect(screen.getByTestId('judge-template-error').textContent).toContain('{sentence}');
    type('judge-template', 'Nothing here');
    expect(screen.getByTestId('judge-template-error').textContent).toContain('{document} and {sentence}');

    type('judge-extra', '{"chat_template_kwargs": ');
    expect(screen.getByTestId('judge-extra-error').textContent).toContain('Not valid JSON');
    type('judge-extra', '[1, 2]');
    expect(screen.getByTestId('judge-extra-error').textContent).toContain('Must be a JSON object');
    type('judge-extra', '{"temperature": 0.7}');
    expect(screen.getByTestId('judge-extra-error').textContent).toContain('"temperature" is set by Loupe');
    expect(field('judge-extra').getAttribute('aria-invalid')).toBe('true');

    type('judge-top-p', '0');
    expect(screen.getByTestId('judge-top-p-error').textContent).toContain('above 0');
    type('judge-name', 'qwen');
    expect(screen.getByTestId('judge-name-error').textContent).toContain('exists already');

    fireEvent.click(screen.getByTestId('judge-save'));
    expect(await screen.findByTestId('judge-form-invalid')).toBeTruthy();
    expect(screen.getByTestId('judge-preview').textContent).toContain('Fix the marked fields');
    expect(core.callsTo('judges.add')).toEqual([]);

    // Fixed: the errors go away.
    type('judge-name', 'local');
    fireEvent.click(screen.getByTestId('judge-template-reset'));
    type('judge-extra', '{"chat_template_kwargs": {"enable_thinking": false}}');
    type('judge-top-p', '1');
    for (const id of ['judge-name-error', 'judge-template-error', 'judge-extra-error', 'judge-top-p-error'])
      expect(screen.queryByTestId(id)).toBeNull();
    expect(field('judge-template').value).toBe(DEFAULT_TEMPLATE);
  });

  it('in the browser: asks for the environment variable, never a key, and adds the typed config', async () => {
    await openJudgesView({ judges: [qwen()], info: { host: 'web' } });
    await openAddForm();
    expect(screen.queryByTestId('judge-api-key')).toBeNull();
    expect(screen.getByTestId('judge-form').textContent).toContain('loupe serve');
    type('judge-name', 'ollama-llama');
    type('judge-base-url', 'http://127.0.0.1:11434/v1/');
    type('judge-model', 'llama3.1:8b');
    type('judge-api-key-env', 'OLLAMA_KEY');
    type('judge-temperature', '0.2');
    type('judge-max-tokens', '64');
    fireEvent.click(field('judge-soft'));
    type('judge-concurrency', '2');
    type('judge-timeout', '30');
    type('judge-retries', '1');
    type('judge-extra', '{"seed": 7}');
    fireEvent.submit(screen.getByTestId('judge-form'));

    await waitFor(() => expect(core.callsTo('judges.add')).toHaveLength(1));
    expect(core.callsTo('judges.add')[0]).toEqual({
      name: 'ollama-llama',
      config: {
        kind: 'endpoint',
        baseUrl: 'http://127.0.0.1:11434/v1',
        baseUrls: ['http://127.0.0.1:11434/v1'],
        model: 'llama3.1:8b',
        apiKeyEnv: 'OLLAMA_KEY',
        template: DEFAULT_TEMPLATE,
        temperature: 0.2,
        topP: 1,
        maxTokens: 64,
        soft: true,
        concurrency: 2,
        timeoutS: 30,
        retries: 1,
        extra: { seed: 7 },
      },
    });
    await waitFor(() => expect(screen.queryByTestId('judge-form')).toBeNull());
    const row = await screen.findByTestId('judge-row-ollama-llama');
    expect(within(row).getByTestId('judge-key').textContent).toBe('from $OLLAMA_KEY');
  });

  it('on the desktop: a password field whose key goes to the keychain through judges.add, and is never shown', async () => {
    await openJudgesView({ judges: [qwen()], info: { host: 'electron', fileDialogs: true, canSwitchProjects: true } });
    await openAddForm();
    // The environment variable is only the fallback here, folded away.
    expect((screen.getByTestId('judge-key-env-details') as HTMLDetailsElement).open).toBe(false);
    expect(field('judge-api-key').type).toBe('password');
    expect(screen.getByTestId('judge-form').textContent).toContain('Stored in the OS keychain, never in the project');
    type('judge-name', 'hosted');
    type('judge-base-url', 'https://api.example.com/v1');
    type('judge-model', 'gpt-4o-mini');
    type('judge-api-key', 'sk-test-secret-123');
    fireEvent.click(screen.getByTestId('judge-save'));

    await waitFor(() => expect(core.callsTo('judges.add')).toHaveLength(1));
    const input = core.callsTo('judges.add')[0]!;
    expect(input.apiKey).toBe('sk-test-secret-123');
    expect(input.config).toEqual(endpointConfig({ baseUrl: 'https://api.example.com/v1', model: 'gpt-4o-mini' }));
    expect(JSON.stringify(input.config)).not.toContain('sk-test');
    await screen.findByTestId('judge-row-hosted');
    expect(document.body.textContent).not.toContain('sk-test-secret-123');
    expect(within(screen.getByTestId('judge-row-hosted')).getByTestId('judge-key').textContent).toBe(
      'stored in the OS keychain',
    );
  });

  it('shows the exact request for the edited config, debounced, with the key redacted by the core', async () => {
    await openJudgesView({ judges: [qwen()], info: { host: 'web' } });
    await openAddForm();
    const json = await screen.findByTestId('judge-preview-json');
    expect(lastCall(core.callsTo('judges.preview'))).toEqual({ config: endpointConfig() });
    expect(JSON.parse(json.textContent!)).toMatchObject({
      method: 'POST',
      url: 'http://127.0.0.1:8000/v1/chat/completions',
      body: { model: 'Qwen/Qwen3-8B', temperature: 0, top_p: 1, max_tokens: 8192 },
    });

    const before = core.callsTo('judges.preview').length;
    type('judge-model', 'm');
    type('judge-model', 'mi');
    type('judge-model', 'mistral');
    type('judge-api-key-env', 'MISTRAL_KEY');
    fireEvent.click(field('judge-soft'));
    // Nothing is asked while the user is still typing.
    await sleep(150);
    expect(core.callsTo('judges.preview').length).toBe(before);
    expect(screen.getByTestId('judge-preview').getAttribute('data-status')).toBe('loading');
    await waitFor(() =>
      expect(JSON.parse(screen.getByTestId('judge-preview-json').textContent!).body.model).toBe('mistral'),
    );
    await sleep(350);
    // One request for the burst of edits, with the edited config.
    expect(core.callsTo('judges.preview').length).toBe(before + 1);
    expect(lastCall(core.callsTo('judges.preview'))).toEqual({
      config: endpointConfig({ model: 'mistral', apiKeyEnv: 'MISTRAL_KEY', soft: true }),
    });
    const request = JSON.parse(screen.getByTestId('judge-preview-json').textContent!);
    expect(request.headers.Authorization).toBe('Bearer <key from $MISTRAL_KEY>');
    expect(request.body).toMatchObject({ logprobs: true, top_logprobs: 20 });
    expect(request.body.messages[0].content).toContain('The mayor opened the bridge on Monday.');
  });

  it('says when an update makes a new judge version, and when it does not', async () => {
    await openJudgesView({ judges: [qwen()] });
    fireEvent.click(within(screen.getByTestId('judge-row-qwen')).getByTestId('judge-edit'));
    await screen.findByTestId('judge-form');
    expect(field('judge-name').readOnly).toBe(true);
    type('judge-temperature', '0.7');
    await waitFor(() =>
      expect(screen.getByTestId('judge-preview-version').getAttribute('data-new-version')).toBe('true'),
    );
    expect(screen.getByTestId('judge-preview-version').textContent).toContain('saving makes a new judge version');
    fireEvent.click(screen.getByTestId('judge-save'));

    await waitFor(() => expect(core.callsTo('judges.update')).toHaveLength(1));
    expect(core.callsTo('judges.update')[0]).toEqual({
      name: 'qwen',
      config: endpointConfig({ apiKeyEnv: 'OPENAI_API_KEY', temperature: 0.7 }),
    });
    const notice = await screen.findByTestId('judges-notice');
    expect(notice.textContent).toContain('new judge version');
    expect(notice.textContent).toContain('earlier predictions are kept under the old version and never mixed');
    expect(within(screen.getByTestId('judge-row-qwen')).getByTestId('judge-version').textContent).toBe(
      judges.judges[0]!.configHash!.slice(0, 12),
    );

    // Concurrency does not change answers: same version.
    fireEvent.click(within(screen.getByTestId('judge-row-qwen')).getByTestId('judge-edit'));
    await screen.findByTestId('judge-form');
    type('judge-concurrency', '32');
    await waitFor(() =>
      expect(screen.getByTestId('judge-preview-version').textContent).toContain('same as the saved version'),
    );
    fireEvent.click(screen.getByTestId('judge-save'));
    await waitFor(() => expect(core.callsTo('judges.update')).toHaveLength(2));
    await waitFor(() => expect(screen.getByTestId('judges-notice').textContent).toContain('same judge version'));
  });

  it('on the desktop keeps, replaces or forgets the stored key on update', async () => {
    const stored = judgeInfo('gpt', endpointConfig({ model: 'gpt-4o' }), { keySource: 'stored' });
    await openJudgesView({ judges: [stored], info: { host: 'electron', fileDialogs: true, canSwitchProjects: true } });
    const edit = async () => {
      fireEvent.click(within(screen.getByTestId('judge-row-gpt')).getByTestId('judge-edit'));
      await screen.findByTestId('judge-form');
    };
    await edit();
    fireEvent.click(screen.getByTestId('judge-save'));
    await waitFor(() => expect(core.callsTo('judges.update')).toHaveLength(1));
    expect(core.callsTo('judges.update')[0]).not.toHaveProperty('apiKey');

    await waitFor(() => expect(screen.queryByTestId('judge-form')).toBeNull());
    await edit();
    fireEvent.click(screen.getByTestId('judge-forget-key'));
    fireEvent.click(screen.getByTestId('judge-save'));
    await waitFor(() => expect(core.callsTo('judges.update')).toHaveLength(2));
    expect(core.callsTo('judges.update')[1]!.apiKey).toBeNull();
  });

  it('Esc cancels the edit without saving; a refused save stays in the form with the reason', async () => {
    await openJudgesView({ judges: [qwen()] });
    await openAddForm();
    type('judge-name', 'other');
    fireEvent.keyDown(field('judge-model'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('judge-form')).toBeNull());
    expect(core.callsTo('judges.add')).toEqual([]);

    core.override('judges.add', () => {
      throw new Error('This host does not store API keys.');
    });
    await openAddForm();
    type('judge-name', 'other');
    fireEvent.submit(screen.getByTestId('judge-form'));
    expect((await screen.findByTestId('judge-form-error')).textContent).toContain('does not store API keys');
    expect(screen.getByTestId('judge-form')).toBeTruthy();
  });

  it('mirrors the core: placeholders and reserved request fields are the contract’s', () => {
    expect([...UI_PLACEHOLDERS]).toEqual([...PLACEHOLDERS]);
    expect([...UI_RESERVED]).toEqual([...RESERVED_BODY_FIELDS]);
    const check = checkDraft({ ...endpointDraft('a', endpointConfig() as never), baseUrl: 'http://user:pw@host/v1' });
    expect(check.errors.baseUrl).toContain('user:password');
    expect(check.ok).toBe(false);
  });
});

describe('removing', () => {
  it('states how many predictions go, and removes only when confirmed', async () => {
    const twoVersions = { ...qwen(), versions: 2 };
    await openJudgesView({ judges: [twoVersions] });
    fireEvent.click(within(screen.getByTestId('judge-row-qwen')).getByTestId('judge-remove'));
    const confirm = screen.getByTestId('judge-remove-confirm');
    expect(within(confirm).getByTestId('judge-remove-count').textContent).toBe('125');
    expect(confirm.textContent).toContain('120 labeled, 3 unparsable, 2 failed');
    expect(confirm.textContent).toContain('its 1 earlier version');
    fireEvent.click(within(confirm).getByTestId('judge-remove-no'));
    expect(screen.queryByTestId('judge-remove-confirm')).toBeNull();
    expect(core.callsTo('judges.remove')).toEqual([]);

    fireEvent.click(within(screen.getByTestId('judge-row-qwen')).getByTestId('judge-remove'));
    fireEvent.click(screen.getByTestId('judge-remove-yes'));
    await waitFor(() => expect(core.callsTo('judges.remove')).toEqual([{ name: 'qwen' }]));
    expect((await screen.findByTestId('judges-notice')).textContent).toContain('125 stored predictions');
    await screen.findByTestId('judges-empty');
  });

  it('names the baseline as a baseline in the confirmation', async () => {
    await openJudgesView({ judges: [judgeInfo(BASELINE_JUDGE_NAME, baselineConfig())] });
    fireEvent.click(screen.getByTestId('judge-remove'));
    expect(screen.getByTestId('judge-remove-confirm').textContent).toContain('the offline baseline');
  });
});

describe('runs', () => {
  const buttons = () => ({
    start: screen.getByTestId('run-start') as HTMLButtonElement,
    pause: screen.getByTestId('run-pause') as HTMLButtonElement,
    resume: screen.getByTestId('run-resume') as HTMLButtonElement,
    cancel: screen.getByTestId('run-cancel') as HTMLButtonElement,
  });

  it('starts, polls the status, shows progress, and pauses, resumes and cancels by run id', async () => {
    await openJudgesView({ judges: [qwen()] });
    judges.statusScript = [
      { done: 4, requests: 4, ratePerSecond: 0.5 },
      {
        done: 40,
        cached: 5,
        requests: 38,
        ok: 33,
        parseErrors: 1,
        failed: 1,
        ratePerSecond: 4.25,
        etaSeconds: 125,
        tokens: { prompt: 123456, completion: 789 },
        errors: [
          { kind: 'rate_limited', count: 3, lastMessage: '429 Too Many Requests' },
          { kind: 'timeout', count: 1, lastMessage: 'no answer within 120 s' },
        ],
        message: 'running',
      },
    ];
    fireEvent.change(screen.getByTestId('run-dataset'), { target: { value: 'demo' } });
    fireEvent.click(screen.getByTestId('run-only-sampled'));
    // Pause, Resume and Cancel appear with a run.
    expect(screen.queryByTestId('run-pause')).toBeNull();
    fireEvent.click(screen.getByTestId('run-start'));

    await waitFor(() =>
      expect(core.callsTo('judges.start')).toEqual([{ name: 'qwen', dataset: 'demo', onlySampled: true }]),
    );
    await waitFor(() => expect(screen.getByTestId('run-rate').textContent).toBe('4.3 sentences/s'));
    expect(core.callsTo('judges.status').every((input) => input.runId === 'run-1')).toBe(true);
    expect(screen.getByTestId('run-progress').textContent).toContain('40 / 100');
    expect(screen.getByTestId('run-eta').textContent).toBe('2 min 5 s');
    expect(screen.getByTestId('run-tokens').textContent).toBe(`${(123456).toLocaleString()} in / 789 out`);
    expect(screen.getByTestId('run-cached').textContent).toBe('5');
    expect(screen.getByTestId('run-requests').textContent).toBe('38');
    expect(screen.getByTestId('run-outcomes').textContent).toBe('33 labeled · 1 unparseable answer · 1 failed');
    const rows = within(screen.getByTestId('run-errors')).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['rate limited (429)', '3', '429 Too Many Requests'],
      ['timeout', '1', 'no answer within 120 s'],
    ]);
    expect(within(screen.getByTestId('judge-row-qwen')).getByTestId('judge-run-tag').textContent).toBe('running 40%');
    expect(buttons()).toMatchObject({
      start: { disabled: true },
      pause: { disabled: false },
      resume: { disabled: true },
      cancel: { disabled: false },
    });
    expect(within(screen.getByTestId('judge-row-qwen')).getByTestId('judge-edit')).toHaveProperty('disabled', true);

    fireEvent.click(buttons().pause);
    await waitFor(() => expect(screen.getByTestId('run-status').getAttribute('data-state')).toBe('paused'));
    expect(core.callsTo('judges.pause')).toEqual([{ runId: 'run-1' }]);
    expect(screen.queryByTestId('run-circuit')).toBeNull();
    expect(buttons()).toMatchObject({
      start: { disabled: true },
      pause: { disabled: true },
      resume: { disabled: false },
      cancel: { disabled: false },
    });
    // A paused run is not polled.
    const polls = core.callsTo('judges.status').length;
    await sleep(120);
    expect(core.callsTo('judges.status').length).toBe(polls);

    fireEvent.click(buttons().resume);
    await waitFor(() => expect(core.callsTo('judges.resume')).toEqual([{ runId: 'run-1' }]));
    await waitFor(() => expect(core.callsTo('judges.status').length).toBeGreaterThan(polls));
    expect(buttons()).toMatchObject({ pause: { disabled: false }, resume: { disabled: true } });

    fireEvent.click(buttons().cancel);
    await waitFor(() => expect(screen.getByTestId('run-status').getAttribute('data-state')).toBe('cancelled'));
    expect(core.callsTo('judges.cancel')).toEqual([{ runId: 'run-1' }]);
    await waitFor(() =>
      expect(buttons()).toMatchObject({
        start: { disabled: false },
        pause: { disabled: true },
        resume: { disabled: true },
        cancel: { disabled: true },
      }),
    );
  });

  it('shows a run paused by the circuit distinctly, and the note about missing log-probabilities', async () => {
    await openJudgesView({ judges: [qwen()] });
    judges.statusScript = [
      {
        state: 'paused',
        pauseReason: 'endpoint_unreachable',
        message: 'paused: endpoint unreachable',
        done: 12,
        requests: 7,
        dropped: 2,
        failuresInARow: 5,
        errors: [{ kind: 'connection', count: 5, lastMessage: 'connect ECONNREFUSED 127.0.0.1:8000' }],
        notes: ['the endpoint returned no log-probabilities: hard labels only'],
      },
    ];
    fireEvent.click(screen.getByTestId('run-start'));
    const circuit = await screen.findByTestId('run-circuit');
    expect(circuit.textContent).toContain('Endpoint unreachable — paused');
    expect(circuit.textContent).toContain('Resume retries');
    expect(circuit.getAttribute('role')).toBe('alert');
    expect(screen.getByTestId('run-state').textContent).toBe('paused by the circuit');
    expect(screen.getByTestId('run-status').getAttribute('data-pause-reason')).toBe('endpoint_unreachable');
    expect(screen.getByTestId('run-notes').textContent).toContain('no log-probabilities');
    expect(screen.getByTestId('run-error-connection').textContent).toContain('ECONNREFUSED');
    // The figures read the run's one counter object: 5 failed + 2 dropped = 7 requests, 5 in a row.
    expect(screen.getByTestId('run-requests').textContent).toBe('7 (2 dropped by a pause)');
    expect(screen.getByTestId('run-in-a-row').textContent).toBe('5');
    expect(buttons()).toMatchObject({
      pause: { disabled: true },
      resume: { disabled: false },
      cancel: { disabled: false },
    });

    fireEvent.click(buttons().resume);
    await waitFor(() => expect(core.callsTo('judges.resume')).toEqual([{ runId: 'run-1' }]));
    await waitFor(() => expect(screen.queryByTestId('run-circuit')).toBeNull());
  });

  it('stops polling when the run is finished and refreshes the counts', async () => {
    await openJudgesView({ judges: [qwen()] });
    judges.statusScript = [
      { done: 50 },
      { state: 'done', done: 100, ok: 100, message: 'done', finishedAt: '2025-01-01T00:02:00.000Z', etaSeconds: 0 },
    ];
    const listCalls = core.callsTo('judges.list').length;
    fireEvent.click(screen.getByTestId('run-start'));
    await waitFor(() => expect(screen.getByTestId('run-status').getAttribute('data-state')).toBe('done'));
    const polls = core.callsTo('judges.status').length;
    expect(polls).toBe(2);
    await sleep(150);
    expect(core.callsTo('judges.status').length).toBe(polls);
    await waitFor(() => expect(core.callsTo('judges.list').length).toBeGreaterThan(listCalls));
    expect(screen.getByTestId('run-message').textContent).toBe('done');
    expect(buttons()).toMatchObject({
      start: { disabled: false },
      pause: { disabled: true },
      resume: { disabled: true },
      cancel: { disabled: true },
    });
  });

  it('reattaches to a run in progress when the view opens, and stops polling when it closes', async () => {
    const running = runStatus({ runId: 'run-7', judge: 'qwen', done: 30, total: 60 });
    await openJudgesView({ judges: [{ ...qwen(), activeRunId: 'run-7' }], runs: [running] });
    expect(core.callsTo('judges.runs')).toHaveLength(1);
    await waitFor(() => expect(core.callsTo('judges.status').length).toBeGreaterThan(0));
    expect(core.callsTo('judges.status')[0]).toEqual({ runId: 'run-7' });
    expect(screen.getByTestId('run-progress').textContent).toContain('30 / 60');
    expect((screen.getByTestId('run-start') as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByTestId('nav-project'));
    await screen.findByTestId('datasets');
    const polls = core.callsTo('judges.status').length;
    await sleep(120);
    expect(core.callsTo('judges.status').length).toBe(polls);
  });

  it('R starts the selected judge and Space pauses and resumes it, with the keys shown', async () => {
    await openJudgesView({ judges: [qwen()] });
    expect(screen.getByTestId('judges-keys').textContent).toContain('R');
    expect(screen.getByTestId('run-start').querySelector('kbd')?.textContent).toBe('R');
    fireEvent.keyDown(document.body, { key: 'r' });
    await waitFor(() => expect(core.callsTo('judges.start')).toEqual([{ name: 'qwen', onlySampled: false }]));
    await screen.findByTestId('run-status');
    fireEvent.keyDown(document.body, { key: ' ' });
    await waitFor(() => expect(core.callsTo('judges.pause')).toEqual([{ runId: 'run-1' }]));
    await waitFor(() => expect(screen.getByTestId('run-status').getAttribute('data-state')).toBe('paused'));
    fireEvent.keyDown(document.body, { key: ' ' });
    await waitFor(() => expect(core.callsTo('judges.resume')).toEqual([{ runId: 'run-1' }]));

    // Not while the form is open (typing a name with an r in it starts nothing).
    await openAddForm();
    fireEvent.keyDown(field('judge-name'), { key: 'r' });
    fireEvent.keyDown(document.body, { key: ' ' });
    expect(core.callsTo('judges.start')).toHaveLength(1);
    expect(core.callsTo('judges.pause')).toHaveLength(1);
  });
});

describe('blindness', () => {
  it('keeps every judge fact out of the annotation store and the Annotate view', async () => {
    const secretName = 'judge-zq7';
    const judge = judgeInfo(secretName, endpointConfig({ model: 'model-zq7' }), {
      predictions: { ok: 9, parseErrors: 0, failed: 0, soft: 9 },
    });
    await openJudgesView({ judges: [judge] });
    judges.statusScript = [{ state: 'done', done: 100, ok: 100, message: 'done' }];
    fireEvent.click(screen.getByTestId('run-start'));
    await waitFor(() => expect(screen.getByTestId('run-status').getAttribute('data-state')).toBe('done'));

    fireEvent.click(screen.getByTestId('nav-annotate'));
    await screen.findByTestId('unit-current');
    const annotation = useAnnotation.getState();
    const keys = Object.keys(annotation);
    expect(keys.filter((key) => /judge|predict|run/i.test(key))).toEqual([]);
    const serialised = JSON.stringify(annotation);
    for (const fact of [secretName, 'model-zq7', 'run-1', 'configHash', 'predictions'])
      expect(serialised).not.toContain(fact);
    const main = document.querySelector('.app-main')!;
    expect(main.textContent).not.toContain(secretName);
    expect(main.textContent).not.toContain('model-zq7');
    // The Annotate view asked the core for nothing about judges.
    const judgeCallsBefore = core.calls.filter((call) => call.method.startsWith('judges.')).length;
    fireEvent.keyDown(document.body, { key: 'f' });
    await waitFor(() => expect(core.callsTo('annotation.record')).toHaveLength(1));
    expect(core.calls.filter((call) => call.method.startsWith('judges.')).length).toBe(judgeCallsBefore);
  });
});
