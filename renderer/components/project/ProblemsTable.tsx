import type { Problem } from '../../state/imports';
import { plural } from '../../format';

/** Every problem of a refused import, where it is and what to fix. */
export function ProblemsTable({ problems }: { problems: readonly Problem[] }) {
  return (
    <div className="problems" data-testid="import-problems">
      <p>Nothing was imported: {plural(problems.length, 'problem')} found.</p>
      <div className="problems-scroll">
        <table className="data-table">
          <thead>
            <tr>
              <th>File</th>
              <th className="num">Line / record</th>
              <th>Field</th>
              <th>Expected</th>
              <th>Found</th>
            </tr>
          </thead>
          <tbody>
            {problems.map((problem, i) => (
              <tr key={i}>
                <td>{problem.file}</td>
                <td className="num">
                  {problem.line !== undefined
                    ? `line ${problem.line}`
                    : problem.record !== undefined
                      ? `record ${problem.record}`
                      : ''}
                </td>
                <td>{problem.field ?? ''}</td>
                <td>{problem.expected}</td>
                <td className="found">{problem.found ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
