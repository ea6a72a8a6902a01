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
import { createRendererCore, type RendererCore } from '../../helpers/renderer-core';
import { answerLine, endpointConfig, failureLine, requestIds } from '../../helpers/renderer-core-tasks';
import { judgesViewLifecycle, showJudgesView } from '../../helpers/judges-view';

let core: RendererCore;
judgesViewLifecycle();
beforeEach(() => resetAccuracyBatch());

const DECOMPOSITION = { task: 'claim_decomposition', judge: 'qwen', onlySampled: false } as const;

/** A summary of two sentences, a judge "qwen" (never contacted: batch files only), the Judges view's tasks. */
async function openTasks() {
  core = await createRendererCore([
    {
      document: 'The mayor opened the bridge. It cost 40 million.',
      sentences: ['The mayor opened the bridge.', 'It cost 40 million.'],
    },
  ]);
  await core.lead('judges.add', { name: 'qwen', config: endpointConfig() });
  await showJudgesView(core);
  const tasks = await screen.findByTestId('accuracy-tasks');
  fireEvent.change(within(tasks).getByTestId('accuracy-judge'), { target: { value: 'qwen' } });
  await waitFor(() => expect(within(tasks).getByTestId('accuracy-plan-requests').textContent).toBe('2 requests'));
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
    expect(downloads[0]!.text.split('\n').filter((l) => l !== '')).toHaveLength(2);
    expect(core.callsTo('accuracy.batchExport')).toEqual([{ run: DECOMPOSITION }]);
    expect((await within(tasks).findByTestId('accuracy-batch-notice')).textContent).toContain(
      'Downloaded claim_decomposition-qwen-requests.jsonl: 2 requests',
    );
    expect(core.callsTo('accuracy.start')).toHaveLength(0);

    // The engine answered the first sentence, failed the second, and sent a line for no request.
    const [first, second] = requestIds(downloads[0]!.text);
    const output = [
      answerLine(first!, '{"claims": ["The mayor opened the bridge."]}'),
      failureLine(second!, 500, 'engine crashed'),
      answerLine('loupe:claim_decomposition:unknown', '{"claims": []}'),
      '',
    ].join('\n');
    const file = new File([output], 'output.jsonl', { type: 'application/jsonl' });
    fireEvent.change(within(tasks).getByTestId('accuracy-batch-import-file'), { target: { files: [file] } });
    const shown = await within(tasks).findByTestId('accuracy-batch-report');
    expect(shown.textContent).toContain('1 answered');
    expect(shown.textContent).toContain('1 sentence still to do');
    expect(shown.textContent).toContain('HTTP 500: engine crashed');
    expect(core.callsTo('accuracy.batchImport')).toEqual([
      { run: DECOMPOSITION, source: { type: 'upload', name: 'output.jsonl', text: output } },
    ]);

    // Another task: the report was about the decomposition, so it goes.
    fireEvent.change(within(tasks).getByTestId('accuracy-task'), { target: { value: 'keyfact_extraction' } });
    await waitFor(() => expect(within(tasks).queryByTestId('accuracy-batch-report')).toBeNull());
  });

  it('nothing to export: says so and downloads nothing', async () => {
    const tasks = await openTasks();
    const download = vi.spyOn(exportHooks, 'download').mockImplementation(() => undefined);
    // Every sentence answered already (a batch imported elsewhere): the request file would be empty.
    const exported = await core.lead('accuracy.batchExport', { run: DECOMPOSITION });
    const text = requestIds(exported.content!)
      .map((id) => answerLine(id, '{"claims": ["A fact."]}'))
      .join('\n');
    await core.lead('accuracy.batchImport', { run: DECOMPOSITION, source: { type: 'upload', name: 'a.jsonl', text } });
    fireEvent.click(within(tasks).getByTestId('accuracy-batch-export'));
    expect((await within(tasks).findByTestId('accuracy-batch-notice')).textContent).toContain('Nothing to export');
    expect(download).not.toHaveBeenCalled();
  });
});
