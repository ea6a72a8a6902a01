/**
 * `loupe claims list` and `loupe keyfacts list` as child processes: one page and the cursor to the
 * next (on stderr), --all walking every page to the same rows as one big page, --json (a page's
 * document; with --all one object a line), --search and --state in the contract's SQL, and the
 * refusals: a bound beyond the contract's (exit 1, naming the field), --cursor with --all and a
 * non-number --limit (exit 2).
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClaimListEntry } from '../../shared/api';
import { loupe, mustLoupe, newsRows, writeJsonl } from '../helpers/project';
import { tempDir } from '../helpers/tmp';

const dir = tempDir('loupe-set-lists-cli-');
const env = { LOUPE_STATE_DIR: dir };
const P = join(dir, 'lists.loupe');
const lines = (text: string) => text.split('\n').filter((l) => l !== '');

beforeAll(() => {
  mustLoupe(['import', writeJsonl(join(dir, 'news.jsonl'), newsRows(5)), '--project', P], env);
}, 60_000);

describe('loupe claims list and keyfacts list', () => {
  it('prints a page and the cursor of the next; --all walks every page to the whole list', () => {
    const first = loupe(['claims', 'list', '--project', P, '--limit', '2'], env);
    expect(first.status).toBe(0);
    expect(lines(first.stdout).map((l) => l.split('\t')[2])).toEqual(['sum-000', 'sum-001']);
    expect(lines(first.stdout)[0]).toMatch(/^\d+\tnews\tsum-000\tdoc-0\t-\t3 sentences\tnone yet$/);
    const cursor = /^2 of 5; next page: --cursor (\d+)\n$/.exec(first.stderr)?.[1];
    expect(cursor).toBeDefined();
    const second = loupe(['claims', 'list', '--project', P, '--limit', '2', '--cursor', cursor!], env);
    expect(lines(second.stdout).map((l) => l.split('\t')[2])).toEqual(['sum-002', 'sum-003']);

    const whole = loupe(['claims', 'list', '--project', P, '--limit', '5000'], env);
    expect(whole.stderr).toBe('5 of 5\n');
    const walked = loupe(['claims', 'list', '--project', P, '--limit', '2', '--all'], env);
    expect(walked.stdout).toBe(whole.stdout);
    expect(walked.stderr).toBe('5 of 5\n');
    expect(lines(mustLoupe(['keyfacts', 'list', '--project', P, '--all', '--limit', '1'], env))).toEqual(
      Array.from({ length: 5 }, (_, i) =>
        expect.stringMatching(new RegExp(`^\\d+\\tnews\\tdoc-${i}\\t1 summaries\\tnone yet$`)),
      ),
    );
  });

  it('--json prints the page, or with --all one entry a line; --search and --state filter in the contract', () => {
    const page = JSON.parse(mustLoupe(['claims', 'list', '--project', P, '--json', '--limit', '3'], env)) as {
      items: ClaimListEntry[];
      nextCursor: string | null;
      total: number;
    };
    expect(page).toMatchObject({ total: 5, nextCursor: String(page.items[2]!.key) });
    const all = lines(mustLoupe(['claims', 'list', '--project', P, '--json', '--all', '--limit', '2'], env)).map(
      (l) => JSON.parse(l) as ClaimListEntry,
    );
    expect(all.map((e) => e.summaryId)).toEqual(['sum-000', 'sum-001', 'sum-002', 'sum-003', 'sum-004']);
    expect(all.slice(0, 3)).toEqual(page.items);
    expect(lines(mustLoupe(['claims', 'list', '--project', P, '--search', 'SUM-003'], env)).length).toBe(1);
    const none = loupe(['claims', 'list', '--project', P, '--state', 'with'], env);
    expect(none).toMatchObject({ status: 0, stdout: '', stderr: '0 of 0\n' });
  });

  it('refuses what the contract refuses (exit 1) and what the command line cannot mean (exit 2)', () => {
    const tooMany = loupe(['claims', 'list', '--project', P, '--limit', '5001'], env);
    expect(tooMany.status).toBe(1);
    expect(tooMany.stderr).toContain('limit');
    const state = loupe(['keyfacts', 'list', '--project', P, '--state', 'some'], env);
    expect(state.status).toBe(1);
    expect(state.stderr).toContain('state');
    const both = loupe(['claims', 'list', '--project', P, '--cursor', '3', '--all'], env);
    expect(both.status).toBe(2);
    expect(both.stderr).toContain('--cursor');
    expect(loupe(['claims', 'list', '--project', P, '--limit', 'many'], env).status).toBe(2);
  });
});
