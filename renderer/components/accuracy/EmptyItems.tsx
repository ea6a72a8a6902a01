/** No claims or key facts yet: the lead can start the task that makes them; an annotator asks the lead. */
import type { AccuracyTask } from '../../../shared/contract/accuracy';
import { prepareTask } from '../../state/accuracyTasks';
import { showView } from '../../state/session';

interface EmptyItemsProps {
  what: 'claims' | 'keyfacts';
  dataset: string;
  lead: boolean;
}

const TEXT = {
  claims: {
    title: 'No claims yet — decompose or import them',
    task: 'claim_decomposition' as AccuracyTask,
    button: 'Decompose claims…',
    made: 'decompose this summary’s sentences into claims',
  },
  keyfacts: {
    title: 'No key facts yet — extract or import them',
    task: 'keyfact_extraction' as AccuracyTask,
    button: 'Extract key facts…',
    made: 'extract or import this document’s key facts',
  },
};

export function EmptyItems({ what, dataset, lead }: EmptyItemsProps) {
  const text = TEXT[what];
  return (
    <div className="accuracy-empty" data-testid={`${what}-empty`}>
      <p className="empty-title">{text.title}</p>
      {lead ? (
        <>
          <p className="muted">
            The task runs with a judge; Judges shows how many requests it sends before it starts. Or import them in
            Project (<code>--as accuracy</code>, <code>--as realsumm</code>).
          </p>
          <button
            type="button"
            className="primary"
            data-testid={`${what}-start-task`}
            onClick={() => {
              prepareTask(text.task, dataset);
              showView('judges');
            }}
          >
            {text.button}
          </button>
        </>
      ) : (
        <p className="muted">Ask the project lead to {text.made}.</p>
      )}
    </div>
  );
}
