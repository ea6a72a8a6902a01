/**
 * A reveal belongs to the person who looks: the lead's annotation.reveal for a person is recorded
 * only with that person confirmed by name (the refusal names what it does to their labels), never
 * for someone annotating through a live annotator link (their labels stay blind whatever a lead
 * tab opens); no annotator link reveals at all.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createLinkRegistry } from '../../../electron/serve/links';
import { ALICE, BOB, splitProject, type SplitProject } from '../../helpers/owners';
import { newsRows } from '../../helpers/project';
import { tempDir } from '../../helpers/tmp';

const dir = tempDir('loupe-reveal-owner-');
const links = createLinkRegistry();
let p: SplitProject;
const faithful = { label: 'faithful', errorType: null, note: null } as const;
const reveals = () => p.core.repository().revealedSummaries(p.core.repository().annotator('alice')?.id ?? -1).size;

beforeAll(async () => {
  p = await splitProject(dir, newsRows(4), links);
  links.setOrigin('http://127.0.0.1:1');
}, 30_000);

describe('annotation.reveal from the lead', () => {
  it('without the person confirmed by name: refused, naming the consequence for their labels; nothing recorded', async () => {
    const refused = await p.call('annotation.reveal', { annotator: 'alice', view: 'review' });
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'conflict',
        message:
          'Revealing for "alice" marks the labels they give afterwards on 2 unfinished summaries not blind and leaves their scaffold alignments on them out of the blind audit: confirm it for them by name (confirmFor).',
      },
    });
    // A confirmation for someone else is no confirmation for alice.
    expect(await p.call('annotation.reveal', { annotator: 'alice', view: 'review', confirmFor: 'bob' })).toMatchObject({
      ok: false,
      error: { code: 'conflict' },
    });
    expect(reveals()).toBe(0);
  });

  it('refuses anyone with a live annotator link, even confirmed; her labels stay blind', async () => {
    links.create('alice');
    const refused = await p.call('annotation.reveal', { annotator: 'alice', view: 'review', confirmFor: 'alice' });
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'forbidden',
        message: expect.stringMatching(
          /"alice" annotates through their own link: only that link can reveal/,
        ) as unknown,
      },
    });
    expect(reveals()).toBe(0);
    const key = (await p.queueOf('alice'))[0]!.key;
    const unit = (
      await p.value<{ units: Array<{ id: number }> }>('annotation.load', { key, annotator: 'alice' }, ALICE)
    ).units[0]!.id;
    await p.value(
      'annotation.record',
      { unitId: unit, annotator: 'alice', state: faithful, timeSpentMs: 5, cause: 'label' },
      ALICE,
    );
    const history = p.core
      .repository()
      .labelHistory(null)
      .filter((e) => e.annotator === 'alice');
    expect(history.map((e) => e.blind)).toEqual([true]);
  });

  it("no annotator link reveals (revealing views are the lead's): not bob's for her, not even her own", async () => {
    expect(
      await p.call('annotation.reveal', { annotator: 'alice', view: 'review', confirmFor: 'alice' }, BOB),
    ).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(
      await p.call('annotation.reveal', { annotator: 'alice', view: 'analysis', confirmFor: 'alice' }, ALICE),
    ).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(reveals()).toBe(0);
  });

  it('records the reveal for a person without a link once confirmed by name', async () => {
    expect(await p.value('annotation.reveal', { annotator: 'bob', view: 'review', confirmFor: 'bob' })).toMatchObject({
      revealed: 2,
      status: { annotator: 'bob', unfinished: 2, revealed: 2 },
    });
  });
});
