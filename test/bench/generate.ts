/** Synthetic but realistic data for benchmarks: news-length documents, multi-sentence summaries. */
const WORDS = (
  'the council said on monday that a new plan would add funds for schools and roads while critics warned ' +
  'officials police report government minister company market price percent million people city state ' +
  'according to data released by the agency after the meeting in which members voted against the proposal'
).split(' ');
const NAMES = ['Smith', 'Garcia', 'Chen', 'Okafor', 'Müller', 'Rossi', 'Kowalski', 'Dubois', 'Tanaka', 'Silva'];

/** A deterministic pseudo-random generator (mulberry32) so every run builds the same data. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function sentence(random: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i += 1) {
    const r = random();
    if (r < 0.06) out.push(NAMES[Math.floor(random() * NAMES.length)]!);
    else if (r < 0.09) out.push(String(Math.floor(random() * 1000)));
    else out.push(WORDS[Math.floor(random() * WORDS.length)]!);
  }
  const text = out.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1) + '.';
}

export function documentText(random: () => number, words: number): string {
  const sentences: string[] = [];
  let count = 0;
  while (count < words) {
    const n = 12 + Math.floor(random() * 18);
    sentences.push(sentence(random, n));
    count += n;
  }
  // Paragraphs of about five sentences, as news articles have.
  const paragraphs: string[] = [];
  for (let i = 0; i < sentences.length; i += 5) paragraphs.push(sentences.slice(i, i + 5).join(' '));
  return paragraphs.join('\n\n');
}

export interface BenchSummaryRow {
  dataset: string;
  doc_id: string;
  document: string;
  summary_id: string;
  summary: string;
  label: 0 | 1;
}

/** HaluEval's shape: two summaries per news document (about 3.6 sentences each). */
export function* halulikeRows(summaries: number, seed = 1): Generator<BenchSummaryRow> {
  const random = rng(seed);
  let doc = '';
  for (let i = 0; i < summaries; i += 1) {
    if (i % 2 === 0) doc = documentText(random, 350 + Math.floor(random() * 500));
    const sentences = 2 + Math.floor(random() * 4) + (random() < 0.3 ? 1 : 0);
    const summary = Array.from({ length: sentences }, () => sentence(random, 10 + Math.floor(random() * 14))).join(' ');
    yield {
      dataset: 'halulike',
      doc_id: `doc-${Math.floor(i / 2)}`,
      document: doc,
      summary_id: `s-${i}`,
      summary,
      label: (i % 2 === 0 ? 1 : 0) as 0 | 1,
    };
  }
}
