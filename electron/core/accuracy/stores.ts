/**
 * Where each accuracy task's items come from and where its outputs go (schema 8). Every task keeps
 * its raw answers in `task_results` (the engine's generic task_results rows: the content cache, resume, failed
 * calls sent again) and, in the same transaction, writes what the outputs mean:
 *
 * - claim_decomposition: per sentence; once every sentence of a summary is answered, a claim set
 *   (source model, decomposer `task:claim_decomposition@<config hash>`, decomposer version the
 *   kind's version, the judge and model in its note);
 * - keyfact_extraction: per document, a key-fact set (source model, extractor likewise);
 * - claim_verdict: per claim of the current claim set, `claim_predictions` (judge, config hash);
 * - keyfact_alignment: per summary and key-fact set, `key_fact_predictions` (covered, which
 *   sentences or claims) and `sentence_keyfact_predictions` (a sentence conveys a key fact);
 * - keyfact_alignment_per_fact: per (summary, key fact), `key_fact_predictions` with its claims;
 * - summary_generation: per document, a summary (split by Loupe's splitter) and `system_outputs`,
 *   or the failure (error after retries, refusal, guardrail, empty): 0.0 for that document.
 *
 * A model never replaces a set people made or a file brought: summaries (documents) whose current
 * claim (key-fact) set is of source person or imported are left out of a decomposition
 * (extraction) and named in the notes.
 */
import type { CorpusRepository } from '../../../db/corpusRepository';
import type { ClaimRow } from '../../../db/setRepository';
import type { Repository } from '../../../db/repository';
import type { SystemConfig } from '../../../shared/contract/systems';
import { failureOfError } from '../../../shared/accuracy/refusal';
import { isLikelyFragment } from '../../../shared/domain';
import { SPLITTER, splitSentences } from '../../../shared/split/sentences';
import { jsonResultSource } from '../tasks/json-kind';
import type { JsonTaskKind } from '../tasks/json-kind';
import type { TaskKind, TaskResult, TaskSource } from '../tasks/kind';
import type { ModelConfig } from '../tasks/model-config';
import {
  claimDecompositionKind,
  claimVerdictKind,
  keyFactAlignmentClaimsKind,
  keyFactAlignmentKind,
  keyFactExtractionKind,
  keyFactPerFactKind,
  summaryGenerationKind,
  SummaryOutputSchema,
  type AlignmentInput,
  type AlignmentOutput,
  type ClaimsOutput,
  type ClaimVerdictOutput,
  type KeyFactsOutput,
  type PerFactInput,
  type PerFactOutput,
  type SummaryInput,
  type SummaryOutput,
} from './kinds';
import { directScore, scaffoldAlignment, scaffoldExtraction } from './scaffold-stores';

/** Who answers: a judge of judges.* (its endpoint and model), or a system under test. */
export type Answerer =
  | { type: 'judge'; name: string; judgeId: number; config: ModelConfig }
  | { type: 'system'; name: string; systemId: number; config: SystemConfig };

export interface Selection {
  dataset: string | null;
  onlySampled: boolean;
  lines: 'sentences' | 'claims';
}

/** One task over one selection, ready for the engine (a run, a plan, a preview). */
export interface TaskSetup<C, Item, I, O> {
  kind: TaskKind<C, I, O>;
  config: C;
  configHash: string;
  source: TaskSource<Item, I, O>;
  /** Why items were left out (no document, no claims or key facts yet, a person's set kept). */
  notes: string[];
  /** Items left out (counted in the plan and the run). */
  missing: number;
  /** Writes what stored outputs imply and is not written yet (a run killed between the two). Run at start. */
  repair(): void;
  /** The first item with its input, for a preview. */
  first(): { label: string; input: I } | null;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the setups differ in their type parameters; callers only pass them to the engine
export type AnySetup = TaskSetup<any, any, any, any>;

export interface ItemSpec<Item, I, O> {
  kind: TaskKind<never, I, O> | JsonTaskKind<I, O>;
  ref: { name: string; version: number; schema: { safeParse(v: unknown): { success: true; data: O } | { success: false; error: { message: string } } } };
  configHash: string;
  items: Item[];
  itemKey(item: Item): string;
  resolve(item: Item): I | null;
  label(item: Item): string;
  /** Writes the meaning of saved results (same transaction as task_results). */
  afterSave?(results: ReadonlyArray<TaskResult<Item, O>>): void;
  repair?(): void;
  /**
   * The common case instead of afterSave/repair: writes one answer's meaning. It runs for each
   * answer as it is saved, and on repair for each item's stored answer (a run killed between the two).
   */
  writeAnswer?(item: Item, output: O, raw: string | null): void;
  missing: number;
  notes: string[];
}

export function setupOf<C, Item, I, O>(repo: Repository, kind: TaskKind<C, I, O>, config: C, spec: ItemSpec<Item, I, O>): TaskSetup<C, Item, I, O> {
  const results = repo.tasks.forKind(spec.ref);
  const { writeAnswer } = spec;
  const afterSave = (batch: ReadonlyArray<TaskResult<Item, O>>) => {
    spec.afterSave?.(batch);
    if (writeAnswer) for (const r of batch) if (r.output !== null) writeAnswer(r.item, r.output, r.raw);
  };
  const repair = () => {
    spec.repair?.();
    if (!writeAnswer) return;
    repo.transaction(() => {
      for (const i of spec.items) {
        const r = results.result(spec.configHash, spec.itemKey(i));
        if (r && r.errorKind === null && r.output !== null) writeAnswer(i, r.output, r.raw);
      }
    });
  };
  const base = jsonResultSource<Item, I, O>(results, {
    configHash: spec.configHash,
    items: spec.items,
    itemKey: spec.itemKey,
    resolve: spec.resolve,
  });
  const source: TaskSource<Item, I, O> = {
    ...base,
    plan: () => ({ ...base.plan(), missing: spec.missing }),
    save(batch) {
      repo.transaction(() => {
        base.save(batch);
        afterSave(batch);
      });
    },
    // The engine counts `missing` from the plan; the setup's notes say what was left out and why.
    missingNote: () => '',
  };
  return {
    kind,
    config,
    configHash: spec.configHash,
    source,
    notes: spec.notes,
    missing: spec.missing,
    repair,
    first() {
      for (const item of spec.items) {
        const input = spec.resolve(item);
        if (input !== null) return { label: spec.label(item), input };
      }
      return null;
    },
  };
}

export const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** Document texts, read once per setup. */
export function documentTexts(corpus: CorpusRepository): (documentKey: number) => string | null {
  const texts = new Map<number, string | null>();
  return (key) => {
    if (!texts.has(key)) {
      if (texts.size >= 64) texts.delete(texts.keys().next().value!);
      texts.set(key, corpus.documentInfo(key)?.text ?? null);
    }
    return texts.get(key)!;
  };
}

export const makerOf = (task: string, hash: string) => `task:${task}@${hash}`;
export const noteOf = (who: Answerer) => `${who.type} "${who.name}" (model ${who.config.model})`;

/** Whether a model may write a new set over the current one (none, or another model's). */
function replaceable(current: { source: string; maker: string } | null, maker: string): 'write' | 'done' | 'kept' {
  if (current === null) return 'write';
  if (current.maker === maker) return 'done';
  return current.source === 'model' ? 'write' : 'kept';
}

// --- claim decomposition ------------------------------------------------------------------------

function claimDecomposition(repo: Repository, who: Extract<Answerer, { type: 'judge' }>, sel: Selection) {
  const kind = claimDecompositionKind;
  const hash = kind.configHash(who.config);
  const maker = makerOf(kind.name, hash);
  const results = repo.tasks.forKind(kind.ref);
  type Item = { unitId: number; summaryKey: number; text: string };
  const items: Item[] = [];
  const sentencesOf = new Map<number, Array<{ unitId: number }>>();
  let kept = 0;
  for (const s of repo.corpus.selectSummaries(sel.dataset, sel.onlySampled)) {
    const state = replaceable(repo.sets.currentClaimSet(s.key), maker);
    if (state === 'kept') {
      kept += 1;
      continue;
    }
    const sentences = repo.corpus.sentences(s.key);
    sentencesOf.set(s.key, sentences);
    for (const u of sentences) items.push({ unitId: u.unitId, summaryKey: s.key, text: u.text });
  }
  const itemKey = (unitId: number) => `unit:${unitId}`;
  /** Writes the summary's claim set once all its sentences have claims under this configuration. */
  const complete = (summaryKey: number) => {
    if (replaceable(repo.sets.currentClaimSet(summaryKey), maker) !== 'write') return;
    const sentences = sentencesOf.get(summaryKey) ?? repo.corpus.sentences(summaryKey);
    const claims: Array<{ sentenceUnitId: number; text: string; from: number[] }> = [];
    for (const u of sentences) {
      const r = results.result(hash, itemKey(u.unitId));
      if (!r || r.errorKind !== null || r.output === null) return;
      for (const text of (r.output as ClaimsOutput).claims) claims.push({ sentenceUnitId: u.unitId, text, from: [] });
    }
    repo.sets.insertClaimSet(summaryKey, {
      source: 'model',
      maker,
      makerVersion: String(kind.version),
      basedOnSetId: repo.sets.currentClaimSet(summaryKey)?.id ?? null,
      createdBy: null,
      note: `claims by ${noteOf(who)}`,
      importKey: null,
      importId: null,
      items: claims,
    });
  };
  return setupOf(repo, kind, who.config, {
    kind,
    ref: kind.ref,
    configHash: hash,
    items,
    itemKey: (i) => itemKey(i.unitId),
    resolve: (i) => ({ sentence: i.text }),
    label: (i) => `summary ${i.summaryKey}, sentence unit ${i.unitId}`,
    afterSave(batch) {
      for (const key of new Set(batch.filter((r) => r.output !== null).map((r) => r.item.summaryKey))) complete(key);
    },
    repair() {
      repo.transaction(() => {
        for (const key of sentencesOf.keys()) complete(key);
      });
    },
    missing: 0,
    notes: kept > 0 ? [`${plural(kept, 'summary')} keep their current claims (made by a person or imported); a model does not replace them.`] : [],
  });
}

// --- key-fact extraction ------------------------------------------------------------------------

function keyFactExtraction(repo: Repository, who: Extract<Answerer, { type: 'judge' }>, sel: Selection) {
  const kind = keyFactExtractionKind;
  const hash = kind.configHash(who.config);
  const maker = makerOf(kind.name, hash);
  const text = documentTexts(repo.corpus);
  type Item = { documentKey: number; docId: string };
  const items: Item[] = [];
  const seen = new Set<number>();
  let kept = 0;
  let missing = 0;
  for (const s of repo.corpus.selectSummaries(sel.dataset, sel.onlySampled)) {
    if (seen.has(s.documentKey)) continue;
    seen.add(s.documentKey);
    if (!s.hasDocument) {
      missing += 1;
      continue;
    }
    if (replaceable(repo.sets.currentKeyFactSet(s.documentKey), maker) === 'kept') kept += 1;
    else items.push({ documentKey: s.documentKey, docId: s.docId });
  }
  const write = (documentKey: number, output: KeyFactsOutput) => {
    if (replaceable(repo.sets.currentKeyFactSet(documentKey), maker) !== 'write') return;
    repo.sets.insertKeyFactSet(documentKey, {
      source: 'model',
      maker,
      makerVersion: String(kind.version),
      basedOnSetId: repo.sets.currentKeyFactSet(documentKey)?.id ?? null,
      createdBy: null,
      note: `key facts by ${noteOf(who)}`,
      importKey: null,
      importId: null,
      items: output.key_facts.map((t) => ({ text: t, from: [] })),
    });
  };
  const notes: string[] = [];
  if (missing > 0) notes.push(`${plural(missing, 'document')} left out: the text is missing.`);
  if (kept > 0) notes.push(`${plural(kept, 'document')} keep their current key facts (made by a person or imported); a model does not replace them.`);
  return setupOf(repo, kind, who.config, {
    kind,
    ref: kind.ref,
    configHash: hash,
    items,
    itemKey: (i) => `document:${i.documentKey}`,
    resolve: (i) => {
      const t = text(i.documentKey);
      return t === null ? null : { document: t };
    },
    label: (i) => `document ${i.docId}`,
    writeAnswer: (i, output) => write(i.documentKey, output),
    missing,
    notes,
  });
}

// --- claim verdicts -----------------------------------------------------------------------------

function claimVerdicts(repo: Repository, who: Extract<Answerer, { type: 'judge' }>, sel: Selection) {
  const kind = claimVerdictKind;
  const hash = kind.configHash(who.config);
  const text = documentTexts(repo.corpus);
  type Item = { claim: ClaimRow; documentKey: number; summaryKey: number };
  const items: Item[] = [];
  let noClaims = 0;
  let noDocument = 0;
  for (const s of repo.corpus.selectSummaries(sel.dataset, sel.onlySampled)) {
    const set = repo.sets.currentClaimSet(s.key);
    const claims = set ? repo.sets.claimsOfSet(set.id) : [];
    if (claims.length === 0) noClaims += 1;
    else if (!s.hasDocument) noDocument += claims.length;
    else for (const c of claims) items.push({ claim: c, documentKey: s.documentKey, summaryKey: s.key });
  }
  const write = (r: { item: Item; output: ClaimVerdictOutput; raw: string | null }) =>
    repo.itemLabels.saveClaimPrediction({ claimId: r.item.claim.id, judgeId: who.judgeId, configHash: hash, supported: r.output.supported, errorType: r.output.error_type, sourceErrorType: null, raw: r.raw, source: 'run', importId: null });
  const notes: string[] = [];
  if (noClaims > 0) notes.push(`${plural(noClaims, 'summary')} without claims yet (run claim_decomposition or import claims).`);
  if (noDocument > 0) notes.push(`${plural(noDocument, 'claim')} left out: the document is missing.`);
  return setupOf(repo, kind, who.config, {
    kind,
    ref: kind.ref,
    configHash: hash,
    items,
    itemKey: (i) => `claim:${i.claim.id}`,
    resolve: (i) => {
      const t = text(i.documentKey);
      return t === null ? null : { document: t, claim: i.claim.text };
    },
    label: (i) => `summary ${i.summaryKey}, claim ${i.claim.id} (sentence ${i.claim.sentenceIndex})`,
    writeAnswer: (item, output, raw) => write({ item, output, raw }),
    missing: noClaims + noDocument,
    notes,
  });
}

// --- key-fact alignment (FineSurE) --------------------------------------------------------------

function keyFactAlignment(repo: Repository, who: Extract<Answerer, { type: 'judge' }>, sel: Selection) {
  const onClaims = sel.lines === 'claims';
  const kind = onClaims ? keyFactAlignmentClaimsKind : keyFactAlignmentKind;
  const hash = kind.configHash(who.config);
  type Line = { unitId: number; claimId: number | null; text: string };
  type Item = { summaryKey: number; factSetId: number; factIds: number[]; facts: string[]; claimSetId: number | null; lines: Line[]; sentenceUnits: number[] };
  const items: Item[] = [];
  let noFacts = 0;
  let noClaims = 0;
  for (const s of repo.corpus.selectSummaries(sel.dataset, sel.onlySampled)) {
    const factSet = repo.sets.currentKeyFactSet(s.documentKey);
    const facts = factSet ? repo.sets.keyFactsOfSet(factSet.id) : [];
    if (facts.length === 0) {
      noFacts += 1;
      continue;
    }
    const sentences = repo.corpus.sentences(s.key);
    let lines: Line[];
    let claimSetId: number | null = null;
    if (onClaims) {
      const set = repo.sets.currentClaimSet(s.key);
      const claims = set ? repo.sets.claimsOfSet(set.id) : [];
      if (claims.length === 0) {
        noClaims += 1;
        continue;
      }
      claimSetId = set!.id;
      lines = claims.map((c) => ({ unitId: c.sentenceUnitId, claimId: c.id, text: c.text }));
    } else {
      lines = sentences.map((u) => ({ unitId: u.unitId, claimId: null, text: u.text }));
    }
    if (lines.length === 0) continue;
    items.push({ summaryKey: s.key, factSetId: factSet!.id, factIds: facts.map((f) => f.id), facts: facts.map((f) => f.text), claimSetId, lines, sentenceUnits: sentences.map((u) => u.unitId) });
  }
  const itemKey = (i: Item) => `summary:${i.summaryKey}:kfs:${i.factSetId}${i.claimSetId !== null ? `:cs:${i.claimSetId}` : ''}`;
  const write = (item: Item, output: AlignmentOutput, raw: string | null) => {
    const conveying = new Set<number>();
    output.forEach((entry, f) => {
      const covered = entry.response === 'yes';
      const lines = covered ? [...new Set(entry['line number'])].map((n) => item.lines[n - 1]!) : [];
      for (const l of lines) conveying.add(l.unitId);
      repo.itemLabels.saveKeyFactPrediction({
        keyFactId: item.factIds[f]!,
        summaryKey: item.summaryKey,
        judgeId: who.judgeId,
        configHash: hash,
        covered,
        conveyedBy: onClaims ? { claims: lines.map((l) => l.claimId!), sentences: [] } : { claims: [], sentences: lines.map((l) => l.unitId) },
        raw,
        source: 'run',
        importId: null,
      });
    });
    // FineSurE's sentence labels: a sentence conveys a key fact when a covered fact names it (or one of its claims).
    for (const unitId of item.sentenceUnits) {
      repo.itemLabels.saveSentenceKeyFactPrediction({ unitId, keyFactSetId: item.factSetId, judgeId: who.judgeId, configHash: hash, conveys: conveying.has(unitId), source: 'run', importId: null });
    }
  };
  const notes: string[] = [];
  if (noFacts > 0) notes.push(`${plural(noFacts, 'summary')} left out: no key facts for the document yet (run keyfact_extraction or import them).`);
  if (noClaims > 0) notes.push(`${plural(noClaims, 'summary')} left out: no claims yet (run claim_decomposition or import them).`);
  return setupOf<ModelConfig, Item, AlignmentInput, AlignmentOutput>(repo, kind, who.config, {
    kind,
    ref: kind.ref,
    configHash: hash,
    items,
    itemKey,
    resolve: (i) => ({ lines: i.lines.map((l) => l.text), facts: i.facts }),
    label: (i) => `summary ${i.summaryKey} (${plural(i.facts.length, 'key fact')}, ${plural(i.lines.length, onClaims ? 'claim' : 'sentence')})`,
    writeAnswer: write,
    missing: noFacts + noClaims,
    notes,
  });
}

function keyFactPerFact(repo: Repository, who: Extract<Answerer, { type: 'judge' }>, sel: Selection) {
  const kind = keyFactPerFactKind;
  const hash = kind.configHash(who.config);
  type Item = { summaryKey: number; factId: number; fact: string; claimSetId: number; claims: ClaimRow[] };
  const items: Item[] = [];
  let noFacts = 0;
  let noClaims = 0;
  for (const s of repo.corpus.selectSummaries(sel.dataset, sel.onlySampled)) {
    const factSet = repo.sets.currentKeyFactSet(s.documentKey);
    const facts = factSet ? repo.sets.keyFactsOfSet(factSet.id) : [];
    const set = repo.sets.currentClaimSet(s.key);
    const claims = set ? repo.sets.claimsOfSet(set.id) : [];
    if (facts.length === 0) noFacts += 1;
    else if (claims.length === 0) noClaims += 1;
    else for (const f of facts) items.push({ summaryKey: s.key, factId: f.id, fact: f.text, claimSetId: set!.id, claims });
  }
  const itemKey = (i: Item) => `summary:${i.summaryKey}:fact:${i.factId}:cs:${i.claimSetId}`;
  const write = (i: Item, output: PerFactOutput, raw: string | null) =>
    repo.itemLabels.saveKeyFactPrediction({
      keyFactId: i.factId,
      summaryKey: i.summaryKey,
      judgeId: who.judgeId,
      configHash: hash,
      covered: output.covered,
      conveyedBy: { claims: [...new Set(output.claims)].map((n) => i.claims[n - 1]!.id), sentences: [] },
      raw,
      source: 'run',
      importId: null,
    });
  const notes: string[] = [];
  if (noFacts > 0) notes.push(`${plural(noFacts, 'summary')} left out: no key facts for the document yet.`);
  if (noClaims > 0) notes.push(`${plural(noClaims, 'summary')} left out: no claims yet.`);
  return setupOf<ModelConfig, Item, PerFactInput, PerFactOutput>(repo, kind, who.config, {
    kind,
    ref: kind.ref,
    configHash: hash,
    items,
    itemKey,
    resolve: (i) => ({ claims: i.claims.map((c) => c.text), fact: i.fact }),
    label: (i) => `summary ${i.summaryKey}, key fact ${i.factId}`,
    writeAnswer: write,
    missing: noFacts + noClaims,
    notes,
  });
}

// --- summary generation -------------------------------------------------------------------------

function summaryGeneration(repo: Repository, who: Extract<Answerer, { type: 'system' }>, sel: Selection) {
  const kind = summaryGenerationKind;
  const ref = { name: kind.name, version: kind.version, schema: SummaryOutputSchema };
  const hash = kind.configHash(who.config);
  const text = documentTexts(repo.corpus);
  type Item = { documentKey: number; docId: string };
  const items: Item[] = [];
  let missing = 0;
  let kept = 0;
  for (const d of repo.corpus.selectDocuments(sel.dataset!)) {
    if (!d.hasText) missing += 1;
    else if (repo.systems.systemOutput(who.systemId, d.documentKey)?.summaryKey != null && repo.tasks.forKind(ref).result(hash, `document:${d.documentKey}`) === null) kept += 1;
    else items.push({ documentKey: d.documentKey, docId: d.docId });
  }
  const summaryIdFor = (item: Item) => {
    const base = `${who.name}:${item.docId}`;
    if (!repo.corpus.summaryIdTaken(item.documentKey, base)) return base;
    return `${base}:${hash.slice(0, 12)}`;
  };
  const write = (item: Item, output: SummaryOutput | null, errorKind: string | null, errorMessage: string | null) => {
    const existing = repo.systems.systemOutput(who.systemId, item.documentKey);
    if (existing?.summaryKey != null) return; // a stored summary is never replaced
    if (output !== null && 'summary' in output) {
      const spans = splitSentences(output.summary);
      const summaryId = summaryIdFor(item);
      if (repo.corpus.summaryIdTaken(item.documentKey, summaryId)) return;
      const summaryKey = repo.systems.insertGeneratedSummary({
        documentKey: item.documentKey,
        summaryId,
        text: output.summary,
        meta: { system: who.name, model: who.config.model, config_hash: hash },
        units: spans.map((sp, idx) => ({ idx, text: sp.text, start: sp.start, end: sp.end, fragment: isLikelyFragment(sp.text) })),
        splitter: SPLITTER,
      });
      repo.systems.recordSystemOutput({ systemId: who.systemId, documentKey: item.documentKey, configHash: hash, summaryKey, failure: null, failureMessage: null });
      return;
    }
    if (output !== null && 'failure' in output) {
      repo.systems.recordSystemOutput({ systemId: who.systemId, documentKey: item.documentKey, configHash: hash, summaryKey: null, failure: output.failure, failureMessage: output.text.slice(0, 2_000) });
      return;
    }
    const message = errorMessage ?? errorKind ?? 'the call failed';
    repo.systems.recordSystemOutput({ systemId: who.systemId, documentKey: item.documentKey, configHash: hash, summaryKey: null, failure: failureOfError(message), failureMessage: message.slice(0, 2_000) });
  };
  const results = repo.tasks.forKind(ref);
  const notes: string[] = [];
  if (missing > 0) notes.push(`${plural(missing, 'document')} left out: the text is missing.`);
  if (kept > 0) notes.push(`${plural(kept, 'document')} keep the summary the system wrote under an earlier configuration (remove the system, or add it under another name, to compare configurations).`);
  return setupOf<SystemConfig, Item, SummaryInput, SummaryOutput>(repo, kind, who.config, {
    kind: kind as unknown as TaskKind<never, SummaryInput, SummaryOutput>,
    ref,
    configHash: hash,
    items,
    itemKey: (i) => `document:${i.documentKey}`,
    resolve: (i) => {
      const t = text(i.documentKey);
      return t === null ? null : { document: t };
    },
    label: (i) => `document ${i.docId}`,
    afterSave(batch) {
      for (const r of batch) write(r.item, r.output, r.errorKind ?? (r.output === null ? 'parse_error' : null), r.errorMessage ?? r.parseError);
    },
    repair() {
      repo.transaction(() => {
        for (const i of items) {
          const r = results.result(hash, `document:${i.documentKey}`);
          if (r) write(i, r.errorKind === null ? r.output : null, r.errorKind, r.errorMessage);
        }
      });
    },
    missing,
    notes,
  });
}

/** The setup of one task for one answerer over a selection. */
export function taskSetup(repo: Repository, task: string, who: Answerer, sel: Selection): AnySetup {
  if (task === 'summary_generation') {
    if (who.type !== 'system') throw new Error('summary_generation runs a system');
    return summaryGeneration(repo, who, sel);
  }
  if (who.type !== 'judge') throw new Error(`${task} runs with a judge`);
  switch (task) {
    case 'claim_decomposition':
      return claimDecomposition(repo, who, sel);
    case 'keyfact_extraction':
      return keyFactExtraction(repo, who, sel);
    case 'claim_verdict':
      return claimVerdicts(repo, who, sel);
    case 'keyfact_alignment':
      return keyFactAlignment(repo, who, sel);
    case 'keyfact_alignment_per_fact':
      return keyFactPerFact(repo, who, sel);
    case 'scaffold_extraction':
      return scaffoldExtraction(repo, who, sel);
    case 'scaffold_alignment':
      return scaffoldAlignment(repo, who, sel);
    case 'direct_score':
      return directScore(repo, who, sel);
    default:
      throw new Error(`unknown task ${task}`);
  }
}
