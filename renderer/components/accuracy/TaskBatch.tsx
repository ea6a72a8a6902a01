/** Export requests… / Import answers… for the chosen accuracy task (state/accuracyBatch.ts). */
import { useRef } from 'react';
import type { AccuracyBatchImport } from '../../../shared/accuracy/contract';
import { batchSubject, dismissBatchError, exportTaskRequests, importTaskAnswers, useAccuracyBatch } from '../../state/accuracyBatch';
import { runInput, useAccuracyTasks } from '../../state/accuracyTasks';
import { saveText } from '../analysis/save';
import { ErrorBanner } from '../ErrorBanner';
import { formatCount } from '../judges/format';

export function TaskBatch({ enabled, itemNoun }: { enabled: boolean; itemNoun: string }) {
  const { pending, notice, report, about, error } = useAccuracyBatch();
  const options = useAccuracyTasks((state) => state.options);
  const current = about === batchSubject(runInput(options));
  const fileInput = useRef<HTMLInputElement>(null);
  return (
    <div className="accuracy-batch" data-testid="accuracy-batch">
      <div className="row">
        <button
          type="button"
          disabled={!enabled || pending !== null}
          onClick={() => void exportTaskRequests((fileName, content) => saveText(fileName, content, 'application/jsonl'))}
          data-testid="accuracy-batch-export"
          title="A JSONL file of OpenAI Batch requests for the items still to do (vllm run-batch, the OpenAI Batch API)"
        >
          {pending === 'export' ? 'Exporting…' : 'Export requests…'}
        </button>
        <button type="button" disabled={!enabled || pending !== null} onClick={() => fileInput.current?.click()} data-testid="accuracy-batch-import">
          {pending === 'import' ? 'Importing…' : 'Import answers…'}
        </button>
        <input
          ref={fileInput}
          type="file"
          accept=".jsonl,.json,application/jsonl,application/json,text/plain"
          hidden
          data-testid="accuracy-batch-import-file"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void importTaskAnswers(file);
          }}
        />
        <span className="muted key-hint">A batch engine answers the file offline; its answers are stored as a run's would be.</span>
      </div>
      <ErrorBanner message={error} onDismiss={dismissBatchError} />
      {current && notice && (
        <p className="notice" role="status" data-testid="accuracy-batch-notice">
          {notice}
        </p>
      )}
      {current && report && <BatchReport report={report} itemNoun={itemNoun} />}
    </div>
  );
}

function BatchReport({ report, itemNoun }: { report: AccuracyBatchImport; itemNoun: string }) {
  const examples = [...report.problems.failed, ...report.problems.unknown, ...report.problems.invalid].slice(0, 5);
  return (
    <div className="notice batch-report" data-testid="accuracy-batch-report">
      <p>
        Imported {formatCount(report.lines)} lines: {formatCount(report.answered)} answered, {formatCount(report.parseErrors)} unparsable,{' '}
        {formatCount(report.failed)} failed (sent again by the next run or batch), {formatCount(report.unknown)} unknown ids,{' '}
        {formatCount(report.duplicates)} duplicates, {formatCount(report.invalid)} unreadable lines; {formatCount(report.shared)} filled from the cache;{' '}
        {formatCount(report.stillToDo)} {itemNoun}s still to do.
      </p>
      {examples.length > 0 && (
        <ul>
          {examples.map((p, i) => (
            <li key={i}>
              line {p.line}
              {p.customId ? ` (${p.customId})` : ''}: {p.message}
            </li>
          ))}
        </ul>
      )}
      {report.notes.map((note, i) => (
        <p key={`n${i}`}>{note}</p>
      ))}
    </div>
  );
}
