/**
 * Scaffold mode of Annotate (state/scaffold.ts): F/U/C/R (1–4) align the current fact, question or
 * attribute as its kind allows, E links a kept fact to the sentences that convey it, / or M the
 * item's note (aligned or not), W reviews and edits the scaffold into a new version.
 */
import { useShallow } from 'zustand/react/shallow';
import type { AnnotationSummary } from '../../../shared/api';
import { SCAFFOLD_LEGEND } from '../../keyboard';
import {
  alignCurrent,
  clearScaffoldItem,
  moveScaffoldItem,
  redoScaffold,
  saveScaffoldEdit,
  saveScaffoldNote,
  scaffoldNoteTarget,
  selectScaffoldItem,
  sentencesTarget,
  setFactSentences,
  setScaffoldNotice,
  undoScaffold,
  useScaffold,
} from '../../state/scaffold';
import { useAnnotation } from '../../state/annotation';
import { FactSentencesPicker } from '../../components/scaffold/FactSentencesPicker';
import { ScaffoldEditor } from '../../components/scaffold/ScaffoldEditor';
import { ScaffoldPane } from '../../components/scaffold/ScaffoldPane';
import { ScaffoldVersionHistory } from '../../components/scaffold/ScaffoldVersionHistory';
import { useCurrentSentence } from './focus';
import type { AnnotateMode } from './mode';
import { openAfterQueued, openNoteEditor } from './overlays';

export const scaffoldMode: AnnotateMode = {
  mode: 'scaffold',
  legend: SCAFFOLD_LEGEND,
  run(command, press, { lead }) {
    switch (command.type) {
      case 'label':
        return (void alignCurrent(command.label, press.at), true);
      case 'misrepresented':
        return (void alignCurrent('misrepresented', press.at), true);
      case 'next-unit':
        return (void moveScaffoldItem(1), true);
      case 'previous-unit':
        return (void moveScaffoldItem(-1), true);
      case 'clear':
        return (void clearScaffoldItem(), true);
      case 'undo':
        return (void undoScaffold(), true);
      case 'redo':
        return (void redoScaffold(), true);
      case 'note':
        openNoteEditor(() => {
          const target = scaffoldNoteTarget();
          if (!target) return (setScaffoldNotice('There is no scaffold item here to write a note on.'), null);
          return {
            unit: { index: target.index, text: target.text },
            heading: target.heading,
            note: target.note,
            save: (text) => void saveScaffoldNote(target.itemId, text),
          };
        });
        return true;
      case 'error-type':
        openAfterQueued('picker', 'fact-sentences', () => {
          const scaffold = useScaffold.getState().scaffold;
          const item = sentencesTarget();
          if (!scaffold || !item)
            return (
              setScaffoldNotice(
                'E picks the sentences that convey a Preserved or Partial fact: press F or C on a fact first (then E).',
              ),
              null
            );
          return (layer, close) => (
            <FactSentencesPicker
              layer={layer}
              factText={item.text}
              sentences={scaffold.sentences}
              initial={item.state.sentences}
              onSave={(sentences) => {
                close();
                void setFactSentences(item.id, sentences);
              }}
              onClose={close}
            />
          );
        });
        return true;
      case 'edit-set':
        openAfterQueued('editor', 'edit-scaffold', () => {
          const scaffold = useScaffold.getState().scaffold;
          if (scaffold?.version == null || scaffold.key !== useAnnotation.getState().summary?.key)
            return (setScaffoldNotice('There is no scaffold to edit for this document yet.'), null);
          return (layer, close) => (
            <ScaffoldEditor
              layer={layer}
              scaffold={scaffold}
              history={lead ? <ScaffoldVersionHistory documentKey={scaffold.documentKey} /> : undefined}
              onSave={(content, note) => {
                close();
                void saveScaffoldEdit(content, note || undefined);
              }}
              onCancel={close}
            />
          );
        });
        return true;
      default:
        return false;
    }
  },
  Pane: function ScaffoldModePane({ summary, lead }: { summary: AnnotationSummary; lead: boolean }) {
    const s = useScaffold(
      useShallow((state) => ({
        scaffold: state.scaffold,
        position: state.position,
        saving: state.saving,
        failed: state.failed,
        kept: state.kept,
      })),
    );
    return (
      <ScaffoldPane
        summary={summary}
        scaffold={s.scaffold}
        position={s.position}
        saving={s.saving}
        failed={s.failed}
        kept={s.kept}
        lead={lead}
        onSelect={onSelectItem}
      />
    );
  },
  useFocusSentence: useCurrentSentence,
};

const onSelectItem = (at: number) => void selectScaffoldItem(at);
