/**
 * Batch files on the desktop: a page may not make the main process write or read a batch file at
 * a path of its choosing. judges.batchExport with a path needs a 'save' grant (no dialog gives one:
 * the page saves the file's text through dialog.saveExport), judges.batchImport with a path an
 * 'import' grant (the Import dialog or a dropped file); without a path both pass.
 */
import { describe, expect, it } from 'vitest';
import { createPathGrants, createPathGuard, requestedPaths } from '../../../electron/main/grants';

describe('batch file paths through the desktop path guard', () => {
  it('names the paths of batch calls and refuses them ungranted', async () => {
    expect(requestedPaths('judges.batchExport', { name: 'j', path: '/home/u/.bashrc' })).toEqual([
      { purpose: 'save', path: '/home/u/.bashrc' },
    ]);
    expect(requestedPaths('judges.batchExport', { name: 'j' })).toEqual([]);
    expect(requestedPaths('judges.batchImport', { name: 'j', source: { type: 'path', path: '/etc/passwd' } })).toEqual([
      { purpose: 'import', path: '/etc/passwd' },
    ]);
    expect(
      requestedPaths('judges.batchImport', { name: 'j', source: { type: 'upload', name: 'o.jsonl', text: '' } }),
    ).toEqual([]);
    const grants = createPathGrants('linux');
    const guard = createPathGuard({ grants, recentPaths: async () => [], platform: 'linux' });
    expect(await guard('judges.batchExport', { name: 'j', path: '/home/u/.bashrc' })).toMatchObject({
      code: 'forbidden',
    });
    expect(
      await guard('judges.batchImport', { name: 'j', source: { type: 'path', path: '/tmp/out.jsonl' } }),
    ).toMatchObject({ code: 'forbidden' });
    grants.grant('import', '/tmp/out.jsonl');
    expect(
      await guard('judges.batchImport', { name: 'j', source: { type: 'path', path: '/tmp/out.jsonl' } }),
    ).toBeNull();
    // An import grant does not let the page write there.
    expect(await guard('judges.batchExport', { name: 'j', path: '/tmp/out.jsonl' })).toMatchObject({
      code: 'forbidden',
    });
    expect(await guard('judges.batchExport', { name: 'j' })).toBeNull();
  });

  it("guards the accuracy tasks' batch paths the same way (save for the requests, import for the answers)", async () => {
    const run = { task: 'claim_verdict', judge: 'j' };
    expect(requestedPaths('accuracy.batchExport', { run, path: '/home/u/.bashrc' })).toEqual([
      { purpose: 'save', path: '/home/u/.bashrc' },
    ]);
    expect(requestedPaths('accuracy.batchExport', { run })).toEqual([]);
    expect(requestedPaths('accuracy.batchImport', { run, source: { type: 'path', path: '/etc/passwd' } })).toEqual([
      { purpose: 'import', path: '/etc/passwd' },
    ]);
    expect(
      requestedPaths('accuracy.batchImport', { run, source: { type: 'upload', name: 'o.jsonl', text: '' } }),
    ).toEqual([]);
    const grants = createPathGrants('linux');
    const guard = createPathGuard({ grants, recentPaths: async () => [], platform: 'linux' });
    expect(
      await guard('accuracy.batchImport', { run, source: { type: 'path', path: '/tmp/out.jsonl' } }),
    ).toMatchObject({ code: 'forbidden' });
    grants.grant('import', '/tmp/out.jsonl');
    expect(await guard('accuracy.batchImport', { run, source: { type: 'path', path: '/tmp/out.jsonl' } })).toBeNull();
    expect(await guard('accuracy.batchExport', { run, path: '/tmp/out.jsonl' })).toMatchObject({ code: 'forbidden' });
    expect(await guard('accuracy.batchExport', { run })).toBeNull();
  });
});
