/**
 * Text handed over a piece at a time (a whole file is one piece; a streamed import hands its
 * decoded chunks): lines come out whole with their 1-based physical line number, wherever the
 * pieces were cut. LF, CR LF and a lone CR each end a line (a CR LF may be cut between pieces);
 * a byte-order mark opening the text is dropped.
 */

/**
 * The longest line kept: Node strings stop near 512 M characters, and a streamed file has no
 * size limit of its own, so a file without line breaks (not JSON Lines) is refused at its line.
 */
export const MAX_LINE_CHARS = 256 * 1024 * 1024;

export interface LineSink {
  line(text: string, line: number): void;
  /** A line longer than the limit: reported once; its text is dropped up to the next line break. */
  overlong(line: number): void;
}

export class LineSplitter {
  private carry = '';
  private lines = 0;
  private started = false;
  /** The previous piece ended with CR: an LF opening this one belongs to that line break. */
  private afterCr = false;
  private skipping = false;

  constructor(private readonly maxLineChars = MAX_LINE_CHARS) {}

  /** Lines completed so far (the physical line number of the last one handed out). */
  get linesSeen(): number {
    return this.lines;
  }

  push(piece: string, sink: LineSink): void {
    if (piece.length === 0) return;
    let start = 0;
    if (!this.started) {
      this.started = true;
      if (piece.charCodeAt(0) === 0xfeff) start = 1;
    }
    if (this.afterCr) {
      this.afterCr = false;
      if (piece.charCodeAt(start) === 10) start += 1;
    }
    // Split natively, then look for lone CRs only in the segments that hold one. A loop of
    // indexOf / slice over one large piece became quadratic in V8 once it was optimised after an
    // earlier file (a 90,000-line predictions file took 20 s instead of 0.2 s), so no code here
    // walks positions in the piece.
    const segments = (start === 0 ? piece : piece.slice(start)).split('\n');
    const last = segments.length - 1;
    for (let i = 0; i <= last; i += 1) {
      const segment = segments[i]!;
      const endedByLf = i < last;
      if (segment.indexOf('\r') === -1) {
        if (endedByLf) this.lineEnds(segment, sink);
        else this.keep(segment, sink);
        continue;
      }
      const parts = segment.split('\r');
      const tail = parts.length - 1;
      // Every CR ends a line; a CR closing a segment that an LF ends is that LF's CR LF.
      for (let j = 0; j < tail; j += 1) this.lineEnds(parts[j]!, sink);
      if (endedByLf) {
        if (parts[tail] !== '') this.lineEnds(parts[tail]!, sink);
      } else if (parts[tail] === '') this.afterCr = true;
      else this.keep(parts[tail]!, sink);
    }
  }

  /** A line break after `text`: the carried start of the line (if any) and `text` make the line. */
  private lineEnds(text: string, sink: LineSink): void {
    this.emit(this.carry === '' ? text : this.carry + text, sink);
    this.carry = '';
  }

  /** After the last piece: the last line, which has no line break. */
  end(sink: LineSink): void {
    if (this.carry !== '' || this.skipping) this.emit(this.carry, sink);
    this.carry = '';
  }

  private keep(rest: string, sink: LineSink): void {
    if (this.skipping) return;
    if (this.carry.length + rest.length > this.maxLineChars) {
      this.skipping = true;
      this.carry = '';
      sink.overlong(this.lines + 1);
      return;
    }
    this.carry = this.carry === '' ? rest : this.carry + rest;
  }

  private emit(text: string, sink: LineSink): void {
    this.lines += 1;
    if (this.skipping) {
      this.skipping = false;
      return;
    }
    if (text.length > this.maxLineChars) sink.overlong(this.lines);
    else sink.line(text, this.lines);
  }
}
