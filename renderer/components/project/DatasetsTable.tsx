import type { DatasetStats } from '../../../shared/api';
import { formatCount } from '../../format';

/** One row per dataset with the counts a user checks after an import. */
export function DatasetsTable({ datasets }: { datasets: readonly DatasetStats[] }) {
  if (datasets.length === 0) {
    return (
      <p className="muted" data-testid="datasets-empty">
        No datasets yet — import a file below.
      </p>
    );
  }
  return (
    <table className="data-table" data-testid="datasets">
      <thead>
        <tr>
          <th>Dataset</th>
          <th className="num">Documents</th>
          <th className="num">Documents missing</th>
          <th className="num">Summaries</th>
          <th className="num">Sentences</th>
          <th className="num">Sampled</th>
          <th className="num">Batches</th>
        </tr>
      </thead>
      <tbody>
        {datasets.map((dataset) => (
          <tr key={dataset.name} data-testid={`dataset-${dataset.name}`}>
            <td>{dataset.name}</td>
            <td className="num">{formatCount(dataset.documents)}</td>
            <td className={dataset.documentsMissing > 0 ? 'num warn' : 'num'}>
              {formatCount(dataset.documentsMissing)}
            </td>
            <td className="num">{formatCount(dataset.summaries)}</td>
            <td className="num">{formatCount(dataset.units)}</td>
            <td className="num">{formatCount(dataset.sampled)}</td>
            <td className="num">{formatCount(dataset.batches)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
