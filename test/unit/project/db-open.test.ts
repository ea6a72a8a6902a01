import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../../db/migrations';
import { APPLICATION_ID, openProjectDatabase, ProjectFileError, type ProjectFileReason } from '../../../db/open';
import { Repository } from '../../../db/repository';
import { projectAtSchema } from '../../helpers/schema';
import { tempDir } from '../../helpers/tmp';

const dir = tempDir();
const REPO = join(import.meta.dirname, '..', '..', '..');
let counter = 0;
const fresh = (name: string) => join(dir, `${++counter}-${name}`);

function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** The file's hash, or what it is when it is not a file. */
function fingerprint(path: string): string | null {
  if (!existsSync(path)) return null;
  return statSync(path).isFile() ? sha256(path) : 'not a file';
}

function sidecars(path: string): string[] {
  return ['-wal', '-shm', '-journal'].filter((suffix) => existsSync(path + suffix));
}

/** Opens a file that must be refused; checks the refusal is one line naming the file, and that nothing changed. */
function expectRefusal(path: string, reason: ProjectFileReason, options = { create: false }): ProjectFileError {
  const before = fingerprint(path);
  const sidecarsBefore = sidecars(path);
  let error: unknown;
  try {
    openProjectDatabase(Database, path, options).close();
  } catch (err) {
    error = err;
  }
  expect(error).toBeInstanceOf(ProjectFileError);
  const refusal = error as ProjectFileError;
  expect({ reason: refusal.reason, message: refusal.message }).toEqual({
    reason,
    message: expect.stringContaining(path),
  });
  expect(refusal.message).not.toMatch(/[\r\n]/);
  expect(fingerprint(path)).toBe(before);
  expect(sidecars(path)).toEqual(sidecarsBefore);
  return refusal;
}

/** The bytes of a closed, checkpointed project at the current schema with some rows (several pages). */
let projectBytes: Buffer | null = null;
function realProjectBytes(): Buffer {
  if (projectBytes) return projectBytes;
  const path = fresh('template.loupe');
  const db = openProjectDatabase(Database, path, { create: true });
  const repo = new Repository(db);
  const importId = repo.recordImport({
    kind: 'summaries',
    source: 't',
    files: [],
    contentHash: 'h',
    summaries: 40,
    labels: 0,
  });
  db.transaction(() => {
    for (let i = 0; i < 40; i += 1) {
      const summary = `Summary ${i} says something. `.repeat(20).trim();
      repo.insertSummary(
        {
          dataset: 'd',
          docId: `doc${i}`,
          document: 'The document. '.repeat(200),
          summaryId: `s${i}`,
          summary,
          label: null,
          meta: {},
          units: [{ idx: 0, text: summary, start: 0, end: summary.length, fragment: false }],
          splitter: { name: 'test', version: '1' },
        },
        importId,
      );
    }
  })();
  db.close();
  expect(sidecars(path)).toEqual([]);
  projectBytes = readFileSync(path);
  return projectBytes;
}

/** A fresh copy of that project. */
function realProject(name: string): string {
  const path = fresh(name);
  writeFileSync(path, realProjectBytes());
  return path;
}

describe('project file', () => {
  it('creates a WAL database at the current schema, marked as a Loupe project', () => {
    const db = openProjectDatabase(Database, join(dir, 'new.loupe'), { create: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.pragma('application_id', { simple: true })).toBe(APPLICATION_ID);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
    db.close();
  });

  it('refuses to open a missing file unless asked to create it', () => {
    expectRefusal(join(dir, 'missing.loupe'), 'missing');
    expect(existsSync(join(dir, 'missing.loupe'))).toBe(false);
    expectRefusal(join(dir, 'no-such-folder', 'p.loupe'), 'missing', { create: true });
  });

  it('migrates an older project on a normal open', () => {
    const path = fresh('old.loupe');
    projectAtSchema(path, 1).close();
    const db = openProjectDatabase(Database, path, { create: false });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('opens a project another connection holds open (its -wal and -shm stay)', () => {
    const path = realProject('shared.loupe');
    const holder = openProjectDatabase(Database, path, { create: false });
    const db = openProjectDatabase(Database, path, { create: false });
    expect(new Repository(db).schemaVersion()).toBe(SCHEMA_VERSION);
    expect(sidecars(path)).toEqual(['-wal', '-shm']);
    db.close();
    holder.close();
  });

  it('refuses a project written by a newer Loupe in rollback-journal mode without switching it to WAL', () => {
    const path = realProject('future-delete.loupe');
    const raw = new Database(path);
    raw.pragma('journal_mode = DELETE');
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    const refusal = expectRefusal(path, 'newer_schema');
    expect(refusal.message).toMatch(/newer Loupe .*it was not changed/);
    const check = new Database(path, { readonly: true });
    expect(check.pragma('journal_mode', { simple: true })).toBe('delete');
    check.close();
  });

  it('refuses a project written by a newer Loupe in WAL mode', () => {
    const path = realProject('future-wal.loupe');
    const raw = new Database(path);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    expectRefusal(path, 'newer_schema');
  });

  it('sees a newer schema that is still only in the -wal of a connection holding the file', () => {
    const path = realProject('future-live.loupe');
    const holder = new Database(path);
    holder.pragma('wal_autocheckpoint = 0');
    holder.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    expect(sidecars(path)).toEqual(['-wal', '-shm']);
    expectRefusal(path, 'newer_schema');
    holder.close();
  });

  it('refuses an SQLite file that is not a Loupe project, in either journal mode', () => {
    for (const mode of ['DELETE', 'WAL']) {
      const path = fresh(`other-${mode}.sqlite`);
      const raw = new Database(path);
      raw.pragma(`journal_mode = ${mode}`);
      raw.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1)');
      raw.close();
      expect(expectRefusal(path, 'not_a_project').message).toMatch(/not a Loupe project/);
      expectRefusal(path, 'not_a_project', { create: true });
    }
  });

  it('refuses an SQLite database with nothing in it unless asked to create a project', () => {
    const path = fresh('blank.sqlite');
    const raw = new Database(path);
    raw.pragma('user_version = 0');
    raw.exec('VACUUM');
    raw.close();
    expectRefusal(path, 'not_a_project');
  });

  it('does not turn a zero-byte file into a project; create does', () => {
    const path = fresh('empty.loupe');
    writeFileSync(path, '');
    expect(expectRefusal(path, 'not_a_project').message).toMatch(/empty \(0 bytes\)/);
    const db = openProjectDatabase(Database, path, { create: true });
    expect(db.pragma('application_id', { simple: true })).toBe(APPLICATION_ID);
    db.close();
  });

  it('refuses bytes that are not SQLite', () => {
    const garbage = fresh('garbage.loupe');
    writeFileSync(garbage, Buffer.from(Array.from({ length: 8192 }, (_, i) => (i * 7919 + 13) % 251)));
    expect(expectRefusal(garbage, 'not_a_project').message).toMatch(/not an SQLite file/);
    const text = fresh('notes.loupe');
    writeFileSync(text, 'hello\n');
    expectRefusal(text, 'not_a_project');
    expectRefusal(dir, 'not_a_project');
  });

  it('refuses a truncated project, cut at a page boundary, inside a page, or inside the header', () => {
    const whole = realProjectBytes();
    const pageSize = whole.readUInt16BE(16);
    expect(whole.length / pageSize).toBeGreaterThan(4);
    for (const size of [pageSize * 3, pageSize * 3 + 1000, 60]) {
      const path = fresh(`cut-${size}.loupe`);
      writeFileSync(path, whole);
      truncateSync(path, size);
      expect(expectRefusal(path, 'corrupt').message).toMatch(/damaged \(truncated/);
    }
  });

  it('refuses a project whose pages are damaged (quick_check), leaving no -wal/-shm', () => {
    const path = realProject('damaged.loupe');
    const bytes = readFileSync(path);
    const pageSize = bytes.readUInt16BE(16);
    bytes.fill(0xa5, pageSize, bytes.length); // every page but the first (the schema)
    writeFileSync(path, bytes);
    expect(expectRefusal(path, 'corrupt').message).toMatch(/damaged/);
  });

  describe('read-only', () => {
    // Root may write any file whatever its mode, so the probe then runs as the user nobody, who must
    // be able to read the repository (its probe script and node_modules). A clone inside a folder
    // nobody may enter (e.g. under /root) cannot run these cases: they are skipped, and say why.
    const asRoot = process.getuid?.() === 0;
    const identity = asRoot ? { uid: 65534, gid: 65534 } : {};
    const probeScript = join(REPO, 'test', 'helpers', 'open-probe.ts');
    const probeReadable =
      !asRoot ||
      spawnSync(
        process.execPath,
        [
          '-e',
          'for (const f of process.argv.slice(1)) require("fs").accessSync(f, require("fs").constants.R_OK)',
          probeScript,
          join(REPO, 'node_modules', 'tsx', 'package.json'),
        ],
        identity,
      ).status === 0;
    if (!probeReadable)
      console.warn(
        `db-open read-only cases skipped: the user nobody cannot read ${REPO}, and root bypasses file modes`,
      );
    const area = join(dir, 'read-only');
    mkdirSync(area, { recursive: true });
    if (asRoot) chmodSync(dir, 0o755);

    function probe(path: string): { opened: boolean; reason?: string; message?: string } {
      const run = spawnSync(process.execPath, ['--import', 'tsx', probeScript, path], {
        cwd: REPO,
        encoding: 'utf8',
        env: { ...process.env, HOME: area },
        ...identity,
      });
      expect(run.stderr).toBe('');
      return JSON.parse(run.stdout) as { opened: boolean; reason?: string; message?: string };
    }

    function readOnlyCase(name: string, fileMode: number, folderMode: number): { path: string; folder: string } {
      const folder = join(area, name);
      mkdirSync(folder);
      const path = join(folder, 'p.loupe');
      const source = readFileSync(realProject(`${name}.loupe`));
      writeFileSync(path, source);
      chmodSync(path, fileMode);
      chmodSync(folder, folderMode);
      return { path, folder };
    }

    it.skipIf(!probeReadable)('refuses a read-only file with a one-line reason and leaves it as it was', () => {
      const { path } = readOnlyCase('file', 0o444, 0o777);
      const before = sha256(path);
      const outcome = probe(path);
      expect(outcome).toEqual({
        opened: false,
        reason: 'read_only',
        message: expect.stringContaining(`${path} is read-only`),
      });
      expect(outcome.message).not.toMatch(/\n/);
      expect(sha256(path)).toBe(before);
      expect(sidecars(path)).toEqual([]);
    });

    it.skipIf(!probeReadable)('refuses a file in a read-only folder (WAL needs -wal/-shm beside it)', () => {
      const { path, folder } = readOnlyCase('folder', 0o666, 0o555);
      const before = sha256(path);
      expect(probe(path)).toEqual({
        opened: false,
        reason: 'read_only',
        message: expect.stringContaining('read-only folder'),
      });
      expect(sha256(path)).toBe(before);
      expect(sidecars(path)).toEqual([]);
      chmodSync(folder, 0o755); // so the temporary folder can be removed
    });

    it.skipIf(!probeReadable)(
      'the probe opens a writable project (the refusals above are not the probe failing)',
      () => {
        const { path } = readOnlyCase('writable', 0o666, 0o777);
        expect(probe(path)).toEqual({ opened: true });
      },
    );
  });
});

describe('labels', () => {
  it('keeps every acknowledged label as an append-only history; the latest event is current', () => {
    const db = openProjectDatabase(Database, join(dir, 'labels.loupe'), { create: true });
    const repo = new Repository(db);
    const importId = repo.recordImport({
      kind: 'summaries',
      source: 't',
      files: [],
      contentHash: 'h',
      summaries: 1,
      labels: 0,
    });
    const key = repo.insertSummary(
      {
        dataset: 'd',
        docId: 'doc',
        document: 'The cat sat.',
        summaryId: 's1',
        summary: 'A cat sat. It was happy.',
        label: 1,
        meta: {},
        units: [
          { idx: 0, text: 'A cat sat.', start: 0, end: 10, fragment: true },
          { idx: 1, text: 'It was happy.', start: 11, end: 24, fragment: true },
        ],
        splitter: { name: 'test', version: '1' },
      },
      importId,
    );
    const [unit0] = repo.unitIdsBySummary('s1', 'd')[0]!.unitIds;
    const ann = repo.ensureAnnotator('ann');
    repo.recordLabel({
      unitId: unit0!,
      annotatorId: ann.id,
      phase: 'annotation',
      state: { label: 'faithful', errorType: null, note: null },
      timeSpentMs: 1200,
      cause: 'label',
    });
    repo.recordLabel({
      unitId: unit0!,
      annotatorId: ann.id,
      phase: 'annotation',
      state: { label: 'unfaithful', errorType: 'entity', note: 'name' },
      timeSpentMs: 800,
      cause: 'label',
    });
    expect(repo.currentStates(key, ann.id, 'annotation').get(unit0!)).toEqual({
      label: 'unfaithful',
      errorType: 'entity',
      note: 'name',
    });
    expect(repo.labelHistory('d').map((e) => e.label)).toEqual(['faithful', 'unfaithful']);
    // The summary the annotator sees carries no global label.
    expect(Object.keys(repo.summaryForAnnotation(key)!)).not.toContain('label');
    db.close();
  });
});
