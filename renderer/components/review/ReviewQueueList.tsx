/**
 * The queue's summaries (backend order: doc id, then summary id) with decided/marked and the
 * fast-decision flag. Virtualised like Annotate's queue: a raised cap may list thousands.
 */
import type { ReviewQueueItem } from '../../../shared/api';
import { VirtualQueue } from '../VirtualQueue';
import { fastWords, seconds } from './format';

interface ReviewQueueListProps {
  items: readonly ReviewQueueItem[];
  position: number | null;
  fastMs: number;
  onOpen: (position: number) => void;
}

export function ReviewQueueList({ items, position, fastMs, onOpen }: ReviewQueueListProps) {
  return (
    <VirtualQueue
      items={items}
      position={position}
      onOpen={onOpen}
      testId="review-queue-list"
      label="Summaries to review"
      row={(item) => {
        const done = item.decided.length >= item.marked.length && item.marked.length > 0;
        return {
          key: item.key,
          testId: `review-queue-item-${item.key}`,
          done,
          data: {
            'data-summary': item.summaryId,
            'data-decided': item.decided.length,
            'data-marked': item.marked.length,
            'data-fast': item.fast.length,
          },
          title: item.summaryId,
          tooltip: `${item.summaryId} (document ${item.docId})`,
          meta: (
            <>
              <span className="muted">
                {item.marked.length} of {item.sentences} marked
              </span>
              {item.fast.length > 0 && (
                <span
                  className="tag tag-fast"
                  data-testid="review-fast-flag"
                  title={fastWords(item.fast.length, fastMs)}
                >
                  ⚑ {item.fast.length} in &lt; {seconds(fastMs)}
                </span>
              )}
              {item.documentMissing ? (
                <span className="tag tag-missing">doc missing</span>
              ) : (
                <span className={done ? 'count-done' : 'count'}>
                  {item.decided.length}/{item.marked.length}
                </span>
              )}
            </>
          ),
        };
      }}
    />
  );
}
