// @vitest-environment happy-dom
/**
 * Judges view: what a start sends is shown before it is sent, a large start asks first
 * ("1,000 requests"), and batch files: Export requests… hands the file to the host (download in
 * the browser) with its counts, Import answers… sends the chosen file and shows what was stored.
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { exportHooks } from '../../../renderer/charts/export';
import { CONFIRM_REQUESTS_AT } from '../../../renderer/state/judges';
import { createRendererCore, type RendererCore, type SummarySeed } from '../../helpers/renderer-core';
import { answerLine, endpointConfig, failureLine, requestIds } from '../../helpers/renderer-core-tasks';
import { judgesViewLifecycle, showJudgesView } from '../../helpers/judges-view';

let core: RendererCore;

/** `summaries` summaries of `sentences` sentences each, in one dataset. */
function summariesOf(summaries: number, sentences: number): SummarySeed[] {
  return Array.from({ length: summaries }, (_, s) => {
    const texts = Array.from({ length: sentences }, (_, i) => `Report ${s} line ${i} says the bridge opened.`);
    return { document: texts.join(' '), sentences: texts };
  });
}

/**
 * The judge "qwen" on two replicas where nothing listens (a run started here fails its requests;
 * what the tests read is the plan, the start call and the batch files).
 */
async function open(seeds: SummarySeed[]) {
  core = await createRendererCore(seeds);
  await core.lead('judges.add', {
    name: 'qwen',
    config: endpointConfig({
      baseUrl: 'http://127.0.0.1:9/v1',
      baseUrls: ['http://127.0.0.1:9/v1', 'http://127.0.0.1:10/v1'],
    }),
  });
  await showJudgesView(core);
}

judgesViewLifecycle();

describe('what a start sends', () => {
  it('shows the requests before starting and asks before a large start', async () => {
    // As many sentences as make a start large enough to ask first.
    await open(summariesOf(20, CONFIRM_REQUESTS_AT / 20));
    await waitFor(() => expect(screen.getByTestId('run-plan-requests').textContent).toBe('1,000 requests'));
    expect(screen.getByTestId('run-plan').textContent).toContain('paid calls');
    fireEvent.click(screen.getByTestId('run-start'));
    const confirm = await screen.findByTestId('run-confirm');
    expect(confirm.textContent).toContain('1,000 requests');
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
    await open(summariesOf(1, 12));
    await waitFor(() => expect(screen.getByTestId('run-plan-requests').textContent).toBe('12 requests'));
    fireEvent.click(screen.getByTestId('run-only-sampled'));
    await waitFor(() => expect(core.callsTo('judges.plan').some((c) => c.onlySampled)).toBe(true));
    fireEvent.click(screen.getByTestId('run-start'));
    await waitFor(() => expect(core.callsTo('judges.start')).toHaveLength(1));
    expect(screen.queryByTestId('run-confirm')).toBeNull();
  });
});

describe('batch files', () => {
  it('exports the requests as a download with counts and imports an output file with its report', async () => {
    await open(summariesOf(1, 12));
    const downloads: Array<{ name: string; text: string }> = [];
    vi.spyOn(exportHooks, 'download').mockImplementation((name: string, blob: Blob) => {
      void blob.text().then((text) => downloads.push({ name, text }));
    });
    fireEvent.click(await screen.findByTestId('batch-export'));
    await waitFor(() => expect(downloads.map((d) => d.name)).toEqual(['qwen-requests.jsonl']));
    const ids = requestIds(downloads[0]!.text);
    expect(ids).toHaveLength(12);
    await waitFor(() => expect(screen.getByTestId('judges-notice').textContent).toContain('12 requests'));

    // Nine answered, one unparsable, one failed by the engine, one line for no request; the twelfth sentence has no line.
    const output = [
      ...ids.slice(0, 9).map((id) => answerLine(id, '{"faithful": 1}')),
      answerLine(ids[9]!, 'not a verdict'),
      failureLine(ids[10]!, 500, 'engine crashed'),
      answerLine('loupe:sentence-verdict:unknown:unit:0', '{"faithful": 1}'),
      '',
    ].join('\n');
    const file = new File([output], 'output.jsonl', { type: 'application/jsonl' });
    fireEvent.change(screen.getByTestId('batch-import-file'), { target: { files: [file] } });
    const shown = await screen.findByTestId('batch-import-report');
    expect(shown.textContent).toContain('9 answered');
    expect(shown.textContent).toContain('2 sentences still to do');
    expect(shown.textContent).toContain('HTTP 500: engine crashed');
    expect(core.callsTo('judges.batchImport')).toEqual([
      { name: 'qwen', source: { type: 'upload', name: 'output.jsonl', text: output }, onlySampled: false },
    ]);
  });
});
