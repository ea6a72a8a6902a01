/**
 * Deterministic answers of the mock server to the accuracy task prompts
 * (electron/core/claims/*-task.ts, keyfacts/*-task.ts), recognised by their wording, so tests can compute the right
 * outputs by hand:
 *
 * - claim decomposition: the sentence without its final stop, cut at ", " and " and ";
 * - key-fact extraction: the document's sentences (at most 4), as written;
 * - claim verdict: supported when every content word (4+ letters) and number of the claim is in
 *   the document; else number_or_date when a number is not in it, otherwise not_in_source;
 * - key-fact alignment (FineSurE list) and per-fact alignment: a key fact is conveyed by a line
 *   that shares at least half of the fact's content words;
 * - summary generation: the document's first sentence.
 */
import type { MockReply, MockRequest, Responder } from './server';

const block = (prompt: string, label: string): string | null =>
  new RegExp(`${label}:\\s*<<<\\n([\\s\\S]*?)\\n>>>`).exec(prompt)?.[1] ?? null;

export const contentWords = (text: string): string[] =>
  (text.toLowerCase().match(/[a-z]{4,}/g) ?? []).filter(
    (w) => !['that', 'this', 'with', 'from', 'will', 'have', 'were', 'been'].includes(w),
  );
const numbers = (text: string): string[] => text.match(/\d+(?:[.,]\d+)?/g) ?? [];

export const decompose = (sentence: string): string[] =>
  sentence
    .trim()
    .replace(/[.!?]+$/, '')
    .split(/,?\s+and\s+|,\s+/)
    .map((p) => p.trim())
    .filter((p) => p !== '');

export const documentSentences = (document: string): string[] =>
  (document.match(/[^.!?]+[.!?]+/g) ?? [document]).map((s) => s.trim()).filter((s) => s !== '');

export function verdictOf(document: string, claim: string): { supported: boolean; error_type: string | null } {
  const doc = document.toLowerCase();
  const missingNumber = numbers(claim).some((n) => !numbers(document).includes(n));
  if (missingNumber) return { supported: false, error_type: 'number_or_date' };
  const missingWord = contentWords(claim).some((w) => !doc.includes(w));
  return missingWord ? { supported: false, error_type: 'not_in_source' } : { supported: true, error_type: null };
}

/** The lines (1-based) that share at least half of the fact's content words. */
export function conveyingLines(fact: string, lines: readonly string[]): number[] {
  const words = [...new Set(contentWords(fact))];
  if (words.length === 0) return [];
  return lines.flatMap((line, i) => {
    const have = new Set(contentWords(line));
    return words.filter((w) => have.has(w)).length * 2 >= words.length ? [i + 1] : [];
  });
}

const numberedLines = (text: string): string[] =>
  text
    .split('\n')
    .map((l) => /^\d+\. (.*)$/.exec(l)?.[1])
    .filter((l): l is string => l !== undefined);

export type AccuracyPrompt =
  | 'claim_decomposition'
  | 'keyfact_extraction'
  | 'claim_verdict'
  | 'keyfact_alignment'
  | 'keyfact_alignment_per_fact'
  | 'summary_generation';

export function promptKind(req: MockRequest): AccuracyPrompt | null {
  const p = req.prompt;
  if (p.startsWith('Please break down the following sentence')) return 'claim_decomposition';
  if (p.includes('Your task is to extract its key facts')) return 'keyfact_extraction';
  if (p.startsWith('You are a strict fact checker')) return 'claim_verdict';
  if (p.includes('Your task is to assess whether each key fact is conveyed by the summary')) return 'keyfact_alignment';
  if (p.startsWith('You will receive the claims of a summary')) return 'keyfact_alignment_per_fact';
  if (p.startsWith('Summarize the following document.')) return 'summary_generation';
  return null;
}

/** The right answer's JSON value (or summary text) for one accuracy prompt. */
export function accuracyAnswer(req: MockRequest): unknown {
  const p = req.prompt;
  switch (promptKind(req)) {
    case 'claim_decomposition':
      return { claims: decompose(block(p, 'SENTENCE') ?? '') };
    case 'keyfact_extraction':
      return { key_facts: documentSentences(block(p, 'DOCUMENT') ?? '').slice(0, 4) };
    case 'claim_verdict':
      return verdictOf(block(p, 'SOURCE DOCUMENT') ?? '', block(p, 'CLAIM') ?? '');
    case 'keyfact_alignment': {
      const summary = /\(one (?:sentence|claim) per line\):\n([\s\S]*?)\n\n\d+ key facts:/.exec(p)?.[1] ?? '';
      const facts = numberedLines(/\d+ key facts:\n([\s\S]*)$/.exec(p)?.[1] ?? '');
      const lines = numberedLines(summary);
      return facts.map((fact) => {
        const found = conveyingLines(fact, lines);
        return { 'key fact': fact, response: found.length > 0 ? 'Yes' : 'No', 'line number': found };
      });
    }
    case 'keyfact_alignment_per_fact': {
      const claims = numberedLines(/Summary claims:\n([\s\S]*?)\n\nKey fact:/.exec(p)?.[1] ?? '');
      const found = conveyingLines(block(p, 'Key fact') ?? '', claims);
      return { covered: found.length > 0, claims: found };
    }
    case 'summary_generation': {
      const document = p.slice('Summarize the following document.'.length).trim();
      return documentSentences(document)[0] ?? document;
    }
    default:
      return null;
  }
}

/** A responder for the mock: the right answer to every accuracy prompt (JSON, or the summary as text). */
export const accuracyResponder: Responder = (req): MockReply | undefined => {
  const kind = promptKind(req);
  if (kind === null) return undefined;
  const value = accuracyAnswer(req);
  return { type: 'answer', content: typeof value === 'string' ? value : JSON.stringify(value) };
};
