/**
 * A table cell holding one estimate: its value and interval, and under it its n with the noun of
 * what was counted ("n = 5 summaries"), written once. `children` continue the n line
 * (" in 10 summaries"); `placeholder` is shown instead when the source has no such figure.
 */
import type { ReactNode } from 'react';
import type { Estimate } from '../../../shared/analysis/types';
import { formatEstimate, nEquals, tooFewNote, type EstimateFormat } from '../../format';

interface EstimateCellProps {
  estimate: Estimate | null;
  /** The noun of n, singular ("summary", "unfaithful sentence"). */
  unit: string;
  testId?: string | undefined;
  className?: string;
  style?: EstimateFormat['style'];
  /** The resampling units when n counts something else (sentences): the n of the too-few note. */
  units?: number | null;
  placeholder?: { text: string; title: string };
  children?: ReactNode;
}

export function EstimateCell({
  estimate,
  unit,
  testId,
  className,
  style,
  units,
  placeholder,
  children,
}: EstimateCellProps) {
  const classes = className ? `num ${className}` : 'num';
  if (estimate === null) {
    return (
      <td className={classes} data-testid={testId} title={placeholder?.title}>
        {placeholder?.text ?? '—'}
      </td>
    );
  }
  return (
    <td className={classes} data-testid={testId}>
      {formatEstimate(estimate, { n: 'never', ...(style ? { style } : {}), ...(units !== undefined ? { units } : {}) })}
      {/* The too-few note already says n when n counts the resampling units. */}
      {(tooFewNote(estimate) === '' || units !== undefined) && (
        <div className="muted small">
          {nEquals(estimate.n, unit)}
          {children}
        </div>
      )}
    </td>
  );
}
