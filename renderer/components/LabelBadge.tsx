import type { HumanLabel } from '../../shared/domain';
import { LABEL_LETTER, LABEL_NAME } from '../labels';

interface LabelBadgeProps {
  label: HumanLabel | null;
  testId?: string;
}

/** The F / U / C letter on its label's colour; a dot for "not labeled yet". */
export function LabelBadge({ label, testId }: LabelBadgeProps) {
  return (
    <span
      className={`badge badge-${label ?? 'none'}`}
      data-testid={testId}
      data-label={label ?? ''}
      title={label ? LABEL_NAME[label] : 'Not labeled'}
      aria-label={label ? LABEL_NAME[label] : 'Not labeled'}
    >
      {label ? LABEL_LETTER[label] : '·'}
    </span>
  );
}
