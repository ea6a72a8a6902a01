/**
 * claim_decomposition: each summary sentence → atomic standalone claims (FActScore-style, App. D of the
 * Averaging Bias paper; the document is not in the prompt). The kind, and where its items come from and its
 * answers go: once every sentence of a summary is answered, a claim set of source model (maker
 * `task:claim_decomposition@<config hash>`, maker version the kind's version, the judge and model in
 * its note). A model never replaces claims a person made or a file brought (named in the notes).
 */
import { z } from 'zod';
import type { Repository } from '../../../db/repository';
import { defineJsonKind, STRICT_JSON } from '../tasks/json-kind';
import { makerOf, noteOf, plural, replaceable, setupOf, type Judge, type Selection } from '../tasks/setup';

export const CLAIM_DECOMPOSITION_TEMPLATE = `Please break down the following sentence into independent facts: short, standalone sentences that each state exactly one piece of information. Replace pronouns and vague references with the names they stand for, so that each fact can be read on its own. Do not add, infer or correct anything: list only what the sentence itself states. A sentence without factual content (e.g. "In summary,") has no facts.

SENTENCE:
<<<
{sentence}
>>>

${STRICT_JSON} {"claims": ["first fact", "second fact"]}`;

export const ClaimsOutputSchema = z.object({ claims: z.array(z.string().trim().min(1).max(2_000)).max(50) }).strict();
export type ClaimsOutput = z.infer<typeof ClaimsOutputSchema>;

export const claimDecompositionKind = defineJsonKind({
  name: 'claim_decomposition',
  version: 1,
  itemNoun: 'sentence',
  template: CLAIM_DECOMPOSITION_TEMPLATE,
  input: z.object({ sentence: z.string().min(1) }),
  output: ClaimsOutputSchema,
  fields: (input) => ({ sentence: input.sentence }),
});

export function claimDecompositionSetup(repo: Repository, who: Judge, sel: Selection) {
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
      basedOnId: repo.sets.currentClaimSet(summaryKey)?.id ?? null,
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
    notes:
      kept > 0
        ? [
            `${plural(kept, 'summary')} keep their current claims (made by a person or imported); a model does not replace them.`,
          ]
        : [],
  });
}
