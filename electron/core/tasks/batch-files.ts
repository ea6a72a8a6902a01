/**
 * Batch files on disk or in memory, for any task kind (batch.ts does the lines). On disk, requests
 * are written to a temporary file beside the target and renamed over it when complete (a reader
 * never sees half a file), and answers are read line by line with node:readline over a file
 * stream: neither direction holds a file whole. In memory (a browser's download or upload in
 * `loupe serve`) the text is the file.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, promises as fs } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { importBatchOutput, linesOf, writeBatchRequests, type BatchImportCounts, type BatchScope, type BatchSetup, type WorkCounts } from './batch';

export async function exportBatchToFile<C, Item, I, O>(setup: BatchSetup<C, Item, I, O>, target: string): Promise<WorkCounts> {
  const tmp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const sink = createWriteStream(tmp, { flags: 'wx', encoding: 'utf8' });
  try {
    const counts = await writeBatchRequests(setup, sink);
    sink.end();
    await finished(sink);
    await fs.rename(tmp, target);
    return counts;
  } catch (err) {
    sink.destroy();
    await fs.rm(tmp, { force: true });
    throw err;
  }
}

export async function exportBatchToText<C, Item, I, O>(setup: BatchSetup<C, Item, I, O>): Promise<{ counts: WorkCounts; text: string }> {
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

export async function importBatchFromFile<C, Item, I, O>(setup: BatchSetup<C, Item, I, O>, source: string, scope?: BatchScope<Item, I, O>): Promise<BatchImportCounts> {
  const stream = createReadStream(source, { encoding: 'utf8' });
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  try {
    return await importBatchOutput(setup, lines, scope);
  } finally {
    lines.close();
    stream.destroy();
  }
}

export function importBatchFromText<C, Item, I, O>(setup: BatchSetup<C, Item, I, O>, text: string, scope?: BatchScope<Item, I, O>): Promise<BatchImportCounts> {
  return importBatchOutput(setup, linesOf(text), scope);
}
