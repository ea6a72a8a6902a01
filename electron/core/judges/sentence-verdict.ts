/**
 * Sentence verdicts, the first task kind: (document, summary sentence) → {"faithful": 0|1}, with
 * a soft label read from the log-probabilities at the value position when the judge asks for
 * them. Stored in `judge_predictions` (db/judgeRepository.ts), one row per unit and judge version.
 *
 * Cache compatibility: the content key is the one judges have always used,
 * sha256(JSON ["loupe-judge-cache-1", version hash, sha256(document), sentence]); the engine's
 * generic key is that formula with this kind's tag, so keys stored by earlier Loupe versions are
 * found as they are (no migration of stored keys).
 */
import { analyseDocument, baselineVerdict, type DocumentAnalysis } from '../../../shared/judges/baseline';
import type { BaselineConfig, JudgeConfig } from '../../../shared/judges/config';
import { parseVerdict } from '../../../shared/judges/parse';
import { buildRequestBody } from '../../../shared/judges/request';
import { softLabel } from '../../../shared/judges/soft';
import type { JudgeRepository, PredictionResult, SelectedUnit } from '../../../db/judgeRepository';
import { sha256Hex } from '../tasks/hashing';
import type { StoredAnswer, TaskBackend, TaskKind, TaskResult, TaskSource } from '../tasks/kind';
import { VERDICT_CACHE_TAG, configHash } from './hashing';

export interface VerdictItem {
  unitId: number;
  documentId: number;
  sentence: string;
}

export interface VerdictInput {
  document: string;
  /** sha256 of the document, computed once per document and run. */
  documentHash: string;
  sentence: string;
}

export interface Verdict {
  hard: 0 | 1;
  soft: number | null;
}

export const NO_LOGPROBS_NOTE = 'The endpoint returned no log-probabilities: hard labels only.';

export const sentenceVerdictKind: TaskKind<JudgeConfig, VerdictInput, Verdict> = {
  name: 'sentence-verdict',
  version: 1,
  cacheTag: VERDICT_CACHE_TAG,
  itemNoun: 'sentence',
  answererNoun: 'judge',
  parseErrors: 'final',
  configHash,
  buildRequest(config, input) {
    if (config.kind !== 'endpoint') throw new Error('The baseline rule sends no request.');
    return buildRequestBody(config, input.document, input.sentence);
  },
  keyMaterial: (input) => [input.documentHash, input.sentence],
  interpret(completion, config, context) {
    const verdict = parseVerdict(completion.content);
    if (!verdict.ok) return { ok: false, error: verdict.error };
    let soft: number | null = null;
    if (config.kind === 'endpoint' && config.soft) {
      if (!completion.logprobs || completion.logprobs.length === 0) {
        context.noteOnce(NO_LOGPROBS_NOTE);
      } else {
        const s = softLabel(completion.content ?? '', completion.logprobs, verdict.valueOffset);
        if (s.ok) soft = s.soft;
        else context.tally(s.error);
      }
    }
    return { ok: true, output: { hard: verdict.hard, soft } };
  },
  tallyNote: (problem, n) => `No soft label for ${n} sentence(s): ${problem}.`,
};

/** The offline baseline: local and deterministic; documents are analysed once per run. */
export function baselineBackend(config: BaselineConfig): TaskBackend<VerdictInput, Verdict> {
  const analyses = new Map<string, DocumentAnalysis>();
  return {
    remote: false,
    async call(input) {
      let analysis = analyses.get(input.documentHash);
      if (!analysis) {
        if (analyses.size >= 32) analyses.delete(analyses.keys().next().value!);
        analyses.set(input.documentHash, (analysis = analyseDocument(input.document, config.passageSentences)));
      }
      const v = baselineVerdict(analysis, input.sentence, config);
      return { type: 'output', output: { hard: v.hard, soft: v.soft }, raw: v.rationale };
    },
  };
}

export interface VerdictSelection {
  versionId: number;
  dataset: string | null;
  onlySampled: boolean;
}

const DOCUMENTS_KEPT = 64;

/** The judge's source: units of the selection in, `judge_predictions` rows of one version out. */
export function verdictSource(
  judges: JudgeRepository,
  selection: VerdictSelection,
): TaskSource<VerdictItem, VerdictInput, Verdict> {
  const documents = new Map<number, { text: string; hash: string }>();
  const toRow = (r: TaskResult<VerdictItem, Verdict>): PredictionResult => ({
    unitId: r.item.unitId,
    versionId: selection.versionId,
    hard: r.output?.hard ?? null,
    soft: r.output?.soft ?? null,
    raw: r.raw,
    parseError: r.parseError,
    errorKind: r.errorKind,
    errorMessage: r.errorMessage,
    tokensIn: r.tokensIn,
    tokensOut: r.tokensOut,
    latencyMs: r.latencyMs,
    cacheKey: r.cacheKey,
    source: r.source,
  });
  return {
    itemKey: (item) => `unit:${item.unitId}`,
    plan() {
      const units: SelectedUnit[] = judges.selectUnits(selection.dataset, selection.onlySampled);
      const completed = judges.completedUnitIds(selection.versionId);
      const work: VerdictItem[] = [];
      let done = 0;
      let missing = 0;
      for (const u of units) {
        if (!u.hasDocument) missing += 1;
        else if (completed.has(u.unitId)) done += 1;
        else work.push({ unitId: u.unitId, documentId: u.documentId, sentence: u.sentence });
      }
      return { work, done, missing };
    },
    resolve(item) {
      let doc = documents.get(item.documentId);
      if (!doc) {
        const text = judges.documentText(item.documentId);
        if (text === null) return null;
        if (documents.size >= DOCUMENTS_KEPT) documents.delete(documents.keys().next().value!);
        documents.set(item.documentId, (doc = { text, hash: sha256Hex(text) }));
      }
      return { document: doc.text, documentHash: doc.hash, sentence: item.sentence };
    },
    cached(cacheKey): StoredAnswer<Verdict> | null {
      const row = judges.cachedAnswer(cacheKey);
      if (!row) return null;
      return {
        output: row.hard === null ? null : { hard: row.hard, soft: row.soft },
        raw: row.raw,
        parseError: row.parseError,
        tokensIn: row.tokensIn,
        tokensOut: row.tokensOut,
      };
    },
    save(results) {
      judges.savePredictions(results.map(toRow));
    },
    missingNote: (n) => `${n} sentence(s) left out: their document is missing (attach it, then run again).`,
  };
}
