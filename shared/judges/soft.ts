/**
 * The soft label of App. B.4: P("1") / (P("0") + P("1")) from the top log-probabilities at the
 * position of the JSON value. The value's token is found by walking the returned tokens and
 * rebuilding their text offsets (tokens split anywhere: `{"`, `faith`, `ful`, `":`, ` `, `1`, or
 * `": 1`, or `"faithful": 1` in one piece), so the digit may sit inside a token with a prefix.
 * Alternatives at that position count for a digit when they have the same prefix (white space
 * aside) followed by that digit and no further digit.
 */
import { z } from 'zod';
import { utf8Bytes } from '../limits';

const encoder = new TextEncoder();

export const TopLogprobSchema = z.object({
  token: z.string(),
  logprob: z.number(),
  bytes: z.array(z.number().int()).nullish(),
});

export const LogprobTokenSchema = TopLogprobSchema.extend({
  top_logprobs: z.array(TopLogprobSchema).nullish(),
});
export type LogprobToken = z.infer<typeof LogprobTokenSchema>;

export type SoftResult = { ok: true; soft: number; p0: number; p1: number } | { ok: false; error: string };

/** Byte length of a token: its `bytes` when given (partial UTF-8 sequences), else its text. */
function tokenBytes(t: { token: string; bytes?: number[] | null | undefined }): number {
  return t.bytes ? t.bytes.length : utf8Bytes(t.token);
}

/** The digit an alternative token stands for at the value position, given the chosen token's prefix. */
function digitOf(alternative: string, prefix: string): '0' | '1' | null {
  const a = alternative.replace(/^\s+/, '');
  const p = prefix.replace(/^\s+/, '');
  if (!a.startsWith(p)) return null;
  const d = a[p.length];
  if (d !== '0' && d !== '1') return null;
  const next = a[p.length + 1];
  if (next !== undefined && /[0-9.]/.test(next)) return null; // "10", "1.5": another number
  return d;
}

/**
 * @param content the answer text the tokens spell
 * @param tokens the `logprobs.content` array of the response
 * @param valueOffset where the value digit is in `content` (from parseVerdict)
 */
export function softLabel(content: string, tokens: readonly LogprobToken[], valueOffset: number): SoftResult {
  if (tokens.length === 0) return { ok: false, error: 'no log-probabilities in the answer' };
  // Offsets in UTF-8 bytes: tokens may end inside a multi-byte character.
  const target = utf8Bytes(content.slice(0, valueOffset));
  let at = 0;
  let index = -1;
  for (let i = 0; i < tokens.length; i += 1) {
    const length = tokenBytes(tokens[i]!);
    if (target >= at && target < at + length) {
      index = i;
      break;
    }
    at += length;
  }
  if (index === -1) return { ok: false, error: 'the value position is beyond the returned tokens' };
  const chosen = tokens[index]!;
  const prefixBytes = target - at;
  // Prefix as text: exact when the token is whole characters (the usual case for `":` and digits).
  const prefix = new TextDecoder().decode(encoder.encode(chosen.token).slice(0, prefixBytes));
  if (chosen.token.slice(prefix.length, prefix.length + 1) !== content[valueOffset]) {
    return {
      ok: false,
      error: `the tokens do not spell the answer at the value position (token ${JSON.stringify(chosen.token)})`,
    };
  }
  const alternatives = [...(chosen.top_logprobs ?? [])];
  if (!alternatives.some((a) => a.token === chosen.token))
    alternatives.push({ token: chosen.token, logprob: chosen.logprob });
  let p0 = 0;
  let p1 = 0;
  const seen = new Set<string>();
  for (const alt of alternatives) {
    if (seen.has(alt.token)) continue;
    seen.add(alt.token);
    const digit = digitOf(alt.token, prefix);
    if (digit === '0') p0 += Math.exp(alt.logprob);
    else if (digit === '1') p1 += Math.exp(alt.logprob);
  }
  if (!(p0 + p1 > 0))
    return { ok: false, error: 'neither "0" nor "1" among the top log-probabilities at the value position' };
  return { ok: true, soft: p1 / (p0 + p1), p0, p1 };
}
