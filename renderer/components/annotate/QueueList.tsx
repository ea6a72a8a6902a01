/**
 * The annotator's summaries with done/total. Virtualised: a project's queue can hold 20,000
 * summaries, and only the rows in view exist in the DOM.
 */
import { memo } from 'react';
import type { QueueItem } from '../../../shared/api';
import { VirtualQueue, type QueueRow } from '../VirtualQueue';

interface QueueListProps {
  items: readonly QueueItem[];
  position: number | null;
  onOpen: (position: number) => void;
}

/** Memoised (with a module-level `row`): a label keypress re-renders only the row whose count moved. */
export const QueueList = memo(function QueueList({ items, position, onOpen }: QueueListProps) {
  return (
    <VirtualQueue items={items} position={position} onOpen={onOpen} testId="queue-list" label="Summaries to annotate" row={queueRow} />
  );
});

function queueRow(item: QueueItem): QueueRow {
  const done = item.labeled >= item.units && item.units > 0;
  return {
    key: item.key,
    testId: `queue-item-${item.key}`,
    done,
    title: item.summaryId,
    meta: (
      <>
        <span className="muted">{item.dataset}</span>
        {item.documentMissing ? (
          <span className="tag tag-missing">doc missing</span>
        ) : (
          <span className={done ? 'count-done' : 'count'}>
            {item.labeled}/{item.units}
          </span>
        )}
      </>
    ),
  };
}
