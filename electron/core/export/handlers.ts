/** export.*: labeled data, predictions, review results or the dataset card, as file content or streamed to a file. */
import path from 'node:path';
import { ApiError, type ApiHandlers } from '../../../shared/api';
import { writeFileAtomically } from '../atomic-file';
import { requireCapability, type CoreContext } from '../context';
import { buildExport, exportPlan } from './build';
import { streamExport } from './files';

export type ExportHandlers = Pick<ApiHandlers, 'export.build' | 'export.write'>;

export function createExportHandlers(ctx: CoreContext): ExportHandlers {
  // No key this session resolved leaves in an export, whatever field it hid in.
  const redact = (text: string) => ctx.keys.redactKnown(text);
  return {
    'export.build': async (input) => {
      const { repo, info } = ctx.project();
      const file = buildExport(repo, input, info.name);
      return { ...file, content: redact(file.content) };
    },
    'export.write': async ({ path: target, ...input }) => {
      // `loupe serve` names no paths on this machine: a page could otherwise overwrite any file.
      requireCapability(ctx, 'diskPaths', 'Writing an export to a path');
      const { repo, info } = ctx.project();
      const plan = exportPlan(repo, input, info.name);
      const wanted = path.extname(plan.fileName);
      if (path.extname(target).toLowerCase() !== wanted)
        throw new ApiError({
          code: 'invalid_input',
          message: `path: this export is a ${wanted} file; ${JSON.stringify(target)} does not end in ${wanted}.`,
        });
      const written = await writeFileAtomically(target, (sink) => streamExport(plan, sink, redact));
      return { path: target, fileName: plan.fileName, ...written };
    },
  };
}
