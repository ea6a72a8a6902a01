/**
 * What every version of a versioned set records about where it came from, the same for claim
 * sets, key-fact sets (schema 8) and scaffolds (schema 9): who made it (`task:<kind>@<config
 * hash>`, `import:<file>`, `person:<name>`, or what a file names) and the version it was based on.
 */
import type { SetSource } from '../shared/accuracy/domain';

/** A stored version, as read. */
export interface VersionRow {
  id: number;
  version: number;
  source: SetSource;
  maker: string;
  makerVersion: string;
  basedOnId: number | null;
  /** The person who made it (name), if one did. */
  createdBy: string | null;
  createdAt: string;
  note: string | null;
}

/** A version to write (its number is the owner's next). */
export interface NewVersion {
  source: SetSource;
  maker: string;
  makerVersion: string;
  basedOnId: number | null;
  /** The person who made it (annotator id), if one did. */
  createdBy: number | null;
  note: string | null;
  importKey: string | null;
  importId: number | null;
}
