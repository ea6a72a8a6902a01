/**
 * Batch files on disk or in memory, for any task kind (batch.ts does the lines). On disk, requests
 * are written to a temporary file beside the target and renamed over it when complete (a reader
 * never sees half a file), and answers are read line by line over a file stream, each line
 * decoded strictly with the importer's decoder and bounded in length: neither direction holds a
 * file whole. In memory (a browser's download or upload in `loupe serve`) the text is the file.
 */
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { LIMITS } from '../../../shared/limits';
import { ImportValidationError } from '../../../shared/formats/types';
import { writeFileAtomically } from '../atomic-file';
import { decodeText, formatBytes } from '../imports/files';
import {
  importBatchOutput,
  linesOf,
  writeBatchRequests,
  type BatchImportCounts,
  type BatchLine,
  type BatchSetup,
  type WorkCounts,
} from './batch';

export async function exportBatchToFile<C, Item, I, O>(
  setup: BatchSetup<C, Item, I, O>,
  target: string,
): Promise<WorkCounts> {
  return writeFileAtomically(target, (sink) => writeBatchRequests(setup, sink));
}

export async function exportBatchToText<C, Item, I, O>(
  setup: BatchSetup<C, Item, I, O>,
): Promise<{ counts: WorkCounts; text: string }> {
  const parts: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      parts.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      done();
    },
  });
  const counts = await writeBatchRequests(setup, sink);
  return { counts, text: parts.join('') };
}

/**
 * The lines of a byte stream, each decoded strictly with the importer's decoder: a line that is
 * not UTF-8, or longer than `maxLineBytes`, comes as a refusal instead (a longer line is skipped
 * as it streams by, never held: a 560 MB line would not fit in a string).
 */
export async function* decodedLines(
  chunks: AsyncIterable<Buffer>,
  file: string,
  maxLineBytes: number = LIMITS.batch.lineBytes.max,
): AsyncGenerator<BatchLine> {
  let parts: Buffer[] = [];
  let length = 0;
  let tooLong = false;
  const end = (): BatchLine => {
    const line: BatchLine = tooLong
      ? { refused: tooLongWords(length, maxLineBytes) }
      : decodedLine(Buffer.concat(parts, length), file);
    parts = [];
    length = 0;
    tooLong = false;
    return line;
  };
  for await (const chunk of chunks) {
    let start = 0;
    while (start <= chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const stop = newline === -1 ? chunk.length : newline;
      length += stop - start;
      if (length > maxLineBytes) {
        tooLong = true;
        parts = [];
      } else if (stop > start) parts.push(chunk.subarray(start, stop));
      if (newline === -1) break;
      yield end();
      start = newline + 1;
    }
  }
  if (length > 0 || tooLong) yield end();
}

function tooLongWords(bytes: number, max: number): string {
  return `a line of ${formatBytes(bytes)}, longer than the ${formatBytes(max)} a batch answer line may have (skipped unread)`;
}

function decodedLine(bytes: Buffer, file: string): BatchLine {
  const body = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.subarray(0, -1) : bytes;
  try {
    return decodeText(body, file);
  } catch (err) {
    if (!(err instanceof ImportValidationError)) throw err;
    const problem = err.problems[0];
    return {
      refused: `not ${problem?.expected ?? 'UTF-8 text'}: ${problem?.found ?? 'bytes that are not valid UTF-8'}`,
    };
  }
}

export async function importBatchFromFile<C, Item, I, O>(
  setup: BatchSetup<C, Item, I, O>,
  source: string,
  maxLineBytes?: number,
): Promise<BatchImportCounts> {
  const stream = createReadStream(source);
  try {
    return await importBatchOutput(
      setup,
      decodedLines(stream as AsyncIterable<Buffer>, path.basename(source), maxLineBytes),
    );
  } finally {
    stream.destroy();
  }
}

export function importBatchFromText<C, Item, I, O>(
  setup: BatchSetup<C, Item, I, O>,
  text: string,
  maxLineBytes: number = LIMITS.batch.lineBytes.max,
): Promise<BatchImportCounts> {
  return importBatchOutput(setup, boundedLines(linesOf(text), maxLineBytes));
}

/** In-memory lines under the same per-line limit as a file's. */
async function* boundedLines(lines: AsyncIterable<string>, maxLineBytes: number): AsyncGenerator<BatchLine> {
  for await (const line of lines) {
    const bytes = Buffer.byteLength(line, 'utf8');
    yield bytes > maxLineBytes ? { refused: tooLongWords(bytes, maxLineBytes) } : line;
  }
}
