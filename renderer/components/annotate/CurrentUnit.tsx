/** The sentence being judged, large, with its state: what the keys act on. */
import type { AnnotationUnit } from '../../../shared/api';
import { ERROR_TYPE_NAMES } from '../../../shared/domain';
import { LABEL_NAME } from '../../labels';
import { LabelBadge } from '../LabelBadge';

interface CurrentUnitProps {
  unit: AnnotationUnit;
  total: number;
  saving?: boolean;
  failed?: boolean;
}

export function CurrentUnit({ unit, total, saving = false, failed = false }: CurrentUnitProps) {
  const { label, errorType, note } = unit.state;
  return (
    <section
      className={`current-unit label-${label ?? 'none'}`}
      data-testid="unit-current"
      data-index={unit.index}
      data-label={label ?? ''}
      aria-label={`Sentence ${unit.index + 1} of ${total}`}
    >
      <header className="current-unit-head">
        <span>
          Sentence {unit.index + 1} of {total}
        </span>
        <LabelBadge label={label} />
        <span className="muted">{label ? LABEL_NAME[label] : 'not labeled'}</span>
        {unit.fragment && <span className="tag tag-fragment">likely fragment</span>}
        {errorType && <span className="tag tag-error">{ERROR_TYPE_NAMES[errorType]}</span>}
        {saving && <span className="tag tag-saving">saving…</span>}
        {failed && <span className="tag tag-failed">not saved</span>}
      </header>
      <p className="current-unit-text">{unit.text}</p>
      {note && (
        <p className="current-unit-note" data-testid="current-note">
          <span className="muted">Note: </span>
          {note}
        </p>
      )}
    </section>
  );
}
