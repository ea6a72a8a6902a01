/**
 * Annotate's document pane: the document with the closest passages of the current sentence.
 *
 * Memoised on plain values (which document, which sentence), so a label keypress, which replaces
 * the summary object and the queue, does not render the document again; only a new current
 * sentence does, and then in a deferred render of this pane alone: the keypress paints the new
 * current sentence first, the passages follow.
 */
import { memo, useDeferredValue, useMemo } from 'react';
import type { AnnotationSummary } from '../../../shared/api';
import { useClosestPassages } from '../review/passages';
import { DocumentPane } from './DocumentPane';

interface AnnotateDocumentProps {
  summaryKey: number | null;
  docId: string;
  document: string | null;
  /** The current sentence (null: none), and its id (two identical sentences are two moves). */
  unitText: string | null;
  unitId: number | null;
  busy: boolean;
  onAttach: (text: string) => void;
}

export const AnnotateDocument = memo(function AnnotateDocument({
  summaryKey,
  docId,
  document,
  unitText,
  unitId,
  busy,
  onAttach,
}: AnnotateDocumentProps) {
  const shown = useMemo(
    (): Pick<AnnotationSummary, 'key' | 'docId' | 'document'> | null =>
      summaryKey === null ? null : { key: summaryKey, docId, document },
    [summaryKey, docId, document],
  );
  const deferred = useDeferredValue(useMemo(() => ({ document, unitText, unitId }), [document, unitText, unitId]));
  const passages = useClosestPassages(deferred.document, deferred.unitText, deferred.unitId);
  // Passages of the previous document never highlight the next one, even for one frame.
  const current = deferred.document === document ? passages : NO_PASSAGES;
  return (
    <DocumentPane summary={shown} hasCurrentUnit={unitId !== null} passages={current} busy={busy} onAttach={onAttach} />
  );
});

const NO_PASSAGES: ReturnType<typeof useClosestPassages> = Object.freeze([]);
