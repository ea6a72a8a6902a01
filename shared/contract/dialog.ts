/**
 * dialog.*: the desktop's native file dialogs (`loupe serve` answers them with an error).
 */
import { z } from 'zod';
import { Empty } from './primitives';

export const DIALOG_API = {
  /** Desktop only: native dialogs. `loupe serve` answers these with an error. */
  'dialog.openProject': { input: Empty, output: z.object({ path: z.string().nullable() }) },
  /** Several project files at once (annotators' copies to merge); empty when cancelled. */
  'dialog.openProjects': { input: Empty, output: z.object({ paths: z.array(z.string()) }) },
  'dialog.createProject': { input: Empty, output: z.object({ path: z.string().nullable() }) },
  'dialog.importFile': { input: Empty, output: z.object({ path: z.string().nullable() }) },
  /** One JSONL file to read (a batch engine's answers): the chosen path is granted for import. */
  'dialog.openBatchFile': { input: Empty, output: z.object({ path: z.string().nullable() }) },
  /** The Save dialog for a file the core will write (export.write, batch request files): the chosen path is granted for saving. */
  'dialog.chooseSavePath': {
    input: z.object({ fileName: z.string().min(1).max(255) }),
    output: z.object({ path: z.string().nullable() }),
  },
  'dialog.saveExport': {
    input: z.object({ fileName: z.string(), content: z.string() }),
    output: z.object({ path: z.string().nullable() }),
  },
} as const;

/** Every dialog.* method: the desktop host answers each with a native dialog, every other host with `unsupported`. */
export type DialogMethod = keyof typeof DIALOG_API;
