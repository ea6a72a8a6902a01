/**
 * What makes an editor (W: claims, key facts, the scaffold) a dialog: its layer keeps every key
 * while it is open, Tab and Shift+Tab cycle through its controls, Ctrl+Enter saves, and Esc asks
 * before throwing edits away (Enter discards, Esc goes back to editing, where the focus was).
 */
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { isPlain, openLayer, type KeyOutcome, type KeyPress, type Layer } from '../keys/dispatcher';
import { cycleFocus } from '../keys/focus';
import { useLayerKeys, useLatest, useSyncState } from '../keys/hooks';

interface EditorDialogOptions {
  layer: Layer;
  /** Something was edited: Esc asks first. */
  dirty: boolean;
  save: () => void;
  cancel: () => void;
}

export interface EditorDialog {
  card: React.RefObject<HTMLDivElement | null>;
  /** The Cancel button's action: asks first when something was edited. */
  requestCancel: () => void;
  /** The question "Discard your edits?", while it is asked. */
  confirm: ReactNode;
}

export function useEditorDialog({ layer, dirty, save, cancel }: EditorDialogOptions): EditorDialog {
  const card = useRef<HTMLDivElement>(null);
  const [asking, setAsking] = useSyncState(false);
  const question = useRef<Layer | null>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  const latest = useLatest({ cancel });

  const keepEditing = () => {
    question.current?.close();
    question.current = null;
    setAsking(false);
    if (returnTo.current?.isConnected) returnTo.current.focus();
  };
  const discard = () => {
    question.current?.close();
    question.current = null;
    latest.current.cancel();
  };
  const keep = useLatest(keepEditing);
  const drop = useLatest(discard);

  function ask(): void {
    returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // The question is on top in this key's event: the next key answers it.
    question.current = openLayer('dialog', 'discard-edits', {
      handler: (press) => {
        if (!isPlain(press)) return 'native';
        if (press.key === 'Escape') keep.current();
        // Enter presses the focused answer: "Discard edits" unless the user tabbed to "Keep editing".
        else if (press.key === 'Enter') {
          if (press.target instanceof HTMLElement && press.target.dataset.answer === 'keep') keep.current();
          else drop.current();
        } else if (press.key === ' ' && press.activatable) return 'native';
        else if (press.key === 'Tab')
          return cycleFocus(card.current?.querySelector<HTMLElement>('[data-testid="discard-confirm"]') ?? null, press);
        return 'handled';
      },
    });
    setAsking(true);
  }

  useLayoutEffect(() => () => question.current?.close(), []);
  const requestCancel = () => (dirty ? ask() : cancel());

  useLayerKeys(layer, (press: KeyPress): KeyOutcome => {
    if (press.key === 'Enter' && (press.ctrlKey || press.metaKey)) {
      save();
      return 'handled';
    }
    if (press.key === 'Escape') {
      requestCancel();
      return 'handled';
    }
    if (!isPlain(press)) return 'native';
    if (press.key === 'Tab') return cycleFocus(card.current, press);
    if (press.typing || (press.activatable && (press.key === 'Enter' || press.key === ' '))) return 'native';
    return 'handled';
  });

  return { card, requestCancel, confirm: asking ? <DiscardConfirm onDiscard={discard} onKeep={keepEditing} /> : null };
}

function DiscardConfirm({ onDiscard, onKeep }: { onDiscard: () => void; onKeep: () => void }) {
  const yes = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => yes.current?.focus(), []);
  return (
    <div
      className="discard-confirm"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="discard-confirm-text"
      data-testid="discard-confirm"
    >
      <div className="discard-confirm-card">
        <p id="discard-confirm-text">
          <strong>Discard your edits?</strong> Nothing is saved: the set stays as it was.
        </p>
        <div className="row">
          <button ref={yes} type="button" className="danger" data-testid="discard-confirm-yes" onClick={onDiscard}>
            Discard edits <kbd>Enter</kbd>
          </button>
          <button type="button" data-testid="discard-confirm-no" data-answer="keep" onClick={onKeep}>
            Keep editing <kbd>Esc</kbd>
          </button>
        </div>
      </div>
    </div>
  );
}
