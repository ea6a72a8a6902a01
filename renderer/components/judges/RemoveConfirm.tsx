/** Removing a judge deletes its predictions: say how many, and ask once. Esc keeps it. */
import { useLayoutEffect, useRef } from 'react';
import type { JudgeInfo } from '../../../shared/api';
import { isPlain } from '../../keys/dispatcher';
import { cycleFocus } from '../../keys/focus';
import { useKeyLayer } from '../../keys/hooks';
import { formatCount, plural, pluralNoun } from '../../format';

interface RemoveConfirmProps {
  judge: JudgeInfo;
  onConfirm: () => void;
  onCancel: () => void;
}

export function RemoveConfirm({ judge, onConfirm, onCancel }: RemoveConfirmProps) {
  const box = useRef<HTMLDivElement>(null);
  const keepRef = useRef<HTMLButtonElement>(null);
  const p = judge.predictions;
  const stored = p.ok + p.parseErrors + p.failed;

  useLayoutEffect(() => keepRef.current?.focus(), []);
  // A question: Esc keeps the judge, Tab moves between the two answers, Enter presses the focused one.
  useKeyLayer('dialog', 'remove-judge', (press) => {
    if (!isPlain(press)) return 'native';
    if (press.key === 'Escape') {
      onCancel();
      return 'handled';
    }
    if (press.key === 'Tab') return cycleFocus(box.current, press);
    if (press.typing || (press.activatable && (press.key === 'Enter' || press.key === ' '))) return 'native';
    return 'handled';
  });

  const what =
    judge.kind === 'baseline' ? 'the offline baseline' : judge.kind === 'imported' ? 'the imported judge' : 'the judge';
  return (
    <div
      className="confirm"
      role="alertdialog"
      aria-labelledby="judge-remove-title"
      data-testid="judge-remove-confirm"
      ref={box}
    >
      <p id="judge-remove-title">
        <strong>
          Remove {what} “{judge.name}”?
        </strong>{' '}
        This deletes its <strong data-testid="judge-remove-count">{formatCount(stored)}</strong> stored{' '}
        {pluralNoun(stored, 'prediction')} of the current version ({formatCount(p.ok)} labeled,{' '}
        {formatCount(p.parseErrors)} unparsable, {formatCount(p.failed)} failed)
        {judge.versions > 1 ? ` and those of its ${plural(judge.versions - 1, 'earlier version')}` : ''}
        {judge.keySource === 'stored' ? ', and its key in the OS keychain' : ''}. Human labels are not touched. This
        cannot be undone.
      </p>
      <div className="row">
        <button type="button" className="danger" onClick={onConfirm} data-testid="judge-remove-yes">
          Remove {judge.kind === 'baseline' ? 'baseline' : 'judge'} and predictions
        </button>
        <button type="button" ref={keepRef} onClick={onCancel} data-testid="judge-remove-no">
          Keep it
        </button>
      </div>
    </div>
  );
}
