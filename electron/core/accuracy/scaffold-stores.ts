/**
 * Where the Semantic Scaffold tasks (scaffold-kinds.ts) get their items and write their outputs.
 * Like the other accuracy tasks, raw answers stay in `task_results` (cache, resume, failed calls
 * sent again) and, in the same transaction, their meaning is written:
 *
 * - scaffold_extraction: per document, a scaffold version of source model (extractor
 *   `task:scaffold_extraction@<config hash>`, extractor version the kind's version, judge and model
 *   in its note). A model never replaces a person's or an imported scaffold (those documents are
 *   named in the notes); an earlier model's is superseded by a new version.
 * - scaffold_alignment: per (summary, current scaffold version), one judge alignment event per item
 *   (judge id, the run's config hash, 0-based sentence indexes for Fact Focus).
 * - direct_score: per (summary, judge), only `task_results` (item `summary:<key>:judge:<id>`); the
 *   analysis reads it there (ScaffoldRepository.directScores).
 *
 * All three run at App. G's temperature 0.1, whatever the judge's own decoding says.
 */
import type { Repository } from '../../../db/repository';
import type { ModelConfig } from '../tasks/model-config';
import {
  directScoreKind,
  SCAFFOLD_TEMPERATURE,
  scaffoldAlignmentKind,
  scaffoldExtractionKind,
  scaffoldOfAnswer,
  type ScaffoldAlignmentInput,
  type ScaffoldAlignmentOutput,
  type ScaffoldExtractionOutput,
} from './scaffold-kinds';
import { documentTexts, makerOf, noteOf, plural, setupOf, type Answerer, type Selection } from './stores';
import type { ScaffoldContent } from '../../../shared/scaffold/domain';
import type { DirectScoreOutput } from '../../../shared/scaffold/direct-score';

type Judge = Extract<Answerer, { type: 'judge' }>;

/** App. G: every scaffold prompt at temperature 0.1. */
const atScaffoldTemperature = (config: ModelConfig): ModelConfig => ({ ...config, temperature: SCAFFOLD_TEMPERATURE });

// --- extraction -----------------------------------------------------------------------------------

export function scaffoldExtraction(repo: Repository, judge: Judge, sel: Selection) {
  const sc = repo.scaffold;
  const kind = scaffoldExtractionKind;
  const config = atScaffoldTemperature(judge.config);
  const hash = kind.configHash(config);
  const maker = makerOf(kind.name, hash);
  const text = documentTexts(repo.corpus);
  type Item = { documentKey: number; docId: string };
  const items: Item[] = [];
  const seen = new Set<number>();
  let kept = 0;
  let missing = 0;
  /** write: no scaffold or another model's; done: this configuration's already; kept: a person's or imported. */
  const state = (documentKey: number): 'write' | 'done' | 'kept' => {
    const current = sc.currentScaffold(documentKey);
    if (current === null) return 'write';
    if (current.extractor === maker && current.source === 'model') return 'done';
    return current.source === 'model' ? 'write' : 'kept';
  };
  for (const s of repo.corpus.selectSummaries(sel.dataset, sel.onlySampled)) {
    if (seen.has(s.documentKey)) continue;
    seen.add(s.documentKey);
    if (!s.hasDocument) missing += 1;
    else if (state(s.documentKey) === 'kept') kept += 1;
    else items.push({ documentKey: s.documentKey, docId: s.docId });
  }
  const write = (documentKey: number, output: ScaffoldExtractionOutput) => {
    if (state(documentKey) !== 'write') return;
    const { content, droppedOther } = scaffoldOfAnswer(output);
    sc.insertScaffold(documentKey, {
      source: 'model',
      extractor: maker,
      extractorVersion: String(kind.version),
      basedOnId: sc.currentScaffold(documentKey)?.id ?? null,
      createdBy: null,
      note: `scaffold by ${noteOf({ ...judge, config })}, prompt ${kind.name} v${kind.version}${droppedOther > 0 ? `; ${plural(droppedOther, 'item')} typed "other" left out` : ''}`,
      importKey: null,
      importId: null,
      content,
    });
  };
  const itemKey = (i: Item) => `document:${i.documentKey}`;
  const notes: string[] = [];
  if (missing > 0) notes.push(`${plural(missing, 'document')} left out: the text is missing.`);
  if (kept > 0) notes.push(`${plural(kept, 'document')} keep their current scaffold (made by a person or imported); a model does not replace it.`);
  return setupOf(repo, kind, config, {
    kind,
    ref: kind.ref,
    configHash: hash,
    items,
    itemKey,
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

// --- alignment ------------------------------------------------------------------------------------

export function scaffoldAlignment(repo: Repository, judge: Judge, sel: Selection) {
  const sc = repo.scaffold;
  const kind = scaffoldAlignmentKind;
  const config = atScaffoldTemperature(judge.config);
  const hash = kind.configHash(config);
  type Item = { summaryKey: number; scaffoldId: number; scaffold: ScaffoldContent; itemIds: Map<string, number>; lines: string[] };
  const items: Item[] = [];
  let noScaffold = 0;
  let noSentences = 0;
  const contents = new Map<number, { content: ScaffoldContent; itemIds: Map<string, number> }>();
  for (const s of repo.corpus.selectSummaries(sel.dataset, sel.onlySampled)) {
    const current = sc.currentScaffold(s.documentKey);
    if (current === null) {
      noScaffold += 1;
      continue;
    }
    const lines = repo.corpus.sentences(s.key).map((u) => u.text);
    if (lines.length === 0) {
      noSentences += 1;
      continue;
    }
    let c = contents.get(current.id);
    if (!c) {
      c = { content: sc.content(current.id), itemIds: new Map(sc.items(current.id).map((i) => [`${i.kind}:${i.key}`, i.id])) };
      contents.set(current.id, c);
    }
    items.push({ summaryKey: s.key, scaffoldId: current.id, scaffold: c.content, itemIds: c.itemIds, lines });
  }
  const itemKey = (i: Item) => `summary:${i.summaryKey}:scaffold:${i.scaffoldId}`;
  const write = (item: Item, output: ScaffoldAlignmentOutput) => {
    if (sc.judgeAlignmentWritten(item.summaryKey, item.scaffoldId, judge.judgeId, hash)) return;
    const record = (kindKey: string, value: ScaffoldAlignmentOutput['facts'][number]['value'] | 'answered' | 'unanswered', sentenceIds: number[]) =>
      sc.recordAlignment({
        itemId: item.itemIds.get(kindKey)!,
        summaryKey: item.summaryKey,
        annotatorId: null,
        judgeId: judge.judgeId,
        configHash: hash,
        value,
        sentences: [...new Set(sentenceIds)].map((n) => n - 1),
        timeSpentMs: null,
        cause: 'run',
        importKey: null,
        importId: null,
      });
    for (const f of output.facts) record(`fact:${f.fact_id}`, f.value, f.value === 'preserved' || f.value === 'partial' ? f.sentence_ids : []);
    for (const q of output.questions) record(`question:${q.question_id}`, q.answered ? 'answered' : 'unanswered', []);
    for (const a of output.attributes) record(`attribute:${a.attribute_id}`, a.value, []);
  };
  const notes: string[] = [];
  if (noScaffold > 0) notes.push(`${plural(noScaffold, 'summary')} left out: the document has no scaffold yet (run scaffold_extraction or import one).`);
  if (noSentences > 0) notes.push(`${plural(noSentences, 'summary')} left out: no sentences.`);
  return setupOf<ModelConfig, Item, ScaffoldAlignmentInput, ScaffoldAlignmentOutput>(repo, kind, config, {
    kind,
    ref: kind.ref,
    configHash: hash,
    items,
    itemKey,
    resolve: (i) => ({ lines: i.lines, scaffold: i.scaffold }),
    label: (i) => `summary ${i.summaryKey} (scaffold ${i.scaffoldId}, ${plural(i.lines.length, 'sentence')})`,
    writeAnswer: (i, output) => write(i, output),
    missing: noScaffold + noSentences,
    notes,
  });
}

// --- direct score ---------------------------------------------------------------------------------

export function directScore(repo: Repository, judge: Judge, sel: Selection) {
  const kind = directScoreKind;
  const config = atScaffoldTemperature(judge.config);
  const hash = kind.configHash(config);
  const text = documentTexts(repo.corpus);
  type Item = { summaryKey: number; documentKey: number; summaryId: string };
  const items: Item[] = [];
  let missing = 0;
  for (const s of repo.corpus.selectSummaries(sel.dataset, sel.onlySampled)) {
    if (!s.hasDocument) missing += 1;
    else items.push({ summaryKey: s.key, documentKey: s.documentKey, summaryId: s.summaryId });
  }
  return setupOf<ModelConfig, Item, { document: string; summary: string }, DirectScoreOutput>(repo, kind, config, {
    kind,
    ref: kind.ref,
    configHash: hash,
    items,
    // The judge in the key: the analysis reads whose score it is from here.
    itemKey: (i) => `summary:${i.summaryKey}:judge:${judge.judgeId}`,
    resolve: (i) => {
      const t = text(i.documentKey);
      const summary = repo.corpus.summaryInfo(i.summaryKey)?.text ?? '';
      return t === null || summary === '' ? null : { document: t, summary };
    },
    label: (i) => `summary ${i.summaryId}`,
    afterSave: () => undefined,
    missing,
    notes: missing > 0 ? [`${plural(missing, 'summary')} left out: the document is missing.`] : [],
  });
}
