/**
 * Writes an import's accuracy material (claims, key facts, their labels, judge outputs, system
 * outputs) inside the import's transaction, after its summaries: every reference is resolved
 * against this batch and the project, and any that does not resolve refuses the whole import
 * (file, line, field). Re-importing the same file adds nothing (content-derived import keys).
 */
import type { Repository } from '../../../db/repository';
import { IMPORTED_CONFIG_HASH } from '../../../db/judgeRepository';
import type { AccuracyImport, ItemRefs } from '../../../shared/formats/accuracy-types';
import { ImportValidationError, type ImportProblem, type SourceRef } from '../../../shared/formats/types';
import { sha256 } from './files';

export interface AccuracyWriteResult {
  claimSets: number;
  keyFactSets: number;
  labels: number;
  predictions: number;
  systemOutputs: number;
}

export function writeAccuracyImport(
  repo: Repository,
  data: AccuracyImport,
  importId: number,
  contentHash: string,
): AccuracyWriteResult {
  const problems: ImportProblem[] = [];
  const where = (s: SourceRef) => ({
    file: s.file,
    ...(s.line !== undefined ? { line: s.line } : {}),
    ...(s.record !== undefined ? { record: s.record } : {}),
  });
  const key = (...parts: Array<string | number>) => sha256([contentHash, ...parts.map(String)]);
  const result: AccuracyWriteResult = { claimSets: 0, keyFactSets: 0, labels: 0, predictions: 0, systemOutputs: 0 };

  const summaryKeyOf = (dataset: string, summaryId: string, source: SourceRef): number | null => {
    const k = repo.corpus.summaryKey(dataset, summaryId);
    if (k === null)
      problems.push({
        ...where(source),
        field: 'summary_id',
        expected: `a summary of dataset "${dataset}" (in this import or the project)`,
        found: `"${summaryId}"`,
      });
    return k;
  };
  const documentKeyOf = (dataset: string, docId: string, source: SourceRef): number | null => {
    const k = repo.corpus.documentKey(dataset, docId);
    if (k === null)
      problems.push({
        ...where(source),
        field: 'doc_id',
        expected: `a document of dataset "${dataset}" (in this import or the project)`,
        found: `"${docId}"`,
      });
    return k;
  };

  // 1. Key-fact sets, then claim sets: one version each (the same file again reuses its version).
  const importedFactSet = new Map<number, number>();
  data.keyFactSets.forEach((set, i) => {
    const documentKey = repo.corpus.documentKey(set.dataset, set.docId);
    if (documentKey === null) return; // a list for a document not in the project: left out (the parser notes it)
    const importKey = key('key_facts', i, set.dataset, set.docId, JSON.stringify(set.facts));
    if (repo.sets.hasSetImportKey(importKey)) {
      importedFactSet.set(documentKey, repo.sets.currentKeyFactSet(documentKey)!.id);
      return;
    }
    const current = repo.sets.currentKeyFactSet(documentKey);
    const setId = repo.sets.insertKeyFactSet(documentKey, {
      source: 'imported',
      maker: set.maker,
      makerVersion: set.makerVersion,
      basedOnId: current?.id ?? null,
      createdBy: null,
      note: null,
      importKey,
      importId,
      items: set.facts.map((text) => ({ text, from: [] })),
    });
    importedFactSet.set(documentKey, setId);
    result.keyFactSets += 1;
  });
  const importedClaimSet = new Map<number, number>();
  data.claimSets.forEach((set, i) => {
    const summaryKey = summaryKeyOf(set.dataset, set.summaryId, set.source);
    if (summaryKey === null) return;
    const importKey = key('claims', i, set.dataset, set.summaryId, JSON.stringify(set.claims));
    if (repo.sets.hasSetImportKey(importKey)) {
      importedClaimSet.set(summaryKey, repo.sets.currentClaimSet(summaryKey)!.id);
      return;
    }
    const sentences = repo.corpus.sentences(summaryKey);
    const bad = set.claims.findIndex((c) => c.sentenceIndex >= sentences.length);
    if (bad >= 0) {
      problems.push({
        ...where(set.source),
        field: `claims.${bad}.sentence_index`,
        expected: `an index from 0 to ${sentences.length - 1} (the summary has ${sentences.length} sentences)`,
        found: String(set.claims[bad]!.sentenceIndex),
      });
      return;
    }
    const current = repo.sets.currentClaimSet(summaryKey);
    const setId = repo.sets.insertClaimSet(summaryKey, {
      source: 'imported',
      maker: set.maker,
      makerVersion: set.makerVersion,
      basedOnId: current?.id ?? null,
      createdBy: null,
      note: null,
      importKey,
      importId,
      items: set.claims.map((c) => ({ sentenceUnitId: sentences[c.sentenceIndex]!.unitId, text: c.text, from: [] })),
    });
    importedClaimSet.set(summaryKey, setId);
    result.claimSets += 1;
  });

  const claimSetOf = (summaryKey: number) =>
    importedClaimSet.get(summaryKey) ?? repo.sets.currentClaimSet(summaryKey)?.id ?? null;
  const claimIdOf = (
    dataset: string,
    summaryId: string,
    index: number,
    source: SourceRef,
    field: string,
  ): { summaryKey: number; claimId: number } | null => {
    const summaryKey = summaryKeyOf(dataset, summaryId, source);
    if (summaryKey === null) return null;
    const setId = claimSetOf(summaryKey);
    const claims = setId === null ? [] : repo.sets.claimsOfSet(setId);
    if (index >= claims.length) {
      problems.push({
        ...where(source),
        field,
        expected:
          claims.length === 0
            ? `claims of summary "${summaryId}" (import them first or in the same file)`
            : `an index from 0 to ${claims.length - 1}`,
        found: String(index),
      });
      return null;
    }
    return { summaryKey, claimId: claims[index]!.id };
  };
  const factSetOf = (summaryKey: number): { setId: number; ids: number[] } | null => {
    const info = repo.corpus.summaryInfo(summaryKey)!;
    const setId = importedFactSet.get(info.documentKey) ?? repo.sets.currentKeyFactSet(info.documentKey)?.id ?? null;
    return setId === null ? null : { setId, ids: repo.sets.keyFactsOfSet(setId).map((f) => f.id) };
  };
  const factIdOf = (
    dataset: string,
    summaryId: string,
    index: number,
    source: SourceRef,
    field: string,
  ): { summaryKey: number; keyFactId: number } | null => {
    const summaryKey = summaryKeyOf(dataset, summaryId, source);
    if (summaryKey === null) return null;
    const set = factSetOf(summaryKey);
    if (set === null || index >= set.ids.length) {
      problems.push({
        ...where(source),
        field,
        expected:
          set === null
            ? `key facts of the document of "${summaryId}" (import them first or in the same file)`
            : `an index from 0 to ${set.ids.length - 1}`,
        found: String(index),
      });
      return null;
    }
    return { summaryKey, keyFactId: set.ids[index]! };
  };
  const unitOf = (summaryKey: number, index: number, source: SourceRef, field: string): number | null => {
    const sentences = repo.corpus.sentences(summaryKey);
    if (index >= sentences.length) {
      problems.push({
        ...where(source),
        field,
        expected: `an index from 0 to ${sentences.length - 1}`,
        found: String(index),
      });
      return null;
    }
    return sentences[index]!.unitId;
  };
  const refsOf = (summaryKey: number, r: ItemRefs, source: SourceRef): { claims: number[]; sentences: number[] } => {
    const setId = claimSetOf(summaryKey);
    const claims = setId === null ? [] : repo.sets.claimsOfSet(setId);
    const out = { claims: [] as number[], sentences: [] as number[] };
    for (const i of r.claims) {
      if (i >= claims.length)
        problems.push({
          ...where(source),
          field: 'claims',
          expected: `claim indexes from 0 to ${claims.length - 1}`,
          found: String(i),
        });
      else out.claims.push(claims[i]!.id);
    }
    for (const i of r.sentences) {
      const unit = unitOf(summaryKey, i, source, 'sentences');
      if (unit !== null) out.sentences.push(unit);
    }
    return out;
  };
  const judgeIds = new Map<string, number>();
  const judgeId = (name: string) => {
    let id = judgeIds.get(name);
    if (id === undefined) {
      repo.judges.importVersion(name, IMPORTED_CONFIG_HASH);
      judgeIds.set(name, (id = repo.judges.judgeByName(name)!.id));
    }
    return id;
  };
  const annotatorId = (name: string) => repo.ensureAnnotator(name, 'imported').id;

  // 2. People's labels (imported label sets).
  data.claimLabels.forEach((l, i) => {
    const target = claimIdOf(l.dataset, l.summaryId, l.claimIndex, l.source, 'claim_index');
    if (!target) return;
    const id = repo.itemLabels.recordClaimLabel({
      claimId: target.claimId,
      annotatorId: annotatorId(l.annotator),
      label: l.label,
      errorType: l.errorType,
      sourceErrorType: l.sourceErrorType,
      note: l.note,
      timeSpentMs: null,
      cause: 'import',
      importKey: key('claim_label', i, target.claimId, l.annotator, l.label ?? '', l.errorType ?? ''),
      importId,
    });
    if (id !== null) result.labels += 1;
  });
  data.keyFactLabels.forEach((l, i) => {
    const target = factIdOf(l.dataset, l.summaryId, l.factIndex, l.source, 'key_fact_index');
    if (!target) return;
    const conveyedBy = refsOf(target.summaryKey, l.conveyedBy, l.source);
    const id = repo.itemLabels.recordKeyFactLabel({
      keyFactId: target.keyFactId,
      summaryKey: target.summaryKey,
      annotatorId: annotatorId(l.annotator),
      label: l.label,
      conveyedBy,
      note: l.note,
      timeSpentMs: null,
      cause: 'import',
      importKey: key('key_fact_label', i, target.keyFactId, target.summaryKey, l.annotator, l.label ?? ''),
      importId,
    });
    if (id !== null) result.labels += 1;
  });
  data.sentenceKeyFactLabels.forEach((l, i) => {
    const summaryKey = summaryKeyOf(l.dataset, l.summaryId, l.source);
    if (summaryKey === null) return;
    const set = factSetOf(summaryKey);
    const unit = unitOf(summaryKey, l.sentenceIndex, l.source, 'sentence_index');
    if (set === null || unit === null) return;
    if (
      repo.itemLabels.recordSentenceKeyFact({
        unitId: unit,
        keyFactSetId: set.setId,
        annotatorId: annotatorId(l.annotator),
        conveys: l.conveys,
        cause: 'import',
        importKey: key('sentence_keyfact', i, unit, set.setId, l.annotator, String(l.conveys)),
        importId,
      })
    )
      result.labels += 1;
  });

  // 3. Judge outputs (imported judges).
  data.claimPredictions.forEach((p) => {
    const target = claimIdOf(p.dataset, p.summaryId, p.claimIndex, p.source, 'claim_index');
    if (!target) return;
    if (
      repo.itemLabels.saveClaimPrediction({
        claimId: target.claimId,
        judgeId: judgeId(p.judge),
        configHash: IMPORTED_CONFIG_HASH,
        supported: p.supported,
        errorType: p.errorType,
        sourceErrorType: p.sourceErrorType,
        raw: p.raw,
        source: 'import',
        importId,
      })
    )
      result.predictions += 1;
  });
  data.keyFactPredictions.forEach((p) => {
    const target = factIdOf(p.dataset, p.summaryId, p.factIndex, p.source, 'key_fact_index');
    if (!target) return;
    const conveyedBy = refsOf(target.summaryKey, p.conveyedBy, p.source);
    if (
      repo.itemLabels.saveKeyFactPrediction({
        keyFactId: target.keyFactId,
        summaryKey: target.summaryKey,
        judgeId: judgeId(p.judge),
        configHash: IMPORTED_CONFIG_HASH,
        covered: p.covered,
        conveyedBy,
        raw: p.raw,
        source: 'import',
        importId,
      })
    )
      result.predictions += 1;
  });
  data.sentenceKeyFactPredictions.forEach((p) => {
    const summaryKey = summaryKeyOf(p.dataset, p.summaryId, p.source);
    if (summaryKey === null) return;
    const set = factSetOf(summaryKey);
    const unit = unitOf(summaryKey, p.sentenceIndex, p.source, 'sentence_index');
    if (set === null || unit === null) return;
    if (
      repo.itemLabels.saveSentenceKeyFactPrediction({
        unitId: unit,
        keyFactSetId: set.setId,
        judgeId: judgeId(p.judge),
        configHash: IMPORTED_CONFIG_HASH,
        conveys: p.conveys,
        source: 'import',
        importId,
      })
    )
      result.predictions += 1;
  });

  // 4. System outputs: the file's system field is the system (imported).
  for (const o of data.systemOutputs) {
    const documentKey = documentKeyOf(o.dataset, o.docId, o.source);
    if (documentKey === null) continue;
    const summaryKey = o.summaryId === null ? null : summaryKeyOf(o.dataset, o.summaryId, o.source);
    if (o.summaryId !== null && summaryKey === null) continue;
    const existing = repo.systems.systemByName(o.system);
    const systemId = existing?.id ?? repo.systems.ensureSystem(o.system, 'imported', null, IMPORTED_CONFIG_HASH);
    if (
      repo.systems.recordSystemOutput({
        systemId,
        documentKey,
        configHash: existing?.configHash ?? IMPORTED_CONFIG_HASH,
        summaryKey,
        failure: o.failure,
        failureMessage: o.failureMessage,
      })
    )
      result.systemOutputs += 1;
  }

  if (problems.length > 0) throw new ImportValidationError(problems.slice(0, 200));
  return result;
}
