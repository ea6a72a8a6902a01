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
    // The next CR is looked up once and reused, so a text without CRs is scanned once.
    let cr = piece.indexOf('\r', start);
    let lf = piece.indexOf('\n', start);
    while (start < piece.length) {
      if (cr !== -1 && cr < start) cr = piece.indexOf('\r', start);
      if (lf !== -1 && lf < start) lf = piece.indexOf('\n', start);
      const end = cr !== -1 && (lf === -1 || cr < lf) ? cr : lf;
      if (end === -1) {
        this.keep(piece.slice(start), sink);
        return;
      }
      this.emit(this.carry === '' ? piece.slice(start, end) : this.carry + piece.slice(start, end), sink);
      this.carry = '';
      if (end === cr) {
        if (end + 1 === piece.length) this.afterCr = true;
        start = piece.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
      } else start = end + 1;
    }
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
