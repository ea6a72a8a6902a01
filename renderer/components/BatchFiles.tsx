/**
 * The batch-file pieces judges and accuracy tasks share: Export requests… / Import answers… buttons
 * (a JSONL of OpenAI Batch requests out, a batch engine's answers in) and the report of an import.
 */
import { useRef } from 'react';
import { formatCount, plural } from '../format';
import type { BatchAnswers } from '../state/diskFiles';
import { useSession } from '../state/session';

export type BatchFilePending = 'export' | 'import' | null | undefined;

interface BatchFileButtonsProps {
  disabled: boolean;
  pending: BatchFilePending;
  /** What the export file holds, said on hover. */
  exportTitle: string;
  onExport: () => void;
  /** The answers to import: the desktop's open dialog chooses them, the browser's file input has chosen them. */
  onImport: (answers: BatchAnswers) => void;
  /** `${prefix}-export`, `${prefix}-import`, `${prefix}-import-file` name the controls for tests. */
  testIdPrefix: string;
}

/** The two buttons, the hidden file input the import opens, and the hint; the caller places them in its row. */
export function BatchFileButtons({
  disabled,
  pending,
  exportTitle,
  onExport,
  onImport,
  testIdPrefix,
}: BatchFileButtonsProps) {
  const fileInput = useRef<HTMLInputElement>(null);
  const onDisk = useSession((state) => state.info?.fileDialogs ?? false);
  const chooseAnswers = () => (onDisk ? onImport({ type: 'dialog' }) : fileInput.current?.click());
  const busy = disabled || (pending !== null && pending !== undefined);
  return (
    <>
      <button
        type="button"
        disabled={busy}
        onClick={onExport}
        data-testid={`${testIdPrefix}-export`}
        title={exportTitle}
      >
        {pending === 'export' ? 'Exporting…' : 'Export requests…'}
      </button>
      <button type="button" disabled={busy} onClick={chooseAnswers} data-testid={`${testIdPrefix}-import`}>
        {pending === 'import' ? 'Importing…' : 'Import answers…'}
      </button>
      <input
        ref={fileInput}
        type="file"
        accept=".jsonl,.json,application/jsonl,application/json,text/plain"
        hidden
        data-testid={`${testIdPrefix}-import-file`}
        onChange={(event) => {
          const file = event.target.files?.[0];
          // Cleared so choosing the same file again imports it again.
          event.target.value = '';
          if (file) onImport({ type: 'file', file });
        }}
      />
      <span className="muted key-hint">
        A batch engine answers the file offline; its answers are stored as a run's would be.
      </span>
    </>
  );
}

/** A line of the import that was not stored as an answer. */
interface BatchProblem {
  line: number;
  customId: string | null;
  message: string;
}

/** The counts both a judge's and an accuracy task's batch import report. */
export interface BatchImportCounts {
  lines: number;
  answered: number;
  parseErrors: number;
  failed: number;
  unknown: number;
  duplicates: number;
  invalid: number;
  shared: number;
  stillToDo: number;
  problems: { unknown: readonly BatchProblem[]; failed: readonly BatchProblem[]; invalid: readonly BatchProblem[] };
  notes: readonly string[];
}

/** What an import stored and what it could not, with the first few problem lines. */
export function BatchImportReport({
  report,
  itemNoun,
  testId,
}: {
  report: BatchImportCounts;
  itemNoun: string;
  testId: string;
}) {
  const examples = [...report.problems.failed, ...report.problems.unknown, ...report.problems.invalid].slice(0, 5);
  return (
    <div className="notice batch-report" data-testid={testId}>
      <p>
        Imported {plural(report.lines, 'line')}: {formatCount(report.answered)} answered,{' '}
        {formatCount(report.parseErrors)} unparsable, {formatCount(report.failed)} failed (sent again by the next run or
        batch), {plural(report.unknown, 'unknown id')}, {plural(report.duplicates, 'duplicate')},{' '}
        {plural(report.invalid, 'unreadable line')}; {formatCount(report.shared)} filled from the cache;{' '}
        {plural(report.stillToDo, itemNoun)} still to do.
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
