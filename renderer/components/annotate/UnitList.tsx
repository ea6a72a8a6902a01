/** The summary's sentences in order, one row each: index, text, label, error type, note, fragment. */
import { memo, useEffect, useRef, type ReactNode } from 'react';
import type { AnnotationUnit } from '../../../shared/api';
import { ERROR_TYPE_NAMES } from '../../../shared/domain';
import { LabelBadge } from '../LabelBadge';

interface UnitListProps {
  units: readonly AnnotationUnit[];
  currentPosition: number;
  onSelect: (position: number) => void;
  /** Review: units shown as context only (dimmed; no decision is taken on them). */
  contextIds?: ReadonlySet<number>;
  /** Review: what to show beside a unit's row (its revealed labels). */
  aside?: (unit: AnnotationUnit) => ReactNode;
  /** Annotate: labels shown before their write returned ("saving"), and writes that failed. */
  saving?: ReadonlyMap<number, number>;
  failed?: ReadonlySet<number>;
}

export function UnitList({ units, currentPosition, onSelect, contextIds, aside, saving, failed }: UnitListProps) {
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    // In the next frame, not in the keypress's task: scrolling forces a layout, which would delay
    // the paint of the new current sentence.
    const frame = requestAnimationFrame(() =>
      list.current?.querySelector<HTMLElement>('[aria-current="true"]')?.scrollIntoView?.({ block: 'nearest' }),
    );
    return () => cancelAnimationFrame(frame);
  }, [currentPosition, units]);
  return (
    <ol className="unit-list" ref={list} aria-label="Summary sentences">
      {units.map((unit, position) => (
        <UnitRow
          key={unit.id}
          unit={unit}
          position={position}
          current={position === currentPosition}
          onSelect={onSelect}
          context={contextIds?.has(unit.id) ?? false}
          aside={aside?.(unit)}
          write={saving?.has(unit.id) ? 'saving' : failed?.has(unit.id) ? 'failed' : null}
        />
      ))}
    </ol>
  );
}

interface UnitRowProps {
  unit: AnnotationUnit;
  position: number;
  current: boolean;
  onSelect: (position: number) => void;
  context: boolean;
  aside: ReactNode;
  /** Where this unit's label write stands, when not simply stored. */
  write: 'saving' | 'failed' | null;
}

const UnitRow = memo(function UnitRow({ unit, position, current, onSelect, context, aside, write }: UnitRowProps) {
  const { label, errorType, note } = unit.state;
  return (
    <li
      className={`unit-row label-${label ?? 'none'}${current ? ' is-current' : ''}${context ? ' is-context' : ''}`}
      data-testid={`unit-${unit.index}`}
      data-label={label ?? ''}
      data-write={write ?? undefined}
      data-context={context ? 'true' : undefined}
      aria-disabled={context ? 'true' : undefined}
      aria-current={current ? 'true' : undefined}
      onClick={() => onSelect(position)}
    >
      <span className="unit-index">{unit.index + 1}</span>
      <LabelBadge label={label} testId={`label-badge-${unit.index}`} />
      <span className="unit-text">{unit.text}</span>
      <span className="unit-tags">
        {unit.fragment && (
          <span
            className="tag tag-fragment"
            data-testid={`fragment-${unit.index}`}
            title="Fewer than five words: likely a fragment"
          >
            fragment?
          </span>
        )}
        {errorType && (
          <span className="tag tag-error" data-testid={`error-type-${unit.index}`}>
            {ERROR_TYPE_NAMES[errorType]}
          </span>
        )}
        {note && (
          <span className="tag tag-note" data-testid={`note-${unit.index}`} title={note} aria-label="Has a note">
            ✎ note
          </span>
        )}
        {context && <span className="tag tag-context">context</span>}
        {write === 'saving' && (
          <span className="tag tag-saving" data-testid={`saving-${unit.index}`}>
            saving…
          </span>
        )}
        {write === 'failed' && (
          <span
            className="tag tag-failed"
            data-testid={`not-saved-${unit.index}`}
            title="The write failed: label this sentence again"
          >
            not saved
          </span>
        )}
      </span>
      {aside}
    </li>
  );
});
