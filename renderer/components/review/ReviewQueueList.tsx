/**
 * The queue's summaries (backend order: doc id, then summary id) with decided/marked and the
 * fast-decision flag. Virtualised like Annotate's queue: a raised cap may list thousands.
 */
import { useEffect, useRef } from 'react';
import { observeElementRect, useVirtualizer, type Rect, type Virtualizer } from '@tanstack/react-virtual';
import type { ReviewQueueItem } from '../../../shared/api';
import { fastWords, seconds } from './format';

const ROW_HEIGHT = 44;
const FALLBACK_RECT: Rect = { width: 260, height: 720 };

function observeRectWithFallback(instance: Virtualizer<HTMLDivElement, Element>, callback: (rect: Rect) => void) {
  return observeElementRect(instance, (rect) => callback(rect.height > 0 ? rect : FALLBACK_RECT));
}

interface ReviewQueueListProps {
  items: readonly ReviewQueueItem[];
  position: number | null;
  fastMs: number;
  onOpen: (position: number) => void;
}

export function ReviewQueueList({ items, position, fastMs, onOpen }: ReviewQueueListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    initialRect: FALLBACK_RECT,
    observeElementRect: observeRectWithFallback,
  });

  useEffect(() => {
    if (position !== null && position < items.length) virtualizer.scrollToIndex(position, { align: 'auto' });
  }, [position, items.length, virtualizer]);

  return (
    <div className="queue-scroller" ref={scroller} data-testid="review-queue-list" role="list" aria-label="Summaries to review">
      <div className="queue-inner" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((row) => {
          const item = items[row.index];
          if (!item) return null;
          const done = item.decided.length >= item.marked.length && item.marked.length > 0;
          return (
            <button
              type="button"
              role="listitem"
              key={item.key}
              className={`queue-item${row.index === position ? ' is-current' : ''}${done ? ' is-done' : ''}`}
              data-testid={`review-queue-item-${item.key}`}
              data-summary={item.summaryId}
              data-decided={item.decided.length}
              data-marked={item.marked.length}
              data-fast={item.fast.length}
              aria-current={row.index === position ? 'true' : undefined}
              style={{ transform: `translateY(${row.start}px)`, height: ROW_HEIGHT }}
              onClick={() => onOpen(row.index)}
              onMouseDown={(event) => event.preventDefault()}
              tabIndex={-1}
            >
              <span className="queue-item-title" title={`${item.summaryId} (document ${item.docId})`}>
                <span className="queue-number">{row.index + 1}.</span> {item.summaryId}
              </span>
              <span className="queue-item-meta">
                <span className="muted">
                  {item.marked.length} of {item.sentences} marked
                </span>
                {item.fast.length > 0 && (
                  <span className="tag tag-fast" data-testid="review-fast-flag" title={fastWords(item.fast.length, fastMs)}>
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
              </span>
            </button>
          );
        })}
      </div>
    </div>
  );
}
