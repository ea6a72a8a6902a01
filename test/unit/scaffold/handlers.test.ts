/**
 * scaffold.* against a real SQLite project (App. B.4 with a judge's and an imported person's
 * alignments): load is blind (only the caller's own alignments), record stores one durable event
 * with the blind flag of schema 9's trigger, edit makes a new version (stale base refused) and the
 * old alignments stay on the old version, and an annotator link reaches only its own calls.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { dispatch } from '../../../electron/core/dispatch';
import type { ApiOutput } from '../../../shared/api';
import { B4_DATASET, b4Project } from '../../helpers/scaffold-b4';

async function project() {
  const p = await b4Project('loupe-scaffold-handlers-');
  // A sample everyone shares: an annotator link reaches only the summaries of its queue.
  await p.core.handlers['sampling.draw']({ dataset: B4_DATASET, n: 2, seed: 0 });
  const key = p.repo.corpus.summaryKey(B4_DATASET, 'camera-internal-s')!;
  const otherKey = p.repo.corpus.summaryKey(B4_DATASET, 'camera-gpt-4o')!;
  const documentKey = p.repo.corpus.documentKey(B4_DATASET, 'camera')!;
  const call = async (
    method: string,
    input: unknown,
    caller: Parameters<typeof dispatch>[3] = { role: 'annotator', annotator: 'alice' },
  ) => dispatch(p.core.handlers, method, input, caller);
  return { ...p, key, otherKey, documentKey, call };
}

function value<T>(envelope: Awaited<ReturnType<typeof dispatch>>): T {
  if (!envelope.ok) throw new Error(`${envelope.error.code}: ${envelope.error.message}`);
  return envelope.value as T;
}

describe('scaffold.* handlers', () => {
  it('load gives the current scaffold with no alignment of the judge or of another person', async () => {
    const { core, key, call } = await project();
    const loaded = value<ApiOutput<'scaffold.load'>>(await call('scaffold.load', { key, annotator: 'alice' }));
    expect(loaded.version).toBe(1);
    expect(loaded.items.map((i) => i.kind).filter((k, i, all) => all.indexOf(k) === i)).toEqual([
      'fact',
      'question',
      'attribute',
    ]);
    expect(loaded.items).toHaveLength(7 + 4 + 9);
    expect(loaded.items.find((i) => i.itemKey === 'M1')).toMatchObject({ tier: 'main', kind: 'fact' });
    expect(loaded.items.find((i) => i.itemKey === 'Q1')?.answer).toBe('Which apps can access the camera.');
    expect(loaded.items.find((i) => i.itemKey === 'hello1')?.entity).toBe('Windows Hello');
    // The judge and "rater" aligned every item of this summary; alice sees none of it.
    expect(loaded.items.every((i) => i.state.value === null && i.state.sentences.length === 0)).toBe(true);
    expect(loaded.sentences.length).toBeGreaterThan(0);
    core.close();
  });

  it('record stores one event per decision, durable before the answer, and load returns only the own latest', async () => {
    const { core, path, key, call } = await project();
    const items = value<ApiOutput<'scaffold.load'>>(await call('scaffold.load', { key, annotator: 'alice' })).items;
    const m2 = items.find((i) => i.itemKey === 'M2')!;
    const q4 = items.find((i) => i.itemKey === 'Q4')!;
    value(
      await call('scaffold.record', {
        key,
        annotator: 'alice',
        itemId: m2.id,
        value: 'partial',
        sentences: [],
        timeSpentMs: 10,
        cause: 'label',
      }),
    );
    const second = value<ApiOutput<'scaffold.record'>>(
      await call('scaffold.record', {
        key,
        annotator: 'alice',
        itemId: m2.id,
        value: 'preserved',
        sentences: [0, 0],
        timeSpentMs: 20,
        cause: 'sentences',
      }),
    );
    expect(second).toMatchObject({ itemId: m2.id, state: { value: 'preserved', sentences: [0] }, blind: true });
    value(
      await call(
        'scaffold.record',
        { key, annotator: 'bob', itemId: q4.id, value: 'answered', sentences: [], timeSpentMs: null, cause: 'label' },
        { role: 'annotator', annotator: 'bob' },
      ),
    );
    const db = new Database(path, { readonly: true });
    const stored = db
      .prepare(
        "SELECT e.value, e.sentences, e.cause FROM scaffold_alignment_events e JOIN annotators a ON a.id = e.annotator_id WHERE a.name = 'alice' ORDER BY e.id",
      )
      .all();
    db.close();
    expect(stored).toEqual([
      { value: 'partial', sentences: '[]', cause: 'label' },
      { value: 'preserved', sentences: '[0]', cause: 'sentences' },
    ]);
    const aligned = value<ApiOutput<'scaffold.load'>>(
      await call('scaffold.load', { key, annotator: 'alice' }),
    ).items.filter((i) => i.state.value !== null);
    expect(aligned.map((i) => [i.itemKey, i.state])).toEqual([
      ['M2', { value: 'preserved', sentences: [0], note: null }],
    ]);
    core.close();
  });

  it('refuses a value that does not fit the item, a sentence the summary lacks, an item of another document, and writing as an imported label set', async () => {
    const { core, key, call, repo } = await project();
    const items = value<ApiOutput<'scaffold.load'>>(await call('scaffold.load', { key, annotator: 'alice' })).items;
    const q1 = items.find((i) => i.itemKey === 'Q1')!;
    const m1 = items.find((i) => i.itemKey === 'M1')!;
    const a = items.find((i) => i.kind === 'attribute')!;
    const bad = async (input: Record<string, unknown>, annotator = 'alice') => {
      const r = await call(
        'scaffold.record',
        { key, annotator, timeSpentMs: null, cause: 'label', sentences: [], ...input },
        { role: 'lead' },
      );
      return r.ok ? 'accepted' : r.error.code;
    };
    expect(await bad({ itemId: q1.id, value: 'preserved' })).toBe('invalid_input');
    expect(await bad({ itemId: a.id, value: 'partial' })).toBe('invalid_input');
    expect(await bad({ itemId: m1.id, value: 'preserved', sentences: [repo.corpus.sentences(key).length] })).toBe(
      'invalid_input',
    );
    expect(await bad({ itemId: q1.id, value: 'answered', sentences: [0] })).toBe('invalid_input');
    expect(await bad({ itemId: 999_999, value: 'answered' })).toBe('not_found');
    expect(await bad({ itemId: q1.id, value: 'answered' }, 'rater')).not.toBe('accepted');
    core.close();
  });

  it('an alignment after the person revealed the summary is stored as not blind', async () => {
    const { core, repo, key, call } = await project();
    const m1 = value<ApiOutput<'scaffold.load'>>(await call('scaffold.load', { key, annotator: 'alice' })).items[0]!;
    repo.recordReveals(repo.ensureAnnotator('alice').id, [key], 'review');
    const recorded = value<ApiOutput<'scaffold.record'>>(
      await call('scaffold.record', { key, annotator: 'alice', itemId: m1.id, value: 'missing' }),
    );
    expect(recorded.blind).toBe(false);
    core.close();
  });

  it('edit makes a new version (drop, add, retier, reword), refuses a stale base, and the old alignments stay on version 1', async () => {
    const { core, key, documentKey, call } = await project();
    const before = value<ApiOutput<'scaffold.load'>>(await call('scaffold.load', { key, annotator: 'alice' }));
    const m1 = before.items.find((i) => i.itemKey === 'M1')!;
    value(await call('scaffold.record', { key, annotator: 'alice', itemId: m1.id, value: 'preserved' }));
    const facts = before.items
      .filter((i) => i.kind === 'fact' && i.itemKey !== 'S3')
      .map((i) => ({
        id: i.itemKey,
        text: i.itemKey === 'M1' ? 'The page sets camera access.' : i.text,
        tier: i.itemKey === 'M4' ? ('supporting' as const) : i.tier!,
      }));
    const edit = {
      documentKey,
      annotator: 'alice',
      basedOnVersion: 1,
      facts: [...facts, { id: 'N1', text: 'A new fact.', tier: 'supporting' as const }],
      questions: before.items
        .filter((i) => i.kind === 'question')
        .map((i) => ({ id: i.itemKey, text: i.text, answer: i.answer ?? '', tier: i.tier! })),
      entities: [{ name: 'apps', attributes: [{ id: 'app1', text: 'can be chosen individually' }] }],
      note: 'S3 is not in the document',
    };
    // The lead's edit (an annotator link's is a proposal: test/unit/review/proposals.test.ts).
    const lead = { role: 'lead' } as const;
    const v2 = value<ApiOutput<'scaffold.edit'>>(await call('scaffold.edit', edit, lead));
    expect(v2).toMatchObject({
      version: 2,
      basedOnVersion: 1,
      source: 'person',
      createdBy: 'alice',
      alignmentEvents: 0,
      note: 'S3 is not in the document',
    });
    const kept = v2.items.find((i) => i.itemKey === 'M1')!;
    expect(kept).toMatchObject({ text: 'The page sets camera access.', fromItemId: m1.id });
    expect(kept.id).not.toBe(m1.id);
    expect(v2.items.find((i) => i.itemKey === 'M4')?.tier).toBe('supporting');
    expect(v2.items.find((i) => i.itemKey === 'N1')?.fromItemId).toBeNull();
    expect(v2.items.some((i) => i.itemKey === 'S3')).toBe(false);

    const stale = await call('scaffold.edit', edit, lead);
    expect(stale.ok ? 'accepted' : stale.error.code).toBe('conflict');
    const noMain = await call(
      'scaffold.edit',
      { ...edit, basedOnVersion: 2, facts: [{ id: 'x', text: 'Only supporting.', tier: 'supporting' }] },
      lead,
    );
    expect(noMain.ok ? 'accepted' : noMain.error.code).toBe('invalid_input');

    const after = value<ApiOutput<'scaffold.load'>>(await call('scaffold.load', { key, annotator: 'alice' }));
    expect(after.version).toBe(2);
    expect(after.items.every((i) => i.state.value === null)).toBe(true);
    const versions = value<ApiOutput<'scaffold.versions'>>(
      await call('scaffold.versions', { documentKey }, { role: 'lead' }),
    );
    expect(versions.map((v) => v.version)).toEqual([1, 2]);
    // Version 1 holds the judge's and rater's 40 + 40 imported events and alice's one.
    expect(versions[0]!.alignmentEvents).toBe(81);
    expect(versions[1]!.alignmentEvents).toBe(0);
    core.close();
  });

  it('an annotator link may load, record and edit only as itself, and never read the versions', async () => {
    const { core, key, documentKey, call } = await project();
    const asBob = await call('scaffold.load', { key, annotator: 'bob' });
    expect(asBob.ok ? 'accepted' : asBob.error.code).toBe('forbidden');
    const versions = await call('scaffold.versions', { documentKey });
    expect(versions.ok ? 'accepted' : versions.error.code).toBe('forbidden');
    core.close();
  });
});
