/**
 * The annotator's summaries with done/total. Virtualised: a project's queue can hold 20,000
 * summaries, and only the rows in view exist in the DOM.
 */
import { useEffect, useRef } from 'react';
import { observeElementRect, useVirtualizer, type Rect, type Virtualizer } from '@tanstack/react-virtual';
import type { QueueItem } from '../../../shared/api';

const ROW_HEIGHT = 44;
/** Before layout (or in a headless test with no layout) assume a typical sidebar. */
const FALLBACK_RECT: Rect = { width: 260, height: 720 };

interface QueueListProps {
  items: readonly QueueItem[];
  position: number | null;
  onOpen: (position: number) => void;
}

function observeRectWithFallback(instance: Virtualizer<HTMLDivElement, Element>, callback: (rect: Rect) => void) {
  return observeElementRect(instance, (rect) => callback(rect.height > 0 ? rect : FALLBACK_RECT));
}

export function QueueList({ items, position, onOpen }: QueueListProps) {
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
    <div className="queue-scroller" ref={scroller} data-testid="queue-list" role="list" aria-label="Summaries to annotate">
      <div className="queue-inner" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((row) => {
          const item = items[row.index];
          if (!item) return null;
          const done = item.labeled >= item.units && item.units > 0;
          return (
            <button
              type="button"
              role="listitem"
              key={item.key}
              className={`queue-item${row.index === position ? ' is-current' : ''}${done ? ' is-done' : ''}`}
              data-testid={`queue-item-${item.key}`}
              aria-current={row.index === position ? 'true' : undefined}
              style={{ transform: `translateY(${row.start}px)`, height: ROW_HEIGHT }}
              onClick={() => onOpen(row.index)}
              // Keep focus where it was: a focused row would take the next Enter for itself.
              onMouseDown={(event) => event.preventDefault()}
              tabIndex={-1}
            >
              <span className="queue-item-title">
                <span className="queue-number">{row.index + 1}.</span> {item.summaryId}
              </span>
              <span className="queue-item-meta">
                <span className="muted">{item.dataset}</span>
                {item.documentMissing ? (
                  <span className="tag tag-missing">doc missing</span>
                ) : (
                  <span className={done ? 'count-done' : 'count'}>
                    {item.labeled}/{item.units}
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
