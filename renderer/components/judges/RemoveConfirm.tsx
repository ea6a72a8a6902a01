/** Removing a judge deletes its predictions: say how many, and ask once. Esc keeps it. */
import { useEffect, useRef } from 'react';
import type { JudgeInfo } from '../../../shared/api';
import { formatCount, plural, pluralNoun } from '../../format';

interface RemoveConfirmProps {
  judge: JudgeInfo;
  onConfirm: () => void;
  onCancel: () => void;
}

export function RemoveConfirm({ judge, onConfirm, onCancel }: RemoveConfirmProps) {
  const keepRef = useRef<HTMLButtonElement>(null);
  const p = judge.predictions;
  const stored = p.ok + p.parseErrors + p.failed;

  useEffect(() => {
    keepRef.current?.focus();
    function onKey(event: KeyboardEvent) {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      onCancel();
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onCancel]);

  const what = judge.kind === 'baseline' ? 'the offline baseline' : judge.kind === 'imported' ? 'the imported judge' : 'the judge';
  return (
    <div className="confirm" role="alertdialog" aria-labelledby="judge-remove-title" data-testid="judge-remove-confirm">
      <p id="judge-remove-title">
        <strong>
          Remove {what} “{judge.name}”?
        </strong>{' '}
        This deletes its <strong data-testid="judge-remove-count">{formatCount(stored)}</strong> stored {pluralNoun(stored, 'prediction')} of the
        current version ({formatCount(p.ok)} labeled, {formatCount(p.parseErrors)} unparsable, {formatCount(p.failed)} failed)
        {judge.versions > 1 ? ` and those of its ${plural(judge.versions - 1, 'earlier version')}` : ''}
        {judge.keySource === 'stored' ? ', and its key in the OS keychain' : ''}. Human labels are not touched. This cannot be undone.
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
