// @vitest-environment happy-dom
/**
 * Project view and start on the real core: import with progress/cancel/problems (real uploads and
 * paths), sampling, export, project switching. The native dialogs are the host's, answered here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from '../../../renderer/App';
import { resetRendererState } from '../../../renderer/testing/transport';
import type { AnnotatorActivity } from '../../../shared/api';
import { createRendererCore, type HostSeed, type RendererCore, type SummarySeed } from '../../helpers/renderer-core';
import { CAMERA_SCAFFOLD } from '../../helpers/scaffold-ui';

let core: RendererCore;

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures');
/** Two summaries of two documents in "demo" (drawn in one sample batch, as renderer-core seeds them). */
const SEEDS: SummarySeed[] = [
  {
    docId: 'd1',
    document: 'The mayor opened the bridge on Monday.',
    sentences: ['The mayor opened the bridge.', 'It was Monday.'],
  },
  { docId: 'd2', document: 'Rain flooded the valley.', sentences: ['Rain flooded a valley.'] },
];
const DESKTOP: HostSeed = { host: 'electron', fileDialogs: true, canSwitchProjects: true };
/** A real import or demo build takes its time on a loaded machine: waits for its outcome allow for that. */
const REAL_WORK = { timeout: 15_000 };

async function openProjectView(info: HostSeed = {}) {
  core = await createRendererCore(SEEDS, info);
  render(<App bridge={core.bridge} />);
  fireEvent.click(await screen.findByTestId('nav-project'));
  await screen.findByTestId('datasets');
}

/** Chooses a file in the browser's import field. */
function chooseFile(name: string, content: string) {
  const file = new File([content], name);
  fireEvent.change(screen.getByTestId('import-file'), { target: { files: [file] } });
}

/** Summaries not sampled yet, uploaded into "demo" after the seed. */
async function addUnsampled(count: number) {
  await core.upload(
    'more.jsonl',
    Array.from({ length: count }, (_, i) => ({
      dataset: 'demo',
      doc_id: `more-${i}`,
      document: `Document ${i} says one thing.`,
      summary_id: `more-${i}`,
      summary: `Summary ${i} says one thing.`,
      sentences: [`Summary ${i} says one thing.`],
    })),
  );
}

const importState = () => screen.getByTestId('import-status').getAttribute('data-state');

beforeEach(() => resetRendererState());
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('datasets', () => {
  it('lists datasets with their counts, including missing documents', async () => {
    await openProjectView();
    const row = screen.getByTestId('dataset-demo');
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['demo', '2', '0', '2', '3', '2', '1']);
    expect(screen.getByTestId('datasets').textContent).toContain('Documents missing');
  });
});

describe('import in the browser', () => {
  /** FineSurE's FRANK result file with one record's judge reply a prediction short (its predictions are left out). */
  function finesureOnePredictionShort(): { bytes: Buffer; summaryId: string } {
    const lines = readFileSync(
      join(FIXTURES, 'benchmarks', 'frank', 'finesure-format', 'fact-checking-raw-data.finesure.json'),
      'utf8',
    ).split('\n');
    const record = JSON.parse(lines[2]!) as { doc_id: string; model: string; pred_faithfulness_labels: number[] };
    record.pred_faithfulness_labels = record.pred_faithfulness_labels.slice(1);
    lines[2] = JSON.stringify(record);
    return { bytes: Buffer.from(lines.join('\n')), summaryId: `${record.doc_id}:${record.model}` };
  }

  it("uploads the chosen file's bytes, polls the job, and shows the result", async () => {
    await openProjectView();
    const { bytes, summaryId } = finesureOnePredictionShort();
    fireEvent.change(screen.getByTestId('import-kind'), { target: { value: 'frank' } });
    fireEvent.change(screen.getByTestId('import-dataset'), { target: { value: 'news' } });
    chooseFile('fact-checking-raw-data.json', bytes.toString('utf8'));

    await screen.findByTestId('import-progress');
    const result = await screen.findByTestId('import-result', {}, REAL_WORK);
    expect(result.textContent).toContain('10 summaries added');
    expect(result.textContent).toContain('30 sentences');
    expect(result.textContent).toContain('fact-checking-raw-data.json');
    expect(screen.getByTestId('import-predictions-skipped').textContent).toContain(
      `fact-checking-raw-data.json, line 3 (${summaryId}): pred_faithfulness_labels has 2 predictions, expected 3`,
    );
    // The file's bytes, base64 (the core decodes them strictly, as a file on disk).
    expect(core.callsTo('imports.start')).toEqual([
      {
        source: { type: 'upload', name: 'fact-checking-raw-data.json', base64: bytes.toString('base64') },
        as: 'frank',
        dataset: 'news',
      },
    ]);
    expect(core.callsTo('jobs.get').length).toBeGreaterThanOrEqual(1);
    // Datasets refreshed after a successful import.
    await screen.findByTestId('dataset-news');
  });

  it('says what a scaffold import did: its dataset, versions and alignments, no empty dataset or 0 / 0 progress', async () => {
    await openProjectView();
    const records = ['d1', 'd2'].map((docId) => ({ dataset: 'demo', doc_id: docId, ...CAMERA_SCAFFOLD }));
    chooseFile('scaffold.jsonl', records.map((r) => JSON.stringify(r)).join('\n'));
    const summary = await screen.findByTestId('import-result-summary', {}, REAL_WORK);
    expect(summary.textContent).toBe('Imported as scaffold into demo: 2 scaffold versions and 0 alignments added.');
    const status = screen.getByTestId('import-status').textContent!;
    expect(status).not.toMatch(/0 \/ 0|summaries added|into —/);
    expect(screen.getByTestId('import-progress').textContent).toBe('scaffold.jsonl — done');
  });

  it('lists every problem of a refused import in a table', async () => {
    await openProjectView();
    const row = (id: string, summary: string) =>
      JSON.stringify({ dataset: 'demo', doc_id: 'd9', document: 'A document.', summary_id: id, summary });
    chooseFile(
      'bad.jsonl',
      [row('b1', 'Fine.'), row('b2', ''), row('b3', 'Fine.'), row('b4', 'Fine.'), '5'].join('\n'),
    );
    const table = await screen.findByTestId('import-problems', {}, REAL_WORK);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['bad.jsonl', 'line 2', 'summary', 'a non-empty summary', '""'],
      ['bad.jsonl', 'line 5', '', 'an object', '5'],
    ]);
    expect(screen.getByTestId('import-error').textContent).toContain('Nothing was imported');
  });

  it('shows the problems of a file in no known format', async () => {
    await openProjectView();
    chooseFile('x.txt', 'x');
    const table = await screen.findByTestId('import-problems', {}, REAL_WORK);
    expect(table.textContent).toContain('a file in one of the formats summaries, labels, frank');
    expect(table.textContent).toContain('no known format');
  });

  it('cancels a running import', async () => {
    await openProjectView();
    // Large enough that the job is still splitting when Cancel is pressed.
    const rows = Array.from({ length: 20_000 }, (_, i) =>
      JSON.stringify({
        dataset: 'big',
        doc_id: `d${i}`,
        document: `Document ${i}.`,
        summary_id: `s${i}`,
        summary: `Summary ${i} one. Summary ${i} two.`,
      }),
    );
    chooseFile('big.jsonl', rows.join('\n'));
    fireEvent.click(await screen.findByTestId('import-cancel'));
    await waitFor(() => expect(importState()).toBe('cancelled'), REAL_WORK);
    const { jobId } = core.callsTo('jobs.get')[0]!;
    expect(core.callsTo('jobs.cancel')).toEqual([{ jobId }]);
    // Nothing of the file was written.
    expect((await core.lead('datasets.list', {})).map((d) => d.name)).toEqual(['demo']);
  });

  it('imports a file dropped on the window', async () => {
    await openProjectView();
    const csv = readFileSync(join(FIXTURES, 'formats', 'summaries.csv'));
    const file = new File([csv.toString('utf8')], 'dropped.csv');
    const drop = new Event('drop', { bubbles: true, cancelable: true });
    Object.defineProperty(drop, 'dataTransfer', { value: { files: [file], types: ['Files'] } });
    window.dispatchEvent(drop);
    await waitFor(() =>
      expect(core.callsTo('imports.start')).toEqual([
        { source: { type: 'upload', name: 'dropped.csv', base64: csv.toString('base64') } },
      ]),
    );
    expect(drop.defaultPrevented).toBe(true);
    await screen.findByTestId('import-result', {}, REAL_WORK);
  });
});

describe('import on the desktop', () => {
  it('uses the native dialog and imports by path', async () => {
    await openProjectView(DESKTOP);
    const path = join(FIXTURES, 'formats', 'summaries.jsonl');
    core.override('dialog.importFile', () => ({ path }));
    fireEvent.click(screen.getByTestId('import-choose'));
    await waitFor(() => expect(core.callsTo('imports.start')).toEqual([{ source: { type: 'path', path } }]));
    await screen.findByTestId('import-result', {}, REAL_WORK);
    await screen.findByTestId('dataset-demo-news');
  });
});

describe('sampling', () => {
  it('draws with n = 25 and seed = 0 by default', async () => {
    await openProjectView();
    await addUnsampled(2);
    fireEvent.click(screen.getByTestId('sample-draw'));
    await waitFor(() => expect(core.callsTo('sampling.draw')).toEqual([{ dataset: 'demo', n: 25, seed: 0 }]));
    expect((await screen.findByTestId('sample-message')).textContent).toContain('only 2 unsampled were left');
  });

  it('splits a batch among annotators with an overlap (percent in the field, a share in the call)', async () => {
    await openProjectView();
    await addUnsampled(8);
    fireEvent.change(screen.getByTestId('sample-n'), { target: { value: '5' } });
    fireEvent.change(screen.getByTestId('sample-annotators'), { target: { value: 'alice, bob' } });
    fireEvent.change(screen.getByTestId('sample-overlap'), { target: { value: '20' } });
    fireEvent.click(screen.getByTestId('sample-draw'));
    await waitFor(() =>
      expect(core.callsTo('sampling.draw')).toEqual([
        { dataset: 'demo', n: 5, seed: 0, annotators: ['alice', 'bob'], overlap: 0.2 },
      ]),
    );
    expect((await screen.findByTestId('sample-message')).textContent).toContain(
      'alice 3, bob 3; 1 summary by two (overlap 20%)',
    );
    // An overlap with a single annotator is the contract's refusal (the text every host gives): nothing is drawn.
    fireEvent.change(screen.getByTestId('sample-annotators'), { target: { value: 'alice' } });
    fireEvent.click(screen.getByTestId('sample-draw'));
    await waitFor(() =>
      expect(screen.getByTestId('sample-message').textContent).toMatch(/An overlap needs at least two annotators/),
    );
    // The seed's batch and the one drawn above.
    expect(await core.lead('sampling.list', { dataset: 'demo' })).toHaveLength(2);
  });
});

describe('export in the browser', () => {
  it('builds the export and offers it as a download link', async () => {
    await openProjectView();
    const createObjectURL = vi.fn(() => 'blob:loupe/1');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    fireEvent.change(screen.getByTestId('export-format'), { target: { value: 'csv' } });
    fireEvent.click(screen.getByTestId('export-history'));
    fireEvent.click(screen.getByTestId('export-build'));
    const link = await screen.findByTestId('export-download');
    expect(link.getAttribute('href')).toBe('blob:loupe/1');
    // Named after the project (test.loupe).
    expect(link.getAttribute('download')).toBe('test-labels.csv');
    expect(core.callsTo('export.build')).toEqual([{ format: 'csv', history: true }]);
  });
});

describe('start view', () => {
  it('offers project switching only when the host allows it', async () => {
    core = await createRendererCore([], { canSwitchProjects: false }, { noProject: true });
    render(<App bridge={core.bridge} />);
    const start = await screen.findByTestId('start');
    expect(within(start).queryByTestId('open-demo')).toBeNull();
    cleanup();
    resetRendererState();

    core = await createRendererCore([], DESKTOP, { noProject: true });
    render(<App bridge={core.bridge} />);
    fireEvent.click(await screen.findByTestId('open-demo'));
    await screen.findByTestId('datasets', {}, REAL_WORK);
    expect(core.callsTo('projects.openDemo')).toHaveLength(1);
  });

  it('asks for the annotator when none is known, and remembers the choice for this tab', async () => {
    core = await createRendererCore([{ document: 'Doc.', sentences: ['A sentence here.'] }], { annotator: null });
    render(<App bridge={core.bridge} />);
    fireEvent.change(await screen.findByTestId('annotator-name'), { target: { value: '  rita ' } });
    fireEvent.click(screen.getByTestId('annotator-submit'));
    await screen.findByTestId('unit-current');
    expect(core.callsTo('annotators.ensure')).toEqual([{ name: 'rita' }]);
    expect(window.sessionStorage.getItem('loupe.annotator')).toBe('rita');
    expect(window.localStorage.getItem('loupe.annotator')).toBeNull();
    expect(core.callsTo('annotation.queue')[0]).toEqual({ annotator: 'rita' });
  });
});

/** A person's activity with nothing done yet; tests override what they need. */
function person(name: string): AnnotatorActivity {
  return {
    name,
    kind: 'person',
    annotationLabels: 0,
    reviewDecisions: 0,
    claimLabels: 0,
    keyFactLabels: 0,
    scaffoldAlignments: 0,
    events: 0,
    timedDecisions: 0,
    medianMsPerDecision: null,
    fastDecisions: 0,
    firstAt: null,
    lastAt: null,
  };
}

describe('annotators in the Project view', () => {
  it('shows each annotator’s activity with an empty state before anyone labels', async () => {
    const { AnnotatorsTable } = await import('../../../renderer/components/project/AnnotatorsTable');
    const empty = render(<AnnotatorsTable annotators={[]} fastMs={2000} />);
    expect(empty.getByTestId('annotators-empty').textContent).toMatch(/No annotators yet/);
    empty.unmount();
    const shown = render(
      <AnnotatorsTable
        fastMs={2000}
        annotators={[
          {
            ...person('ana'),
            annotationLabels: 42,
            reviewDecisions: 3,
            claimLabels: 5,
            events: 50,
            timedDecisions: 40,
            medianMsPerDecision: 5300,
            fastDecisions: 2,
            firstAt: '2026-11-01T10:00:00.000Z',
            lastAt: '2026-11-03T10:00:00.000Z',
          },
          person('<b>bo</b>'),
        ]}
      />,
    );
    const ana = shown.getByTestId('annotator-ana');
    expect(ana.textContent).toContain('42');
    expect(ana.textContent).toContain('5.3 s');
    expect(shown.getByTestId('annotator-other-ana').textContent).toBe('5 claim labels');
    expect(shown.getByTestId('annotator-active-ana').textContent).toBe('2026-11-01 – 2026-11-03');
    expect(shown.getByTestId('annotator-fast-ana').textContent).toBe('2 of 40');
    expect(shown.getByTestId('annotator-<b>bo</b>').textContent).toContain('<b>bo</b>');
    expect(shown.container.querySelector('b')).toBeNull();
    // Someone who has not labeled yet: said in words, not "— – —".
    expect(shown.getByTestId('annotator-active-<b>bo</b>').textContent).toBe('not yet');
    expect(shown.getByTestId('annotators').textContent).not.toContain('— – —');
  });

  it('lists imported label sets apart, with the labels they hold (REALSumm’s are key-fact labels, not 0)', async () => {
    const { AnnotatorsTable } = await import('../../../renderer/components/project/AnnotatorsTable');
    const at = '2026-11-05T08:00:00.000Z';
    render(
      <AnnotatorsTable
        fastMs={2000}
        annotators={[
          { ...person('alice'), annotationLabels: 3, events: 3, firstAt: at, lastAt: at },
          { ...person('frank-0'), kind: 'imported', annotationLabels: 191, events: 191, firstAt: at, lastAt: at },
          { ...person('realsumm-0'), kind: 'imported', keyFactLabels: 144, firstAt: at, lastAt: at },
        ]}
      />,
    );
    const people = screen.getByTestId('annotators');
    expect(within(people).queryByTestId('annotator-realsumm-0')).toBeNull();
    expect(within(people).getByTestId('annotator-active-alice').textContent).toBe('2026-11-05');
    const sets = screen.getByTestId('annotators-imported');
    expect(within(sets).getByTestId('label-set-labels-realsumm-0').textContent).toBe('144 key-fact labels');
    expect(within(sets).getByTestId('label-set-labels-frank-0').textContent).toBe('191 sentence labels');
    // No time columns for sets that took no decisions here, and no empty ranges.
    expect(sets.textContent).not.toMatch(/—\s*–\s*—|Median|Fast/);
  });
});
