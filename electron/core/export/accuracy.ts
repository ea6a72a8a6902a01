/**
 * `export.build {accuracy: true}` (loupe export --accuracy): claims and key facts with their labels
 * and provenance, as Loupe's accuracy records (shared/formats/accuracy-jsonl.ts), one per line in
 * JSON Lines or one per row in CSV (the union of the record fields as columns, nested values as
 * JSON, cells neutralised against spreadsheet formulas). `loupe import FILE --as accuracy` reads
 * either back.
 *
 * Written per dataset: each system failure, then a batch of summaries at a time (files.ts: memory
 * stays flat in the project's size): each summary (its text, the sentences exactly as stored, its
 * system), the current key-fact set of each document (with the first batch that holds one of its
 * summaries) and the current claim set of each summary with their provenance (source, decomposer /
 * extractor and version, set version), every annotator's current label, and each judge's latest
 * output. Fields the import does not need
 * (source, version, config_hash, blind) say where an item came from; the import ignores them.
 */
import type { ExportInput } from '../../../shared/api';
import type { Repository } from '../../../db/repository';
import { ACCURACY_CSV_COLUMNS } from '../../../shared/formats/accuracy-jsonl';
import type { AccuracyItemRows } from '../../../db/accuracySnapshot';
import { recordsPlan, summaryBatches, type ExportPlan } from './files';
import { exportFileStem } from '../../../shared/contract/export';

export function* accuracyRecords(repo: Repository, dataset: string | null): Generator<Record<string, unknown>> {
  const names = dataset !== null ? [dataset] : repo.datasetStats().map((d) => d.name);
  for (const name of names) {
    for (const f of repo.accuracySnapshot.failures(name))
      yield {
        type: 'system_output',
        dataset: name,
        doc_id: f.docId,
        system: f.system,
        failure: f.failure,
        message: repo.systems.failureMessage(name, f.docId, f.system),
      };
    const current = repo.accuracySnapshot.currentSets(name);
    // A document's key facts go out once, with the first batch that holds one of its summaries.
    const docsDone = new Set<number>();
    for (const { keys } of summaryBatches(repo, name))
      yield* batchRecords(repo, name, keys, repo.accuracySnapshot.itemRows(name, keys, current), docsDone);
  }
}

/** One batch of summaries: each summary, its document's key facts, its claims, then the labels and outputs on them. */
function* batchRecords(
  repo: Repository,
  name: string,
  keys: readonly number[],
  data: AccuracyItemRows,
  docsDone: Set<number>,
): Generator<Record<string, unknown>> {
  const summaryOf = new Map(data.summaries.map((s) => [s.key, s]));
  const claimAt = new Map<number, { summaryKey: number; index: number }>();
  for (const [key, claims] of data.claims) for (const c of claims) claimAt.set(c.id, { summaryKey: key, index: c.idx });
  const factAt = new Map<number, number>();
  for (const set of data.keyFacts.values()) for (const f of set.facts) factAt.set(f.id, f.idx);
  const sentenceAt = new Map<number, { summaryKey: number; index: number }>();
  for (const s of data.summaries)
    for (const u of s.sentences) sentenceAt.set(u.unitId, { summaryKey: s.key, index: u.index });
  const refs = (summaryKey: number, r: { claims: number[]; sentences: number[] }) => ({
    claims: r.claims
      .map((id) => claimAt.get(id))
      .filter((c) => c !== undefined && c.summaryKey === summaryKey)
      .map((c) => c!.index),
    sentences: r.sentences
      .map((id) => sentenceAt.get(id))
      .filter((u) => u !== undefined && u.summaryKey === summaryKey)
      .map((u) => u!.index),
  });
  // The batch in export order (its keys': summary id), whatever order the rows were read in.
  const position = new Map(keys.map((key, i) => [key, i]));
  const summaries = [...data.summaries].sort((a, b) => position.get(a.key)! - position.get(b.key)!);

  for (const s of summaries) {
    const info = repo.corpus.summaryInfo(s.key)!;
    yield {
      type: 'summary',
      dataset: name,
      doc_id: s.docId,
      document: info.document,
      summary_id: s.summaryId,
      summary: info.text,
      sentences: s.sentences.map((u) => u.text),
      system: s.system,
    };
  }
  for (const s of summaries) {
    if (docsDone.has(s.documentKey)) continue;
    docsDone.add(s.documentKey);
    const set = repo.sets.currentKeyFactSet(s.documentKey);
    const facts = data.keyFacts.get(s.documentKey);
    if (!set || !facts || facts.facts.length === 0) continue;
    yield {
      type: 'key_facts',
      dataset: name,
      doc_id: s.docId,
      facts: facts.facts.map((f) => f.text),
      extractor: set.maker,
      extractor_version: set.makerVersion,
      source: set.source,
      version: set.version,
    };
  }
  for (const s of summaries) {
    const claims = data.claims.get(s.key);
    const set = repo.sets.currentClaimSet(s.key);
    if (!set || !claims || claims.length === 0) continue;
    yield {
      type: 'claims',
      dataset: name,
      summary_id: s.summaryId,
      claims: claims.map((c) => ({ sentence_index: c.sentenceIndex, text: c.text })),
      decomposer: set.maker,
      decomposer_version: set.makerVersion,
      source: set.source,
      version: set.version,
    };
  }
  // Labels and predictions in the order of their public ids (summary, item index, who), not of
  // the rows' ids: those follow when each task's answers happened to arrive, so two projects
  // holding the same records would export them in different orders.
  const items: Array<Record<string, unknown> & { summary_id: string }> = [];
  for (const l of data.claimLabels) {
    const at = claimAt.get(l.claimId);
    // A note on a claim without a label is exported too (label null), so it is not lost.
    if (!at || (l.label === null && l.note === null)) continue;
    items.push({
      type: 'claim_label',
      dataset: name,
      summary_id: summaryOf.get(at.summaryKey)!.summaryId,
      claim_index: at.index,
      annotator: l.annotator,
      label: l.label,
      error_type: l.errorType,
      ...(l.note !== null ? { note: l.note } : {}),
      blind: l.blind,
    });
  }
  for (const l of data.keyFactLabels) {
    const index = factAt.get(l.keyFactId);
    if (index === undefined || (l.label === null && l.note === null)) continue;
    items.push({
      type: 'key_fact_label',
      dataset: name,
      summary_id: summaryOf.get(l.summaryKey)!.summaryId,
      key_fact_index: index,
      annotator: l.annotator,
      label: l.label,
      ...refs(l.summaryKey, l.conveyedBy),
      ...(l.note !== null ? { note: l.note } : {}),
      blind: l.blind,
    });
  }
  for (const l of data.sentenceKeyFactLabels) {
    const at = sentenceAt.get(l.unitId);
    if (!at) continue;
    items.push({
      type: 'sentence_keyfact_label',
      dataset: name,
      summary_id: summaryOf.get(at.summaryKey)!.summaryId,
      sentence_index: at.index,
      annotator: l.annotator,
      conveys: l.conveys ? 1 : 0,
    });
  }

  for (const p of data.claimPredictions) {
    const at = claimAt.get(p.claimId);
    if (!at) continue;
    items.push({
      type: 'claim_prediction',
      dataset: name,
      summary_id: summaryOf.get(at.summaryKey)!.summaryId,
      claim_index: at.index,
      judge: p.judge,
      supported: p.supported ? 1 : 0,
      error_type: p.errorType,
    });
  }
  for (const p of data.keyFactPredictions) {
    const index = factAt.get(p.keyFactId);
    if (index === undefined) continue;
    items.push({
      type: 'key_fact_prediction',
      dataset: name,
      summary_id: summaryOf.get(p.summaryKey)!.summaryId,
      key_fact_index: index,
      judge: p.judge,
      covered: p.covered ? 1 : 0,
      ...refs(p.summaryKey, p.conveyedBy),
    });
  }
  for (const p of data.sentenceKeyFactPredictions) {
    const at = sentenceAt.get(p.unitId);
    if (!at) continue;
    items.push({
      type: 'sentence_keyfact_prediction',
      dataset: name,
      summary_id: summaryOf.get(at.summaryKey)!.summaryId,
      sentence_index: at.index,
      judge: p.judge,
      conveys: p.conveys ? 1 : 0,
    });
  }
  const rank = new Map(summaries.map((s, i) => [s.summaryId, i]));
  const itemIndex = (r: Record<string, unknown>) => Number(r.claim_index ?? r.key_fact_index ?? r.sentence_index ?? 0);
  const who = (r: Record<string, unknown>) => String(r.annotator ?? r.judge ?? '');
  const typeOrder = new Map<unknown, number>();
  for (const r of items) if (!typeOrder.has(r.type)) typeOrder.set(r.type, typeOrder.size);
  items.sort(
    (a, b) =>
      typeOrder.get(a.type)! - typeOrder.get(b.type)! ||
      rank.get(a.summary_id)! - rank.get(b.summary_id)! ||
      itemIndex(a) - itemIndex(b) ||
      (who(a) < who(b) ? -1 : who(a) > who(b) ? 1 : 0),
  );
  yield* items;
}

export function accuracyExportPlan(
  repo: Repository,
  input: Pick<ExportInput, 'format' | 'dataset' | 'rawCsv'>,
  projectName: string,
): ExportPlan {
  return recordsPlan(
    exportFileStem(projectName, input.dataset, 'accuracy'),
    input,
    () => accuracyRecords(repo, input.dataset ?? null),
    ACCURACY_CSV_COLUMNS,
  );
}
