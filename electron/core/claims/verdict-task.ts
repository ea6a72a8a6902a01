/**
 * claim_verdict: the document + one claim of the summary's current claim set → supported, or
 * unsupported with an error type (the card's per-claim prompt). Answers are stored as
 * `claim_predictions` of the judge and configuration.
 */
import { z } from 'zod';
import type { Repository } from '../../../db/repository';
import type { ClaimRow } from '../../../db/setRepository';
import { CLAIM_ERROR_TYPES, ClaimErrorTypeSchema } from '../../../shared/accuracy/domain';
import { defineJsonKind, STRICT_JSON } from '../tasks/json-kind';
import { documentTexts, plural, setupOf, type Judge, type Selection } from '../tasks/setup';

export const CLAIM_VERDICT_TEMPLATE = `You are a strict fact checker for text summarization.

You are given: (1) a source document, and (2) one claim taken from a summary of that document.

Decide whether the document supports the claim. A claim is supported only if the document states it or trivially entails it. Stylistic paraphrasing is acceptable; only factual content matters. If the claim is not supported, name its error type:
- "entity": a wrong person, place, organisation or object
- "relation": the entities are right but the relation or action between them is wrong
- "number_or_date": a wrong number, amount, date or time
- "not_in_source": information that the document does not contain
- "other": any other unsupported content

SOURCE DOCUMENT:
<<<
{document}
>>>

CLAIM:
<<<
{claim}
>>>

${STRICT_JSON} {"supported": true, "error_type": null} or {"supported": false, "error_type": "${CLAIM_ERROR_TYPES.join('" | "')}"}`;

/** "Number or date", "number-or-date" → number_or_date (idempotent). */
const ErrorTypeText = z.preprocess(
  (v) =>
    typeof v === 'string'
      ? v
          .trim()
          .toLowerCase()
          .replace(/[\s-]+/g, '_')
      : v,
  ClaimErrorTypeSchema,
);

export const ClaimVerdictOutputSchema = z
  .object({ supported: z.boolean(), error_type: ErrorTypeText.nullable().default(null) })
  .strict()
  .refine((v) => (v.supported ? v.error_type === null : v.error_type !== null), {
    message: 'a supported claim has error_type null; an unsupported one names its error type',
    path: ['error_type'],
  });
export type ClaimVerdictOutput = z.infer<typeof ClaimVerdictOutputSchema>;

export const claimVerdictKind = defineJsonKind({
  name: 'claim_verdict',
  version: 1,
  itemNoun: 'claim',
  template: CLAIM_VERDICT_TEMPLATE,
  input: z.object({ document: z.string().min(1), claim: z.string().min(1) }),
  output: ClaimVerdictOutputSchema,
  fields: (input) => ({ document: input.document, claim: input.claim }),
});

export function claimVerdictSetup(repo: Repository, who: Judge, sel: Selection) {
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
    repo.itemLabels.saveClaimPrediction({
      claimId: r.item.claim.id,
      judgeId: who.judgeId,
      configHash: hash,
      supported: r.output.supported,
      errorType: r.output.error_type,
      sourceErrorType: null,
      raw: r.raw,
      source: 'run',
      importId: null,
    });
  const notes: string[] = [];
  if (noClaims > 0)
    notes.push(`${plural(noClaims, 'summary')} without claims yet (run claim_decomposition or import claims).`);
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
