/**
 * Annotate's keys in scaffold mode and the dialogs they open (Fact Focus sentences, the scaffold
 * editor). The view hands every command here first in scaffold mode; summary moves, help and the
 * unit switch go back to the view.
 */
import type { AnnotateCommand } from '../../keyboard';
import {
  afterScaffoldPending,
  alignCurrent,
  clearScaffoldItem,
  moveScaffoldItem,
  redoScaffold,
  saveScaffoldEdit,
  sentencesTarget,
  setFactSentences,
  setScaffoldNotice,
  undoScaffold,
  useScaffold,
} from '../../state/scaffold';
import type { ScaffoldAnnotation } from '../../../shared/contract/scaffold';
import { FactSentencesPicker } from './FactSentencesPicker';
import { ScaffoldEditor } from './ScaffoldEditor';
import { ScaffoldVersionHistory } from './ScaffoldVersionHistory';

export type ScaffoldOverlay = { kind: 'none' } | { kind: 'fact-sentences'; itemId: number } | { kind: 'edit-scaffold' };
export const NO_SCAFFOLD_OVERLAY: ScaffoldOverlay = { kind: 'none' };

/** Runs `command` if it is about the scaffold; false: the view handles it. */
export function openScaffoldCommand(command: AnnotateCommand, pressedAt: number, open: (overlay: ScaffoldOverlay) => void): boolean {
  switch (command.type) {
    case 'label':
      return void alignCurrent(command.label, pressedAt), true;
    case 'misrepresented':
      return void alignCurrent('misrepresented', pressedAt), true;
    case 'next-unit':
      return void moveScaffoldItem(1), true;
    case 'previous-unit':
      return void moveScaffoldItem(-1), true;
    case 'clear':
      return void clearScaffoldItem(), true;
    case 'undo':
      return void undoScaffold(), true;
    case 'redo':
      return void redoScaffold(), true;
    case 'note':
      return setScaffoldNotice('Scaffold items take no notes.'), true;
    case 'error-type':
      void afterScaffoldPending(() => {
        const target = sentencesTarget();
        if (target) open({ kind: 'fact-sentences', itemId: target.id });
        else setScaffoldNotice('E picks the sentences that convey a Preserved or Partial fact: press F or C on a fact first (then E).');
      });
      return true;
    case 'edit-set':
      void afterScaffoldPending(() => {
        if (useScaffold.getState().scaffold?.version != null) open({ kind: 'edit-scaffold' });
        else setScaffoldNotice('There is no scaffold to edit for this document yet.');
      });
      return true;
    default:
      return false;
  }
}

export function ScaffoldOverlays({ overlay, scaffold, lead, onClose }: { overlay: ScaffoldOverlay; scaffold: ScaffoldAnnotation | null; lead: boolean; onClose: () => void }) {
  if (!scaffold) return null;
  if (overlay.kind === 'fact-sentences') {
    const item = scaffold.items.find((i) => i.id === overlay.itemId);
    if (!item) return null;
    return (
      <FactSentencesPicker
        factText={item.text}
        sentences={scaffold.sentences}
        initial={item.state.sentences}
        onSave={(sentences) => {
          onClose();
          void setFactSentences(item.id, sentences);
        }}
        onClose={onClose}
      />
    );
  }
  if (overlay.kind === 'edit-scaffold') {
    return (
      <ScaffoldEditor
        scaffold={scaffold}
        history={lead ? <ScaffoldVersionHistory documentKey={scaffold.documentKey} /> : undefined}
        onSave={(content, note) => {
          onClose();
          void saveScaffoldEdit(content, note || undefined);
        }}
        onCancel={onClose}
      />
    );
  }
  return null;
}
