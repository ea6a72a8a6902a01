// @vitest-environment happy-dom
/**
 * Batch files on the desktop go through the disk, not the page: Export requests… asks the Save
 * dialog for a path (proposing the judge's file name) and the real core streams the request file
 * there; Import answers… asks the open dialog for a file and the core reads it by path. Cancelling
 * either dialog sends nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { EndpointConfigSchema } from '../../../shared/judges/config';
import type { RendererCore } from '../../helpers/renderer-core';
import { judgesViewLifecycle, oneSentenceRendererCore, showJudgesView } from '../../helpers/judges-view';
import { tempDir } from '../../helpers/tmp';

const folder = tempDir('loupe-batch-desktop-');
let core: RendererCore;

async function open(paths: { save: string | null; answers: string | null }) {
  core = await oneSentenceRendererCore({ host: 'electron', fileDialogs: true });
  await core.lead('judges.add', {
    name: 'qwen',
    // Never contacted: a batch file is written for a batch engine, not sent.
    config: EndpointConfigSchema.parse({ kind: 'endpoint', baseUrl: 'http://127.0.0.1:9/v1', model: 'm' }),
  });
  // The native dialogs are the host's: here they "pick" paths in a temp folder.
  core.override('dialog.chooseSavePath', () => ({ path: paths.save }));
  core.override('dialog.openBatchFile', () => ({ path: paths.answers }));
  await showJudgesView(core);
  await screen.findByTestId('batch-export');
}

judgesViewLifecycle();

describe('batch files on the desktop', () => {
  it('streams the request file to the chosen path and imports answers by path', async () => {
    const target = join(folder, 'qwen-requests.jsonl');
    const answers = join(folder, 'answers.jsonl');
    writeFileSync(answers, 'this is not a batch output line\n');
    await open({ save: target, answers });

    fireEvent.click(screen.getByTestId('batch-export'));
    await waitFor(() => expect(screen.getByTestId('judges-notice').textContent).toContain(`Saved ${target}`));
    expect(core.callsTo('dialog.chooseSavePath')).toEqual([{ fileName: 'qwen-requests.jsonl' }]);
    expect(core.callsTo('judges.batchExport')).toEqual([{ name: 'qwen', onlySampled: false, path: target }]);
    const lines = readFileSync(target, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ method: 'POST', url: '/v1/chat/completions' });

    fireEvent.click(screen.getByTestId('batch-import'));
    const report = await screen.findByTestId('batch-import-report');
    expect(core.callsTo('judges.batchImport')).toEqual([
      { name: 'qwen', onlySampled: false, source: { type: 'path', path: answers } },
    ]);
    expect(report.textContent).toContain('Imported 1 line');
    expect(report.textContent).toContain('1 unreadable line');
    expect(report.textContent).toContain('line 1: ');
  });

  it('sends nothing when a dialog is cancelled', async () => {
    await open({ save: null, answers: null });
    fireEvent.click(screen.getByTestId('batch-export'));
    await waitFor(() => expect(core.callsTo('dialog.chooseSavePath')).toHaveLength(1));
    fireEvent.click(await screen.findByTestId('batch-import'));
    await waitFor(() => expect(core.callsTo('dialog.openBatchFile')).toHaveLength(1));
    await waitFor(() => expect((screen.getByTestId('batch-export') as HTMLButtonElement).disabled).toBe(false));
    expect(core.callsTo('judges.batchExport')).toEqual([]);
    expect(core.callsTo('judges.batchImport')).toEqual([]);
  });
});
