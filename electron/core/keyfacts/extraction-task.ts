/**
 * keyfact_extraction: each document → its key facts (the card's key fact extraction, FineSurE's key
 * facts), written as a key-fact set of source model. A model never replaces key facts a person made
 * or a file brought (named in the notes).
 */
import { z } from 'zod';
import type { Repository } from '../../../db/repository';
import { defineJsonKind, STRICT_JSON } from '../tasks/json-kind';
import {
  documentTexts,
  makerOf,
  noteOf,
  plural,
  replaceable,
  setupOf,
  type Judge,
  type Selection,
} from '../tasks/setup';

export const KEYFACT_EXTRACTION_TEMPLATE = `You will be given a document. Your task is to extract its key facts: the pieces of information a good summary of the document must contain.

Instruction:
- Each key fact is a short, standalone sentence (at most 2-3 entities) that states one piece of information from the document.
- List the most important key facts first, at most 16.
- Use only information the document states.

DOCUMENT:
<<<
{document}
>>>

${STRICT_JSON} {"key_facts": ["first key fact", "second key fact"]}`;

export const KeyFactsOutputSchema = z
  .object({ key_facts: z.array(z.string().trim().min(1).max(2_000)).min(1).max(100) })
  .strict();
export type KeyFactsOutput = z.infer<typeof KeyFactsOutputSchema>;

export const keyFactExtractionKind = defineJsonKind({
  name: 'keyfact_extraction',
  version: 1,
  itemNoun: 'document',
  template: KEYFACT_EXTRACTION_TEMPLATE,
  input: z.object({ document: z.string().min(1) }),
  output: KeyFactsOutputSchema,
  fields: (input) => ({ document: input.document }),
});

export function keyFactExtractionSetup(repo: Repository, who: Judge, sel: Selection) {
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
      basedOnId: repo.sets.currentKeyFactSet(documentKey)?.id ?? null,
      createdBy: null,
      note: `key facts by ${noteOf(who)}`,
      importKey: null,
      importId: null,
      items: output.key_facts.map((t) => ({ text: t, from: [] })),
    });
  };
  const notes: string[] = [];
  if (missing > 0) notes.push(`${plural(missing, 'document')} left out: the text is missing.`);
  if (kept > 0)
    notes.push(
      `${plural(kept, 'document')} keep their current key facts (made by a person or imported); a model does not replace them.`,
    );
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
