/**
 * Claims and key-fact modes of Annotate (state/claimsAndKeyFacts.ts): the label keys keep their
 * places (F/1 yes, U/2 no, C/3 cannot tell), E opens the claim's error type or the lines that
 * convey a key fact, / or M the item's note, W the set's editor (a new version).
 */
import { useShallow } from 'zustand/react/shallow';
import type { AnnotationSummary } from '../../../shared/api';
import { CLAIM_LEGEND, KEY_FACT_LEGEND, type AnnotateCommand } from '../../keyboard';
import type { KeyPress } from '../../keys/dispatcher';
import { useAnnotation } from '../../state/annotation';
import {
  claimRows,
  clearItem,
  conveyedByTarget,
  errorTypeClaimTarget,
  labelItem,
  moveItem,
  noteTarget,
  redoItem,
  saveClaimEdit,
  saveFactEdit,
  saveItemNote,
  selectClaim,
  selectFact,
  setClaimErrorType,
  setConveyedBy,
  setItemsNotice,
  undoItem,
  useClaimsAndKeyFacts,
  type ItemMode,
} from '../../state/claimsAndKeyFacts';
import { ClaimErrorTypePicker } from '../../components/accuracy/ClaimErrorTypePicker';
import { ClaimsPane } from '../../components/accuracy/ClaimsPane';
import { ConveyedByPicker } from '../../components/accuracy/ConveyedByPicker';
import { KeyFactsPane } from '../../components/accuracy/KeyFactsPane';
import { SetEditor } from '../../components/accuracy/SetEditor';
import { VersionHistory } from '../../components/accuracy/VersionHistory';
import type { AnnotateMode, ModeContext } from './mode';
import { openAfterQueued, openNoteEditor } from './overlays';
import { useCurrentSentence, useSentence } from './focus';

/** The keys both modes share; false: the mode's own or the view's. */
function runItemCommand(mode: ItemMode, command: AnnotateCommand, press: KeyPress): boolean {
  switch (command.type) {
    case 'label':
      return (void labelItem(mode, command.label, press.at), true);
    case 'next-unit':
      return (void moveItem(mode, 1), true);
    case 'previous-unit':
      return (void moveItem(mode, -1), true);
    case 'clear':
      return (void clearItem(mode), true);
    case 'undo':
      return (void undoItem(), true);
    case 'redo':
      return (void redoItem(), true);
    case 'note':
      openNoteEditor(() => {
        const target = noteTarget(mode);
        if (!target)
          return (
            setItemsNotice(`There is no ${mode === 'claims' ? 'claim' : 'key fact'} here to write a note on.`),
            null
          );
        return {
          unit: { index: target.index, text: target.text },
          heading: target.heading,
          note: target.note,
          save: (text) => void saveItemNote(target, text),
        };
      });
      return true;
    case 'misrepresented':
      return (
        setItemsNotice('R / 4 marks a scaffold fact or attribute Misrepresented: press T to reach the scaffold first.'),
        true
      );
    default:
      return false;
  }
}

export const claimsMode: AnnotateMode = {
  mode: 'claims',
  legend: CLAIM_LEGEND,
  run(command, press, context) {
    if (runItemCommand('claims', command, press)) return true;
    if (command.type === 'error-type') {
      openAfterQueued('picker', 'claim-error-type', () => {
        const target = errorTypeClaimTarget();
        if (!target)
          return (setItemsNotice('E sets the error type of an Unsupported claim: press U first (then E).'), null);
        return (layer, close) => (
          <ClaimErrorTypePicker
            layer={layer}
            claimText={target.claim.text}
            current={target.claim.state.errorType}
            onChoose={(type) => {
              close();
              void setClaimErrorType(target.claim.id, type);
            }}
            onClose={close}
          />
        );
      });
      return true;
    }
    if (command.type === 'edit-set') return (openClaimsEditor(context), true);
    return false;
  },
  Pane: function ClaimsModePane({ summary, lead }: { summary: AnnotationSummary; lead: boolean }) {
    const s = useClaimsAndKeyFacts(
      useShallow((state) => ({
        claims: state.claims,
        position: state.claimPosition,
        saving: state.saving,
        failed: state.failed,
        kept: state.kept,
      })),
    );
    return (
      <ClaimsPane
        summary={summary}
        claims={s.claims}
        position={s.position}
        saving={s.saving}
        failed={s.failed}
        kept={s.kept}
        lead={lead}
        onSelect={onSelectClaim}
      />
    );
  },
  // The closest passages follow the sentence of the current claim.
  useFocusSentence(summary) {
    const unitId = useClaimsAndKeyFacts((state) =>
      state.claims?.key === summary?.key ? claimRows(state.claims)[state.claimPosition]?.sentence.unitId : undefined,
    );
    return useSentence(summary, unitId);
  },
};

export const keyFactsMode: AnnotateMode = {
  mode: 'keyfacts',
  legend: KEY_FACT_LEGEND,
  run(command, press, context) {
    if (runItemCommand('keyfacts', command, press)) return true;
    if (command.type === 'error-type') {
      openAfterQueued('picker', 'conveyed-by', () => {
        const { facts } = useClaimsAndKeyFacts.getState();
        const at = conveyedByTarget();
        const fact = at === null ? undefined : facts?.facts[at];
        if (!facts || !fact)
          return (
            setItemsNotice('E picks the sentences or claims that convey a Covered key fact: press F first (then E).'),
            null
          );
        return (layer, close) => (
          <ConveyedByPicker
            layer={layer}
            facts={facts}
            factText={fact.text}
            initial={fact.state.conveyedBy}
            onSave={(conveyedBy) => {
              close();
              void setConveyedBy(fact.id, conveyedBy);
            }}
            onClose={close}
          />
        );
      });
      return true;
    }
    if (command.type === 'edit-set') return (openKeyFactsEditor(context), true);
    return false;
  },
  Pane: function KeyFactsModePane({ summary, lead }: { summary: AnnotationSummary; lead: boolean }) {
    const s = useClaimsAndKeyFacts(
      useShallow((state) => ({
        facts: state.facts,
        position: state.factPosition,
        saving: state.saving,
        failed: state.failed,
        kept: state.kept,
      })),
    );
    return (
      <KeyFactsPane
        summary={summary}
        facts={s.facts}
        position={s.position}
        saving={s.saving}
        failed={s.failed}
        kept={s.kept}
        lead={lead}
        onSelect={onSelectFact}
      />
    );
  },
  useFocusSentence: useCurrentSentence,
};

const onSelectClaim = (at: number) => void selectClaim(at);
const onSelectFact = (at: number) => void selectFact(at);

function openClaimsEditor({ lead }: ModeContext): void {
  openAfterQueued('editor', 'edit-claims', () => {
    const { claims } = useClaimsAndKeyFacts.getState();
    if (!claims || claims.key !== useAnnotation.getState().summary?.key) return null;
    const rows = claimRows(claims);
    return (layer, close) => (
      <SetEditor
        layer={layer}
        title={`Edit the claims of summary ${claims.summaryId}`}
        noun="claim"
        groups={claims.sentences.map((s) => ({ id: s.unitId, title: `${s.index + 1}. ${s.text}` }))}
        initial={rows.map((r) => ({ group: r.sentence.unitId, text: r.claim.text, from: [r.claim.id] }))}
        labeled={rows.filter((r) => r.claim.state.label !== null).length}
        version={claims.version}
        history={lead ? <VersionHistory of={{ kind: 'claims', key: claims.key }} /> : undefined}
        onSave={(items) => {
          close();
          void saveClaimEdit(items.map((item) => ({ sentenceUnitId: item.group, text: item.text, from: item.from })));
        }}
        onCancel={close}
      />
    );
  });
}

function openKeyFactsEditor({ lead }: ModeContext): void {
  openAfterQueued('editor', 'edit-facts', () => {
    const { facts } = useClaimsAndKeyFacts.getState();
    if (!facts || facts.key !== useAnnotation.getState().summary?.key) return null;
    return (layer, close) => (
      <SetEditor
        layer={layer}
        title={`Edit the key facts of document ${facts.docId}`}
        noun="key fact"
        groups={[{ id: 0, title: null }]}
        initial={facts.facts.map((f) => ({ group: 0, text: f.text, from: [f.id] }))}
        labeled={facts.facts.filter((f) => f.state.label !== null).length}
        version={facts.version}
        history={lead ? <VersionHistory of={{ kind: 'keyfacts', documentKey: facts.documentKey }} /> : undefined}
        onSave={(items) => {
          close();
          void saveFactEdit(items.map((item) => ({ text: item.text, from: item.from })));
        }}
        onCancel={close}
      />
    );
  });
}
