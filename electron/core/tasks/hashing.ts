/** Content hashes for the task engine's cache (sha256, hex). */
import { createHash } from 'node:crypto';
import type { JsonValue } from '../../../shared/judges/config';

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * The content key of one call: sha256 of the canonical JSON of [the kind's cache tag, the config
 * hash (which covers the model configuration and the template), the input's key material]. Two
 * items, or two configurations with the same hash, with the same content share it.
 */
export function contentKey(cacheTag: string, configHash: string, material: readonly JsonValue[]): string {
  return sha256Hex(JSON.stringify([cacheTag, configHash, ...material]));
}
