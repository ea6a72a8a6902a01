/**
 * The benchmark samples the tests read: byte-for-byte copies kept in the repository
 * (test/fixtures/benchmarks, sources and licences in its README.md), so a fresh clone needs
 * nothing beside it.
 */
import { join } from 'node:path';

export const BENCHMARKS = join(import.meta.dirname, '..', 'fixtures', 'benchmarks');

/** A path inside the samples, e.g. benchmark('frank', 'articles-json'). */
export function benchmark(...parts: string[]): string {
  return join(BENCHMARKS, ...parts);
}
