// @vitest-environment happy-dom
/**
 * Judges view: what a start sends is shown before it is sent, a large start asks first
 * ("75,000 requests"), and batch files: Export requests… hands the file to the host (download in
 * the browser) with its counts, Import answers… sends the chosen file and shows what was stored.
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { exportHooks } from '../../../renderer/charts/export';
import type { FakeCore } from '../../../renderer/testing/fakeCore';
import { endpointConfig, installFakeJudges, judgeInfo } from '../../../renderer/testing/fakeJudges';
import type { ApiInput, JudgeBatchImport, JudgePlan } from '../../../shared/api';
import { judgesViewLifecycle, oneSentenceCore, showJudgesView } from '../../helpers/judges-view';

let core: FakeCore;

function plan(input: ApiInput<'judges.plan'>, requests: number): JudgePlan {
  return {
    judge: input.name,
    configHash: 'a'.repeat(64),
    dataset: input.dataset ?? null,
    onlySampled: input.onlySampled ?? false,
    remote: true,
    selection: requests + 10,
    done: 10,
    cached: 0,
    requests,
    promptTokens: 0,
    baseUrls: [],
    shared: 0,
    missing: 0,
  };
}

async function open(requests: number) {
  core = oneSentenceCore();
  installFakeJudges(core, {
    judges: [judgeInfo('qwen', endpointConfig({ baseUrls: ['http://127.0.0.1:8000/v1', 'http://127.0.0.1:8001/v1'] }))],
  });
  core.override('judges.plan', (input) => plan(input, requests));
  await showJudgesView(core);
}

judgesViewLifecycle();

describe('what a start sends', () => {
  it('shows the requests before starting and asks before a large start', async () => {
    await open(75_000);
    await waitFor(() => expect(screen.getByTestId('run-plan-requests').textContent).toBe('75,000 requests'));
    expect(screen.getByTestId('run-plan').textContent).toContain('paid calls');
    fireEvent.click(screen.getByTestId('run-start'));
    const confirm = await screen.findByTestId('run-confirm');
    expect(confirm.textContent).toContain('75,000 requests');
    expect(confirm.textContent).toContain('and 1 more replica:');
    expect(core.callsTo('judges.start')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('run-confirm-back'));
    expect(screen.queryByTestId('run-confirm')).toBeNull();
    expect(core.callsTo('judges.start')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('run-start'));
    fireEvent.click(await screen.findByTestId('run-confirm-send'));
    await waitFor(() => expect(core.callsTo('judges.start')).toEqual([{ name: 'qwen', onlySampled: false }]));
  });

  it('asks the plan again for another selection, and starts a small run at once', async () => {
    await open(40);
    await waitFor(() => expect(screen.getByTestId('run-plan-requests').textContent).toBe('40 requests'));
    fireEvent.click(screen.getByTestId('run-only-sampled'));
    await waitFor(() => expect(core.callsTo('judges.plan').some((c) => c.onlySampled)).toBe(true));
    fireEvent.click(screen.getByTestId('run-start'));
    await waitFor(() => expect(core.callsTo('judges.start')).toHaveLength(1));
    expect(screen.queryByTestId('run-confirm')).toBeNull();
  });
});

describe('batch files', () => {
  it('exports the requests as a download with counts and imports an output file with its report', async () => {
    await open(12);
    const downloads: Array<{ name: string; text: string }> = [];
    vi.spyOn(exportHooks, 'download').mockImplementation((name: string, blob: Blob) => {
      void blob.text().then((text) => downloads.push({ name, text }));
    });
    core.override('judges.batchExport', (input) => ({
      ...plan(input, 12),
      path: null,
      fileName: 'qwen-requests.jsonl',
      content: '{"custom_id":"x"}\n',
    }));
    fireEvent.click(await screen.findByTestId('batch-export'));
    await waitFor(() => expect(downloads).toEqual([{ name: 'qwen-requests.jsonl', text: '{"custom_id":"x"}\n' }]));
    await waitFor(() => expect(screen.getByTestId('judges-notice').textContent).toContain('12 requests'));

    const report: JudgeBatchImport = {
      judge: 'qwen',
      configHash: 'a'.repeat(64),
      lines: 12,
      answered: 9,
      parseErrors: 1,
      failed: 1,
      unknown: 1,
      duplicates: 0,
      invalid: 0,
      shared: 0,
      stillToDo: 2,
      problems: {
        failed: [{ line: 4, customId: 'loupe:sentence-verdict:…:unit:4', message: 'HTTP 500: engine crashed' }],
        unknown: [],
        invalid: [],
      },
      notes: [],
    };
    core.override('judges.batchImport', () => report);
    const file = new File(['{"custom_id": "x"}\n'], 'output.jsonl', { type: 'application/jsonl' });
    fireEvent.change(screen.getByTestId('batch-import-file'), { target: { files: [file] } });
    const shown = await screen.findByTestId('batch-import-report');
    expect(shown.textContent).toContain('9 answered');
    expect(shown.textContent).toContain('2 sentences still to do');
    expect(shown.textContent).toContain('HTTP 500: engine crashed');
    expect(core.callsTo('judges.batchImport')).toEqual([
      {
        name: 'qwen',
        source: { type: 'upload', name: 'output.jsonl', text: '{"custom_id": "x"}\n' },
        onlySampled: false,
      },
    ]);
  });
});
