/**
 * `loupe proposals` as a child process: alice's link proposed new key facts (recorded through the
 * core as `loupe serve` would), the lead lists it with its diff, accepts it (version 2), and a
 * second proposal is declined with a note; a decided one cannot be accepted (exit 1, the contract's
 * message), and a malformed id is a usage error (exit 2).
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../electron/core/index';
import { dispatch } from '../../electron/core/dispatch';
import type { Caller, Proposal } from '../../shared/api';
import { loupe, mustLoupe, newsRows, writeJsonl } from '../helpers/project';
import { tempDir } from '../helpers/tmp';

const dir = tempDir('loupe-proposals-cli-');
const env = { LOUPE_STATE_DIR: dir };
const P = join(dir, 'team.loupe');
const alice: Caller = { role: 'annotator', annotator: 'alice' };

beforeAll(async () => {
  mustLoupe(['import', writeJsonl(join(dir, 'news.jsonl'), newsRows(1)), '--project', P], env);
  mustLoupe(['sample', '--project', P, '--dataset', 'news', '--n', '1', '--seed', '0'], env);
  const core = createCore({
    Database,
    stateDir: dir,
    demoDir: dir,
    host: 'web',
    fileDialogs: false,
    diskPaths: false,
    canSwitchProjects: false,
  });
  core.openProject(P);
  const documentKey = core.repository().corpus.documentKey('news', 'doc-0')!;
  const call = async (method: string, input: unknown, caller?: Caller) => {
    const r = await dispatch(core.handlers, method, input, caller);
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  };
  await call('keyfacts.edit', {
    documentKey,
    annotator: 'lead',
    basedOnVersion: null,
    facts: [{ text: 'A budget was approved.' }],
  });
  await call(
    'keyfacts.edit',
    {
      documentKey,
      annotator: 'alice',
      basedOnVersion: 1,
      facts: [{ text: 'A budget was approved on Tuesday.' }],
      note: 'The day matters.',
    },
    alice,
  );
  await call(
    'keyfacts.edit',
    { documentKey, annotator: 'alice', basedOnVersion: 1, facts: [{ text: 'Something else.' }] },
    alice,
  );
  core.close();
}, 60_000);

describe('loupe proposals', () => {
  it('lists pending proposals with author, target, base version and diff', () => {
    const out = mustLoupe(['proposals', 'list', '--project', P, '--status', 'pending'], env);
    expect(out).toContain(
      'proposal 1\talice\tkey facts of document doc-0 (news)\ton version 1\tpending\n  note: The day matters.\n  - A budget was approved.\n  + A budget was approved on Tuesday.\n',
    );
    const json = JSON.parse(mustLoupe(['proposals', 'list', '--project', P, '--json'], env)) as Proposal[];
    expect(json.map((p) => [p.id, p.status])).toEqual([
      [2, 'pending'],
      [1, 'pending'],
    ]);
  });

  it('accepts one (a new version), declines the other, and refuses deciding twice', () => {
    expect(mustLoupe(['proposals', 'accept', '1', '--project', P], env)).toMatch(
      /^proposal 1\talice\t.*\taccepted as version 2\n/,
    );
    expect(mustLoupe(['proposals', 'decline', '2', '--project', P, '--note', 'Not in the document.'], env)).toMatch(
      /^proposal 2\talice\t.*\tdeclined: Not in the document\.\n/,
    );
    const again = loupe(['proposals', 'accept', '2', '--project', P], env);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('Proposal 2 was already declined.');
    expect(loupe(['proposals', 'accept', 'two', '--project', P], env).status).toBe(2);
    const json = JSON.parse(
      mustLoupe(['proposals', 'list', '--project', P, '--author', 'alice', '--json'], env),
    ) as Proposal[];
    expect(json.map((p) => [p.id, p.status, p.resultVersion])).toEqual([
      [2, 'declined', null],
      [1, 'accepted', 2],
    ]);
  });
});
