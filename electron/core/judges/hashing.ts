/** Content hashes for judge versions and the verdict cache (sha256, hex). */
import { versionText, type JudgeConfig } from '../../../shared/judges/config';
import { contentKey, sha256Hex } from '../tasks/hashing';

export { sha256Hex };

/** The tag of every verdict content key (unchanged since the first judge runner). */
export const VERDICT_CACHE_TAG = 'loupe-judge-cache-1';

/** The judge version: the hash of the fields that change answers (shared/judges/config.ts). */
export function configHash(config: JudgeConfig): string {
  return sha256Hex(versionText(config));
}

/**
 * The cache key of one verdict: the judge version (which covers the template and decoding), the
 * document and the sentence. Two units, or two judges, with the same content share it. This is
 * the engine's content key (tasks/hashing.ts) with the verdict kind's tag and material, i.e.
 * sha256(JSON ["loupe-judge-cache-1", version hash, document hash, sentence]) as always.
 */
export function cacheKey(versionHash: string, documentHash: string, sentence: string): string {
  return contentKey(VERDICT_CACHE_TAG, versionHash, [documentHash, sentence]);
}
