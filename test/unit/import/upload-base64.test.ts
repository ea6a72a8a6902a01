/** The page's upload encoder (renderer/state/imports.ts): chunked base64 equals the whole file's base64. */
import { describe, expect, it } from 'vitest';
import { bytesToBase64 } from '../../../renderer/state/imports';

describe('bytesToBase64', () => {
  it('matches Buffer base64 across chunk boundaries and for every byte value', () => {
    for (const size of [0, 1, 2, 3, 49_151, 49_152, 49_153, 200_003]) {
      const bytes = Uint8Array.from({ length: size }, (_, i) => (i * 7919 + (i >> 8)) & 0xff);
      expect(bytesToBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
    }
  });

  it('encodes 8 MB without overflowing the stack', () => {
    const bytes = new Uint8Array(8 * 1024 * 1024).fill(0xe9);
    expect(bytesToBase64(bytes).length).toBe(Math.ceil(bytes.length / 3) * 4);
  });
});
