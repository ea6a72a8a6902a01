/**
 * Files the desktop reads and writes through the core: a native dialog picks the path and grants
 * it, and the core streams the file (any size) instead of passing its text through the page. In
 * the browser (`loupe serve`) the page downloads and uploads the text instead.
 */
import { bridge, useSession } from './session';

export const filesOnDisk = (): boolean => useSession.getState().info?.fileDialogs ?? false;

/** The Save dialog with a proposed name; null when cancelled. */
export async function chooseSavePath(fileName: string): Promise<string | null> {
  return (await bridge().call('dialog.chooseSavePath', { fileName })).path;
}

/** The open dialog for a batch engine's answers (JSONL); null when cancelled. */
export async function chooseBatchAnswers(): Promise<string | null> {
  return (await bridge().call('dialog.openBatchFile', {})).path;
}

/**
 * A batch engine's answers as the page has them: still to choose in the desktop's open dialog, or a
 * file the browser's file input chose.
 */
export type BatchAnswers = { type: 'dialog' } | { type: 'file'; file: { name: string; text(): Promise<string> } };

/** The answers as the core takes them: a granted path (desktop) or the uploaded text (browser); null when the dialog is cancelled. */
export async function batchSource(
  answers: BatchAnswers,
): Promise<{ type: 'path'; path: string } | { type: 'upload'; name: string; text: string } | null> {
  if (answers.type === 'file') return { type: 'upload', name: answers.file.name, text: await answers.file.text() };
  const path = await chooseBatchAnswers();
  return path === null ? null : { type: 'path', path };
}
