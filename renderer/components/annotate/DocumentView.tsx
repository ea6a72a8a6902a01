/**
 * The source document as plain text with the "closest passages" highlighted.
 *
 * Performance: the document is cut into paragraphs and chunks once per document; each chunk is
 * a memoised component that receives a shared empty array unless a highlight touches it, so a
 * keypress re-renders only the few chunks whose highlight changed, not a 30,000-word document.
 */
import { memo, useEffect, useMemo, useRef, type ReactNode } from 'react';
import type { Passage, TextRange } from '../../alignment';
import { clipRanges, splitDocument, type DocumentBlock } from '../../documentBlocks';

interface DocumentViewProps {
  text: string;
  passages: readonly Passage[];
}

/** Memoised: the document renders again only for new text or new passages. */
export const DocumentView = memo(function DocumentView({ text, passages }: DocumentViewProps) {
  const blocks = useMemo(() => splitDocument(text), [text]);
  // Memoised children get this one object, not the string: comparing two equal 200 kB strings
  // that are different objects costs a full scan per paragraph on every render.
  const source = useMemo(() => ({ text }), [text]);
  const container = useRef<HTMLDivElement>(null);

  // Bring the best passage into view whenever the passages change (i.e. a new current unit).
  useEffect(() => {
    const best = container.current?.querySelector<HTMLElement>('[data-rank="0"]');
    best?.scrollIntoView?.({ block: 'center' });
  }, [passages]);

  return (
    <div className="document-text" ref={container} data-testid="document">
      {blocks.map((block) => (
        <Paragraph key={block.start} source={source} block={block} highlights={highlightsWithin(passages, block)} />
      ))}
    </div>
  );
});

/** Ranks survive clipping so the best passage can be found and scrolled to. */
interface RankedRange extends TextRange {
  rank: number;
}

/** One shared empty array: memoised paragraphs without a highlight see an unchanged prop. */
const NO_HIGHLIGHTS: readonly RankedRange[] = Object.freeze([]);

function highlightsWithin(passages: readonly Passage[], range: TextRange): readonly RankedRange[] {
  if (passages.length === 0) return NO_HIGHLIGHTS as readonly RankedRange[];
  const ranked = passages.map((passage, rank) => ({ start: passage.start, end: passage.end, rank }));
  const clipped = clipRanges(ranked, range);
  return clipped.length === 0 ? NO_HIGHLIGHTS : clipped;
}

interface DocumentSource {
  text: string;
}

interface ParagraphProps {
  source: DocumentSource;
  block: DocumentBlock;
  highlights: readonly RankedRange[];
}

const Paragraph = memo(function Paragraph({ source, block, highlights }: ParagraphProps) {
  return (
    <p className="doc-paragraph">
      {block.chunks.map((chunk) => (
        <Chunk key={chunk.start} source={source} range={chunk} highlights={clipToChunk(highlights, chunk)} />
      ))}
    </p>
  );
});

function clipToChunk(highlights: readonly RankedRange[], chunk: TextRange): readonly RankedRange[] {
  if (highlights.length === 0) return highlights;
  const clipped = clipRanges(highlights, chunk);
  return clipped.length === 0 ? NO_HIGHLIGHTS : clipped;
}

interface ChunkProps {
  source: DocumentSource;
  range: TextRange;
  highlights: readonly RankedRange[];
}

/** Plain text children only: the document may contain markup, and it must stay inert text. */
const Chunk = memo(function Chunk({ source, range, highlights }: ChunkProps) {
  const { text } = source;
  if (highlights.length === 0) return <span>{text.slice(range.start, range.end)}</span>;
  const ordered = [...highlights].sort((a, b) => a.start - b.start);
  const pieces: ReactNode[] = [];
  let at = range.start;
  for (const highlight of ordered) {
    if (highlight.start > at) pieces.push(text.slice(at, highlight.start));
    const start = Math.max(at, highlight.start);
    if (highlight.end > start) {
      pieces.push(
        <mark
          key={start}
          className={`passage passage-rank-${highlight.rank}`}
          data-testid="doc-highlight"
          data-rank={highlight.rank}
        >
          {text.slice(start, highlight.end)}
        </mark>,
      );
      at = highlight.end;
    }
  }
  if (at < range.end) pieces.push(text.slice(at, range.end));
  return <span>{pieces}</span>;
});
