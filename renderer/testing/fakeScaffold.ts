/**
 * The scaffold methods (scaffold.*, shared/contract/scaffold.ts) of the renderer's test double,
 * on the fake core's summaries. Inputs arrive parsed by the contract and role-checked
 * (fakeCore.ts), as in dispatch; what is left is what the handler decides: versions with new item
 * ids on every edit (alignments stay on the ids they were given on), blind loads (only the
 * caller's own alignments, never a judge's or another person's), conflicts on a stale version,
 * values that must fit the item's kind. Not imported by the app (not in the bundle).
 */
import type { AnnotationSummary, ApiMethod, ApiOutput, ApiParsedInput } from '../../shared/api';
import { ALIGNMENT_VALUES, type AlignmentState, type ScaffoldVersion } from '../../shared/contract/scaffold';
import { scaffoldContentProblems } from '../../shared/scaffold/content';
import type { ScaffoldContent } from '../../shared/scaffold/domain';
import { ApiError } from '../api/errors';

export type ScaffoldMethod = Extract<ApiMethod, `scaffold.${string}`>;
export type ScaffoldHandlers = { [M in ScaffoldMethod]: (input: ApiParsedInput<M>) => ApiOutput<M> };

export interface FakeScaffoldSpec {
  /** Per document id: its scaffold (an imported first version). */
  scaffolds?: Record<string, ScaffoldContent>;
}

export interface AlignmentEvent {
  /** "human:<name>" or "judge:<name>". */
  source: string;
  key: number;
  itemId: number;
  state: AlignmentState;
}

export interface FakeScaffold {
  handlers: ScaffoldHandlers;
  versions(docId: string): ScaffoldVersion[];
  /** Every alignment event, oldest first. */
  events: AlignmentEvent[];
  /** The newest alignment of one source on one item for one summary. */
  alignmentOf(source: string, key: number, itemId: number): AlignmentState | undefined;
  /** Stores a judge's or another person's alignment (to check that loads stay blind). */
  seedAlignment(source: string, key: number, docId: string, itemKey: string, state: AlignmentState): void;
  /** A scaffold imported for a document (a new version), as the lead's import would store it. */
  importScaffold(docId: string, content: ScaffoldContent): void;
}

const AT = '2026-11-05T10:00:00.000Z';

/** `proposing`: an annotator link's edit is a proposal (as the core's editSet). */
export function createFakeScaffold(
  summaries: AnnotationSummary[],
  spec: FakeScaffoldSpec,
  proposing: () => boolean = () => false,
): FakeScaffold {
  let nextId = 9_000;
  let nextProposal = 1;
  let nextEvent = 1;
  const byDoc = new Map<string, ScaffoldVersion[]>();
  const events: AlignmentEvent[] = [];
  const documentKeyOf = new Map<string, number>();
  summaries.forEach((s) => {
    if (!documentKeyOf.has(s.docId)) documentKeyOf.set(s.docId, 700 + documentKeyOf.size);
  });
  const docOfKey = (documentKey: number) => [...documentKeyOf].find(([, k]) => k === documentKey)?.[0];

  function addVersion(
    docId: string,
    content: ScaffoldContent,
    source: ScaffoldVersion['source'],
    createdBy: string | null,
    note: string | null,
  ): ScaffoldVersion {
    const versions = byDoc.get(docId) ?? [];
    const base = versions.at(-1);
    const from = (kind: string, key: string) =>
      base?.items.find((i) => i.kind === kind && i.itemKey === key)?.id ?? null;
    const items: ScaffoldVersion['items'] = [
      ...content.facts.map((f) => ({
        id: nextId++,
        kind: 'fact' as const,
        itemKey: f.id,
        text: f.text,
        tier: f.tier,
        answer: null,
        entity: null,
        fromItemId: from('fact', f.id),
      })),
      ...content.questions.map((q) => ({
        id: nextId++,
        kind: 'question' as const,
        itemKey: q.id,
        text: q.text,
        tier: q.tier,
        answer: q.answer,
        entity: null,
        fromItemId: from('question', q.id),
      })),
      ...content.entities.flatMap((e) =>
        e.attributes.map((a) => ({
          id: nextId++,
          kind: 'attribute' as const,
          itemKey: a.id,
          text: a.text,
          tier: null,
          answer: null,
          entity: e.name,
          fromItemId: from('attribute', a.id),
        })),
      ),
    ];
    const version: ScaffoldVersion = {
      scaffoldId: nextId++,
      documentKey: documentKeyOf.get(docId)!,
      version: versions.length + 1,
      source,
      extractor: source === 'person' ? `person:${createdBy}` : 'import:scaffold.jsonl',
      extractorVersion: '1',
      basedOnVersion: base?.version ?? null,
      createdBy,
      createdAt: AT,
      note,
      items,
      alignmentEvents: 0,
    };
    byDoc.set(docId, [...versions, version]);
    return version;
  }
  for (const [docId, content] of Object.entries(spec.scaffolds ?? {}))
    addVersion(docId, content, 'imported', null, null);

  const summaryOf = (key: number) => summaries.find((s) => s.key === key) ?? notFound(`summary ${key}`);
  const alignmentOf = (source: string, key: number, itemId: number) =>
    events.filter((e) => e.source === source && e.key === key && e.itemId === itemId).at(-1)?.state;
  const withCounts = (v: ScaffoldVersion): ScaffoldVersion => ({
    ...v,
    alignmentEvents: events.filter((e) => v.items.some((i) => i.id === e.itemId)).length,
  });

  const handlers: ScaffoldHandlers = {
    'scaffold.load': ({ key, annotator }) => {
      const summary = summaryOf(key);
      const current = byDoc.get(summary.docId)?.at(-1) ?? null;
      return {
        key,
        summaryId: summary.summaryId,
        documentKey: documentKeyOf.get(summary.docId)!,
        docId: summary.docId,
        scaffoldId: current?.scaffoldId ?? null,
        version: current?.version ?? null,
        items: (current?.items ?? []).map((i) => ({
          id: i.id,
          kind: i.kind,
          itemKey: i.itemKey,
          text: i.text,
          tier: i.tier,
          answer: i.answer,
          entity: i.entity,
          state: alignmentOf(`human:${annotator}`, key, i.id) ?? { value: null, sentences: [] },
        })),
        sentences: summary.units.map((u) => ({ unitId: u.id, index: u.index, text: u.text })),
      };
    },
    'scaffold.record': ({ key, annotator, itemId, value, sentences }) => {
      const summary = summaryOf(key);
      const item =
        (byDoc.get(summary.docId) ?? []).flatMap((v) => v.items).find((i) => i.id === itemId) ??
        notFound(`scaffold item ${itemId} of the document of summary ${key}`);
      if (value !== null && !(ALIGNMENT_VALUES[item.kind] as readonly string[]).includes(value))
        throw new ApiError({ code: 'invalid_input', message: `A ${item.kind} is not ${value}.` });
      if (sentences.some((s) => s >= summary.units.length))
        throw new ApiError({ code: 'invalid_input', message: 'No such sentence.' });
      const state = { value, sentences: [...new Set(sentences)].sort((a, b) => a - b) };
      events.push({ source: `human:${annotator}`, key, itemId, state });
      return { eventId: nextEvent++, key, itemId, state, blind: true };
    },
    'scaffold.edit': ({ documentKey, annotator, basedOnVersion, facts, questions, entities, note }) => {
      const docId = docOfKey(documentKey) ?? notFound(`document ${documentKey}`);
      const current = byDoc.get(docId)?.at(-1) ?? null;
      if ((current?.version ?? null) !== basedOnVersion)
        throw new ApiError({
          code: 'conflict',
          message: `The scaffold is at version ${current?.version ?? 'none'}, not ${basedOnVersion ?? 'none'}: reload it and edit again.`,
        });
      const content = { facts, questions, entities };
      const problems = scaffoldContentProblems(content);
      if (problems.length > 0) throw new ApiError({ code: 'invalid_input', message: problems.join('; ') });
      if (proposing()) {
        if (!current)
          throw new ApiError({
            code: 'conflict',
            message: `The scaffold of ${docId} has no version yet: the lead makes the first one (extract or import it).`,
          });
        return { ...withCounts(current), proposal: { id: nextProposal++, status: 'pending' as const } };
      }
      return withCounts(addVersion(docId, content, 'person', annotator, note ?? null));
    },
    'scaffold.versions': ({ documentKey }) =>
      (byDoc.get(docOfKey(documentKey) ?? notFound(`document ${documentKey}`)) ?? []).map(withCounts),
  };

  return {
    handlers,
    versions: (docId) => (byDoc.get(docId) ?? []).map(withCounts),
    importScaffold(docId, content) {
      addVersion(docId, content, 'imported', null, null);
    },
    events,
    alignmentOf,
    seedAlignment(source, key, docId, itemKey, state) {
      const item = byDoc
        .get(docId)
        ?.at(-1)
        ?.items.find((i) => i.itemKey === itemKey);
      if (!item) throw new Error(`no item ${itemKey} in ${docId}`);
      events.push({ source, key, itemId: item.id, state });
    },
  };
}

function notFound(what: string): never {
  throw new ApiError({ code: 'not_found', message: `No ${what} in this project` });
}
