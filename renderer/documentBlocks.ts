/**
 * Cuts a document into paragraphs, and long paragraphs into chunks, so the document view can
 * re-render only the pieces a highlight touches. Pure; offsets index into the original text.
 */
import type { TextRange } from './alignment';

export interface DocumentBlock extends TextRange {
  chunks: TextRange[];
}

/** Chunks this long re-render in well under a millisecond; shorter ones would only add nodes. */
const CHUNK_CHARS = 1200;

export function splitDocument(text: string): DocumentBlock[] {
  const blocks: DocumentBlock[] = [];
  // A paragraph ends at a blank line; single line breaks stay inside it (rendered pre-wrap).
  const paragraphBreak = /\n[ \t]*\n\s*/g;
  let from = 0;
  const push = (start: number, end: number): void => {
    if (end <= start || text.slice(start, end).trim() === '') return;
    blocks.push({ start, end, chunks: chunkRange(text, start, end) });
  };
  for (const match of text.matchAll(paragraphBreak)) {
    push(from, match.index);
    from = match.index + match[0].length;
  }
  push(from, text.length);
  return blocks;
}

function chunkRange(text: string, start: number, end: number): TextRange[] {
  const chunks: TextRange[] = [];
  let from = start;
  while (end - from > CHUNK_CHARS) {
    // Cut after a space so no word is split across two chunks.
    let cut = text.lastIndexOf(' ', from + CHUNK_CHARS);
    if (cut <= from) cut = from + CHUNK_CHARS;
    else cut += 1;
    chunks.push({ start: from, end: cut });
    from = cut;
  }
  chunks.push({ start: from, end });
  return chunks;
}

/** The parts of `ranges` that fall inside `within`, clipped to it. */
export function clipRanges<T extends TextRange>(ranges: readonly T[], within: TextRange): T[] {
  const out: T[] = [];
  for (const range of ranges) {
    const start = Math.max(range.start, within.start);
    const end = Math.min(range.end, within.end);
    if (start < end) out.push({ ...range, start, end });
  }
  return out;
}
