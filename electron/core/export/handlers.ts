/** export.*: labeled data, predictions, review results or the dataset card, as file content. */
import type { ApiHandlers } from '../../../shared/api';
import type { CoreContext } from '../context';
import { buildExport } from './build';

export type ExportHandlers = Pick<ApiHandlers, 'export.build'>;

export function createExportHandlers(ctx: CoreContext): ExportHandlers {
  return {
    'export.build': async (input) => {
      const { repo, info } = ctx.project();
      const file = buildExport(repo, input, info.name);
      // No key this session resolved leaves in an export, whatever field it hid in.
      return { ...file, content: ctx.keys.redactKnown(file.content) };
    },
  };
}
