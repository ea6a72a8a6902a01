/**
 * Annotate's keys on claims and key facts, and the dialogs they open (error type, conveyed by,
 * the set editors). The view hands every command here first; what is not about claims or key
 * facts (summary moves, help) goes back to the view.
 */
import type { ClaimAnnotation } from '../../../shared/contract/claims';
import type { KeyFactAnnotation } from '../../../shared/contract/keyfacts';
import type { AnnotateCommand } from '../../keyboard';
import {
  afterAccuracyPending,
  claimRows,
  clearItem,
  conveyedByTarget,
  errorTypeClaimTarget,
  labelItem,
  moveItem,
  noteTarget,
  nextUnitMode,
  redoItem,
  saveClaimEdit,
  saveFactEdit,
  saveItemNote,
  setAccuracyNotice,
  setClaimErrorType,
  setConveyedBy,
  undoItem,
  useAccuracy,
  type UnitMode,
} from '../../state/accuracy';
import { NoteEditor } from '../annotate/NoteEditor';
import { ClaimErrorTypePicker } from './ClaimErrorTypePicker';
import { ConveyedByPicker } from './ConveyedByPicker';
import { SetEditor } from './SetEditor';
import { VersionHistory } from './VersionHistory';

export type AccuracyOverlay =
  | { kind: 'none' }
  | { kind: 'claim-error-type'; claimId: number }
  | { kind: 'conveyed-by'; factId: number }
  | { kind: 'edit-claims' }
  | { kind: 'edit-facts' }
  | { kind: 'note'; target: { kind: 'claim' | 'fact'; id: number } };

export const NO_ACCURACY_OVERLAY: AccuracyOverlay = { kind: 'none' };

/** Runs `command` if it is about claims or key facts; false: the view handles it. */
export function openAccuracyCommand(command: AnnotateCommand, mode: UnitMode, pressedAt: number, open: (overlay: AccuracyOverlay) => void): boolean {
  if (command.type === 'unit-mode') return void nextUnitMode(), true;
  if (mode === 'sentences') return false;
  switch (command.type) {
    case 'label':
      return void labelItem(command.label, pressedAt), true;
    case 'next-unit':
      return void moveItem(1), true;
    case 'previous-unit':
      return void moveItem(-1), true;
    case 'clear':
      return void clearItem(), true;
    case 'undo':
      return void undoItem(), true;
    case 'redo':
      return void redoItem(), true;
    case 'note':
      void afterAccuracyPending(() => {
        const target = noteTarget();
        if (target) open({ kind: 'note', target });
        else setAccuracyNotice(`There is no ${mode === 'claims' ? 'claim' : 'key fact'} here to write a note on.`);
      });
      return true;
    case 'error-type':
      void afterAccuracyPending(() => {
        if (mode === 'claims') {
          const target = errorTypeClaimTarget();
          if (target) open({ kind: 'claim-error-type', claimId: target.claim.id });
          else setAccuracyNotice('E sets the error type of an Unsupported claim: press U first (then E).');
        } else {
          const at = conveyedByTarget();
          const fact = at === null ? undefined : useAccuracy.getState().facts?.facts[at];
          if (fact) open({ kind: 'conveyed-by', factId: fact.id });
          else setAccuracyNotice('E picks the sentences or claims that convey a Covered key fact: press F first (then E).');
        }
      });
      return true;
    case 'edit-set':
      void afterAccuracyPending(() => {
        const { claims, facts } = useAccuracy.getState();
        if (mode === 'claims' && claims) open({ kind: 'edit-claims' });
        else if (mode === 'keyfacts' && facts) open({ kind: 'edit-facts' });
      });
      return true;
    default:
      return false;
  }
}

interface AccuracyOverlaysProps {
  overlay: AccuracyOverlay;
  claims: ClaimAnnotation | null;
  facts: KeyFactAnnotation | null;
  /** The lead sees each set's version history (an annotator link may not read it). */
  lead: boolean;
  onClose: () => void;
}

export function AccuracyOverlays({ overlay, claims, facts, lead, onClose }: AccuracyOverlaysProps) {
  if (overlay.kind === 'claim-error-type') {
    const row = claimRows(claims).find((r) => r.claim.id === overlay.claimId);
    if (!row) return null;
    return (
      <ClaimErrorTypePicker
        claimText={row.claim.text}
        current={row.claim.state.errorType}
        onChoose={(type) => {
          onClose();
          void setClaimErrorType(overlay.claimId, type);
        }}
        onClose={onClose}
      />
    );
  }
  if (overlay.kind === 'conveyed-by' && facts) {
    const fact = facts.facts.find((f) => f.id === overlay.factId);
    if (!fact) return null;
    return (
      <ConveyedByPicker
        facts={facts}
        factText={fact.text}
        initial={fact.state.conveyedBy}
        onSave={(conveyedBy) => {
          onClose();
          void setConveyedBy(overlay.factId, conveyedBy);
        }}
        onClose={onClose}
      />
    );
  }
  if (overlay.kind === 'note') {
    const item = itemOf(overlay.target, claims, facts);
    if (!item) return null;
    return (
      <NoteEditor
        unit={{ index: item.index, text: item.text }}
        heading={item.heading}
        initial={item.note ?? ''}
        onSave={(text) => {
          onClose();
          void saveItemNote(overlay.target, text);
        }}
        onCancel={onClose}
      />
    );
  }
  if (overlay.kind === 'edit-claims' && claims) {
    const rows = claimRows(claims);
    return (
      <SetEditor
        title={`Edit the claims of summary ${claims.summaryId}`}
        noun="claim"
        groups={claims.sentences.map((s) => ({ id: s.unitId, title: `${s.index + 1}. ${s.text}` }))}
        initial={rows.map((r) => ({ group: r.sentence.unitId, text: r.claim.text, from: [r.claim.id] }))}
        labeled={rows.filter((r) => r.claim.state.label !== null).length}
        version={claims.version}
        history={lead ? <VersionHistory of={{ kind: 'claims', key: claims.key }} /> : undefined}
        onSave={(items) => {
          onClose();
          void saveClaimEdit(items.map((item) => ({ sentenceUnitId: item.group, text: item.text, from: item.from })));
        }}
        onCancel={onClose}
      />
    );
  }
  if (overlay.kind === 'edit-facts' && facts) {
    return (
      <SetEditor
        title={`Edit the key facts of document ${facts.docId}`}
        noun="key fact"
        groups={[{ id: 0, title: null }]}
        initial={facts.facts.map((f) => ({ group: 0, text: f.text, from: [f.id] }))}
        labeled={facts.facts.filter((f) => f.state.label !== null).length}
        version={facts.version}
        history={lead ? <VersionHistory of={{ kind: 'keyfacts', documentKey: facts.documentKey }} /> : undefined}
        onSave={(items) => {
          onClose();
          void saveFactEdit(items.map((item) => ({ text: item.text, from: item.from })));
        }}
        onCancel={onClose}
      />
    );
  }
  return null;
}

/** The claim or key fact a note overlay is about, as it is on screen now. */
function itemOf(target: { kind: 'claim' | 'fact'; id: number }, claims: ClaimAnnotation | null, facts: KeyFactAnnotation | null) {
  if (target.kind === 'claim') {
    const row = claimRows(claims).find((r) => r.claim.id === target.id);
    return row ? { index: row.claim.index, text: row.claim.text, note: row.claim.state.note, heading: `Note on claim ${row.claim.index + 1} of sentence ${row.sentence.index + 1}` } : null;
  }
  const fact = facts?.facts.find((f) => f.id === target.id);
  return fact ? { index: fact.index, text: fact.text, note: fact.state.note, heading: `Note on key fact ${fact.index + 1}` } : null;
}
