/**
 * dialog.*: native dialogs. The core has none; the desktop host (electron/main/dialogs.ts)
 * replaces these with its own, every other host answers `unsupported`.
 */
import type { ApiHandlers } from '../../../shared/api';
import type { DialogMethod } from '../../../shared/contract/dialog';
import { unsupported } from '../context';

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
