/** Export requests… / Import answers… for the chosen accuracy task (state/accuracyBatch.ts). */
import {
  batchSubject,
  dismissBatchError,
  exportTaskRequests,
  importTaskAnswers,
  useAccuracyBatch,
} from '../../state/accuracyBatch';
import { runInput, useAccuracyTasks } from '../../state/accuracyTasks';
import { saveText } from '../analysis/save';
import { BatchFileButtons, BatchImportReport } from '../BatchFiles';
import { ErrorBanner } from '../ErrorBanner';

export function TaskBatch({ enabled, itemNoun }: { enabled: boolean; itemNoun: string }) {
  const { pending, notice, report, about, error } = useAccuracyBatch();
  const options = useAccuracyTasks((state) => state.options);
  const current = about === batchSubject(runInput(options));
  return (
    <div className="accuracy-batch" data-testid="accuracy-batch">
      <div className="row">
        <BatchFileButtons
          disabled={!enabled}
          pending={pending}
          exportTitle="A JSONL file of OpenAI Batch requests for the items still to do (vllm run-batch, the OpenAI Batch API)"
          onExport={() =>
            void exportTaskRequests((fileName, content) => saveText(fileName, content, 'application/jsonl'))
          }
          onImport={(answers) => void importTaskAnswers(answers)}
          testIdPrefix="accuracy-batch"
        />
      </div>
      <ErrorBanner message={error} onDismiss={dismissBatchError} />
      {current && notice && (
        <p className="notice" role="status" data-testid="accuracy-batch-notice">
          {notice}
        </p>
      )}
      {current && report && <BatchImportReport report={report} itemNoun={itemNoun} testId="accuracy-batch-report" />}
    </div>
  );
}
