/** The error types of each judge's unfaithful sentence predictions (`error_types`); nothing when no judge predicts one. */
import { judgesWithErrorTypes } from '../../../shared/analysis/error-types';
import type { ErrorTypesReport } from '../../../shared/analysis/types';
import { ERROR_TYPES, ERROR_TYPE_NAMES } from '../../../shared/domain';
import { formatCount } from '../../format';

export function JudgeErrorTypesTable({
  errorTypes,
  judges,
}: {
  errorTypes: ErrorTypesReport | undefined;
  judges: readonly string[];
}) {
  const rows = judgesWithErrorTypes(errorTypes, judges);
  if (!errorTypes || rows.length === 0) return null;
  return (
    <div className="analysis-scroll">
      <table className="data-table" data-testid="judge-error-types">
        <caption>
          Error types of the judges’ unfaithful sentence predictions (every sentence each judge labeled)
        </caption>
        <thead>
          <tr>
            <th scope="col">Judge</th>
            <th scope="col">Unfaithful</th>
            {ERROR_TYPES.map((type) => (
              <th scope="col" key={type}>
                {ERROR_TYPE_NAMES[type]}
              </th>
            ))}
            <th scope="col">Untyped</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((name) => {
            const judge = errorTypes.judges[name]!;
            return (
              <tr key={name} data-judge={name}>
                <th scope="row" className="judge-name-cell">
                  {name}
                </th>
                <td className="num">{formatCount(judge.n_unfaithful)}</td>
                {ERROR_TYPES.map((type) => (
                  <td className="num" key={type} data-type={type}>
                    {formatCount(judge.counts[type])}
                  </td>
                ))}
                <td className="num" data-type="untyped">
                  {formatCount(judge.counts.untyped)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
