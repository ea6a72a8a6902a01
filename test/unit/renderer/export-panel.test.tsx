// @vitest-environment happy-dom
/**
 * The Project view's Export on the desktop: the Save dialog proposes the core's file name and
 * grants the path, and the real core streams the file there (export.write), never handing the
 * page the file's text; cancelling writes nothing; a refusal shows in the panel.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from '../../../renderer/App';
import { resetRendererState } from '../../../renderer/testing/transport';
import { createRendererCore, type RendererCore, type SummarySeed } from '../../helpers/renderer-core';
import { tempDir } from '../../helpers/tmp';

const SEEDS: SummarySeed[] = [
  {
    document: 'The council met on Tuesday to discuss the new bridge.',
    sentences: ['The council discussed a bridge.', 'It met on Tuesday.'],
    labels: ['faithful', 'unfaithful'],
  },
  { document: 'Heavy rain flooded the valley.', sentences: ['Rain flooded a valley.'] },
];

const folder = tempDir('loupe-export-panel-');
let core: RendererCore;

async function openExport(chosen: (fileName: string) => string | null) {
  core = await createRendererCore(SEEDS, { host: 'electron', fileDialogs: true, canSwitchProjects: true });
  // The native dialog is the host's: here it "picks" a path in a temp folder.
  core.override('dialog.chooseSavePath', ({ fileName }) => ({ path: chosen(fileName) }));
  render(<App bridge={core.bridge} />);
  fireEvent.click(await screen.findByTestId('nav-project'));
  await screen.findByTestId('export-build');
}

beforeEach(() => resetRendererState());
afterEach(() => cleanup());

describe('Export on the desktop', () => {
  it("streams the file to the path the Save dialog chose, with the core's file name proposed", async () => {
    await openExport((fileName) => join(folder, fileName));
    fireEvent.change(screen.getByTestId('export-format'), { target: { value: 'csv' } });
    fireEvent.click(screen.getByTestId('export-build'));
    const message = await screen.findByTestId('export-message');
    const [asked] = core.callsTo('dialog.chooseSavePath');
    expect(asked!.fileName).toBe('test-labels.csv');
    const target = join(folder, 'test-labels.csv');
    expect(message.textContent).toBe(`Saved 3 rows to ${target}`);
    expect(core.callsTo('export.write')).toEqual([{ format: 'csv', history: false, path: target }]);
    expect(core.callsTo('export.build')).toEqual([]);
    const lines = readFileSync(target, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]!.startsWith('dataset,doc_id,summary_id,global_label,sentence_index,sentence')).toBe(true);
    expect(lines.filter((l) => l.includes(',unfaithful,'))).toHaveLength(1);
  });

  it('writes nothing when the dialog is cancelled, and shows a refusal in the panel', async () => {
    const before = readdirSync(folder).length;
    await openExport(() => null);
    fireEvent.click(screen.getByTestId('export-build'));
    await waitFor(() => expect(core.callsTo('dialog.chooseSavePath')).toHaveLength(1));
    await waitFor(() => expect((screen.getByTestId('export-build') as HTMLButtonElement).disabled).toBe(false));
    expect(core.callsTo('export.write')).toEqual([]);
    expect(screen.queryByTestId('export-message')).toBeNull();
    expect(readdirSync(folder).length).toBe(before);

    cleanup();
    resetRendererState();
    await openExport(() => join(folder, 'typed-without-extension'));
    fireEvent.click(screen.getByTestId('export-build'));
    const refusal = await screen.findByTestId('export-message');
    expect(refusal.getAttribute('role')).toBe('alert');
    expect(refusal.textContent).toMatch(/this export is a \.jsonl file/);
    expect(readdirSync(folder).length).toBe(before);
  });
});
