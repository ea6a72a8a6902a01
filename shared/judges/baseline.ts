/**
 * The offline baseline judge (rule `loupe-baseline-1`): deterministic, no model, so the demo and
 * the tests show the whole pipeline and every audit has a floor to beat. The rule, exactly:
 *
 * 1. Numbers: every number in the sentence (a run of digits, with `.`/`,` between digits, thousands
 *    commas removed: "1,000" = "1000") must occur as a number in the document.
 * 2. Date words: every month name (except "may") or its three-letter abbreviation (except "mar"),
 *    and every weekday, in the sentence (any case) must occur as a word in the document.
 * 3. Capitalised names: every word after the sentence's first word that starts with a capital
 *    letter and is not a stop word must occur in the document (case-insensitive; a possessive 's is
 *    ignored; each part of a hyphenated word counts on its own).
 *    If 1, 2 or 3 fails, the sentence is unfaithful (hard 0) with soft 0.
 * 4. Coverage: content words are the sentence's words that are not stop words (function words,
 *    reporting verbs such as "said", discourse markers such as "summary"), lower-cased and
 *    crudely stemmed (see `stem`). A passage is `passageSentences` consecutive document sentences
 *    (Loupe's splitter). Coverage = the largest share, over passages, of the sentence's distinct
 *    content stems that occur in the passage (1 when the sentence has no content word).
 *    Faithful (hard 1) when coverage ≥ `coverageThreshold` (default 0.5), else unfaithful; soft =
 *    coverage. So hard = 1 exactly when soft ≥ the threshold.
 * Pure; the same input always gives the same verdict.
 */
import { splitSentences } from '../split/sentences';
import { BASELINE_RULE, type BaselineConfig } from './config';

export const BASELINE_DESCRIPTION =
  'Offline baseline (rule loupe-baseline-1, no model): a sentence is unfaithful when it contains a number, a date word ' +
  '(month or weekday) or a capitalised name (any capitalised non-stop word after the first word) that the document lacks, ' +
  'or when fewer than the threshold share (default 50%) of its content words (stop words removed, crude stemming) occur in ' +
  'the best-matching passage of consecutive document sentences (default 3). Soft label: 0 on a missing number/date/name, ' +
  'else the coverage.';

const STOP_WORDS = new Set(
  `a about above after again against all also am an and any are as at be because been before being below between both but by
  can could did do does doing down during each few for from further had has have having he her here hers herself him himself his
  how i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours ourselves out
  over own same she should so some such than that the their theirs them themselves then there these they this those through to
  too under until up very was we were what when where which while who whom why will with would you your yours yourself yourselves
  said says say according also however meanwhile moreover furthermore additionally although though despite since yet still
  mr mrs ms dr st us may might must shall via per within without upon onto among amongst around
  across along toward towards whether either neither every another many much several
  summary conclusion overall short brief addition sum finally firstly secondly lastly words other`
    .split(/\s+/)
    .filter(Boolean),
);

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const MONTH_ABBREVIATIONS = ['jan', 'feb', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec'];
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const DATE_WORDS = new Set([...MONTHS, ...MONTH_ABBREVIATIONS, ...WEEKDAYS]);

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;
const NUMBER = /\d+(?:[.,]\d+)*/g;

function words(text: string): string[] {
  return text.match(WORD) ?? [];
}

function normaliseWord(word: string): string {
  return word
    .toLowerCase()
    .replace(/['’]s$/, '')
    .replace(/['’]/g, '');
}

function numbers(text: string): string[] {
  return (text.match(NUMBER) ?? []).map((n) => n.replace(/,(?=\d{3}\b)/g, ''));
}

/** Crude stemming: possessive, then -ing (> 5 letters), -ed / -es (> 4), -s (> 3, not -ss). */
export function stem(word: string): string {
  const w = normaliseWord(word);
  if (w.length > 5 && w.endsWith('ing')) return w.slice(0, -3);
  if (w.length > 4 && (w.endsWith('ed') || w.endsWith('es'))) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

function contentStems(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of words(text)) {
    const n = normaliseWord(w);
    if (n === '' || STOP_WORDS.has(n) || /^\d/.test(n)) continue;
    out.add(stem(w));
  }
  return out;
}

export interface DocumentAnalysis {
  numbers: Set<string>;
  words: Set<string>;
  passages: Array<{ first: number; last: number; stems: Set<string> }>;
}

export function analyseDocument(document: string, passageSentences: number): DocumentAnalysis {
  const sentenceTexts = splitSentences(document).map((s) => s.text);
  if (sentenceTexts.length === 0) sentenceTexts.push(document);
  const stemsBySentence = sentenceTexts.map(contentStems);
  const size = Math.min(passageSentences, stemsBySentence.length);
  const passages: DocumentAnalysis['passages'] = [];
  for (let first = 0; first + size <= stemsBySentence.length; first += 1) {
    const stems = new Set<string>();
    for (let i = first; i < first + size; i += 1) for (const s of stemsBySentence[i]!) stems.add(s);
    passages.push({ first, last: first + size - 1, stems });
  }
  const docWords = new Set<string>();
  for (const w of words(document)) {
    const n = normaliseWord(w);
    docWords.add(n);
    for (const part of n.split('-')) docWords.add(part);
  }
  return { numbers: new Set(numbers(document)), words: docWords, passages };
}

export interface BaselineVerdict {
  hard: 0 | 1;
  soft: number;
  /** Why, in one line: the first missing item or the coverage and passage. */
  rationale: string;
}

export function baselineVerdict(
  doc: DocumentAnalysis,
  sentence: string,
  config: Pick<BaselineConfig, 'coverageThreshold'>,
): BaselineVerdict {
  for (const n of numbers(sentence)) {
    if (!doc.numbers.has(n)) return { hard: 0, soft: 0, rationale: `number "${n}" is not in the document` };
  }
  const sentenceWords = words(sentence);
  for (const w of sentenceWords) {
    const n = normaliseWord(w);
    if (DATE_WORDS.has(n) && !doc.words.has(n))
      return { hard: 0, soft: 0, rationale: `date word "${w}" is not in the document` };
  }
  for (const w of sentenceWords.slice(1)) {
    if (!/^\p{Lu}/u.test(w)) continue;
    const n = normaliseWord(w);
    if (STOP_WORDS.has(n) || /^\d/.test(n)) continue;
    if (!doc.words.has(n)) return { hard: 0, soft: 0, rationale: `name "${w}" is not in the document` };
  }
  const stems = contentStems(sentence);
  if (stems.size === 0) return { hard: 1, soft: 1, rationale: 'no content words (a connective): faithful' };
  let best = 0;
  let where = doc.passages[0];
  for (const p of doc.passages) {
    let found = 0;
    for (const s of stems) if (p.stems.has(s)) found += 1;
    const coverage = found / stems.size;
    if (coverage > best) {
      best = coverage;
      where = p;
    }
  }
  const percent = `${Math.round(best * 100)}% of ${stems.size} content words`;
  const passage = where ? ` in document sentences ${where.first + 1}–${where.last + 1}` : '';
  return best >= config.coverageThreshold
    ? { hard: 1, soft: best, rationale: `${percent} found${passage}` }
    : {
        hard: 0,
        soft: best,
        rationale: `only ${percent} found${passage} (threshold ${Math.round(config.coverageThreshold * 100)}%)`,
      };
}

/** Convenience for one sentence (the runner caches the document analysis). */
export function runBaseline(document: string, sentence: string, config: BaselineConfig): BaselineVerdict {
  return baselineVerdict(analyseDocument(document, config.passageSentences), sentence, config);
}

export { BASELINE_RULE };
