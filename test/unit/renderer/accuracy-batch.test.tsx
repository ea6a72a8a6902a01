// @vitest-environment happy-dom
/**
 * Batch files of the accuracy tasks in the Judges view: Export requests… calls
 * accuracy.batchExport for the chosen task and judge and hands its text to a browser download
 * with the counts; Import answers… uploads the file as text through accuracy.batchImport and shows
 * its report; nothing to export says so without a download; another task choice hides the report.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { exportHooks } from '../../../renderer/charts/export';
import { resetAccuracyBatch } from '../../../renderer/state/accuracyBatch';
import type { FakeCore } from '../../../renderer/testing/fakeCore';
import { endpointConfig, installFakeJudges, judgeInfo } from '../../../renderer/testing/fakeJudges';
import type { AccuracyBatchImport } from '../../../shared/contract/accuracy';
import { judgesViewLifecycle, oneSentenceCore, showJudgesView } from '../../helpers/judges-view';

let core: FakeCore;
judgesViewLifecycle();
beforeEach(() => resetAccuracyBatch());

async function openTasks() {
  core = oneSentenceCore();
  installFakeJudges(core, { judges: [judgeInfo('qwen', endpointConfig())] });
  core.override('analysis.latest', () => ({ running: null, done: null }));
  await showJudgesView(core);
  const tasks = await screen.findByTestId('accuracy-tasks');
  fireEvent.change(within(tasks).getByTestId('accuracy-judge'), { target: { value: 'qwen' } });
  await waitFor(() => expect(within(tasks).getByTestId('accuracy-plan-requests').textContent).toBe('1 request'));
  return tasks;
}

describe('accuracy batch files in the Judges view', () => {
  it('exports the chosen task’s requests as a download and imports an output file with its report', async () => {
    const tasks = await openTasks();
    const downloads: Array<{ name: string; text: string }> = [];
    vi.spyOn(exportHooks, 'download').mockImplementation((name: string, blob: Blob) => {
      void blob.text().then((text) => downloads.push({ name, text }));
    });
    fireEvent.click(within(tasks).getByTestId('accuracy-batch-export'));
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(downloads[0]!.name).toBe('claim_decomposition-qwen-requests.jsonl');
    expect(downloads[0]!.text.split('\n').filter((l) => l !== '')).toHaveLength(1);
    expect(core.callsTo('accuracy.batchExport')).toEqual([
      { run: { task: 'claim_decomposition', judge: 'qwen', onlySampled: false } },
    ]);
    expect((await within(tasks).findByTestId('accuracy-batch-notice')).textContent).toContain(
      'Downloaded claim_decomposition-qwen-requests.jsonl: 1 request',
    );
    expect(core.callsTo('accuracy.start')).toHaveLength(0);

    const report: AccuracyBatchImport = {
      task: 'claim_decomposition',
      model: 'qwen',
      configHash: 'a'.repeat(64),
      lines: 3,
      answered: 1,
      parseErrors: 0,
      failed: 1,
      unknown: 1,
      duplicates: 0,
      invalid: 0,
      shared: 0,
      stillToDo: 1,
      problems: {
        failed: [{ line: 2, customId: 'loupe:claim_decomposition:…:unit:1', message: 'HTTP 500: engine crashed' }],
        unknown: [],
        invalid: [],
      },
      notes: [],
    };
    core.override('accuracy.batchImport', () => report);
    const file = new File(['{"custom_id":"x"}\n'], 'output.jsonl', { type: 'application/jsonl' });
    fireEvent.change(within(tasks).getByTestId('accuracy-batch-import-file'), { target: { files: [file] } });
    const shown = await within(tasks).findByTestId('accuracy-batch-report');
    expect(shown.textContent).toContain('1 answered');
    expect(shown.textContent).toContain('1 sentence still to do');
    expect(shown.textContent).toContain('HTTP 500: engine crashed');
    expect(core.callsTo('accuracy.batchImport')).toEqual([
      {
        run: { task: 'claim_decomposition', judge: 'qwen', onlySampled: false },
        source: { type: 'upload', name: 'output.jsonl', text: '{"custom_id":"x"}\n' },
      },
    ]);

    // Another task: the report was about the decomposition, so it goes.
    fireEvent.change(within(tasks).getByTestId('accuracy-task'), { target: { value: 'keyfact_extraction' } });
    await waitFor(() => expect(within(tasks).queryByTestId('accuracy-batch-report')).toBeNull());
  });

  it('nothing to export: says so and downloads nothing', async () => {
    const tasks = await openTasks();
    const download = vi.spyOn(exportHooks, 'download').mockImplementation(() => undefined);
    core.override('accuracy.batchExport', ({ run }) => ({
      task: run.task,
      model: 'qwen',
      configHash: 'h',
      dataset: null,
      selection: 1,
      done: 1,
      cached: 0,
      requests: 0,
      promptTokens: 0,
      baseUrls: [],
      missing: 0,
      notes: [],
      path: null,
      fileName: 'x.jsonl',
      content: '',
    }));
    fireEvent.click(within(tasks).getByTestId('accuracy-batch-export'));
    expect((await within(tasks).findByTestId('accuracy-batch-notice')).textContent).toContain('Nothing to export');
    expect(download).not.toHaveBeenCalled();
  });
});
