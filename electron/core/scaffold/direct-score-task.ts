/**
 * direct_score: App. G.7's holistic baseline, the document and the summary → four 1–10 scores and a
 * rationale (the direct score is their mean, shared/scaffold/direct-score.ts), with the prompt as
 * printed (paper-prompts.ts's conventions) and App. G's settings. Only `task_results`
 * keeps the answers (item `summary:<key>:judge:<id>`); the analysis reads them there
 * (ScaffoldRepository.directScores).
 */
import { z } from 'zod';
import type { Repository } from '../../../db/repository';
import { DirectScoreOutputSchema, type DirectScoreOutput } from '../../../shared/scaffold/direct-score';
import { defineJsonKind } from '../tasks/json-kind';
import type { ModelConfig } from '../tasks/model-config';
import { documentTexts, plural, setupOf, type Judge, type Selection } from '../tasks/setup';
import { atScaffoldTemperature, JSON_OBJECT, SYSTEM_SCORE, withSystem } from './prompt-settings';

export const DIRECT_SCORE_TEMPLATE = `Evaluate the quality of the summary against the original document. Rate on four dimensions using a 1-10 scale where 10 is perfect.

Dimension definitions:
1. Faithfulness
10 = perfectly faithful; no distortions or omissions of information that is present
5 = mostly faithful; minor inaccuracies
1 = fabricates or contradicts the document
2. Completeness
10 = covers all key information needed for understanding
5 = covers some key points but misses important ones
1 = misses most key information
3. Understandability
10 = perfectly clear, logical, easy to follow
5 = somewhat clear; has clarity or organisation issues
1 = incomprehensible or severely disorganised
4. Hallucination (absence of hallucination)
10 = no hallucination; all claims supported by the source
5 = some claims not clearly supported; questionable
1 = severe fabrications; significant unsupported claims

Output JSON format:
{"faithfulness": N, "completeness": N, "understandability": N, "hallucination": N, "rationale": "1-2 sentence explanation of the scores"}
Original document:
{document}
Summary to evaluate:
{summary}`;

export const directScoreKind = defineJsonKind<{ document: string; summary: string }, DirectScoreOutput>({
  name: 'direct_score',
  version: 2,
  itemNoun: 'summary',
  template: DIRECT_SCORE_TEMPLATE,
  input: z.object({ document: z.string().min(1), summary: z.string().min(1) }),
  output: DirectScoreOutputSchema,
  fields: (input) => ({ document: input.document, summary: input.summary }),
  messages: withSystem(SYSTEM_SCORE),
  request: JSON_OBJECT,
});

export function directScoreSetup(repo: Repository, judge: Judge, sel: Selection) {
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
