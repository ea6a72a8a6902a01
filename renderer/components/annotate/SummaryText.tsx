/**
 * The summary as running text, each unit tinted by its label and the current one marked, so
 * the annotator reads a sentence in its context and not only as a list row.
 */
import { memo, type ReactNode } from 'react';
import type { AnnotationUnit } from '../../../shared/api';

interface SummaryTextProps {
  summary: string;
  units: readonly AnnotationUnit[];
  currentId: number | null;
  onSelect: (position: number) => void;
  /** Review: units shown as context only (dimmed). */
  contextIds?: ReadonlySet<number>;
}

export const SummaryText = memo(function SummaryText({
  summary,
  units,
  currentId,
  onSelect,
  contextIds,
}: SummaryTextProps) {
  const pieces: ReactNode[] = [];
  let at = 0;
  units.forEach((unit, position) => {
    // Offsets come from the core; clamp them so a bad one cannot hide text.
    const start = Math.max(at, Math.min(unit.start, summary.length));
    const end = Math.max(start, Math.min(unit.end, summary.length));
    if (start > at) pieces.push(summary.slice(at, start));
    const current = unit.id === currentId;
    pieces.push(
      <span
        key={unit.id}
        className={`unit-span label-${unit.state.label ?? 'none'}${current ? ' is-current' : ''}${contextIds?.has(unit.id) ? ' is-context' : ''}`}
        data-testid={current ? 'summary-current-span' : undefined}
        onClick={() => onSelect(position)}
      >
        {summary.slice(start, end)}
      </span>,
    );
    at = end;
  });
  if (at < summary.length) pieces.push(summary.slice(at));
  return (
    <div className="summary-text" data-testid="summary">
      {pieces}
    </div>
  );
});
