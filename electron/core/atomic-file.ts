/**
 * Writing a file so that a reader never sees half of it: the text goes to a temporary file beside
 * the target (same folder, so the rename cannot cross devices), streamed with back-pressure, and is
 * renamed over the target only when complete; on failure the temporary file is removed.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, promises as fs, type WriteStream } from 'node:fs';
import path from 'node:path';
import { finished } from 'node:stream/promises';

export async function writeFileAtomically<T>(target: string, write: (sink: WriteStream) => Promise<T>): Promise<T> {
  const tmp = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  const sink = createWriteStream(tmp, { flags: 'wx', encoding: 'utf8' });
  try {
    const result = await write(sink);
    sink.end();
    await finished(sink);
    await fs.rename(tmp, target);
    return result;
  } catch (err) {
    sink.destroy();
    await fs.rm(tmp, { force: true });
    throw err;
  }
}

/** A text already in memory (a report, a card), written the same way. */
export function writeTextAtomically(target: string, text: string): Promise<void> {
  return writeFileAtomically(target, async (sink) => {
    sink.write(text);
  });
}
