/**
 * annotation.attachDocument: an annotator link attaches only a missing document of a summary in its
 * own queue; a text above 10 MB (UTF-8 bytes) is refused with the limit named; a document that has
 * its text keeps it unless the lead replaces it explicitly (`replace: true`).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { parseApiInput } from '../../../shared/api';
import { LIMITS, utf8Bytes } from '../../../shared/limits';
import { runImport } from '../../../electron/core/imports/run';
import { ALICE, BOB, splitProject, type SplitProject } from '../../helpers/owners';
import { tempDir } from '../../helpers/tmp';

const dir = tempDir('loupe-attach-');
let p: SplitProject;
let talk: number;
const MAX = LIMITS.attachedDocumentBytes.max;
const documentOf = (key: number) => p.core.repository().corpus.summaryInfo(key)!.document;

beforeAll(async () => {
  p = await splitProject(dir);
  // A summary whose document is missing (as TofuEval ships them), in alice's queue only.
  await runImport(p.core.repository(), {
    source: {
      type: 'upload',
      name: 'missing.csv',
      text: 'doc_id,annotation_id,topic,model_name,sent_idx,summ_sent,sent_label,exp,type\nD1,1,Budget,model_A,1,The council met on Monday to vote.,yes,,\n',
    },
    as: 'tofueval',
    dataset: 'talks',
  });
  await p.value('sampling.draw', { dataset: 'talks', n: 1, seed: 0, annotator: 'alice' });
  talk = (await p.queueOf('alice')).find((i) => i.docId === 'D1')!.key;
}, 30_000);

describe('annotation.attachDocument', () => {
  it('bounds the text at 10 MB of UTF-8, counting bytes, not characters', () => {
    expect(MAX).toBe(10_000_000);
    expect(parseApiInput('annotation.attachDocument', { key: 1, text: 'a'.repeat(MAX) }).ok).toBe(true);
    const over = parseApiInput('annotation.attachDocument', { key: 1, text: 'a'.repeat(MAX + 1) });
    expect(over).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_input',
        message: expect.stringMatching(/at most 10 MB \(10,000,000 bytes of UTF-8\)/) as unknown,
      },
    });
    // 5,000,001 characters of two bytes each: under the limit in characters, over it in bytes.
    const accents = 'é'.repeat(MAX / 2 + 1);
    expect(utf8Bytes(accents)).toBe(MAX + 2);
    expect(parseApiInput('annotation.attachDocument', { key: 1, text: accents }).ok).toBe(false);
    expect(utf8Bytes('a€😀')).toBe(1 + 3 + 4);
  });

  it('a text over the limit is refused through dispatch and attaches nothing', async () => {
    const refused = await p.call('annotation.attachDocument', { key: talk, text: 'x'.repeat(MAX + 1) }, ALICE);
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringMatching(/10 MB/) as unknown },
    });
    expect(documentOf(talk)).toBeNull();
  });

  it("refuses a link whose queue does not hold the summary (bob's link on alice's summary)", async () => {
    const refused = await p.call('annotation.attachDocument', { key: talk, text: 'Transcript: the council met.' }, BOB);
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'forbidden',
        message: expect.stringMatching(/annotator "bob"'s: summary \d+ is not in their queue/) as unknown,
      },
    });
    expect(documentOf(talk)).toBeNull();
  });

  it('lets alice attach the missing document of her own summary once; a second attach and a replace are refused', async () => {
    expect(
      await p.value('annotation.attachDocument', { key: talk, text: 'Transcript: the council met on Monday.' }, ALICE),
    ).toEqual({ attached: 1 });
    expect(documentOf(talk)).toBe('Transcript: the council met on Monday.');
    const again = await p.call('annotation.attachDocument', { key: talk, text: 'Something else.' }, ALICE);
    expect(again).toMatchObject({
      ok: false,
      error: {
        code: 'conflict',
        message: expect.stringMatching(/already has its text; only the lead replaces it/) as unknown,
      },
    });
    const replace = await p.call(
      'annotation.attachDocument',
      { key: talk, text: 'Something else.', replace: true },
      ALICE,
    );
    expect(replace).toMatchObject({
      ok: false,
      error: { code: 'forbidden', message: expect.stringMatching(/lead's link/) as unknown },
    });
    expect(documentOf(talk)).toBe('Transcript: the council met on Monday.');
  });

  it('the lead replaces a text only when asked to', async () => {
    const plain = await p.call('annotation.attachDocument', { key: talk, text: 'The lead pasted this.' });
    expect(plain).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(
      await p.value('annotation.attachDocument', { key: talk, text: 'The lead pasted this.', replace: true }),
    ).toEqual({ attached: 1 });
    expect(documentOf(talk)).toBe('The lead pasted this.');
  });
});
