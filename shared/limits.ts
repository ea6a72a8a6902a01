/**
 * The contract's bounds and defaults as plain numbers (no zod), so the UI bundle can show and
 * pre-check them without shipping zod. shared/api.ts and shared/judges/config.ts build their
 * schemas from these; nothing else may restate them: the contract alone refuses.
 */
export interface Bound {
  min: number;
  max: number;
  /** Whole numbers only. */
  integer: boolean;
  default?: number;
  /** The lower bound is exclusive (e.g. top_p > 0). */
  aboveMin?: boolean;
}

const int = (min: number, max: number, def?: number): Bound => ({
  min,
  max,
  integer: true,
  ...(def !== undefined ? { default: def } : {}),
});
const num = (min: number, max: number, def?: number, aboveMin = false): Bound => ({
  min,
  max,
  integer: false,
  ...(def !== undefined ? { default: def } : {}),
  ...(aboveMin ? { aboveMin } : {}),
});

export const LIMITS = {
  sampling: {
    n: int(1, 1_000_000, 25),
    seed: int(0, 2 ** 31 - 1, 0),
    /** Share of a batch labeled by two annotators. */
    overlap: num(0, 1, 0),
    annotators: int(1, 1000),
  },
  analysis: {
    bootstrap: int(0, 100_000, 2000),
    seed: int(0, Number.MAX_SAFE_INTEGER, 0),
    cap: int(0, 100_000, 25),
    /** Threads for the bootstrap (the numbers do not depend on it). */
    threads: int(1, 64),
  },
  review: {
    cap: int(0, 1_000_000, 25),
    fastMs: int(0, 3_600_000, 2000),
  },
  annotators: { fastMs: int(0, 600_000, 2000) },
  /** Time spent on one decision. */
  timeSpentMs: int(0, 86_400_000),
  judge: {
    temperature: num(0, 2, 0),
    topP: num(0, 1, 1, true),
    maxTokens: int(1, 1_000_000, 8192),
    concurrency: int(1, 256, 8),
    timeoutS: num(0, 3600, 120, true),
    retries: int(0, 20, 4),
    templateChars: int(1, 200_000),
    apiKeyChars: int(1, 10_000),
    /** `extra` request fields of a judge or system, as JSON text. */
    extraChars: int(2, 65_536),
  },
  /** The offline baseline judge. */
  baseline: {
    coverageThreshold: num(0, 1, 0.5),
    passageSentences: int(1, 10, 3),
  },
  /** Batch answer files (`--batch-in`): one line, and one answer's text, in UTF-8 bytes. */
  batch: {
    lineBytes: int(1, 16_000_000),
    answerBytes: int(1, 1_000_000),
  },
  /** A summary a system under test writes (summary_generation); a longer answer is a failure scoring 0. */
  generatedSummaryChars: int(1, 100_000),
  /** Paged lists (claims.list, keyfacts.list): rows per page, and the length of a search text. */
  lists: {
    limit: int(1, 5_000, 200),
    searchChars: int(1, 200),
  },
  /** Names of datasets, annotators, judges. */
  nameChars: int(1, 200),
  /** A document's text attached to a summary (annotation.attachDocument), in bytes of UTF-8. */
  attachedDocumentBytes: int(1, 10_000_000),
} as const;

/** Bytes of a string in UTF-8 (what a size limit on text counts), without encoding it. */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** "a whole number from 1 to 1,000,000", for messages that state a bound. */
export function describeBound(b: Bound): string {
  const fmt = (n: number) => (n === Number.MAX_SAFE_INTEGER ? String(n) : n.toLocaleString('en-US'));
  const lower = b.aboveMin ? `above ${fmt(b.min)}` : `from ${fmt(b.min)}`;
  return `${b.integer ? 'a whole number' : 'a number'} ${lower} to ${fmt(b.max)}`;
}

/** Checks a typed value against a bound: the number, or why not (for forms; the contract decides). */
export function readBound(text: string, b: Bound): number | string {
  const value = Number(text.trim());
  const ok =
    text.trim() !== '' &&
    Number.isFinite(value) &&
    (!b.integer || Number.isInteger(value)) &&
    (b.aboveMin ? value > b.min : value >= b.min) &&
    value <= b.max;
  if (ok) return value;
  const s = describeBound(b);
  return s.charAt(0).toUpperCase() + s.slice(1);
}
