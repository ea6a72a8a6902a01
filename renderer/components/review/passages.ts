/** The closest passages of the current sentence, as in Annotate: the index once per document, a query per sentence. */
import { useMemo } from 'react';
import { closestPassages, indexDocument, type Passage } from '../../alignment';

const NO_PASSAGES: readonly Passage[] = Object.freeze([]);

export function useClosestPassages(
  document: string | null,
  text: string | null,
  unitId: number | null,
): readonly Passage[] {
  const index = useMemo(() => (document ? indexDocument(document) : null), [document]);
  return useMemo(
    () => (index && text ? closestPassages(index, text) : NO_PASSAGES),
    // unitId: two identical sentences in one summary still count as a move (scroll again).
    [index, text, unitId],
  );
}
