/**
 * "Closest passages": which document sentences share the most informative words with a summary
 * sentence. A reading aid that points the annotator's eyes, never a verdict.
 *
 * Pure and synchronous. `indexDocument` is built once per document (it is the expensive part);
 * `closestPassages` then only touches the postings of the query's words, so moving between
 * units costs well under a millisecond on a 30,000-word document.
 */
import { splitDocumentSentences } from '../shared/split/document';

export interface TextRange {
  start: number;
  end: number;
}

export interface Passage extends TextRange {
  score: number;
}

interface Segment extends TextRange {
  /** Content-token count, for length normalisation. */
  length: number;
}

export interface DocumentIndex {
  segments: Segment[];
  /** token → [segment, term frequency] pairs, flattened. */
  postings: Map<string, number[]>;
  /** "a b" (consecutive content tokens) → segments containing it. */
  bigrams: Map<string, Set<number>>;
  averageLength: number;
  /** Characters in the document, for the highlight budget. */
  textLength: number;
}

/** Function words that match everywhere and say nothing about content. */
const STOP_WORDS = new Set(
  (
    'a an the and or but nor so yet of in on at to for from by with without about as into onto over under ' +
    'after before between through during above below up down out off again further then once here there ' +
    'when where why how all any both each few more most other some such no not only own same than too very ' +
    'can could will would shall should may might must do does did doing done have has had having be is am ' +
    'are was were been being i me my mine we us our ours you your yours he him his she her hers it its they ' +
    'them their theirs this that these those what which who whom whose if because while until against ' +
    'also just said says say s t d ll m re ve o y'
  ).split(' '),
);

const WORD = /[\p{L}\p{N}]+/gu;

/** Lower-cased letter/digit runs, without stop words and without single letters. */
export function contentTokens(text: string): string[] {
  const tokens: string[] = [];
  for (const match of text.toLowerCase().matchAll(WORD)) {
    const token = match[0];
    if (STOP_WORDS.has(token)) continue;
    if (token.length === 1 && !/\p{N}/u.test(token)) continue;
    tokens.push(token);
  }
  return tokens;
}

/** Longest passage we highlight as one piece: sentences without punctuation are cut into windows. */
const MAX_SEGMENT_CHARS = 600;

/**
 * Sentence ranges (shared/split/document.ts: the project's splitter plus glued boundaries such as
 * "Cenotaph.Anzac Day", common in scraped articles), each trimmed; a run longer than
 * MAX_SEGMENT_CHARS with no boundary at all (tables, tokenised text) is cut into windows at spaces.
 */
export function segmentDocument(text: string): TextRange[] {
  const ranges: TextRange[] = [];
  for (const sentence of splitDocumentSentences(text)) {
    let { start } = sentence;
    const { end } = sentence;
    while (end - start > MAX_SEGMENT_CHARS) {
      let cut = text.lastIndexOf(' ', start + MAX_SEGMENT_CHARS);
      if (cut <= start) cut = start + MAX_SEGMENT_CHARS;
      ranges.push({ start, end: cut });
      start = cut;
      while (start < end && /\s/.test(text[start] ?? '')) start += 1;
    }
    if (end > start) ranges.push({ start, end });
  }
  return ranges;
}

export function indexDocument(text: string): DocumentIndex {
  const segments: Segment[] = [];
  const postings = new Map<string, number[]>();
  const bigrams = new Map<string, Set<number>>();
  let totalLength = 0;
  for (const range of segmentDocument(text)) {
    const id = segments.length;
    const tokens = contentTokens(text.slice(range.start, range.end));
    segments.push({ ...range, length: tokens.length });
    totalLength += tokens.length;
    const counts = new Map<string, number>();
    for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
    for (const [token, tf] of counts) {
      let list = postings.get(token);
      if (!list) postings.set(token, (list = []));
      list.push(id, tf);
    }
    for (let i = 1; i < tokens.length; i += 1) {
      const key = `${tokens[i - 1]} ${tokens[i]}`;
      let set = bigrams.get(key);
      if (!set) bigrams.set(key, (set = new Set()));
      set.add(id);
    }
  }
  return {
    segments,
    postings,
    bigrams,
    averageLength: segments.length ? totalLength / segments.length : 0,
    textLength: text.length,
  };
}

// BM25 constants (the usual defaults); the bigram bonus rewards copied phrases over bags of words.
const K1 = 1.2;
const B = 0.75;
const BIGRAM_WEIGHT = 0.5;
/** Passages scoring below this share of the best one are noise, not "closest". */
const RELATIVE_CUTOFF = 0.45;
/**
 * Passages after the best one are added only while all of them together cover at most this share
 * of the document: a highlight that paints most of the text points the eyes nowhere. (The best
 * passage is always shown, even when it alone is a large part of a short document.)
 */
const MAX_HIGHLIGHT_SHARE = 0.3;

export interface ClosestOptions {
  /** At most this many passages (default 3). */
  limit?: number;
}

/** The document passages that best match `sentence`, best first; empty when nothing matches. */
export function closestPassages(index: DocumentIndex, sentence: string, options: ClosestOptions = {}): Passage[] {
  const limit = options.limit ?? 3;
  const n = index.segments.length;
  if (n === 0) return [];
  const tokens = contentTokens(sentence);
  const unique = [...new Set(tokens)];
  const idf = (df: number): number => Math.log(1 + (n - df + 0.5) / (df + 0.5));
  const scores = new Map<number, number>();
  for (const token of unique) {
    const list = index.postings.get(token);
    if (!list) continue;
    const weight = idf(list.length / 2);
    for (let i = 0; i < list.length; i += 2) {
      const id = list[i] as number;
      const tf = list[i + 1] as number;
      const length = index.segments[id]?.length ?? 0;
      const norm = tf + K1 * (1 - B + (B * length) / (index.averageLength || 1));
      scores.set(id, (scores.get(id) ?? 0) + (weight * tf * (K1 + 1)) / norm);
    }
  }
  for (let i = 1; i < tokens.length; i += 1) {
    const first = tokens[i - 1] as string;
    const second = tokens[i] as string;
    const holders = index.bigrams.get(`${first} ${second}`);
    if (!holders) continue;
    const weight =
      BIGRAM_WEIGHT *
      Math.min(idf((index.postings.get(first)?.length ?? 0) / 2), idf((index.postings.get(second)?.length ?? 0) / 2));
    for (const id of holders) scores.set(id, (scores.get(id) ?? 0) + weight);
  }
  const ranked = [...scores.entries()].filter(([, score]) => score > 0).sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const best = ranked[0]?.[1] ?? 0;
  const budget = MAX_HIGHLIGHT_SHARE * index.textLength;
  const passages: Passage[] = [];
  let covered = 0;
  for (const [id, score] of ranked) {
    if (passages.length >= limit || score < best * RELATIVE_CUTOFF) break;
    const segment = index.segments[id];
    if (!segment) continue;
    const size = segment.end - segment.start;
    // A long runner-up is skipped, not the end: a shorter one below it may still fit.
    if (passages.length > 0 && covered + size > budget) continue;
    passages.push({ start: segment.start, end: segment.end, score });
    covered += size;
  }
  return passages;
}
