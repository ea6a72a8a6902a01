/**
 * Loupe's sentence splitter: a few readable rules, chosen by measurement against FRANK's gold
 * split (scripts/measure-splitter.ts, docs/splitter.md). Pure and deterministic by construction:
 * no Intl.Segmenter (its output depends on the ICU build), no locale-dependent calls.
 *
 * A unit ends
 *  1. at a line break, unless the next line starts with a lower-case letter (a wrapped line);
 *  2. after `.`, `!`, `?`, `…` (plus any closing quotes/brackets) followed by white space, unless
 *     - the word before is an abbreviation, an initial, a label before a number ("No. 5") or a
 *       list marker ("1." opening a unit or after a colon), see the word lists below;
 *     - the next word starts with a lower-case letter (`e.g. this`, `"Why?" he asked`).
 *  A lone ` . ` (PTB-tokenised text such as CNN/DM's `said . he added`) always ends a unit, and in a
 *  text with no capitalised word at all (lower-cased corpora) case is no evidence, so an attached
 *  single period before a lower-case word ends a unit too.
 * Units with no letter or digit (a stray `*`, `---`) are dropped: there is nothing to judge.
 */

export const SPLITTER: { name: string; version: string } = Object.freeze({
  name: 'loupe-rules',
  version: '1',
});

/** `summary.slice(start, end) === text`; the text is trimmed of surrounding white space. */
export interface SentenceSpan {
  text: string;
  start: number;
  end: number;
}

/** Never end a sentence: titles before a name and Latin "for example"-style markers. */
const NEVER_FINAL = new Set([
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
  'vs',
  'cf',
  'viz',
  'approx',
  'esp',
  'incl',
  'e.g',
  'i.e',
]);

/** Labels that precede a number: `No. 5`, `pp. 12`; before anything else they are ordinary words. */
const NUMBER_LABELS = new Set([
  'no',
  'nos',
  'nr',
  'fig',
  'figs',
  'vol',
  'vols',
  'p',
  'pp',
  'sec',
  'ch',
  'art',
  'eq',
  'op',
  'ref',
]);

/**
 * Abbreviations that may also end a sentence (`in the U.S. He said`, `at 5 p.m. The`):
 * a boundary only when a capitalised common sentence opener follows. Dotted acronyms (U.S., a.m.)
 * and single-letter initials are treated the same way without being listed.
 */
const MAYBE_FINAL = new Set([
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
  'st',
  'ave',
  'blvd',
  'rd',
  'al',
  'ph.d',
]);

/** Words that commonly open an English sentence (compared in lower case, must be capitalised). */
const SENTENCE_OPENERS = new Set([
  'a',
  'an',
  'the',
  'he',
  'she',
  'it',
  'they',
  'we',
  'i',
  'you',
  'this',
  'that',
  'these',
  'those',
  'there',
  'here',
  'his',
  'her',
  'its',
  'their',
  'our',
  'my',
  'your',
  'but',
  'and',
  'or',
  'so',
  'yet',
  'however',
  'in',
  'on',
  'at',
  'after',
  'before',
  'when',
  'while',
  'if',
  'as',
  'also',
  'some',
  'many',
  'most',
  'all',
  'one',
  'no',
  'not',
  'for',
  'from',
  'with',
  'by',
  'to',
  'what',
  'who',
  'why',
  'how',
  'where',
  'then',
  'now',
  'today',
  'meanwhile',
  'moreover',
  'furthermore',
  'additionally',
  'according',
  'since',
  'although',
  'despite',
  'during',
]);

const CLOSERS = new Set(['"', "'", '”', '’', ')', ']', '}', '»']);
const OPENERS = new Set(['"', "'", '“', '‘', '(', '[', '{', '«', '`']);
/** Bullets and brackets that may stand before a list marker (`- 1.`, `(a.`). */
const BULLET_CHARS = new Set(['*', '•', '-', '–', '—', '(']);

const CANDIDATE = /[.!?…]+|\r?\n/g;
const WORD_AT = /[\p{L}\p{N}]+/uy;
const CAPITALISED_WORD = /\p{Lu}\p{Ll}/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const LOWER_CASE_LETTER = /\p{Ll}/u;
const UPPER_CASE_LETTER = /\p{Lu}/u;
const SINGLE_LETTER = /^\p{L}$/u;
const DOTTED_ACRONYM = /^(?:\p{L}\.)+\p{L}$/u;
const LIST_MARKER = /^(?:\d{1,3}|\p{L})$/u;
const ELLIPSIS = /\.\.|…/;
const SPACE = /\s/u;

function isSpace(ch: string | undefined): boolean {
  return ch !== undefined && SPACE.test(ch);
}

/** The first word after white space and opening quotes/brackets, or null at the end of the text. */
function nextWord(text: string, from: number): { first: string; word: string } | null {
  let i = from;
  while (i < text.length && (isSpace(text[i]) || OPENERS.has(text[i] ?? ''))) i += 1;
  if (i >= text.length) return null;
  WORD_AT.lastIndex = i;
  const match = WORD_AT.exec(text);
  return { first: text[i] ?? '', word: match ? match[0] : '' };
}

/** The word touching the punctuation at `runStart`, without opening quotes/brackets. */
function wordBefore(text: string, runStart: number): { word: string; start: number } {
  let start = runStart;
  while (start > 0 && !isSpace(text[start - 1])) start -= 1;
  while (start < runStart && OPENERS.has(text[start] ?? '')) start += 1;
  return { word: text.slice(start, runStart), start };
}

/**
 * Whether a word at `wordStart` stands where a list marker does: at the start of the unit (after
 * bullets) or right after an introducing colon. Looks back only over white space and bullets.
 */
function opensList(text: string, unitStart: number, wordStart: number): boolean {
  let i = wordStart;
  while (i > unitStart && (isSpace(text[i - 1]) || BULLET_CHARS.has(text[i - 1] ?? ''))) i -= 1;
  return i === unitStart || text[i - 1] === ':';
}

function punctuationEndsUnit(
  text: string,
  run: string,
  runStart: number,
  runEnd: number,
  unitStart: number,
  lowerCased: boolean,
): boolean {
  const next = nextWord(text, runEnd);
  if (next === null) return true;
  const { word, start: wordStart } = wordBefore(text, runStart);
  const ellipsis = ELLIPSIS.test(run);
  // PTB tokenisation puts sentence-final punctuation alone between spaces.
  if (word === '' && !ellipsis) return true;

  if (!ellipsis && run.endsWith('.') && word !== '') {
    const lower = word.toLowerCase();
    if (NEVER_FINAL.has(lower)) return false;
    if (NUMBER_LABELS.has(lower) && /\d/.test(next.first)) return false;
    if (LIST_MARKER.test(word) && opensList(text, unitStart, wordStart)) return false;
    if (MAYBE_FINAL.has(lower) || SINGLE_LETTER.test(word) || DOTTED_ACRONYM.test(word)) {
      return !lowerCased && UPPER_CASE_LETTER.test(next.first) && SENTENCE_OPENERS.has(next.word.toLowerCase());
    }
  }
  // Lower-cased text hides sentence starts, so there a period still counts; `?'` and `!"` are too
  // often followed by `he asked` to count.
  if (LOWER_CASE_LETTER.test(next.first)) return lowerCased && run === '.';
  return true;
}

/** A line break ends a unit unless the next line continues it in lower case (a wrapped line). */
function lineBreakEndsUnit(text: string, after: number, lowerCased: boolean): boolean {
  if (lowerCased) return true;
  let i = after;
  while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i += 1;
  return i >= text.length || !LOWER_CASE_LETTER.test(text[i] ?? '');
}

export function splitSentences(text: string): SentenceSpan[] {
  // Lower-cased corpora (CNN/DM, XSum, CoGenSumm) have no word like "The" or "Obama".
  const lowerCased = !CAPITALISED_WORD.test(text);
  const cuts: number[] = [];
  let unitStart = 0;
  const candidates = new RegExp(CANDIDATE.source, 'g');
  for (let m = candidates.exec(text); m !== null; m = candidates.exec(text)) {
    const run = m[0];
    if (run.endsWith('\n')) {
      if (lineBreakEndsUnit(text, m.index + run.length, lowerCased)) {
        cuts.push(m.index);
        unitStart = m.index + run.length;
      }
      continue;
    }
    let end = m.index + run.length;
    while (end < text.length && CLOSERS.has(text[end] ?? '')) end += 1;
    // `3.5`, `U.S.-based`, `example.com`: punctuation inside a token never ends a unit.
    if (end < text.length && !isSpace(text[end])) continue;
    if (punctuationEndsUnit(text, run, m.index, end, unitStart, lowerCased)) {
      cuts.push(end);
      unitStart = end;
    }
  }
  cuts.push(text.length);

  const spans: SentenceSpan[] = [];
  let from = 0;
  for (const cut of cuts) {
    let start = from;
    let end = cut;
    while (start < end && isSpace(text[start])) start += 1;
    while (end > start && isSpace(text[end - 1])) end -= 1;
    const unit = text.slice(start, end);
    if (LETTER_OR_DIGIT.test(unit)) spans.push({ text: unit, start, end });
    from = cut;
  }
  return spans;
}

/**
 * Text without white space, with each kept character's offset in the original, so a match in
 * the squeezed text maps back to exact offsets. `foldCase` lower-cases character by character
 * (keeping characters whose lower case has another length, so offsets stay aligned).
 */
function squeeze(text: string, foldCase: boolean): { chars: string; offsets: number[] } {
  let chars = '';
  const offsets: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i] ?? '';
    if (isSpace(ch)) continue;
    const lower = foldCase ? ch.toLowerCase() : ch;
    chars += lower.length === 1 ? lower : ch;
    offsets.push(i);
  }
  return { chars, offsets };
}

/**
 * Locate a benchmark's given sentences in the summary, in order; tolerant of whitespace
 * differences (and, as a last resort, case). Returns null when a sentence cannot be found;
 * the caller reports it.
 */
export function locateSentences(summary: string, sentences: string[]): Array<{ start: number; end: number }> | null {
  const located: Array<{ start: number; end: number }> = [];
  let exact: ReturnType<typeof squeeze> | null = null;
  let folded: ReturnType<typeof squeeze> | null = null;
  let cursor = 0;
  for (const given of sentences) {
    const sentence = given.trim();
    if (sentence === '') return null;
    let start = summary.indexOf(sentence, cursor);
    let end = start + sentence.length;
    if (start < 0) {
      exact ??= squeeze(summary, false);
      folded ??= squeeze(summary, true);
      const found =
        findSqueezed(exact, squeeze(sentence, false).chars, cursor) ??
        findSqueezed(folded, squeeze(sentence, true).chars, cursor);
      if (found === null) return null;
      ({ start, end } = found);
    }
    located.push({ start, end });
    cursor = end;
  }
  return located;
}

function findSqueezed(
  haystack: { chars: string; offsets: number[] },
  needle: string,
  fromOffset: number,
): { start: number; end: number } | null {
  // First squeezed character at or after fromOffset (offsets are increasing).
  let from = 0;
  let to = haystack.offsets.length;
  while (from < to) {
    const middle = (from + to) >> 1;
    if ((haystack.offsets[middle] ?? 0) < fromOffset) from = middle + 1;
    else to = middle;
  }
  const at = haystack.chars.indexOf(needle, from);
  if (at < 0 || needle === '') return null;
  const first = haystack.offsets[at];
  const last = haystack.offsets[at + needle.length - 1];
  if (first === undefined || last === undefined) return null;
  return { start: first, end: last + 1 };
}
