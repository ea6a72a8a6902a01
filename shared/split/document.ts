/**
 * Sentence ranges of a source document, for the "closest passages" reading aid.
 *
 * The project's sentence splitter (./sentences.ts, measured on summaries) is used unchanged; on
 * top of it, one rule only documents need: scraped articles (FRANK's XSum/BBC documents) glue
 * sentences together without a space — "at the Cenotaph.Anzac Day commemorates". The splitter
 * rightly never ends a unit inside a token (`3.5`, `bbc.co.uk`), so such a document came out as
 * one huge "sentence". Here a token is cut after `.`, `!`, `?` or `…` (plus closing quotes/brackets) when
 *  - a capital letter follows, directly or after an opening quote/bracket ("said.The", `."We`);
 *  - and the word before is a real word of two or more letters or ends in a digit ("2014.He"),
 *    or a quotation/bracket just closed (`war".It`);
 *  - but not after a title or abbreviation ("Dr.Smith", "St.Andrews" — read as the saint/street
 *    name, not as a boundary), a single letter or a dotted abbreviation ("U.S.", "e.g.", "a.m.",
 *    "George W.Bush"), between digits ("3.5"), nor inside a web address or e-mail address
 *    ("bbc.co.uk", "www.BBC.com", "a.b@c.com").
 * A lower-case letter after the period never counts: that is how hosts and file names look, so
 * glued text in lower-cased corpora stays glued (the splitter alone decides there).
 * Pure and deterministic; offsets index into the original text.
 */
import { splitSentences } from './sentences';

export interface SentenceRange {
  start: number;
  end: number;
}

/**
 * Titles and abbreviations after which a glued capital continues the sentence. Mirrors the
 * splitter's lists (kept local: its behaviour on summaries is measured and must not move).
 */
const ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'messrs',
  'mme',
  'dr',
  'prof',
  'rev',
  'hon',
  'gen',
  'col',
  'lt',
  'sgt',
  'capt',
  'cmdr',
  'adm',
  'maj',
  'rep',
  'sen',
  'gov',
  'pres',
  'supt',
  'det',
  'insp',
  'mt',
  'ft',
  'st',
  'vs',
  'cf',
  'viz',
  'approx',
  'esp',
  'incl',
  'no',
  'nos',
  'nr',
  'fig',
  'figs',
  'vol',
  'vols',
  'pp',
  'ch',
  'jan',
  'feb',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
  'inc',
  'ltd',
  'co',
  'corp',
  'llc',
  'plc',
  'bros',
  'jr',
  'sr',
  'ave',
  'blvd',
  'rd',
  'al',
]);

/** Always closing: a glued boundary may sit after them (`."We`, `.)The`). */
const CLOSERS = new Set(['”', '’', "'", ')', ']', '}', '»']);
/** Opening a quotation or bracket before the next sentence's capital (`.“We`, `.(The`). */
const OPENERS = new Set(['“', '‘', '(', '[', '«']);
const TERMINATORS = /[.!?…]+/g;
const UPPER_CASE_LETTER = /\p{Lu}/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const DIGIT = /\p{N}/u;
const SPACE = /\s/u;
/** A token that is (or holds) a web or e-mail address: never cut inside it. */
const ADDRESS = /@|:\/\/|\/|^www\./iu;

const isSpace = (ch: string | undefined): boolean => ch !== undefined && SPACE.test(ch);

/** Sentence ranges of `text`: the splitter's units, further cut at glued sentence boundaries. */
export function splitDocumentSentences(text: string): SentenceRange[] {
  const ranges: SentenceRange[] = [];
  for (const unit of splitSentences(text)) {
    let start = unit.start;
    for (const cut of gluedBoundaries(text, unit.start, unit.end)) {
      ranges.push({ start, end: cut });
      start = cut;
    }
    ranges.push({ start, end: unit.end });
  }
  return ranges;
}

/**
 * Offsets in (start, end) where a glued sentence boundary falls, in order. Linear in the text
 * (hostile input: one 200 kB token of "ab.Cd.Ef…"): quote parity and the address test are kept
 * as running state, not rescanned per candidate.
 */
export function gluedBoundaries(text: string, start: number, end: number): number[] {
  const cuts: number[] = [];
  let pieceStart = start;
  // Straight double quotes seen in the current piece, counted up to `quotesCountedTo`.
  let quotes = 0;
  let quotesCountedTo = start;
  // The last white-space-delimited token tested for an address, and the answer.
  let token = { from: -1, to: -1, address: false };
  const terminators = new RegExp(TERMINATORS.source, 'g');
  terminators.lastIndex = start;
  for (let m = terminators.exec(text); m !== null && m.index < end; m = terminators.exec(text)) {
    const runStart = m.index;
    for (; quotesCountedTo < runStart; quotesCountedTo += 1) if (text[quotesCountedTo] === '"') quotes += 1;
    const after = glueAfterRun(text, runStart + m[0].length, end, quotes % 2 === 1);
    if (after === null || !endsSentence(text, pieceStart, runStart)) continue;
    if (runStart >= token.to) token = addressToken(text, runStart);
    if (token.address) continue;
    cuts.push(after);
    pieceStart = after;
    quotes = 0;
    quotesCountedTo = after;
  }
  return cuts;
}

/**
 * Where the next sentence would begin after the terminator run ending at `runEnd`, when a capital
 * follows without white space; null otherwise. Closing quotes/brackets stay with the sentence they
 * close; a straight double quote closes only if one is open in the piece (`said: "… broken."We`
 * vs `so sad"."If`).
 */
function glueAfterRun(text: string, runEnd: number, end: number, quoteOpen: boolean): number | null {
  let after = runEnd;
  let open = quoteOpen;
  while (after < end) {
    const ch = text[after] ?? '';
    if (CLOSERS.has(ch)) after += 1;
    else if (ch === '"' && open) {
      open = false;
      after += 1;
    } else break;
  }
  if (after >= end || isSpace(text[after])) return null; // not glued: the splitter has decided
  const next = text[after] ?? '';
  const opener = OPENERS.has(next) || next === '"';
  return UPPER_CASE_LETTER.test(opener ? (text[after + 1] ?? '') : next) ? after : null;
}

/** Whether what stands before the terminator at `runStart` can end a sentence. */
function endsSentence(text: string, pieceStart: number, runStart: number): boolean {
  const before = text[runStart - 1] ?? '';
  if (CLOSERS.has(before) || before === '"') return runStart - 1 > pieceStart;
  let wordStart = runStart;
  while (wordStart > pieceStart && LETTER_OR_DIGIT.test(text[wordStart - 1] ?? '')) wordStart -= 1;
  const word = text.slice(wordStart, runStart);
  if (word === '') return false;
  // Dotted abbreviations and hosts: "U.S", "e.g", "a.m", "bbc.co" (a piece's first word follows
  // the previous sentence's period, which is no dot of its own).
  if (wordStart > pieceStart && text[wordStart - 1] === '.') return false;
  if (DIGIT.test(word.at(-1) ?? '')) return true;
  if (word.length < 2) return false; // initials: "George W.Bush"
  return !ABBREVIATIONS.has(word.toLowerCase());
}

/** The white-space-delimited token around `at`, and whether it is (or holds) an address. */
function addressToken(text: string, at: number): { from: number; to: number; address: boolean } {
  let from = at;
  while (from > 0 && !isSpace(text[from - 1])) from -= 1;
  let to = at;
  while (to < text.length && !isSpace(text[to])) to += 1;
  return { from, to, address: ADDRESS.test(text.slice(from, to)) };
}
