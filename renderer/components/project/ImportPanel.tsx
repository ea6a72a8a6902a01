/**
 * Import: a native dialog on the desktop, a file input in the browser (a file dropped anywhere
 * on the window works in both). Shows the job's progress, and on failure every problem found.
 */
import type { ChangeEvent } from 'react';
import { IMPORT_KINDS } from '../../../shared/formats/types';
import type { ImportKind } from '../../../shared/formats/types';
import { cancelImport, importFile, importWithDialog, setImportOptions, useImports } from '../../state/imports';
import { bridge, useSession } from '../../state/session';
import { ProgressBar } from '../ProgressBar';
import { ProblemsTable } from './ProblemsTable';
import type { ImportResult } from '../../../shared/api';
import {
  describeSkippedLabels,
  describeSkippedPredictions,
  importedParts,
} from '../../../shared/formats/import-summary';
import { agree, plural } from '../../format';

export function ImportPanel({ onImported }: { onImported: () => void }) {
  const fileDialogs = useSession((state) => state.info?.fileDialogs ?? false);
  const { kind, dataset, job, starting, error, problems, sourceName } = useImports();
  const running = starting || job?.state === 'running';

  async function chooseInBrowser(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) await importFile(file, (f) => bridge().pathForFile(f), onImported);
  }

  return (
    <section className="panel" aria-labelledby="import-title">
      <h2 id="import-title">Import</h2>
      <div className="form-row">
        <label>
          Format
          <select
            value={kind}
            data-testid="import-kind"
            onChange={(event) => setImportOptions({ kind: event.target.value as ImportKind | '' })}
          >
            <option value="">Detect automatically</option>
            {IMPORT_KINDS.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </label>
        <label>
          Dataset name
          <input
            type="text"
            value={dataset}
            data-testid="import-dataset"
            placeholder="from the file"
            onChange={(event) => setImportOptions({ dataset: event.target.value })}
          />
        </label>
        {fileDialogs ? (
          <button
            type="button"
            className="primary"
            disabled={running}
            onClick={() => void importWithDialog(onImported)}
            data-testid="import-choose"
          >
            Choose file or folder…
          </button>
        ) : (
          <label className={`file-button primary${running ? ' is-disabled' : ''}`}>
            Choose file…
            <input
              type="file"
              data-testid="import-file"
              disabled={running}
              onChange={(event) => void chooseInBrowser(event)}
            />
          </label>
        )}
      </div>
      <p className="muted">Or drop a file anywhere on this window.</p>

      {(starting || job) && (
        <div className="import-status" data-testid="import-status" data-state={starting ? 'starting' : job?.state}>
          <div className="row">
            {starting || job?.state === 'running' ? (
              <ProgressBar
                testId="import-progress"
                done={job?.done ?? 0}
                total={job?.total ?? 0}
                label={`${sourceName ?? ''} — ${starting ? 'starting' : job?.phase}`}
              />
            ) : (
              // A finished import has no progress to show ("done 0 / 0" for a file without summaries): its name and how it ended.
              <span className="muted" data-testid="import-progress" data-state={job?.state}>
                {sourceName ?? ''} — {job?.state}
              </span>
            )}
            {job?.state === 'running' && (
              <button type="button" onClick={() => void cancelImport()} data-testid="import-cancel">
                Cancel
              </button>
            )}
          </div>
          {job?.state === 'cancelled' && <p className="notice">Import cancelled; nothing was imported.</p>}
          {job?.state === 'done' && job.result && <ImportSummary result={job.result} />}
        </div>
      )}
      {error && (
        <div className="error-banner" role="alert" data-testid="import-error">
          {/* The core's message repeats the first problems; the table below lists them all. */}
          <span className="error-text">{problems.length > 0 ? error.split('\n')[0] : error}</span>
        </div>
      )}
      {problems.length > 0 && <ProblemsTable problems={problems} />}
    </section>
  );
}

function ImportSummary({ result }: { result: ImportResult }) {
  const labelsSkipped = result.labelsSkipped ?? [];
  return (
    <div className="import-result" data-testid="import-result">
      <p data-testid="import-result-summary">
        Imported as <strong>{result.kind}</strong> into{' '}
        {result.datasets.length > 0 ? result.datasets.join(', ') : 'the project'}: {importedParts(result).join('; ')}.
      </p>
      {result.filesUsed.length > 0 && <p className="muted">Files used: {result.filesUsed.join(', ')}</p>}
      {result.predictionsSkipped.length > 0 && (
        <div data-testid="import-predictions-skipped">
          <p className="notice">
            {plural(result.predictionsSkipped.length, 'record')} imported without{' '}
            {agree(result.predictionsSkipped.length, 'its', 'their')} bundled judge predictions: they do not fit the
            record.
          </p>
          <ul className="notes">
            {result.predictionsSkipped.map((skip, i) => (
              <li key={i}>{describeSkippedPredictions(skip)}</li>
            ))}
          </ul>
        </div>
      )}
      {labelsSkipped.length > 0 && (
        <div data-testid="import-labels-skipped">
          <p className="notice">
            {plural(labelsSkipped.length, 'annotation')} left out (the records and their other labels are imported):
            they do not fit the record.
          </p>
          <ul className="notes">
            {labelsSkipped.map((skip, i) => (
              <li key={i}>{describeSkippedLabels(skip)}</li>
            ))}
          </ul>
        </div>
      )}
      {result.notes.length > 0 && (
        <ul className="notes">
          {result.notes.map((note, i) => (
            <li key={i}>{note}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
