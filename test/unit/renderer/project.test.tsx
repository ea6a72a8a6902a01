// @vitest-environment happy-dom
/** Project view and start: import with progress/cancel/problems, sampling, export, project switching. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from '../../../renderer/App';
import { ApiError } from '../../../renderer/api/errors';
import { createFakeCore, resetRendererState, type FakeCore } from '../../../renderer/testing/fakeCore';
import type { AnnotatorActivity, Job } from '../../../shared/api';

let core: FakeCore;

async function openProjectView(info: Parameters<typeof createFakeCore>[1] = {}) {
  core = createFakeCore([], info);
  render(<App bridge={core.bridge} />);
  fireEvent.click(await screen.findByTestId('nav-project'));
  await screen.findByTestId('datasets');
}

function job(partial: Partial<Job>): Job {
  return {
    id: 'j1',
    kind: 'import',
    state: 'running',
    phase: 'parsing',
    done: 0,
    total: 10,
    result: null,
    error: null,
    ...partial,
  };
}

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
    ).toEqual(['demo', '2', '0', '0', '0', '0', '0']);
    expect(screen.getByTestId('datasets').textContent).toContain('Documents missing');
  });
});

describe('import in the browser', () => {
  it("uploads the chosen file's bytes, polls the job, and shows the result", async () => {
    await openProjectView();
    let polls = 0;
    core.override('imports.start', () => ({ jobId: 'j1' }));
    core.override('jobs.get', () => {
      polls += 1;
      if (polls < 3) return job({ done: polls * 4 });
      return job({
        state: 'done',
        done: 10,
        result: {
          kind: 'summaries',
          datasets: ['news'],
          filesUsed: ['news.jsonl'],
          summariesAdded: 10,
          summariesUnchanged: 2,
          unitsAdded: 31,
          labelsAdded: 0,
          labelsUnchanged: 0,
          predictionsKept: 0,
          predictionsSkipped: [
            {
              file: 'news.jsonl',
              line: 4,
              summaryId: 'd1:bart',
              field: 'pred_faithfulness_labels',
              expected: 3,
              found: 2,
            },
          ],
          notes: ['Split with sbd'],
        },
      });
    });
    fireEvent.change(screen.getByTestId('import-kind'), { target: { value: 'summaries' } });
    fireEvent.change(screen.getByTestId('import-dataset'), { target: { value: 'news' } });
    const file = new File(['{"docId":"d1"}\n'], 'news.jsonl', { type: 'application/json' });
    fireEvent.change(screen.getByTestId('import-file'), { target: { files: [file] } });

    await screen.findByTestId('import-progress');
    const result = await screen.findByTestId('import-result', {}, { timeout: 3_000 });
    expect(result.textContent).toContain('10 summaries added');
    expect(result.textContent).toContain('(2 already there), 31 sentences');
    expect(result.textContent).toContain('news.jsonl');
    expect(result.textContent).toContain('Split with sbd');
    expect(screen.getByTestId('import-predictions-skipped').textContent).toContain(
      'news.jsonl, line 4 (d1:bart): pred_faithfulness_labels has 2 predictions, expected 3',
    );
    // The file's bytes, base64 (the core decodes them strictly, as a file on disk).
    expect(core.callsTo('imports.start')).toEqual([
      {
        source: { type: 'upload', name: 'news.jsonl', base64: Buffer.from('{"docId":"d1"}\n').toString('base64') },
        as: 'summaries',
        dataset: 'news',
      },
    ]);
    expect(polls).toBe(3);
    // Datasets refreshed after a successful import.
    await waitFor(() => expect(core.callsTo('datasets.list').length).toBeGreaterThanOrEqual(2));
  });

  it('says what a scaffold import did: its dataset, versions and alignments, no empty dataset or 0 / 0 progress', async () => {
    await openProjectView();
    core.override('imports.start', () => ({ jobId: 'j1' }));
    core.override('jobs.get', () =>
      job({
        state: 'done',
        phase: 'writing',
        done: 0,
        total: 0,
        result: {
          kind: 'scaffold',
          datasets: ['realsumm'],
          filesUsed: ['scaffold.jsonl'],
          summariesAdded: 0,
          summariesUnchanged: 0,
          unitsAdded: 0,
          labelsAdded: 0,
          labelsUnchanged: 0,
          predictionsKept: 0,
          predictionsSkipped: [],
          notes: [],
          scaffold: { scaffolds: 9, alignments: 0 },
        },
      }),
    );
    fireEvent.change(screen.getByTestId('import-file'), { target: { files: [new File(['{}'], 'scaffold.jsonl')] } });
    const summary = await screen.findByTestId('import-result-summary');
    expect(summary.textContent).toBe('Imported as scaffold into realsumm: 9 scaffold versions and 0 alignments added.');
    const status = screen.getByTestId('import-status').textContent!;
    expect(status).not.toMatch(/0 \/ 0|summaries added|into —/);
    expect(screen.getByTestId('import-progress').textContent).toBe('scaffold.jsonl — done');
  });

  it('lists every problem of a refused import in a table', async () => {
    await openProjectView();
    const problems = [
      { file: 'bad.jsonl', line: 2, field: 'summary', expected: 'a non-empty string', found: '""' },
      { file: 'bad.jsonl', record: 5, expected: 'an object' },
    ];
    core.override('imports.start', () => ({ jobId: 'j1' }));
    core.override('jobs.get', () =>
      job({ state: 'failed', error: { message: 'Nothing was imported: 2 problems found.', problems } }),
    );
    fireEvent.change(screen.getByTestId('import-file'), { target: { files: [new File(['x'], 'bad.jsonl')] } });
    const table = await screen.findByTestId('import-problems');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['bad.jsonl', 'line 2', 'summary', 'a non-empty string', '""'],
      ['bad.jsonl', 'record 5', '', 'an object', ''],
    ]);
    expect(screen.getByTestId('import-error').textContent).toContain('Nothing was imported');
  });

  it('shows the problems of an import refused up front (ApiError with problems)', async () => {
    await openProjectView();
    core.override('imports.start', () => {
      throw new ApiError({
        code: 'import_failed',
        message: 'Unknown format',
        problems: [{ file: 'x.txt', expected: 'a known format' }],
      });
    });
    fireEvent.change(screen.getByTestId('import-file'), { target: { files: [new File(['x'], 'x.txt')] } });
    const table = await screen.findByTestId('import-problems');
    expect(table.textContent).toContain('a known format');
  });

  it('cancels a running import', async () => {
    await openProjectView();
    let cancelled = false;
    core.override('imports.start', () => ({ jobId: 'j1' }));
    core.override('jobs.get', () => (cancelled ? job({ state: 'cancelled' }) : job({ done: 1 })));
    core.override('jobs.cancel', () => {
      cancelled = true;
      return job({ state: 'cancelled' });
    });
    fireEvent.change(screen.getByTestId('import-file'), { target: { files: [new File(['x'], 'big.jsonl')] } });
    fireEvent.click(await screen.findByTestId('import-cancel'));
    await waitFor(() => expect(screen.getByTestId('import-status').getAttribute('data-state')).toBe('cancelled'));
    expect(core.callsTo('jobs.cancel')).toEqual([{ jobId: 'j1' }]);
  });

  it('imports a file dropped on the window', async () => {
    await openProjectView();
    core.override('imports.start', () => ({ jobId: 'j1' }));
    core.override('jobs.get', () => job({ state: 'done', done: 1, total: 1 }));
    const file = new File(['text'], 'dropped.csv');
    const drop = new Event('drop', { bubbles: true, cancelable: true });
    Object.defineProperty(drop, 'dataTransfer', { value: { files: [file], types: ['Files'] } });
    window.dispatchEvent(drop);
    await waitFor(() =>
      expect(core.callsTo('imports.start')).toEqual([
        { source: { type: 'upload', name: 'dropped.csv', base64: Buffer.from('text').toString('base64') } },
      ]),
    );
    expect(drop.defaultPrevented).toBe(true);
  });
});

describe('import on the desktop', () => {
  it('uses the native dialog and imports by path', async () => {
    await openProjectView({ host: 'electron', fileDialogs: true, canSwitchProjects: true });
    core.override('dialog.importFile', () => ({ path: '/data/frank' }));
    core.override('imports.start', () => ({ jobId: 'j1' }));
    core.override('jobs.get', () => job({ state: 'done', done: 1, total: 1 }));
    fireEvent.click(screen.getByTestId('import-choose'));
    await waitFor(() =>
      expect(core.callsTo('imports.start')).toEqual([{ source: { type: 'path', path: '/data/frank' } }]),
    );
  });
});

describe('sampling', () => {
  it('draws with n = 25 and seed = 0 by default', async () => {
    await openProjectView();
    core.override('sampling.draw', ({ dataset, n, seed }) => ({
      dataset,
      batch: 1,
      seed: seed ?? 0,
      requested: n,
      annotator: null,
      summaryIds: ['a', 'b'],
      exhausted: true,
      createdAt: '2025-01-01T00:00:00Z',
      overlap: null,
      assignments: [],
    }));
    fireEvent.click(screen.getByTestId('sample-draw'));
    await waitFor(() => expect(core.callsTo('sampling.draw')).toEqual([{ dataset: 'demo', n: 25, seed: 0 }]));
    expect((await screen.findByTestId('sample-message')).textContent).toContain('only 2 unsampled were left');
  });

  it('splits a batch among annotators with an overlap (percent in the field, a share in the call)', async () => {
    await openProjectView();
    const drawn = vi.fn(
      ({ dataset, n, seed, overlap }: { dataset: string; n: number; seed?: number; overlap?: number }) => ({
        dataset,
        batch: 2,
        seed: seed ?? 0,
        requested: n,
        annotator: null,
        summaryIds: ['a', 'b', 'c', 'd', 'e'],
        exhausted: false,
        createdAt: '2025-01-01T00:00:00Z',
        overlap: overlap ?? null,
        assignments: [
          { annotator: 'alice', summaryIds: ['a', 'c', 'e'] },
          { annotator: 'bob', summaryIds: ['b', 'd', 'e'] },
        ],
      }),
    );
    core.override('sampling.draw', drawn);
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
    expect(drawn).toHaveBeenCalledTimes(1);
  });
});

describe('export in the browser', () => {
  it('builds the export and offers it as a download link', async () => {
    await openProjectView();
    const createObjectURL = vi.fn(() => 'blob:loupe/1');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    core.override('export.build', ({ format }) => ({
      fileName: `labels.${format}`,
      mime: 'text/csv',
      content: 'a,b\n',
      rows: 1,
    }));
    fireEvent.change(screen.getByTestId('export-format'), { target: { value: 'csv' } });
    fireEvent.click(screen.getByTestId('export-history'));
    fireEvent.click(screen.getByTestId('export-build'));
    const link = await screen.findByTestId('export-download');
    expect(link.getAttribute('href')).toBe('blob:loupe/1');
    expect(link.getAttribute('download')).toBe('labels.csv');
    expect(core.callsTo('export.build')).toEqual([{ format: 'csv', history: true }]);
  });
});

describe('start view', () => {
  it('offers project switching only when the host allows it', async () => {
    core = createFakeCore([], { project: null, canSwitchProjects: false });
    render(<App bridge={core.bridge} />);
    const start = await screen.findByTestId('start');
    expect(within(start).queryByTestId('open-demo')).toBeNull();
    cleanup();
    resetRendererState();

    core = createFakeCore([], { project: null, canSwitchProjects: true, host: 'electron', fileDialogs: true });
    const project = { path: '/demo.loupe', name: 'demo', schemaVersion: 1, isDemo: true };
    core.override('projects.openDemo', () => {
      core.info.project = project;
      return project;
    });
    render(<App bridge={core.bridge} />);
    fireEvent.click(await screen.findByTestId('open-demo'));
    await screen.findByTestId('datasets');
    expect(core.callsTo('projects.openDemo')).toHaveLength(1);
  });

  it('asks for the annotator when none is known, and remembers the choice for this tab', async () => {
    core = createFakeCore([{ key: 1, document: 'Doc.', sentences: ['A sentence here.'] }], { annotator: null });
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
