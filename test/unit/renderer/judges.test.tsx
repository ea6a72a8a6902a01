// @vitest-environment happy-dom
// @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}}
/**
 * Judges view: the list, the add/edit form with its checks and the live request
 * preview, new versions, removal, background runs (start, polling, pause/resume/cancel, the
 * circuit), reattaching, keys, and blindness: nothing of it reaches the annotation store.
 * Everything runs on the real core; a run calls the in-process mock endpoint.
 */
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from '../../../renderer/App';
import { formatEta, formatRate } from '../../../renderer/components/judges/format';
import {
  PLACEHOLDERS as UI_PLACEHOLDERS,
  RESERVED_BODY_FIELDS as UI_RESERVED,
  checkDraft,
  endpointDraft,
} from '../../../renderer/components/judges/draft';
import { useAnnotation } from '../../../renderer/state/annotation';
import type { JudgeRunStatus } from '../../../shared/api';
import {
  BASELINE_JUDGE_NAME,
  BaselineConfigSchema,
  DEFAULT_TEMPLATE,
  PLACEHOLDERS,
  RESERVED_BODY_FIELDS,
  type JudgeConfig,
} from '../../../shared/judges/config';
import type { MockReply } from '../../mock-openai/server';
import { mockOpenAIForFile } from '../../helpers/mock-openai';
import {
  createRendererCore,
  type HostSeed,
  type RendererCore,
  type RendererCoreOptions,
  type SummarySeed,
} from '../../helpers/renderer-core';
import { endpointConfig, storeJudgeAnswers } from '../../helpers/renderer-core-tasks';
import { judgesViewLifecycle, ONE_SENTENCE, showJudgesView } from '../../helpers/judges-view';

vi.mock('openai', async (original) => (await import('../../helpers/openai-in-node')).openaiInNode(await original()));

const mock = await mockOpenAIForFile();
let core: RendererCore;

/** 125 sentences in five summaries: room for a judge's 125 stored predictions and for runs. */
const MANY: SummarySeed[] = Array.from({ length: 5 }, (_, s) => {
  const sentences = Array.from({ length: 25 }, (_, i) => `Report ${s} line ${i} says the bridge opened.`);
  return { document: sentences.join(' '), sentences };
});

interface OpenOptions {
  /** Default: the one-sentence project. */
  seeds?: SummarySeed[];
  info?: HostSeed;
  options?: RendererCoreOptions;
  /** What the project holds before the view opens (judges, predictions, runs), through the core. */
  setup?: (core: RendererCore) => Promise<unknown>;
}

async function openJudgesView({ seeds = [ONE_SENTENCE], info, options, setup }: OpenOptions = {}) {
  core = await createRendererCore(seeds, info, { allowedKeyEnv: ['OPENAI_API_KEY'], ...options });
  await setup?.(core);
  await showJudgesView(core);
}

const QWEN_CONFIG = endpointConfig({ apiKeyEnv: 'OPENAI_API_KEY' });
const baselineConfig = (): JudgeConfig => BaselineConfigSchema.parse({ kind: 'baseline' });
const addQwen = (c: RendererCore) => c.lead('judges.add', { name: 'qwen', config: QWEN_CONFIG });
/** qwen with 120 labeled, 3 unparsable and 2 failed predictions (a batch's answers imported). */
async function qwenWithPredictions(c: RendererCore) {
  await addQwen(c);
  await storeJudgeAnswers(c, 'qwen', { ok: 120, parseErrors: 3, failed: 2 });
}
const hashOf = async (name: string) => (await core.lead('judges.list', {})).find((j) => j.name === name)!.configHash!;

/** 20 sentences in two summaries: what the runs judge. */
const RUN_SEEDS: SummarySeed[] = MANY.slice(0, 2).map((seed) => ({ ...seed, sentences: seed.sentences.slice(0, 10) }));
/** How long a run on the mock endpoint may take to reach what a test waits for. */
const RUN = { timeout: 10_000 };

/** A judge on the mock endpoint that runs one request at a time and never retries. */
const mockJudge = (partial: Record<string, unknown> = {}) =>
  endpointConfig({ baseUrl: mock.url, concurrency: 1, retries: 0, ...partial });
/** The mock answers `replies` in order, then holds every further request (the run stays running). */
function answerThenHold(replies: MockReply[]) {
  let received = 0;
  mock.setResponder(() => replies[received++] ?? { type: 'hang' });
}
const ok = (count: number): MockReply[] => Array.from({ length: count }, () => ({ type: 'answer', hard: 1 }));
/** The run's status as the core reports it now. */
const statusOf = (runId: string) => core.lead('judges.status', { runId });
const onlyRun = async (): Promise<JudgeRunStatus> => (await core.lead('judges.runs', {}))[0]!;

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
    await openJudgesView({
      seeds: MANY,
      // A keychain for the stored key (as the desktop has).
      info: { keychain: true },
      async setup(c) {
        await qwenWithPredictions(c);
        await c.lead('judges.add', {
          name: 'gpt',
          config: endpointConfig({ baseUrl: 'https://api.example.com/v1', model: 'gpt-4o' }),
          apiKey: 'sk-list-1234',
        });
        // Predictions imported from a file: a judge of kind "imported".
        await c.upload(
          'predictions.jsonl',
          Array.from({ length: 25 }, (_, i) => ({
            summary_id: 's1',
            sentence_index: i,
            judge: 'frank-judge',
            hard: 1,
          })),
        );
      },
    });

    const row = screen.getByTestId('judge-row-qwen');
    const cells = within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells[1]).toBe('endpoint');
    expect(cells[2]).toBe('Qwen/Qwen3-8B');
    expect(cells[3]).toBe('http://127.0.0.1:8000/v1');
    expect(within(row).getByTestId('judge-version').textContent).toBe((await hashOf('qwen')).slice(0, 12));
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
    // The endpoint answers with the markup as its error: the run's error table shows it.
    mock.setResponder(() => ({ type: 'status', status: 500, body: hostile }));
    await openJudgesView({
      async setup(c) {
        await c.lead('judges.add', { name: `x${hostile}`, config: mockJudge({ model: hostile }) });
        await c.lead('judges.start', { name: `x${hostile}`, onlySampled: false });
        await vi.waitFor(async () => expect((await onlyRun()).state).not.toBe('running'), RUN);
      },
    });
    await screen.findByTestId('run-error-server_error');
    expect(screen.getByTestId('judges-view').querySelector('img')).toBeNull();
    expect(screen.getByTestId('judges-view').textContent).toContain(`x${hostile}`);
    expect(screen.getByTestId('run-message').textContent).toBe((await onlyRun()).message);
    expect(within(screen.getByTestId('run-error-server_error')).getAllByRole('cell')[2]!.textContent).toContain(
      hostile,
    );
  });

  it('opens with G from the Annotate view, but not while typing', async () => {
    core = await createRendererCore([{ document: null, sentences: ['A sentence without a document.'] }]);
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
    await openJudgesView({ setup: addQwen });
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
    // As `loupe serve --allow-key-env OLLAMA_KEY` lets a judge read that variable.
    await openJudgesView({
      setup: addQwen,
      info: { host: 'web' },
      options: { allowedKeyEnv: ['OPENAI_API_KEY', 'OLLAMA_KEY'] },
    });
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
    await openJudgesView({ setup: addQwen, info: { host: 'electron', fileDialogs: true, canSwitchProjects: true } });
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
    await openJudgesView({ setup: addQwen, info: { host: 'web' } });
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
    expect(request.body.messages[0].content).toContain(ONE_SENTENCE.sentences[0]);
  });

  it('says when an update makes a new judge version, and when it does not', async () => {
    await openJudgesView({ setup: addQwen });
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
      (await hashOf('qwen')).slice(0, 12),
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
    await openJudgesView({
      info: { host: 'electron', fileDialogs: true, canSwitchProjects: true },
      setup: (c) =>
        c.lead('judges.add', { name: 'gpt', config: endpointConfig({ model: 'gpt-4o' }), apiKey: 'sk-gpt-1234' }),
    });
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
    await openJudgesView({ setup: addQwen });
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
    await openJudgesView({
      seeds: MANY,
      async setup(c) {
        // A second version (another temperature), whose 125 predictions the removal counts.
        await addQwen(c);
        await c.lead('judges.update', {
          name: 'qwen',
          config: endpointConfig({ apiKeyEnv: 'OPENAI_API_KEY', temperature: 0.5 }),
        });
        await storeJudgeAnswers(c, 'qwen', { ok: 120, parseErrors: 3, failed: 2 });
      },
    });
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
    await openJudgesView({
      setup: (c) => c.lead('judges.add', { name: BASELINE_JUDGE_NAME, config: baselineConfig() }),
    });
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
  const addMockQwen = (c: RendererCore) => c.lead('judges.add', { name: 'qwen', config: mockJudge() });

  it('shows how rates and times read', () => {
    expect(formatRate(4.25)).toBe('4.3 sentences/s');
    expect(formatRate(0.5)).toBe('0.50 sentences/s');
    expect(formatEta(125)).toBe('2 min 5 s');
  });

  it('starts, polls the status, shows progress, and pauses, resumes and cancels by run id', async () => {
    await openJudgesView({ seeds: RUN_SEEDS, setup: addMockQwen });
    // 10 sentences answered (one unparsable, one failed by the server), then the endpoint holds the next.
    answerThenHold([
      { type: 'answer', content: 'no verdict here' },
      { type: 'status', status: 500, body: 'engine crashed' },
      ...ok(8),
    ]);
    fireEvent.change(screen.getByTestId('run-dataset'), { target: { value: 'demo' } });
    fireEvent.click(screen.getByTestId('run-only-sampled'));
    // Pause, Resume and Cancel appear with a run.
    expect(screen.queryByTestId('run-pause')).toBeNull();
    fireEvent.click(screen.getByTestId('run-start'));

    await waitFor(() =>
      expect(core.callsTo('judges.start')).toEqual([{ name: 'qwen', dataset: 'demo', onlySampled: true }]),
    );
    const { runId } = await onlyRun();
    await vi.waitFor(async () => {
      const { ok: labeled, parseErrors, failed } = await statusOf(runId);
      expect(labeled + parseErrors + failed).toBe(10);
    }, RUN);
    const held = await statusOf(runId);
    await waitFor(() => expect(screen.getByTestId('run-progress').textContent).toContain(`${held.done} / 20`));
    expect(core.callsTo('judges.status').every((input) => input.runId === runId)).toBe(true);
    expect(screen.getByTestId('run-outcomes').textContent).toBe('8 labeled · 1 unparseable answer · 1 failed');
    const rows = within(screen.getByTestId('run-errors')).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['answer not {"faithful": 0|1}', '1', 'no {"faithful": 0|1} object in the answer'],
      ['server error (5xx)', '1', 'HTTP 500: 500 engine crashed'],
    ]);
    expect(within(screen.getByTestId('judge-row-qwen')).getByTestId('judge-run-tag').textContent).toBe(
      `running ${Math.round((held.done / 20) * 100)}%`,
    );
    expect(buttons()).toMatchObject({
      start: { disabled: true },
      pause: { disabled: false },
      resume: { disabled: true },
      cancel: { disabled: false },
    });
    expect(within(screen.getByTestId('judge-row-qwen')).getByTestId('judge-edit')).toHaveProperty('disabled', true);

    fireEvent.click(buttons().pause);
    await waitFor(() => expect(screen.getByTestId('run-status').getAttribute('data-state')).toBe('paused'));
    expect(core.callsTo('judges.pause')).toEqual([{ runId }]);
    expect(screen.queryByTestId('run-circuit')).toBeNull();
    expect(buttons()).toMatchObject({
      start: { disabled: true },
      pause: { disabled: true },
      resume: { disabled: false },
      cancel: { disabled: false },
    });
    // The figures are the paused run's, as the core counts them.
    const paused = await statusOf(runId);
    expect(screen.getByTestId('run-rate').textContent).toBe(formatRate(paused.ratePerSecond));
    expect(screen.getByTestId('run-tokens').textContent).toBe(
      `${paused.tokens.prompt.toLocaleString()} in / ${paused.tokens.completion.toLocaleString()} out`,
    );
    expect(paused.tokens.prompt).toBeGreaterThan(0);
    expect(screen.getByTestId('run-cached').textContent).toBe(String(paused.cached));
    expect(screen.getByTestId('run-requests').textContent).toContain(String(paused.requests));
    // A paused run is not polled.
    const polls = core.callsTo('judges.status').length;
    await sleep(120);
    expect(core.callsTo('judges.status').length).toBe(polls);

    fireEvent.click(buttons().resume);
    await waitFor(() => expect(core.callsTo('judges.resume')).toEqual([{ runId }]));
    await waitFor(() => expect(core.callsTo('judges.status').length).toBeGreaterThan(polls));
    expect(buttons()).toMatchObject({ pause: { disabled: false }, resume: { disabled: true } });

    fireEvent.click(buttons().cancel);
    await waitFor(() => expect(screen.getByTestId('run-status').getAttribute('data-state')).toBe('cancelled'));
    expect(core.callsTo('judges.cancel')).toEqual([{ runId }]);
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
    // A soft judge whose endpoint sends no log-probabilities, then stops accepting connections.
    await openJudgesView({
      seeds: RUN_SEEDS,
      setup: (c) => c.lead('judges.add', { name: 'qwen', config: mockJudge({ soft: true }) }),
    });
    let received = 0;
    mock.setResponder(() => (++received <= 3 ? { type: 'answer', soft: null } : { type: 'reset' }));
    fireEvent.click(screen.getByTestId('run-start'));
    const circuit = await screen.findByTestId('run-circuit', {}, RUN);
    const paused = await onlyRun();
    expect(circuit.textContent).toContain('Endpoint unreachable — paused');
    expect(circuit.textContent).toContain('Resume retries');
    expect(circuit.getAttribute('role')).toBe('alert');
    expect(screen.getByTestId('run-state').textContent).toBe('paused by the circuit');
    expect(screen.getByTestId('run-status').getAttribute('data-pause-reason')).toBe('endpoint_unreachable');
    await waitFor(() => expect(screen.getByTestId('run-notes').textContent).toContain('no log-probabilities'));
    expect(screen.getByTestId('run-error-connection').textContent).toContain(
      paused.errors.find((e) => e.kind === 'connection')!.lastMessage,
    );
    // The figures read the run's one counter object: failed + dropped = requests, and the failures in a row.
    const dropped = paused.dropped > 0 ? ` (${paused.dropped} dropped by a pause)` : '';
    expect(screen.getByTestId('run-requests').textContent).toBe(`${paused.requests}${dropped}`);
    expect(screen.getByTestId('run-in-a-row').textContent).toBe(String(paused.failuresInARow));
    expect(paused.failuresInARow).toBeGreaterThan(0);
    expect(buttons()).toMatchObject({
      pause: { disabled: true },
      resume: { disabled: false },
      cancel: { disabled: false },
    });

    // The endpoint is back: Resume retries and the circuit notice goes.
    mock.setResponder(() => ({ type: 'answer', soft: null }));
    fireEvent.click(buttons().resume);
    await waitFor(() => expect(core.callsTo('judges.resume')).toEqual([{ runId: paused.runId }]));
    await waitFor(() => expect(screen.queryByTestId('run-circuit')).toBeNull(), RUN);
  });

  it('stops polling when the run is finished and refreshes the counts', async () => {
    await openJudgesView({ seeds: RUN_SEEDS, setup: addMockQwen });
    const listCalls = core.callsTo('judges.list').length;
    fireEvent.click(screen.getByTestId('run-start'));
    await waitFor(() => expect(screen.getByTestId('run-status').getAttribute('data-state')).toBe('done'), RUN);
    const polls = core.callsTo('judges.status').length;
    await sleep(150);
    expect(core.callsTo('judges.status').length).toBe(polls);
    await waitFor(() => expect(core.callsTo('judges.list').length).toBeGreaterThan(listCalls));
    expect(screen.getByTestId('run-message').textContent).toBe((await onlyRun()).message);
    await waitFor(
      () => expect(within(screen.getByTestId('judge-row-qwen')).getAllByRole('cell')[5]!.textContent).toBe('20'),
      RUN,
    );
    expect(buttons()).toMatchObject({
      start: { disabled: false },
      pause: { disabled: true },
      resume: { disabled: true },
      cancel: { disabled: true },
    });
  });

  it('reattaches to a run in progress when the view opens, and stops polling when it closes', async () => {
    answerThenHold(ok(6));
    let runId = '';
    await openJudgesView({
      seeds: RUN_SEEDS,
      async setup(c) {
        await addMockQwen(c);
        ({ runId } = await c.lead('judges.start', { name: 'qwen', onlySampled: false }));
        await vi.waitFor(async () => expect((await c.lead('judges.status', { runId })).done).toBe(6), RUN);
      },
    });
    expect(core.callsTo('judges.runs')).toHaveLength(1);
    await waitFor(() => expect(core.callsTo('judges.status').length).toBeGreaterThan(0));
    expect(core.callsTo('judges.status')[0]).toEqual({ runId });
    expect(screen.getByTestId('run-progress').textContent).toContain('6 / 20');
    expect((screen.getByTestId('run-start') as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByTestId('nav-project'));
    await screen.findByTestId('datasets');
    const polls = core.callsTo('judges.status').length;
    await sleep(120);
    expect(core.callsTo('judges.status').length).toBe(polls);
  });

  it('R starts the selected judge and Space pauses and resumes it, with the keys shown', async () => {
    await openJudgesView({ seeds: RUN_SEEDS, setup: addMockQwen });
    answerThenHold([]);
    expect(screen.getByTestId('judges-keys').textContent).toContain('R');
    expect(screen.getByTestId('run-start').querySelector('kbd')?.textContent).toBe('R');
    fireEvent.keyDown(document.body, { key: 'r' });
    await waitFor(() => expect(core.callsTo('judges.start')).toEqual([{ name: 'qwen', onlySampled: false }]));
    await screen.findByTestId('run-status');
    const { runId } = await onlyRun();
    fireEvent.keyDown(document.body, { key: ' ' });
    await waitFor(() => expect(core.callsTo('judges.pause')).toEqual([{ runId }]));
    await waitFor(() => expect(screen.getByTestId('run-status').getAttribute('data-state')).toBe('paused'));
    fireEvent.keyDown(document.body, { key: ' ' });
    await waitFor(() => expect(core.callsTo('judges.resume')).toEqual([{ runId }]));

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
    await openJudgesView({
      setup: (c) => c.lead('judges.add', { name: secretName, config: mockJudge({ model: 'model-zq7', soft: true }) }),
    });
    fireEvent.click(screen.getByTestId('run-start'));
    await waitFor(() => expect(screen.getByTestId('run-status').getAttribute('data-state')).toBe('done'), RUN);
    const { runId } = await onlyRun();

    fireEvent.click(screen.getByTestId('nav-annotate'));
    await screen.findByTestId('unit-current');
    const annotation = useAnnotation.getState();
    const keys = Object.keys(annotation);
    expect(keys.filter((key) => /judge|predict|run/i.test(key))).toEqual([]);
    const serialised = JSON.stringify(annotation);
    for (const fact of [secretName, 'model-zq7', runId, 'configHash', 'predictions'])
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
