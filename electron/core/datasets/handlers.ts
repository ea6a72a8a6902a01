/** datasets.*: the project's datasets with their counts. */
import type { ApiHandlers } from '../../../shared/api';
import type { CoreContext } from '../context';

export type DatasetsHandlers = Pick<ApiHandlers, 'datasets.list'>;

export function createDatasetsHandlers(ctx: CoreContext): DatasetsHandlers {
  return {
    'datasets.list': async () => ctx.project().repo.datasetStats(),
  };
}
