/**
 * Reading import files from disk: size limits, encodings and folder listings, with errors that
 * name the file and line. Node only; never imports electron.
 */
import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { open, readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { HeadBuilder } from '../../../shared/formats/head';
import { findRawLoneSurrogate, loneSurrogateWords } from '../../../shared/formats/surrogates';
import { ImportValidationError, type FileHead, type SourceFile } from '../../../shared/formats/types';

/**
 * Node strings stop near 512 M characters: a file read whole (a whole-JSON format, or an upload)
 * larger than this is refused before any read. Line-oriented formats stream and have no limit.
 */
export const MAX_IMPORT_BYTES = 512 * 1024 * 1024;
/** Bytes read at a time while building a detection head. */
const HEAD_CHUNK_BYTES = 64 * 1024;
const FOLDER_MAX_FILES = 5000;
const FOLDER_MAX_DEPTH = 4;
const IMPORTABLE = /\.(jsonl|json|csv|tsv|txt)$/i;

export function formatBytes(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)} GB`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} MB`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} kB`;
  return `${n} bytes`;
}

function refuseUtf16(bytes: Uint8Array, file: string): void {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw new ImportValidationError([
      {
        file,
        line: 1,
        expected: 'UTF-8 text',
        found: 'a UTF-16 byte-order mark; save the file as UTF-8 and import it again',
      },
    ]);
  }
}

function notUtf8(file: string, line: number): ImportValidationError {
  return new ImportValidationError([
    {
      file,
      line,
      expected: 'UTF-8 text',
      found: 'bytes that are not valid UTF-8 (is it Latin-1 or Windows-1252? re-save it as UTF-8)',
    },
  ]);
}

/** Decodes UTF-8 strictly; says which line holds the first invalid byte. */
export function decodeText(bytes: Uint8Array, file: string): string {
  refuseUtf16(bytes, file);
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const body = bytes.subarray(start);
  // isUtf8 validates natively; Buffer's decoder is then faster than TextDecoder on large files.
  if (isUtf8(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    const lossy = new TextDecoder('utf-8').decode(body);
    const at = lossy.indexOf('\uFFFD');
    throw notUtf8(file, lossy.slice(0, Math.max(0, at)).split('\n').length);
  }
}

/** Bytes a streamed import reads at a time: a read costs little, and memory holds one chunk. */
export const STREAM_CHUNK_BYTES = 1024 * 1024;

/** How many bytes of `bytes` end on a whole UTF-8 character (the rest starts a character the next chunk completes). */
function wholeCharacters(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let i = n - 1; i >= Math.max(0, n - 4); i -= 1) {
    const b = bytes[i]!;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back for its lead
    const needed = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return n - i >= needed ? n : i;
  }
  return n; // only continuation bytes: not UTF-8, which the check then says
}

/**
 * A file's bytes decoded a chunk at a time, as strictly as decodeText decodes them whole: a
 * UTF-16 byte-order mark and invalid UTF-8 are refused (by line), a UTF-8 one is dropped, and a
 * character cut between chunks is decoded whole.
 */
class ChunkDecoder {
  private tail: Buffer = Buffer.alloc(0);
  private seen = 0;
  private started = false;

  constructor(
    private readonly path: string,
    private readonly label: string,
  ) {}

  decode(chunk: Buffer): string {
    const bytes = this.tail.length > 0 ? Buffer.concat([this.tail, chunk]) : chunk;
    if (this.seen < 2 && bytes.length >= 2) refuseUtf16(bytes, this.label);
    this.seen += chunk.length;
    const cut = wholeCharacters(bytes);
    // A copy: the caller reuses its buffer for the next chunk.
    this.tail = Buffer.from(bytes.subarray(cut));
    return this.text(bytes.subarray(0, cut));
  }

  end(): string {
    const rest = this.tail;
    this.tail = Buffer.alloc(0);
    return rest.length > 0 ? this.text(rest) : '';
  }

  private text(body: Buffer): string {
    // isUtf8 validates natively; Buffer's decoder is then faster than a streaming TextDecoder.
    if (!isUtf8(body)) throw notUtf8(this.label, lineOfFirstInvalidByte(this.path));
    let text = body.toString('utf8');
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    return text;
  }
}

/** The line holding a file's first byte that is not UTF-8 (read again leniently: only when one was found). */
function lineOfFirstInvalidByte(path: string): number {
  const decoder = new TextDecoder('utf-8');
  const buffer = Buffer.alloc(STREAM_CHUNK_BYTES);
  const fd = openSync(path, 'r');
  let line = 1;
  try {
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, null);
      const text = decoder.decode(buffer.subarray(0, read), { stream: read > 0 });
      const at = text.indexOf('\uFFFD');
      line += (at === -1 ? text : text.slice(0, at)).split('\n').length - 1;
      if (at !== -1 || read === 0) return line;
    }
  } finally {
    closeSync(fd);
  }
}

/** One chunk of a file as read: its bytes (valid until the next chunk) and its text. */
export interface FileChunk {
  bytes: Buffer;
  text: string;
  /** Bytes of the file read so far. */
  position: number;
}

/**
 * A file a chunk at a time, read synchronously into one reused buffer: pass 2 of a streamed import
 * runs inside its one transaction; pass 1 yields to the event loop between chunks (a read of one
 * chunk is short) and may stop between them, which closes the file.
 */
export function* fileChunks(path: string, label: string, chunkBytes = STREAM_CHUNK_BYTES): Generator<FileChunk> {
  const fd = openSync(path, 'r');
  try {
    const decoder = new ChunkDecoder(path, label);
    const buffer = Buffer.alloc(chunkBytes);
    let position = 0;
    for (;;) {
      const bytesRead = readSync(fd, buffer, 0, chunkBytes, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const bytes = buffer.subarray(0, bytesRead);
      yield { bytes, text: decoder.decode(bytes), position };
    }
    yield { bytes: Buffer.alloc(0), text: decoder.end(), position };
  } finally {
    closeSync(fd);
  }
}

/** The bytes of an upload (base64 in the API call): the same size limit as a file on disk. */
export function uploadedBytes(name: string, base64: string): Uint8Array {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > MAX_IMPORT_BYTES) throw tooLarge(name, bytes.length);
  return bytes;
}

/**
 * In-process text as the UTF-8 bytes a file would hold. A lone surrogate has no UTF-8 form
 * (encoding would turn it into U+FFFD silently): refused with its line instead.
 */
export function textAsBytes(name: string, text: string): Uint8Array {
  const lone = findRawLoneSurrogate(text);
  if (lone) throw new ImportValidationError([{ file: name, line: lone.line, ...loneSurrogateWords(lone.unit) }]);
  return new TextEncoder().encode(text);
}

function tooLarge(label: string, size: number): ImportValidationError {
  return new ImportValidationError([
    {
      file: label,
      expected: `a file of at most ${formatBytes(MAX_IMPORT_BYTES)}`,
      found: `${formatBytes(size)}; split it into smaller files (each import is all or nothing)`,
    },
  ]);
}

async function checkSize(path: string, label: string): Promise<number> {
  const info = await stat(path);
  if (info.size > MAX_IMPORT_BYTES) throw tooLarge(label, info.size);
  return info.size;
}

export async function readSourceFile(path: string, label = path): Promise<{ file: SourceFile; bytes: Uint8Array }> {
  await checkSize(path, label);
  const bytes = await readFile(path);
  return { file: { path: label, text: decodeText(bytes, label) }, bytes };
}

/**
 * The detection head of a file (shared/formats/head.ts), decoded leniently. Reads on until the
 * head is complete, so a first JSON record of any length (up to the import limit) is skipped
 * through rather than cut: the keys after a long document are still seen.
 */
export async function readHead(path: string, label: string): Promise<FileHead> {
  const handle = await open(path, 'r');
  try {
    const builder = new HeadBuilder();
    const decoder = new TextDecoder('utf-8');
    const buffer = Buffer.alloc(HEAD_CHUNK_BYTES);
    let position = 0;
    while (!builder.complete && position < MAX_IMPORT_BYTES) {
      const { bytesRead } = await handle.read(buffer, 0, HEAD_CHUNK_BYTES, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      builder.push(decoder.decode(buffer.subarray(0, bytesRead), { stream: true }));
    }
    if (!builder.complete) builder.push(decoder.decode());
    return { path: label, head: builder.result() };
  } finally {
    await handle.close();
  }
}

/** Importable files below a folder (bounded), as paths relative to it. */
export async function listFolder(root: string): Promise<string[]> {
  const found: string[] = [];
  async function walk(dir: string, depth: number): Promise<void> {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (found.length >= FOLDER_MAX_FILES) return;
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory() && depth < FOLDER_MAX_DEPTH) await walk(full, depth + 1);
      else if (entry.isFile() && IMPORTABLE.test(entry.name)) found.push(relative(root, full));
    }
  }
  await walk(root, 0);
  return found;
}

export function sha256(parts: Iterable<Uint8Array | string>): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
}

export { basename };
