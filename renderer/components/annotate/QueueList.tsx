/**
 * The annotator's summaries with done/total. Virtualised: a project's queue can hold 20,000
 * summaries, and only the rows in view exist in the DOM.
 */
import type { QueueItem } from '../../../shared/api';
import { VirtualQueue } from '../VirtualQueue';

interface QueueListProps {
  items: readonly QueueItem[];
  position: number | null;
  onOpen: (position: number) => void;
}

export function QueueList({ items, position, onOpen }: QueueListProps) {
  return (
    <VirtualQueue
      items={items}
      position={position}
      onOpen={onOpen}
      testId="queue-list"
      label="Summaries to annotate"
      row={(item) => {
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
      }}
    />
  );
}
