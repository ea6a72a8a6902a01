/**
 * A virtualised list of summaries to work through (Annotate's and Review's queues): a project's
 * queue can hold 20,000 summaries, and only the rows in view exist in the DOM. Rows are buttons
 * that never take focus, so Enter keeps meaning "next summary".
 */
import { memo, useEffect, useRef, type ReactNode } from 'react';
import { observeElementRect, useVirtualizer, type Rect, type Virtualizer } from '@tanstack/react-virtual';

const ROW_HEIGHT = 44;
/** Before layout (or in a headless test with no layout) assume a typical sidebar. */
const FALLBACK_RECT: Rect = { width: 260, height: 720 };

function observeRectWithFallback(instance: Virtualizer<HTMLDivElement, Element>, callback: (rect: Rect) => void) {
  return observeElementRect(instance, (rect) => callback(rect.height > 0 ? rect : FALLBACK_RECT));
}

/** A list of which only some rows are loaded: `itemAt` answers those (by position), of `total`. */
export interface LoadedStretch<T> {
  itemAt: (position: number) => T | undefined;
  total: number;
  /** A row in view is not loaded: its position (called after rendering, once per change of the rows in view). */
  onMissing: (position: number) => void;
}

interface VirtualQueueProps<T> {
  items: readonly T[];
  /** Absent: `items` is the whole list. */
  loaded?: LoadedStretch<T>;
  position: number | null;
  onOpen: (position: number) => void;
  testId: string;
  label: string;
  row: (item: T) => QueueRow;
}

export interface QueueRow {
  key: number;
  testId: string;
  done: boolean;
  data?: Record<`data-${string}`, string | number>;
  title: string;
  tooltip?: string;
  meta: ReactNode;
}

export function VirtualQueue<T>({ items, loaded, position, onOpen, testId, label, row }: VirtualQueueProps<T>) {
  const scroller = useRef<HTMLDivElement>(null);
  const itemAt = loaded?.itemAt ?? ((position: number) => items[position]);
  const count = loaded?.total ?? items.length;
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    initialRect: FALLBACK_RECT,
    observeElementRect: observeRectWithFallback,
  });

  useEffect(() => {
    if (position !== null && position < count) virtualizer.scrollToIndex(position, { align: 'auto' });
  }, [position, count, virtualizer]);

  const inView = virtualizer.getVirtualItems();
  const missing = inView.find((v) => itemAt(v.index) === undefined)?.index ?? null;
  const onMissing = loaded?.onMissing;
  useEffect(() => {
    if (missing !== null) onMissing?.(missing);
  }, [missing, onMissing]);

  return (
    <div className="queue-scroller" ref={scroller} data-testid={testId} role="list" aria-label={label}>
      <div className="queue-inner" style={{ height: virtualizer.getTotalSize() }}>
        {inView.map((virtualRow) => {
          const item = itemAt(virtualRow.index);
          if (item === undefined)
            return (
              <div
                key={virtualRow.key}
                className="queue-item is-loading"
                role="listitem"
                data-testid="queue-item-loading"
                style={{ transform: `translateY(${virtualRow.start}px)`, height: ROW_HEIGHT }}
              >
                <span className="queue-item-title muted">
                  <span className="queue-number">{virtualRow.index + 1}.</span> …
                </span>
              </div>
            );
          return (
            <QueueRowButton
              key={virtualRow.key}
              item={item}
              row={row}
              index={virtualRow.index}
              start={virtualRow.start}
              current={virtualRow.index === position}
              onOpen={onOpen}
            />
          );
        })}
      </div>
    </div>
  );
}

interface QueueRowButtonProps<T> {
  item: T;
  row: (item: T) => QueueRow;
  index: number;
  start: number;
  current: boolean;
  onOpen: (position: number) => void;
}

/**
 * Memoised: a label changes one item of the queue (its done count), so only that row renders
 * again, not every row in view. Callers pass a stable `row` and `onOpen` for it.
 */
const QueueRowButton = memo(function QueueRowButton<T>({
  item,
  row,
  index,
  start,
  current,
  onOpen,
}: QueueRowButtonProps<T>) {
  const shown = row(item);
  return (
    <button
      type="button"
      role="listitem"
      className={`queue-item${current ? ' is-current' : ''}${shown.done ? ' is-done' : ''}`}
      data-testid={shown.testId}
      {...shown.data}
      aria-current={current ? 'true' : undefined}
      style={{ transform: `translateY(${start}px)`, height: ROW_HEIGHT }}
      onClick={() => onOpen(index)}
      // Keep focus where it was: a focused row would take the next Enter for itself.
      onMouseDown={(event) => event.preventDefault()}
      tabIndex={-1}
    >
      <span className="queue-item-title" title={shown.tooltip}>
        <span className="queue-number">{index + 1}.</span> {shown.title}
      </span>
      <span className="queue-item-meta">{shown.meta}</span>
    </button>
  );
}) as <T>(props: QueueRowButtonProps<T>) => ReactNode;
