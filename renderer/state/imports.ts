/**
 * One import at a time: start it, follow its job every ~150 ms until it ends, cancel it.
 * Lives in a store (not in the panel) because a file can be dropped on any view.
 */
import { create } from 'zustand';
import { UPLOAD_MAX_BYTES, type ImportSource, type Job } from '../../shared/api';
import type { ImportKind } from '../../shared/formats/types';
import { errorMessage, errorProblems } from '../api/errors';
import { bridge } from './session';

export type Problem = ReturnType<typeof errorProblems>[number];

interface ImportState {
  /** Chosen format; '' lets the core detect it. */
  kind: ImportKind | '';
  /** Dataset name for the import; '' keeps the file's own. */
  dataset: string;
  /** What is being imported, for the progress line. */
  sourceName: string | null;
  job: Job | null;
  starting: boolean;
  error: string | null;
  /** Problems of a refused import (from the job or from a synchronous refusal). */
  problems: Problem[];
}

export const useImports = create<ImportState>(() => ({
  kind: '',
  dataset: '',
  sourceName: null,
  job: null,
  starting: false,
  error: null,
  problems: [],
}));

export const POLL_MS = 150;

let followed = 0;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function setImportOptions(options: Partial<Pick<ImportState, 'kind' | 'dataset'>>): void {
  useImports.setState(options);
}

export function isImportRunning(): boolean {
  const { starting, job } = useImports.getState();
  return starting || job?.state === 'running';
}

/** Starts an import; `onFinished` runs once the job is done (e.g. to refresh the datasets). */
export async function startImport(source: ImportSource, onFinished: () => void): Promise<void> {
  if (isImportRunning()) return;
  const { kind, dataset } = useImports.getState();
  const sourceName = source.type === 'path' ? source.path : source.name;
  useImports.setState({ starting: true, job: null, error: null, problems: [], sourceName });
  const ticket = ++followed;
  try {
    const { jobId } = await bridge().call('imports.start', {
      source,
      ...(kind ? { as: kind } : {}),
      ...(dataset.trim() ? { dataset: dataset.trim() } : {}),
    });
    useImports.setState({ starting: false });
    await follow(jobId, ticket);
    if (useImports.getState().job?.state === 'done') onFinished();
  } catch (err) {
    if (ticket !== followed) return;
    useImports.setState({ starting: false, error: errorMessage(err), problems: errorProblems(err) });
  }
}

async function follow(jobId: string, ticket: number): Promise<void> {
  for (;;) {
    const job = await bridge().call('jobs.get', { jobId });
    if (ticket !== followed) return;
    useImports.setState({
      job,
      problems: job.error?.problems ?? [],
      error: job.state === 'failed' ? (job.error?.message ?? 'The import failed.') : null,
    });
    if (job.state !== 'running') return;
    await sleep(POLL_MS);
  }
}

export async function cancelImport(): Promise<void> {
  const { job } = useImports.getState();
  if (!job || job.state !== 'running') return;
  try {
    const cancelled = await bridge().call('jobs.cancel', { jobId: job.id });
    useImports.setState({ job: cancelled });
  } catch (err) {
    useImports.setState({ error: errorMessage(err) });
  }
}

/** Desktop: the native file dialog, then the import of what was chosen (file or folder). */
export async function importWithDialog(onFinished: () => void): Promise<void> {
  if (isImportRunning()) return;
  try {
    const { path } = await bridge().call('dialog.importFile', {});
    if (path) await startImport({ type: 'path', path }, onFinished);
  } catch (err) {
    useImports.setState({ error: errorMessage(err), problems: [] });
  }
}

/** Bytes per btoa call: a multiple of 3, so the pieces join into one valid base64 text. */
const BASE64_CHUNK_BYTES = 3 * 16 * 1024;

/**
 * Base64 of a file's bytes, a chunk at a time: String.fromCharCode(...all) would overflow the
 * stack on a large file, and one binary string of it all would double the memory.
 */
export function bytesToBase64(bytes: Uint8Array): string {
  const pieces: string[] = [];
  for (let start = 0; start < bytes.length; start += BASE64_CHUNK_BYTES) {
    const chunk = bytes.subarray(start, start + BASE64_CHUNK_BYTES);
    let binary = '';
    for (let i = 0; i < chunk.length; i += 1) binary += String.fromCharCode(chunk[i]!);
    pieces.push(btoa(binary));
  }
  return pieces.join('');
}

/**
 * A dropped or chosen file: by path on the desktop, else its bytes are uploaded (base64) and the
 * core decodes them strictly, as for a file on disk: a Latin-1 file is refused with its line
 * instead of being stored with U+FFFD in it.
 */
export async function importFile(file: File, pathForFile: (file: File) => string | null, onFinished: () => void) {
  const path = pathForFile(file);
  if (path) return startImport({ type: 'path', path }, onFinished);
  if (file.size > UPLOAD_MAX_BYTES) {
    const mib = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MiB`;
    useImports.setState({
      error: `${file.name} is ${mib(file.size)}; the browser can upload at most ${mib(UPLOAD_MAX_BYTES)}. Import it with \`loupe import\` instead.`,
      problems: [],
    });
    return;
  }
  let base64: string;
  try {
    base64 = bytesToBase64(new Uint8Array(await file.arrayBuffer()));
  } catch (err) {
    useImports.setState({ error: `Cannot read ${file.name}: ${errorMessage(err)}`, problems: [] });
    return;
  }
  return startImport({ type: 'upload', name: file.name, base64 }, onFinished);
}
