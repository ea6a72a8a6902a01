/** Sentences mode of Annotate: F/U/C label the current sentence, E its error type, / or M its note. */
import { useShallow } from 'zustand/react/shallow';
import type { AnnotationSummary } from '../../../shared/api';
import type { ErrorType } from '../../../shared/domain';
import { SENTENCE_LEGEND } from '../../keyboard';
import { LABEL_NAME } from '../../labels';
import {
  canLabel,
  clearCurrent,
  currentUnit,
  errorTypeTarget,
  labelCurrent,
  moveUnit,
  sampleComplete,
  redo,
  saveNote,
  selectUnit,
  setAnnotationNotice,
  setErrorType,
  undo,
  useAnnotation,
} from '../../state/annotation';
import { ErrorTypePicker } from '../../components/annotate/ErrorTypePicker';
import { SummaryPane } from '../../components/annotate/SummaryPane';
import type { AnnotateMode } from './mode';
import { openAfterQueued, openNoteEditor } from './overlays';
import { useCurrentSentence } from './focus';

export const sentencesMode: AnnotateMode = {
  mode: 'sentences',
  legend: SENTENCE_LEGEND,
  run(command, press) {
    switch (command.type) {
      // The store re-checks at its turn: the summary may change before a queued key runs.
      case 'label':
        return (void labelCurrent(command.label, press.at), true);
      case 'next-unit':
        return (void moveUnit(1), true);
      case 'previous-unit':
        return (void moveUnit(-1), true);
      case 'clear':
        return (void clearCurrent(), true);
      case 'undo':
        return (void undo(), true);
      case 'redo':
        return (void redo(), true);
      case 'error-type':
        openAfterQueued('picker', 'error-type', () => {
          const { summary, unitPosition } = useAnnotation.getState();
          const position = errorTypeTarget();
          const unit = position === null ? undefined : summary?.units[position];
          if (position === null || !unit) return (setAnnotationNotice(whyNoErrorType(summary, unitPosition)), null);
          return (layer, close) => (
            <ErrorTypePicker
              layer={layer}
              unit={unit}
              current={unit.state.errorType}
              onChoose={(errorType: ErrorType | null) => {
                close();
                void setErrorType(position, errorType);
              }}
              onClose={close}
            />
          );
        });
        return true;
      case 'note':
        openNoteEditor(() => {
          const state = useAnnotation.getState();
          const unit = currentUnit(state);
          if (!canLabel(state.summary) || !unit) return null;
          const position = state.unitPosition;
          return { unit, note: unit.state.note, save: (text) => void saveNote(position, text) };
        });
        return true;
      case 'edit-set':
        return (
          setAnnotationNotice('W edits claims, key facts or the scaffold: press T to switch to them first.'),
          true
        );
      case 'misrepresented':
        return (
          setAnnotationNotice(
            'R / 4 marks a scaffold fact or attribute Misrepresented: press T to reach the scaffold first.',
          ),
          true
        );
      default:
        return false;
    }
  },
  Pane: SentencesPane,
  useFocusSentence: useCurrentSentence,
};

function SentencesPane({ summary }: { summary: AnnotationSummary; lead: boolean }) {
  const { complete, total, position, unitPosition, saving, failed, revealed } = useAnnotation(
    useShallow((state) => ({
      complete: sampleComplete(state),
      total: state.queueTotal,
      position: state.position,
      unitPosition: state.unitPosition,
      saving: state.saving,
      failed: state.failed,
      revealed: state.revealed,
    })),
  );
  return (
    <SummaryPane
      summary={summary}
      unitPosition={unitPosition}
      place={{ at: position !== null ? position + 1 : null, of: total }}
      saving={saving}
      failed={failed}
      revealed={revealed.has(summary.key)}
      sampleComplete={complete}
      onSelect={onSelectUnit}
    />
  );
}

// Stable, so the memoised list skips a label keypress.
const onSelectUnit = (index: number) => void selectUnit(index);

/** E did nothing: say why (an error type belongs to an Unfaithful sentence). */
function whyNoErrorType(summary: AnnotationSummary | null, unitPosition: number): string {
  if (!summary || !canLabel(summary))
    return 'E does nothing here: this summary cannot be labeled (its document is missing).';
  const unit = summary.units[unitPosition];
  if (!unit) return 'E sets the error type of an Unfaithful sentence; there is no sentence here.';
  const label = unit.state.label;
  const what = label === null ? 'is not labeled yet' : `is ${LABEL_NAME[label]}`;
  return `E sets the error type of an Unfaithful sentence: sentence ${unit.index + 1} ${what}. Press U first (then E).`;
}
