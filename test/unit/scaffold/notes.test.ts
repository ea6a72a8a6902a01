/**
 * Scaffold item notes through scaffold.record / scaffold.load on a real SQLite project (App. B.4,
 * with a judge's and an imported rater's alignments): a note is bounded at the contract like every
 * other note (refused with the field named, nothing stored); it may sit on an item not aligned yet;
 * a record without a note keeps the current one, null removes it, clearing the value keeps it;
 * load answers each annotator their own notes only (blind); the scaffold-alignments export carries
 * each person's notes, a note on an unaligned item too (a line of notes only when nothing is aligned).
 */
import { describe, expect, it } from 'vitest';
import { dispatch } from '../../../electron/core/dispatch';
import type { ApiOutput } from '../../../shared/api';
import { B4_DATASET, b4Project } from '../../helpers/scaffold-b4';

async function project() {
  const p = await b4Project('loupe-scaffold-notes-');
  const key = p.repo.corpus.summaryKey(B4_DATASET, 'camera-internal-s')!;
  // As the lead: it may load and record as any person.
  const call = async (method: string, input: unknown) => dispatch(p.core.handlers, method, input, { role: 'lead' });
  const scaffoldId = p.repo.scaffold.currentScaffold(p.repo.corpus.documentKey(B4_DATASET, 'camera')!)!.id;
  const events = () => p.repo.scaffold.alignmentEventCount(scaffoldId);
  return { ...p, key, call, events };
}

function value<T>(envelope: Awaited<ReturnType<typeof dispatch>>): T {
  if (!envelope.ok) throw new Error(`${envelope.error.code}: ${envelope.error.message}`);
  return envelope.value as T;
}

describe('scaffold item notes', () => {
  it('refuses a note over 10,000 characters, naming the field, and stores nothing', async () => {
    const { core, key, call, events } = await project();
    const items = value<ApiOutput<'scaffold.load'>>(await call('scaffold.load', { key, annotator: 'alice' })).items;
    const before = events();
    const answer = await call('scaffold.record', {
      key,
      annotator: 'alice',
      itemId: items[0]!.id,
      value: null,
      note: 'x'.repeat(10_001),
      cause: 'note',
    });
    expect(answer.ok).toBe(false);
    if (!answer.ok) {
      expect(answer.error.code).toBe('invalid_input');
      expect(answer.error.message).toContain('note');
    }
    expect(events()).toBe(before);
    // At the bound it is stored.
    const at = value<ApiOutput<'scaffold.record'>>(
      await call('scaffold.record', {
        key,
        annotator: 'alice',
        itemId: items[0]!.id,
        value: null,
        note: 'y'.repeat(10_000),
        cause: 'note',
      }),
    );
    expect(at.state.note).toHaveLength(10_000);
    expect(events()).toBe(before + 1);
    core.close();
  });

  it('stores a note on an unaligned item, keeps it through a value and a clear, and answers each person their own only', async () => {
    const { core, key, call } = await project();
    const load = async (annotator: string) =>
      value<ApiOutput<'scaffold.load'>>(await call('scaffold.load', { key, annotator })).items;
    const byKey = async (annotator: string, itemKey: string) =>
      (await load(annotator)).find((i) => i.itemKey === itemKey)!;
    const m4 = await byKey('alice', 'M4');
    const q3 = await byKey('alice', 'Q3');

    // A note before any value: why M4 is not aligned yet.
    const noted = value<ApiOutput<'scaffold.record'>>(
      await call('scaffold.record', {
        key,
        annotator: 'alice',
        itemId: m4.id,
        value: null,
        note: 'the summary hints at it; unsure',
        cause: 'note',
      }),
    );
    expect(noted.state).toEqual({ value: null, sentences: [], note: 'the summary hints at it; unsure' });
    expect((await byKey('alice', 'M4')).state).toEqual({
      value: null,
      sentences: [],
      note: 'the summary hints at it; unsure',
    });

    // A value recorded without a note keeps the note; clearing the value keeps it too.
    value(await call('scaffold.record', { key, annotator: 'alice', itemId: m4.id, value: 'missing' }));
    expect((await byKey('alice', 'M4')).state).toEqual({
      value: 'missing',
      sentences: [],
      note: 'the summary hints at it; unsure',
    });
    value(await call('scaffold.record', { key, annotator: 'alice', itemId: m4.id, value: null, cause: 'clear' }));
    expect((await byKey('alice', 'M4')).state.note).toBe('the summary hints at it; unsure');

    // Bob's note on Q3 is his: alice does not see it, he does not see hers.
    value(
      await call('scaffold.record', {
        key,
        annotator: 'bob',
        itemId: q3.id,
        value: 'answered',
        note: 'answered in the second sentence',
        cause: 'note',
      }),
    );
    expect((await byKey('alice', 'Q3')).state.note).toBeNull();
    expect((await byKey('bob', 'Q3')).state).toEqual({
      value: 'answered',
      sentences: [],
      note: 'answered in the second sentence',
    });
    expect((await byKey('bob', 'M4')).state.note).toBeNull();
    // The judge and the imported rater aligned every item; none of theirs carries into a load, and nobody else's note either.
    expect((await load('carol')).every((i) => i.state.value === null && i.state.note === null)).toBe(true);

    // null removes the note.
    value(
      await call('scaffold.record', { key, annotator: 'alice', itemId: m4.id, value: null, note: null, cause: 'note' }),
    );
    expect((await byKey('alice', 'M4')).state).toEqual({ value: null, sentences: [], note: null });
    core.close();
  });

  it('the scaffold-alignments export carries the notes, on aligned and unaligned items, per person', async () => {
    const { core, key, call } = await project();
    const items = value<ApiOutput<'scaffold.load'>>(await call('scaffold.load', { key, annotator: 'alice' })).items;
    const id = (itemKey: string) => items.find((i) => i.itemKey === itemKey)!.id;
    const record = async (annotator: string, itemKey: string, v: string | null, note: string) =>
      value(await call('scaffold.record', { key, annotator, itemId: id(itemKey), value: v, note, cause: 'note' }));
    await record('alice', 'M2', 'preserved', 'verbatim');
    await record('alice', 'M4', null, 'not sure it is implied');
    await record('bob', 'hello1', null, 'which device?');

    const file = value<ApiOutput<'export.build'>>(
      await call('export.build', { format: 'jsonl', dataset: B4_DATASET, scaffoldAlignments: true }),
    );
    const lines = file.content
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.summary_id === 'camera-internal-s');
    const bySource = new Map(lines.map((l) => [l.source, l]));
    expect(bySource.get('human:alice')).toEqual({
      dataset: B4_DATASET,
      summary_id: 'camera-internal-s',
      source: 'human:alice',
      facts: { M2: 'preserved' },
      questions: {},
      attributes: {},
      notes: { facts: { M2: 'verbatim', M4: 'not sure it is implied' } },
    });
    // Nothing aligned, a note only: the line carries it.
    expect(bySource.get('human:bob')).toEqual({
      dataset: B4_DATASET,
      summary_id: 'camera-internal-s',
      source: 'human:bob',
      facts: {},
      questions: {},
      attributes: {},
      notes: { attributes: { hello1: 'which device?' } },
    });
    // The imported rater and the judge wrote no notes.
    expect(bySource.get('human:rater')).not.toHaveProperty('notes');
    expect(bySource.get('judge:gpt-4.1')).not.toHaveProperty('notes');
    core.close();
  });

  it('an annotator link writes and reads notes only as itself', async () => {
    const { core, key, call, events } = await project();
    // A sample everyone shares: an annotator link reaches only the summaries of its queue.
    value(await call('sampling.draw', { dataset: B4_DATASET, n: 2, seed: 0 }));
    const asAlice = (method: string, input: unknown) =>
      dispatch(core.handlers, method, input, { role: 'annotator', annotator: 'alice' });
    const items = value<ApiOutput<'scaffold.load'>>(await asAlice('scaffold.load', { key, annotator: 'alice' })).items;
    const before = events();
    const asBob = await asAlice('scaffold.record', {
      key,
      annotator: 'bob',
      itemId: items[0]!.id,
      value: null,
      note: 'written as someone else',
      cause: 'note',
    });
    expect(asBob.ok ? 'accepted' : asBob.error.code).toBe('forbidden');
    expect(events()).toBe(before);
    const own = value<ApiOutput<'scaffold.record'>>(
      await asAlice('scaffold.record', {
        key,
        annotator: 'alice',
        itemId: items[0]!.id,
        value: null,
        note: 'mine',
        cause: 'note',
      }),
    );
    expect(own.state.note).toBe('mine');
    const bobsView = await asAlice('scaffold.load', { key, annotator: 'bob' });
    expect(bobsView.ok ? 'accepted' : bobsView.error.code).toBe('forbidden');
    core.close();
  });
});
