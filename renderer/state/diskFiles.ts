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

/** A batch engine's answers as the core takes them: a granted path on the desktop, the uploaded text in the browser. */
export type BatchAnswers =
  { type: 'path'; path: string } | { type: 'file'; file: { name: string; text(): Promise<string> } };

export async function batchSource(
  answers: BatchAnswers,
): Promise<{ type: 'path'; path: string } | { type: 'upload'; name: string; text: string }> {
  return answers.type === 'path'
    ? answers
    : { type: 'upload', name: answers.file.name, text: await answers.file.text() };
}
