/**
 * The head of a file that format detection looks at (FileHead.head). Sniffers recognise formats
 * by key names, so for JSON and JSON Lines the head is the *structure* of the file's start: every
 * string longer than LONG_STRING is cut (and still closed), so the keys after a 4 MB document
 * are in the head however long the first record is. Other text (CSV, TSV) is its first
 * HEAD_CHARS characters, extended to the end of that line (a header row is read whole).
 *
 * Built incrementally so that the importer can feed a file in chunks and stop reading as soon as
 * the head is complete; detectionHead() does the same for a text already in memory.
 */

/** Characters of head a sniffer sees. */
export const HEAD_CHARS = 8192;
/** Strings in a JSON head keep this many characters, then "…" and their closing quote. */
export const LONG_STRING = 256;
/** A CSV line that crosses HEAD_CHARS is kept up to here. */
const MAX_PLAIN_CHARS = 1024 * 1024;

type Mode = 'undecided' | 'json' | 'plain';

export class HeadBuilder {
  private mode: Mode = 'undecided';
  private readonly parts: string[] = [];
  private length = 0;
  private done = false;
  // Where the JSON scan is: inside a string, just after a backslash, or in the hex of a \uXXXX.
  private inString = false;
  private afterBackslash = false;
  private hexLeft = 0;
  private stringChars = 0;
  private eliding = false;

  /** Whether the head is complete (more text would not change it). */
  get complete(): boolean {
    return this.done;
  }

  /** Feeds the next piece of the text; returns true when no more is needed. */
  push(chunk: string): boolean {
    if (this.done) return true;
    if (this.mode === 'undecided') {
      const start = /[^\s\uFEFF]/.exec(chunk);
      if (!start) {
        this.append(chunk); // leading white space: still undecided
        return this.done;
      }
      this.mode = chunk[start.index] === '{' || chunk[start.index] === '[' ? 'json' : 'plain';
    }
    if (this.mode === 'plain') this.pushPlain(chunk);
    else this.pushJson(chunk);
    return this.done;
  }

  /** The head so far (all of it once `complete`, or when the text ended). */
  result(): string {
    return this.parts.join('');
  }

  private append(text: string): void {
    if (text === '') return;
    this.parts.push(text);
    this.length += text.length;
    if (this.mode !== 'plain' && this.length >= HEAD_CHARS) this.done = true;
  }

  private pushPlain(chunk: string): void {
    const need = HEAD_CHARS - this.length;
    if (chunk.length <= need) {
      this.append(chunk);
      return;
    }
    // Past HEAD_CHARS: keep up to the end of that line (bounded).
    const searchFrom = Math.max(0, need);
    const found = chunk.slice(searchFrom).search(/\r|\n/);
    const end = found === -1 ? chunk.length : searchFrom + found;
    this.append(chunk.slice(0, Math.min(end, MAX_PLAIN_CHARS - this.length)));
    if (found !== -1 || this.length >= MAX_PLAIN_CHARS) this.done = true;
  }

  private pushJson(chunk: string): void {
    let copyFrom = 0; // start of the part of `chunk` not yet appended (unused while eliding)
    for (let i = 0; i < chunk.length; i += 1) {
      if (!this.eliding && this.length + (i - copyFrom) >= HEAD_CHARS) {
        this.append(chunk.slice(copyFrom, i));
        this.done = true;
        return;
      }
      const c = chunk.charCodeAt(i);
      if (!this.inString) {
        if (c === 0x22) {
          this.inString = true;
          this.stringChars = 0;
        }
        continue;
      }
      if (this.afterBackslash) {
        this.afterBackslash = false;
        if (c === 0x75) this.hexLeft = 4; // \u: four hex digits follow
        continue;
      }
      if (this.hexLeft > 0) {
        this.hexLeft -= 1;
        continue;
      }
      if (c === 0x22) {
        this.inString = false;
        if (this.eliding) {
          this.eliding = false;
          copyFrom = i; // copying resumes with the closing quote
        }
        continue;
      }
      // A character or an escape of the string starts here: the only places to cut one.
      if (!this.eliding && this.stringChars >= LONG_STRING) {
        this.append(chunk.slice(copyFrom, i));
        this.append('…');
        this.eliding = true;
        if (this.done) return;
      }
      this.stringChars += 1;
      if (c === 0x5c) this.afterBackslash = true;
    }
    if (!this.eliding) this.append(chunk.slice(copyFrom));
  }
}

/** The detection head of a text already in memory. */
export function detectionHead(text: string): string {
  const builder = new HeadBuilder();
  builder.push(text);
  return builder.result();
}
