/**
 * The import's checks of its summaries, a batch at a time, against each other and the project:
 * a summary_id once per dataset, a non-empty summary, a document text that agrees with the one
 * stored, a split that fits, and an unchanged or conflicting summary already stored. The stored
 * side is looked up for the ids a batch names only, so memory does not grow with the project; what
 * is kept across batches are small facts (ids, places, unit counts), so it does not grow with the
 * file's text either.
 */
import { isLikelyFragment } from '../../../shared/domain';
import type { ImportProblem, ImportedSummary, SourceRef } from '../../../shared/formats/types';
import { SPLITTER, locateSentences, splitSentences } from '../../../shared/split/sentences';
import type { NewSummary, Repository, StoredSummary, UnitRecord } from '../../../db/repository';

/** Ids looked up in the project per query. */
const LOOKUP_BATCH = 500;

/** Units of a summary: the split the parser hands over (the benchmark's, or one it made), else Loupe's splitter. */
function unitsOf(
  s: ImportedSummary,
  problems: ImportProblem[],
): { units: UnitRecord[]; splitter: { name: string; version: string } } | null {
  const where = { file: s.source.file, line: s.source.line, record: s.source.record };
  if (s.sentences) {
    const located = locateSentences(s.summary, s.sentences);
    if (!located) {
      problems.push({ ...where, field: 'sentences', expected: 'sentences that occur, in order, in the summary text' });
      return null;
    }
    return {
      units: s.sentences.map((text, idx) => ({
        idx,
        text,
        start: located[idx]!.start,
        end: located[idx]!.end,
        fragment: isLikelyFragment(text),
      })),
      // A split the parser made itself names its splitter; a benchmark's own split is "given" with its file.
      splitter: s.splitter ?? { name: 'given', version: s.source.file },
    };
  }
  const spans = splitSentences(s.summary);
  if (spans.length === 0) {
    problems.push({ ...where, field: 'summary', expected: 'a summary with at least one sentence' });
    return null;
  }
  return {
    units: spans.map((sp, idx) => ({
      idx,
      text: sp.text,
      start: sp.start,
      end: sp.end,
      fragment: isLikelyFragment(sp.text),
    })),
    splitter: SPLITTER,
  };
}

function sameSummary(stored: StoredSummary, incoming: NewSummary): boolean {
  return (
    stored.summary === incoming.summary &&
    stored.docId === incoming.docId &&
    (stored.label ?? null) === (incoming.label ?? null) &&
    stored.unitTexts.length === incoming.units.length &&
    stored.unitTexts.every((t, i) => t === incoming.units[i]!.text)
  );
}

function newSummaryOf(s: ImportedSummary, problems: ImportProblem[]): NewSummary | null {
  const split = unitsOf(s, problems);
  if (!split) return null;
  return {
    dataset: s.dataset,
    docId: s.docId,
    document: s.document,
    summaryId: s.summaryId,
    summary: s.summary,
    label: s.label,
    meta: s.meta,
    units: split.units,
    splitter: split.splitter,
  };
}

interface StoredSide {
  summaries: Map<string, StoredSummary>;
  documents: Map<string, string | null>;
}

export class SummaryChecks {
  readonly problems: ImportProblem[] = [];
  /** Keys (dataset, summary id) of summaries already stored as they are in the file. */
  readonly unchanged = new Set<string>();
  /** Datasets the file's summaries name. */
  readonly datasets = new Set<string>();
  /** How many summaries this import adds. */
  added = 0;
  /** The summaries this import adds, by summary id: their dataset and sentence count (what labels resolve against). */
  private readonly adding = new Map<string, Array<{ dataset: string; units: number }>>();
  private readonly seen = new Map<string, SourceRef>();

  constructor(
    private readonly repo: Repository,
    private readonly maxProblems: number,
  ) {}

  get full(): boolean {
    return this.problems.length >= this.maxProblems;
  }

  /** Checks the file's next summaries; returns the ones to add, split into units. */
  check(summaries: readonly ImportedSummary[]): NewSummary[] {
    const out: NewSummary[] = [];
    for (let from = 0; from < summaries.length; from += LOOKUP_BATCH) {
      const batch = summaries.slice(from, from + LOOKUP_BATCH);
      const stored = this.lookUp(batch);
      for (const s of batch) {
        if (this.full) return out;
        const incoming = this.checkOne(s, stored.get(s.dataset)!);
        if (incoming) out.push(incoming);
      }
    }
    return out;
  }

  /** Whether this import adds the summary (a streamed import's second pass writes only those). */
  adds(s: ImportedSummary): boolean {
    return this.adding.get(s.summaryId)?.some((a) => a.dataset === s.dataset) ?? false;
  }

  /** A summary this import adds, split again exactly as when it was checked; null if it no longer splits. */
  toWrite(s: ImportedSummary): NewSummary | null {
    return newSummaryOf(s, []);
  }

  /** The summaries this import adds under a summary id (in one dataset, or in any): their sentence counts. */
  addedUnits(dataset: string | null, summaryId: string): Array<{ dataset: string; units: number }> {
    return (this.adding.get(summaryId) ?? []).filter((a) => dataset === null || a.dataset === dataset);
  }

  /** What the project holds under the ids a batch names, per dataset. */
  private lookUp(batch: readonly ImportedSummary[]): Map<string, StoredSide> {
    const ids = new Map<string, { summaries: Set<string>; documents: Set<string> }>();
    for (const s of batch) {
      let named = ids.get(s.dataset);
      if (!named) ids.set(s.dataset, (named = { summaries: new Set(), documents: new Set() }));
      named.summaries.add(s.summaryId);
      named.documents.add(s.docId);
    }
    const out = new Map<string, StoredSide>();
    for (const [dataset, named] of ids) {
      out.set(dataset, {
        summaries: this.repo.storedSummaries(dataset, [...named.summaries]),
        documents: this.repo.storedDocuments(dataset, [...named.documents]),
      });
    }
    return out;
  }

  private checkOne(s: ImportedSummary, stored: StoredSide): NewSummary | null {
    const problems = this.problems;
    this.datasets.add(s.dataset);
    const where = { file: s.source.file, line: s.source.line, record: s.source.record };
    const key = `${s.dataset}\u0000${s.summaryId}`;
    const earlier = this.seen.get(key);
    if (earlier) {
      problems.push({
        ...where,
        field: 'summary_id',
        expected: `a summary_id unique within dataset "${s.dataset}"`,
        found: `"${s.summaryId}" again (first at ${earlier.line ?? earlier.record})`,
      });
      return null;
    }
    this.seen.set(key, { file: s.source.file, line: s.source.line, record: s.source.record });
    if (s.summary.trim() === '') {
      problems.push({ ...where, field: 'summary', expected: 'a non-empty summary' });
      return null;
    }
    const knownDoc = stored.documents.get(s.docId);
    if (knownDoc !== undefined && knownDoc !== null && s.document !== null && knownDoc !== s.document) {
      problems.push({
        ...where,
        field: 'document',
        expected: `the same text as document "${s.docId}" already in dataset "${s.dataset}"`,
        found: 'a different text',
      });
      return null;
    }
    const incoming = newSummaryOf(s, problems);
    if (!incoming) return null;
    const existing = stored.summaries.get(s.summaryId);
    if (existing) {
      if (sameSummary(existing, incoming)) this.unchanged.add(key);
      else
        problems.push({
          ...where,
          field: 'summary_id',
          expected: `"${s.summaryId}" to match the summary already in dataset "${s.dataset}" (same text, document, label and sentences)`,
          found: 'different content; import it under another dataset name or id',
        });
      return null;
    }
    this.added += 1;
    this.adding.set(s.summaryId, [
      ...(this.adding.get(s.summaryId) ?? []),
      { dataset: s.dataset, units: incoming.units.length },
    ]);
    return incoming;
  }
}
