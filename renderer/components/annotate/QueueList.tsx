/**
 * The annotator's summaries with done/total of the current unit mode: sentences from the queue,
 * claims, key facts and scaffold items for the summaries opened in that mode (state/modeProgress.ts;
 * "·" until then). Virtualised: a project's queue can hold 100,000 summaries, and only the rows in
 * view exist in the DOM; the queue is loaded a page at a time, and a row scrolled to before its
 * page is loaded shows its number until the page arrives.
 */
import { memo, useMemo } from 'react';
import type { QueueItem } from '../../../shared/api';
import type { ItemCounts } from '../../state/modeProgress';
import type { UnitMode } from '../../state/unitMode';
import { VirtualQueue, type QueueRow } from '../VirtualQueue';

interface QueueListProps {
  /** The loaded summaries (what changes when a page arrives or a count moves). */
  items: readonly QueueItem[];
  /** The summary at a queue position, if loaded; of `total`. */
  itemAt: (position: number) => QueueItem | undefined;
  total: number;
  position: number | null;
  onOpen: (position: number) => void;
  /** A row in view is not loaded: load the queue around that position. */
  onMissing: (position: number) => void;
  /** The unit mode whose counts the rows show, and those counts (null: sentences, from the queue). */
  mode: UnitMode;
  counts: ReadonlyMap<number, ItemCounts> | null;
}

const NOUN: Record<UnitMode, string> = {
  sentences: 'sentences',
  claims: 'claims',
  keyfacts: 'key facts',
  scaffold: 'scaffold items',
};

/** Memoised: a label keypress re-renders only the rows whose count moved. */
export const QueueList = memo(function QueueList({
  items,
  itemAt,
  total,
  position,
  onOpen,
  onMissing,
  mode,
  counts,
}: QueueListProps) {
  const row = useMemo(() => (counts === null ? sentenceRow : itemRow(mode, counts)), [mode, counts]);
  return (
    <VirtualQueue
      items={items}
      loaded={{ itemAt, total, onMissing }}
      position={position}
      onOpen={onOpen}
      testId="queue-list"
      label="Summaries to annotate"
      row={row}
    />
  );
});

function sentenceRow(item: QueueItem): QueueRow {
  return rowOf(item, 'sentences', { done: item.labeled, total: item.units });
}

function itemRow(mode: UnitMode, counts: ReadonlyMap<number, ItemCounts>): (item: QueueItem) => QueueRow {
  return (item) => rowOf(item, mode, counts.get(item.key) ?? null);
}

function rowOf(item: QueueItem, mode: UnitMode, count: ItemCounts | null): QueueRow {
  const done = count !== null && count.total > 0 && count.done >= count.total;
  return {
    key: item.key,
    testId: `queue-item-${item.key}`,
    done,
    data: { 'data-mode': mode, 'data-done': count?.done ?? '', 'data-total': count?.total ?? '' },
    title: item.summaryId,
    tooltip:
      count === null ? `Not opened in ${NOUN[mode]} mode yet` : `${count.done} of ${count.total} ${NOUN[mode]} labeled`,
    meta: (
      <>
        <span className="muted">{item.dataset}</span>
        {item.documentMissing ? (
          <span className="tag tag-missing">doc missing</span>
        ) : (
          <span className={done ? 'count-done' : 'count'}>{count === null ? '·' : `${count.done}/${count.total}`}</span>
        )}
      </>
    ),
  };
}
