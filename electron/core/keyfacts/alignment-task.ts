/**
 * Key-fact alignment, two ways:
 * - keyfact_alignment (FineSurE): the summary's lines (its sentences, or with lines = claims its
 *   current claims) + every key fact → per fact covered and the line numbers that convey it; stored
 *   as `key_fact_predictions` and, per sentence, `sentence_keyfact_predictions` (FineSurE's sentence
 *   labels). With claims as lines it is its own kind (keyfact_alignment_claims): its own versions.
 * - keyfact_alignment_per_fact (the card's per-key-fact prompt): the summary's claims + one key fact
 *   → covered and the claims that convey it; stored as `key_fact_predictions`.
 */
import { z } from 'zod';
import type { Repository } from '../../../db/repository';
import type { ClaimRow } from '../../../db/setRepository';
import { defineJsonKind, numbered, STRICT_JSON } from '../tasks/json-kind';
import type { ModelConfig } from '../tasks/model-config';
import { plural, setupOf, type Judge, type Selection } from '../tasks/setup';

const alignmentTemplate = (
  noun: 'sentence' | 'claim',
) => `You will receive a summary and a set of key facts for the same document. Your task is to assess whether each key fact is conveyed by the summary.

Instruction:
First, compare each key fact with the summary.
Second, check if the key fact is inferred from the summary and then respond "Yes" or "No" for each key fact. If "Yes", specify the line number(s) of the summary ${noun}(s) relevant to each key fact.

Provide your answer in JSON format. The answer should be a list of dictionaries whose keys are "key fact", "response", and "line number", one per key fact in the order given:
[{"key fact": "first key fact", "response": "Yes", "line number": [1]}, {"key fact": "second key fact", "response": "No", "line number": []}, {"key fact": "third key fact", "response": "Yes", "line number": [1, 2, 3]}]

Summary (one ${noun} per line):
{summary_lines}

{key_fact_count} key facts:
{key_facts}`;

export const ALIGNMENT_TEMPLATE_SENTENCES = alignmentTemplate('sentence');
export const ALIGNMENT_TEMPLATE_CLAIMS = alignmentTemplate('claim');

const YesNo = z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), z.enum(['yes', 'no']));
/** FineSurE answers a bare number now and then: [n] (idempotent). */
const LineNumbers = z.preprocess((v) => (typeof v === 'number' ? [v] : v), z.array(z.number().int()).max(500));

export const AlignmentOutputSchema = z
  .array(
    z
      .object({
        'key fact': z.string().max(5_000).default(''),
        response: YesNo,
        'line number': LineNumbers.default([]),
      })
      .passthrough(),
  )
  .max(500);
export type AlignmentOutput = z.infer<typeof AlignmentOutputSchema>;

export interface AlignmentInput {
  lines: string[];
  facts: string[];
}

const AlignmentInputSchema = z.object({ lines: z.array(z.string()).min(1), facts: z.array(z.string()).min(1) });

/** One entry per key fact, line numbers within the summary's lines, none on a "No". */
export function checkAlignment(output: AlignmentOutput, input: AlignmentInput): string | null {
  if (output.length !== input.facts.length)
    return `the answer lists ${output.length} key facts, expected ${input.facts.length} (one per key fact, in order)`;
  for (const [i, entry] of output.entries()) {
    const bad = entry['line number'].find((n) => n < 1 || n > input.lines.length);
    if (bad !== undefined)
      return `key fact ${i + 1}: line number ${bad} is not a line of the summary (1 to ${input.lines.length})`;
  }
  return null;
}

const alignmentKind = (name: string, template: string) =>
  defineJsonKind<AlignmentInput, AlignmentOutput>({
    name,
    version: 1,
    itemNoun: 'summary',
    template,
    input: AlignmentInputSchema,
    output: AlignmentOutputSchema,
    fields: (input) => ({
      summary_lines: numbered(input.lines),
      key_facts: numbered(input.facts),
      key_fact_count: String(input.facts.length),
    }),
    checkOutput: checkAlignment,
  });

export const keyFactAlignmentKind = alignmentKind('keyfact_alignment', ALIGNMENT_TEMPLATE_SENTENCES);
/** The same task with the summary's current claims as its lines (its own name: its own versions and outputs). */
export const keyFactAlignmentClaimsKind = alignmentKind('keyfact_alignment_claims', ALIGNMENT_TEMPLATE_CLAIMS);

export const PER_FACT_TEMPLATE = `You will receive the claims of a summary, one per line, and one key fact of the document it summarises. Decide whether the summary conveys the key fact: it does when one or more claims state it, or it can be inferred from them. If it does, list the line numbers of those claims.

Summary claims:
{claims}

Key fact:
<<<
{key_fact}
>>>

${STRICT_JSON} {"covered": true, "claims": [1, 2]} or {"covered": false, "claims": []}`;

export const PerFactOutputSchema = z
  .object({ covered: z.boolean(), claims: LineNumbers.default([]) })
  .strict()
  .refine((v) => v.covered || v.claims.length === 0, {
    message: 'a key fact that is not covered lists no claims',
    path: ['claims'],
  });
export type PerFactOutput = z.infer<typeof PerFactOutputSchema>;

export interface PerFactInput {
  claims: string[];
  fact: string;
}

export const keyFactPerFactKind = defineJsonKind<PerFactInput, PerFactOutput>({
  name: 'keyfact_alignment_per_fact',
  version: 1,
  itemNoun: 'key fact',
  template: PER_FACT_TEMPLATE,
  input: z.object({ claims: z.array(z.string()).min(1), fact: z.string().min(1) }),
  output: PerFactOutputSchema,
  fields: (input) => ({ claims: numbered(input.claims), key_fact: input.fact }),
  checkOutput: (output, input) => {
    const bad = output.claims.find((n) => n < 1 || n > input.claims.length);
    return bad === undefined
      ? null
      : `claim number ${bad} is not a line of the summary's claims (1 to ${input.claims.length})`;
  },
});

export function keyFactAlignmentSetup(repo: Repository, who: Judge, sel: Selection) {
  const onClaims = sel.lines === 'claims';
  const kind = onClaims ? keyFactAlignmentClaimsKind : keyFactAlignmentKind;
  const hash = kind.configHash(who.config);
  type Line = { unitId: number; claimId: number | null; text: string };
  type Item = {
    summaryKey: number;
    factSetId: number;
    factIds: number[];
    facts: string[];
    claimSetId: number | null;
    lines: Line[];
    sentenceUnits: number[];
  };
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
    items.push({
      summaryKey: s.key,
      factSetId: factSet!.id,
      factIds: facts.map((f) => f.id),
      facts: facts.map((f) => f.text),
      claimSetId,
      lines,
      sentenceUnits: sentences.map((u) => u.unitId),
    });
  }
  const itemKey = (i: Item) =>
    `summary:${i.summaryKey}:kfs:${i.factSetId}${i.claimSetId !== null ? `:cs:${i.claimSetId}` : ''}`;
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
        conveyedBy: onClaims
          ? { claims: lines.map((l) => l.claimId!), sentences: [] }
          : { claims: [], sentences: lines.map((l) => l.unitId) },
        raw,
        source: 'run',
        importId: null,
      });
    });
    // FineSurE's sentence labels: a sentence conveys a key fact when a covered fact names it (or one of its claims).
    for (const unitId of item.sentenceUnits) {
      repo.itemLabels.saveSentenceKeyFactPrediction({
        unitId,
        keyFactSetId: item.factSetId,
        judgeId: who.judgeId,
        configHash: hash,
        conveys: conveying.has(unitId),
        source: 'run',
        importId: null,
      });
    }
  };
  const notes: string[] = [];
  if (noFacts > 0)
    notes.push(
      `${plural(noFacts, 'summary')} left out: no key facts for the document yet (run keyfact_extraction or import them).`,
    );
  if (noClaims > 0)
    notes.push(`${plural(noClaims, 'summary')} left out: no claims yet (run claim_decomposition or import them).`);
  return setupOf<ModelConfig, Item, AlignmentInput, AlignmentOutput>(repo, kind, who.config, {
    kind,
    ref: kind.ref,
    configHash: hash,
    items,
    itemKey,
    resolve: (i) => ({ lines: i.lines.map((l) => l.text), facts: i.facts }),
    label: (i) =>
      `summary ${i.summaryKey} (${plural(i.facts.length, 'key fact')}, ${plural(i.lines.length, onClaims ? 'claim' : 'sentence')})`,
    writeAnswer: write,
    missing: noFacts + noClaims,
    notes,
  });
}

export function keyFactPerFactSetup(repo: Repository, who: Judge, sel: Selection) {
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
    else
      for (const f of facts) items.push({ summaryKey: s.key, factId: f.id, fact: f.text, claimSetId: set!.id, claims });
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
