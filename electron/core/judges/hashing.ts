/** Content hashes for judge versions and the answer cache (sha256, hex). */
import { createHash } from 'node:crypto';
import { versionText, type JudgeConfig } from '../../../shared/judges/config';

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The judge version: the hash of the fields that change answers (shared/judges/config.ts). */
export function configHash(config: JudgeConfig): string {
  return sha256Hex(versionText(config));
}

/**
 * The cache key of one call: the judge version (which covers the template and decoding), the
 * document and the sentence. Two units, or two judges, with the same content share it.
 */
export function cacheKey(versionHash: string, documentHash: string, sentence: string): string {
  return sha256Hex(JSON.stringify(['loupe-judge-cache-1', versionHash, documentHash, sentence]));
}
