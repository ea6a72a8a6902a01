/**
 * scaffold.*: people's side of the Semantic Scaffold. A person aligns a summary to its
 * document's current scaffold (blind: only their own alignments and notes come back) and edits a
 * scaffold into a new version; alignments stay on the version they were given on (schema 9). A
 * note on an item rides on its alignment event (schema 13): a record without a note keeps the
 * item's current one.
 */
import { ApiError, type ApiHandlers } from '../../../shared/api';
import { ALIGNMENT_VALUES, type ScaffoldVersion } from '../../../shared/contract/scaffold';
import type { AnnotatorAlignment, ScaffoldRepository, ScaffoldRow } from '../../../db/scaffoldRepository';
import type { CoreContext } from '../context';
import { requireOwnSummary } from '../owners';
import { editSet, notFound, versionHeader } from '../versioned-sets';
import { scaffoldEditor } from './edit';

export type ScaffoldHandlers = Pick<
  ApiHandlers,
  'scaffold.load' | 'scaffold.record' | 'scaffold.edit' | 'scaffold.versions'
>;

export function scaffoldVersionView(
  repo: ScaffoldRepository,
  row: ScaffoldRow,
  versions: ScaffoldRow[],
): ScaffoldVersion {
  return {
    scaffoldId: row.id,
    documentKey: row.documentKey,
    ...versionHeader(row, versions),
    extractor: row.maker,
    extractorVersion: row.makerVersion,
    items: repo.items(row.id).map((i) => ({
      id: i.id,
      kind: i.kind,
      itemKey: i.key,
      text: i.text,
      tier: i.tier,
      answer: i.answer,
      entity: i.entity,
      fromItemId: i.fromItemId,
    })),
    alignmentEvents: repo.alignmentEventCount(row.id),
  };
}

export function createScaffoldHandlers(ctx: CoreContext): ScaffoldHandlers {
  const repo = () => ctx.project().repo;
  const person = (name: string) => repo().ensureAnnotator(name, 'person');
  return {
    'scaffold.load': async ({ key, annotator }, caller) => {
      const r = repo();
      requireOwnSummary(r, caller, key);
      const info = r.corpus.summaryInfo(key) ?? notFound(`summary ${key}`);
      const who = person(annotator);
      const current = r.scaffold.currentScaffold(info.documentKey);
      const states = current
        ? r.scaffold.annotatorAlignments(current.id, key, who.id)
        : new Map<number, AnnotatorAlignment>();
      return {
        key,
        summaryId: info.summaryId,
        documentKey: info.documentKey,
        docId: info.docId,
        scaffoldId: current?.id ?? null,
        version: current?.version ?? null,
        items: (current ? r.scaffold.items(current.id) : []).map((i) => ({
          id: i.id,
          kind: i.kind,
          itemKey: i.key,
          text: i.text,
          tier: i.tier,
          answer: i.answer,
          entity: i.entity,
          state: states.get(i.id) ?? { value: null, sentences: [], note: null },
        })),
        sentences: r.corpus.sentences(key),
      };
    },
    'scaffold.record': async ({ key, annotator, itemId, value, sentences, note, timeSpentMs, cause }, caller) => {
      const r = repo();
      requireOwnSummary(r, caller, key);
      const info = r.corpus.summaryInfo(key) ?? notFound(`summary ${key}`);
      const item = r.scaffold.itemInfo(itemId);
      if (!item || item.documentKey !== info.documentKey)
        notFound(`scaffold item ${itemId} of the document of summary ${key}`);
      if (value !== null && !(ALIGNMENT_VALUES[item.kind] as readonly string[]).includes(value)) {
        throw new ApiError({
          code: 'invalid_input',
          message: `A ${item.kind} is aligned as ${ALIGNMENT_VALUES[item.kind].join(', ')}, not ${value}.`,
        });
      }
      if (sentences.length > 0 && (item.kind !== 'fact' || value === null)) {
        throw new ApiError({ code: 'invalid_input', message: 'Only an aligned fact is linked to summary sentences.' });
      }
      const count = r.corpus.sentences(key).length;
      const outside = sentences.find((s) => s >= count);
      if (outside !== undefined)
        throw new ApiError({
          code: 'invalid_input',
          message: `Summary ${key} has ${count} sentences: there is no sentence ${outside}.`,
        });
      const who = person(annotator);
      const unique = [...new Set(sentences)].sort((a, b) => a - b);
      const kept = note !== undefined ? note : r.scaffold.annotatorNote(itemId, key, who.id);
      const eventId = r.scaffold.recordAlignment({
        itemId,
        summaryKey: key,
        annotatorId: who.id,
        judgeId: null,
        configHash: null,
        value,
        sentences: unique,
        note: kept,
        timeSpentMs,
        cause,
        importKey: null,
        importId: null,
      })!;
      return {
        eventId,
        key,
        itemId,
        state: { value, sentences: unique, note: kept },
        blind: r.scaffold.alignmentBlind(eventId),
      };
    },
    'scaffold.edit': async ({ documentKey, annotator, basedOnVersion, facts, questions, entities, note }, caller) => {
      const r = repo();
      if (!r.corpus.documentInfo(documentKey)) notFound(`document ${documentKey}`);
      const { version, proposal } = editSet(r, caller, scaffoldEditor, {
        target: documentKey,
        annotator,
        basedOnVersion,
        content: { facts, questions, entities },
        note: note ?? null,
      });
      const versions = r.scaffold.versions(documentKey);
      return {
        ...scaffoldVersionView(
          r.scaffold,
          versions.find((v) => v.version === version)!,
          versions,
        ),
        ...(proposal ? { proposal } : {}),
      };
    },
    'scaffold.versions': async ({ documentKey }) => {
      const r = repo();
      if (!r.corpus.documentInfo(documentKey)) notFound(`document ${documentKey}`);
      const versions = r.scaffold.versions(documentKey);
      return versions.map((v) => scaffoldVersionView(r.scaffold, v, versions));
    },
  };
}
