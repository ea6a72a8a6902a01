/** Which sentence's closest passages the document pane shows, as a unit mode decides it. */
import { useMemo } from 'react';
import type { AnnotationSummary } from '../../../shared/api';
import { useAnnotation } from '../../state/annotation';

export type FocusSentence = { id: number; text: string } | null;

/** The sentence `unitId` of `summary`, memoised on its id and text. */
export function useSentence(summary: AnnotationSummary | null, unitId: number | undefined): FocusSentence {
  const unit = unitId === undefined ? undefined : summary?.units.find((u) => u.id === unitId);
  return useMemo(() => (unit ? { id: unit.id, text: unit.text } : null), [unit?.id, unit?.text]);
}

/** The sentence under the sentence cursor. */
export function useCurrentSentence(summary: AnnotationSummary | null): FocusSentence {
  const unitId = useAnnotation((state) => state.summary?.units[state.unitPosition]?.id);
  return useSentence(summary, unitId);
}
