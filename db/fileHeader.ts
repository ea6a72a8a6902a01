/**
 * The 100-byte header every SQLite database file starts with (https://sqlite.org/fileformat.html),
 * read without SQLite so that a file can be judged before any connection touches it: a
 * connection to a WAL-mode file creates -wal/-shm beside it, and switching journal mode rewrites
 * the header.
 */

export const SQLITE_HEADER_BYTES = 100;
const MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

export interface SqliteHeader {
  pageSize: number;
  /** 2 = WAL mode, 1 = rollback journal. */
  readVersion: number;
  /** Page count the header records, or null when SQLite would not trust it (older writers). */
  pageCount: number | null;
  /** Grows with every schema change: 0 = no table, index or view was ever created. */
  schemaCookie: number;
  userVersion: number;
  applicationId: number;
}

export type HeaderVerdict =
  | { kind: 'sqlite'; header: SqliteHeader }
  | { kind: 'not_sqlite' }
  /** Starts like SQLite but ends (or breaks) before a whole header or page. */
  | { kind: 'truncated'; detail: string };

/** Judges a file from its first bytes and its size. `head` holds up to the first 100 bytes. */
export function readSqliteHeader(head: Buffer, fileSize: number): HeaderVerdict {
  if (head.length < SQLITE_HEADER_BYTES) {
    const prefix = head.subarray(0, Math.min(head.length, MAGIC.length));
    return prefix.length > 0 && prefix.equals(MAGIC.subarray(0, prefix.length))
      ? { kind: 'truncated', detail: `${fileSize} bytes, shorter than the 100-byte SQLite header` }
      : { kind: 'not_sqlite' };
  }
  if (!head.subarray(0, MAGIC.length).equals(MAGIC)) return { kind: 'not_sqlite' };
  const rawPageSize = head.readUInt16BE(16);
  const pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) {
    return { kind: 'truncated', detail: `its header gives an impossible page size (${rawPageSize})` };
  }
  const changeCounter = head.readUInt32BE(24);
  const recordedPages = head.readUInt32BE(28);
  const validFor = head.readUInt32BE(92);
  const pageCount = recordedPages > 0 && changeCounter === validFor ? recordedPages : null;
  if (fileSize % pageSize !== 0) {
    return { kind: 'truncated', detail: `${fileSize} bytes is not a whole number of ${pageSize}-byte pages` };
  }
  if (pageCount !== null && fileSize < pageCount * pageSize) {
    return {
      kind: 'truncated',
      detail: `${fileSize} bytes, but its header records ${pageCount} pages of ${pageSize} bytes`,
    };
  }
  return {
    kind: 'sqlite',
    header: {
      pageSize,
      readVersion: head.readUInt8(19),
      pageCount,
      schemaCookie: head.readUInt32BE(40),
      userVersion: head.readInt32BE(60),
      applicationId: head.readInt32BE(68),
    },
  };
}
