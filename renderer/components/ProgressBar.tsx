import { memo } from 'react';
import { formatCount } from '../format';

interface ProgressBarProps {
  done: number;
  total: number;
  label: string;
  testId?: string;
}

/** Memoised: a label moves one count, and only the bar whose numbers changed renders again. */
export const ProgressBar = memo(function ProgressBar({ done, total, label, testId }: ProgressBarProps) {
  const share = total > 0 ? Math.min(1, done / total) : 0;
  return (
    <div className="progress-bar" data-testid={testId}>
      <div
        className="progress-track"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
      >
        <div className="progress-fill" style={{ width: `${(share * 100).toFixed(1)}%` }} />
      </div>
      <span className="progress-text">
        {label} {formatCount(done)} / {formatCount(total)}
      </span>
    </div>
  );
});
