/**
 * dialog.*: native dialogs. The core has none; the desktop host (electron/main/dialogs.ts)
 * replaces these with its own, every other host answers `unsupported`.
 */
import type { ApiHandlers, ApiMethod } from '../../../shared/api';
import { unsupported } from '../context';

/** Every dialog.* method: the desktop host answers each with a native dialog, every other host with `unsupported`. */
export type DialogMethod = Extract<ApiMethod, `dialog.${string}`>;
export type DialogHandlers = Pick<ApiHandlers, DialogMethod>;

export function createDialogFallbacks(): DialogHandlers {
  return {
    'dialog.openProject': async () => unsupported('The open-project dialog'),
    'dialog.openProjects': async () => unsupported('The open-projects dialog'),
    'dialog.createProject': async () => unsupported('The new-project dialog'),
    'dialog.importFile': async () => unsupported('The import dialog'),
    'dialog.openBatchFile': async () => unsupported('The open-file dialog'),
    'dialog.chooseSavePath': async () => unsupported('The save dialog'),
    'dialog.saveExport': async () => unsupported('The save dialog'),
  };
}
