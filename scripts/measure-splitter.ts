/**
 * Measures sentence-boundary precision/recall/F1 of the candidate splitters against gold splits,
 * and their speed. Run: `npx tsx scripts/measure-splitter.ts` (figures go to docs/splitter.md).
 *
 * A boundary is the character offset where a gold sentence ends (the last sentence excluded);
 * gold sentences are located in the summary string with locateSentences. A predicted boundary
 * counts as correct only at exactly the same offset.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parse as parseCsv } from 'csv-parse/sync';
import sbd from 'sbd';
import { locateSentences, splitSentences } from '../shared/split/sentences';
import { TRICKY_CASES } from '../shared/split/tricky-cases';

/** The benchmark samples kept in the repository (test/fixtures/benchmarks/README.md). */
const DATA = join(import.meta.dirname, '..', 'test', 'fixtures', 'benchmarks');

interface GoldSummary {
  summary: string;
  gold: string[];
}

interface Span {
  start: number;
  end: number;
}

interface Method {
  name: string;
  split(text: string): Span[];
}

const SBD_OPTIONS = { newline_boundaries: true, preserve_whitespace: true, sanitize: false };

/** How often sbd returned a sentence that is not an exact substring of its input. */
let sbdInexact = 0;

/**
 * sbd returns strings; offsets come from finding each (trimmed) one after the previous. Its
 * output is not always a substring (it turns a no-break space into a space), so fall back to
 * the whitespace-tolerant search.
 */
function splitWithSbd(text: string): Span[] {
  const spans: Span[] = [];
  let cursor = 0;
  for (const raw of sbd.sentences(text, SBD_OPTIONS)) {
    const sentence = raw.trim();
    if (sentence === '') continue;
    let span: Span = { start: text.indexOf(sentence, cursor), end: 0 };
    span.end = span.start + sentence.length;
    if (span.start < 0) {
      sbdInexact += 1;
      const found = locateSentences(text.slice(cursor), [sentence])?.[0];
      if (found === undefined) throw new Error(`sbd returned text that is not in the input: ${sentence}`);
      span = { start: cursor + found.start, end: cursor + found.end };
    }
    spans.push(span);
    cursor = span.end;
  }
  return spans;
}

const METHODS: Method[] = [
  { name: 'loupe-rules', split: splitSentences },
  { name: 'sbd 1.0.19', split: splitWithSbd },
];

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function stringField(record: Record<string, unknown>, key: string): string {
  const value = record[key];
  if (typeof value !== 'string') throw new Error(`expected string field ${key}`);
  return value;
}

function stringList(record: Record<string, unknown>, key: string): string[] {
  const value = record[key];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
    throw new Error(`expected string list ${key}`);
  return value as string[];
}

/** FRANK articles: `<system>_lines` is the gold split; for `bart` it splits `bart_cased`. */
function loadFrankArticles(): { gold: GoldSummary[]; bySystem: Map<string, string> } {
  const dir = join(DATA, 'frank/articles-json');
  const gold: GoldSummary[] = [];
  const bySystem = new Map<string, string>();
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const article = readJson(join(dir, file)) as Record<string, unknown>;
    const hash = stringField(article, 'hash');
    for (const linesKey of stringList(article, 'model_names')) {
      const system = linesKey.replace(/_lines$/, '');
      const summary = stringField(article, system === 'bart' ? 'bart_cased' : system);
      gold.push({ summary, gold: stringList(article, linesKey) });
      bySystem.set(`${hash}/${system}`, summary);
    }
  }
  return { gold, bySystem };
}

/** FineSurE JSONL: `sentences` (spaCy split) of summaries whose string is in the articles files. */
function loadFineSurE(bySystem: Map<string, string>): GoldSummary[] {
  const dir = join(DATA, 'frank/finesure-format');
  const seen = new Set<string>();
  const gold: GoldSummary[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const record = JSON.parse(line) as Record<string, unknown>;
      const key = `${stringField(record, 'doc_id')}/${stringField(record, 'model')}`;
      const summary = bySystem.get(key);
      if (summary === undefined || seen.has(key)) continue;
      seen.add(key);
      gold.push({ summary, gold: stringList(record, 'sentences') });
    }
  }
  return gold;
}

/** TofuEval ships one row per sentence and no summary string: join the sentences with a space. */
function loadTofuEval(): GoldSummary[] {
  const groups = new Map<string, Array<{ index: number; text: string }>>();
  for (const file of ['mediasum_factual_eval_dev.csv', 'meetingbank_factual_eval_dev.csv']) {
    const rows = parseCsv(readFileSync(join(DATA, 'tofueval/factual_consistency', file), 'utf8'), {
      columns: true,
    }) as Array<Record<string, string>>;
    for (const row of rows) {
      const key = [file, row.doc_id, row.topic, row.model_name].join('\u0000');
      const group = groups.get(key) ?? [];
      group.push({ index: Number(row.sent_idx), text: row.summ_sent ?? '' });
      groups.set(key, group);
    }
  }
  return [...groups.values()].map((group) => {
    const sentences = group.sort((a, b) => a.index - b.index).map((s) => s.text.trim());
    return { summary: sentences.join(' '), gold: sentences };
  });
}

/** CoGenSumm (lower-cased, attached punctuation): `sents` joined with a space. */
function loadCoGenSumm(): GoldSummary[] {
  const data = readJson(join(DATA, 'cogensumm/test_see17_org.json')) as Record<
    string,
    { sents: Record<string, { text: string }> }
  >;
  return Object.values(data).map((entry) => {
    const sentences = Object.keys(entry.sents)
      .sort((a, b) => Number(a) - Number(b))
      .map((k) => (entry.sents[k]?.text ?? '').trim());
    return { summary: sentences.join(' '), gold: sentences };
  });
}

function boundaries(spans: Span[]): number[] {
  return spans.slice(0, -1).map((s) => s.end);
}

interface Score {
  summaries: number;
  unlocatable: number;
  truePositives: number;
  predicted: number;
  gold: number;
  exact: number;
}

function score(method: Method, corpus: GoldSummary[]): Score {
  const result: Score = { summaries: 0, unlocatable: 0, truePositives: 0, predicted: 0, gold: 0, exact: 0 };
  for (const item of corpus) {
    const located = locateSentences(item.summary, item.gold);
    if (located === null) {
      result.unlocatable += 1;
      continue;
    }
    const gold = new Set(boundaries(located));
    const predicted = boundaries(method.split(item.summary));
    const hits = predicted.filter((b) => gold.has(b)).length;
    result.summaries += 1;
    result.truePositives += hits;
    result.predicted += predicted.length;
    result.gold += gold.size;
    if (hits === gold.size && predicted.length === gold.size) result.exact += 1;
  }
  return result;
}

/** Median of several runs of splitting every text, in milliseconds. */
function timeMs(method: Method, texts: string[], runs = 7): number {
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const t0 = performance.now();
    for (const text of texts) method.split(text);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? 0;
}

function pct(numerator: number, denominator: number): string {
  return denominator === 0 ? '–' : ((100 * numerator) / denominator).toFixed(1);
}

function f1(s: Score): string {
  const p = s.predicted === 0 ? 0 : s.truePositives / s.predicted;
  const r = s.gold === 0 ? 0 : s.truePositives / s.gold;
  return p + r === 0 ? '–' : ((200 * p * r) / (p + r)).toFixed(1);
}

function main(): void {
  const frank = loadFrankArticles();
  const tricky: GoldSummary[] = TRICKY_CASES.map((c) => ({ summary: c.text, gold: c.expected }));
  const corpora: Array<{ name: string; items: GoldSummary[] }> = [
    { name: 'FRANK `<system>_lines` (gold)', items: frank.gold },
    { name: 'FRANK FineSurE `sentences` (spaCy)', items: loadFineSurE(frank.bySystem) },
    { name: 'TofuEval dev rows, joined', items: loadTofuEval() },
    { name: 'CoGenSumm `sents`, joined', items: loadCoGenSumm() },
    { name: 'tricky set (hand-written)', items: tricky },
  ];

  console.log(
    '| corpus | method | summaries | gold boundaries | P % | R % | F1 % | exact summaries % | ms / 1,000 summaries |',
  );
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const corpus of corpora) {
    const texts = corpus.items.map((i) => i.summary);
    for (const method of METHODS) {
      const s = score(method, corpus.items);
      const perThousand = (timeMs(method, texts) / texts.length) * 1000;
      const skipped = s.unlocatable > 0 ? ` (+${s.unlocatable} gold not locatable)` : '';
      console.log(
        `| ${corpus.name} | ${method.name} | ${s.summaries}${skipped} | ${s.gold} | ${pct(s.truePositives, s.predicted)} | ${pct(s.truePositives, s.gold)} | ${f1(s)} | ${pct(s.exact, s.summaries)} | ${perThousand.toFixed(2)} |`,
      );
    }
  }

  // The speed targets: 20,000 summaries, and one 30,000-word document.
  const summaries20k = Array.from({ length: 20_000 }, (_, i) => frank.gold[i % frank.gold.length]?.summary ?? '');
  const articles = readdirSync(join(DATA, 'frank/articles-json'))
    .sort()
    .map((f) => stringField(readJson(join(DATA, 'frank/articles-json', f)) as Record<string, unknown>, 'article'));
  let longDocument = '';
  for (let i = 0; longDocument.split(/\s+/).length < 30_000; i += 1)
    longDocument += `${articles[i % articles.length] ?? ''}\n\n`;
  console.log('');
  for (const method of METHODS) {
    console.log(
      `${method.name}: 20,000 FRANK summaries in ${timeMs(method, summaries20k, 3).toFixed(0)} ms; ` +
        `a ${longDocument.split(/\s+/).length.toLocaleString('en')}-word document in ${timeMs(method, [longDocument], 3).toFixed(1)} ms`,
    );
  }
  console.log(`sbd output not an exact substring of its input: ${sbdInexact} time(s) over all runs above`);
}

main();
